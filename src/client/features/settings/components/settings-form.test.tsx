import type { SchedulerStatus } from '@shared/schemas/scheduler';
import type { SettingsResponse, TestConnectionResult } from '@shared/schemas/settings';
import { act, screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { renderWithApp } from '@/test/render';
import { aSchedulerStatus } from '@/test/scheduler';
import { server } from '@/test/server';
import { useSharePointSettings } from '../api/settings-api';
import { SettingsForm } from './settings-form';
import { SharePointSettings } from './sharepoint-settings';

const saved: SettingsResponse = {
  siteUrl: 'https://example.sharepoint.com/sites/arts',
  availabilityListName: 'Availability',
  bookingsListName: 'Bookings',
  facilitatorListName: 'Facilitators',
  schoolsListName: 'Schools',
  tenantId: '11111111-2222-3333-4444-555555555555',
  clientId: '66666666-7777-8888-9999-000000000000',
  username: 'portal@example.org',
  // a password and a client secret are stored, no certificate; this answer cleared nothing
  hasPassword: true,
  passwordCleared: false,
  hasClientSecret: true,
  clientSecretCleared: false,
  hasClientCertificate: false,
  clientCertificateCleared: false,
  clientCertificate: null,
  columnMapping: {},
};

/**
 * Counts what is sent to the SharePoint routes and keeps the bodies; a save answers as `answer` says,
 * a connection test as `tested` says (a success unless given).
 */
function settingsApi(
  answer: () => Response,
  tested: () => Response | Promise<Response> = () => HttpResponse.json(connected),
) {
  const sent: string[] = [];
  const bodies: Record<string, unknown>[] = [];
  const count =
    (name: string, reply: () => Response | Promise<Response>) =>
    async ({ request }: { request: Request }) => {
      sent.push(name);
      bodies.push((await request.json()) as Record<string, unknown>);
      return reply();
    };
  server.use(
    http.post('/api/sharepoint/settings', count('save', answer)),
    http.post('/api/sharepoint/test-connection-with-credentials', count('test', tested)),
    http.post(
      '/api/sharepoint/columns',
      count('columns', () => HttpResponse.json({})),
    ),
  );
  return { sent, bodies };
}

const connected: TestConnectionResult = { success: true, message: 'Connection to SharePoint successful!' };

/** The whole settings body as the page shows it: the stored settings read, nothing failing. */
function renderPage(stored: SettingsResponse) {
  const problems: SchedulerStatus = aSchedulerStatus();
  server.use(
    http.get('/api/sharepoint/settings', () => HttpResponse.json(stored)),
    http.get('/api/admin/scheduler/status', () => HttpResponse.json(problems)),
  );
  return renderWithApp(<SharePointSettings backLink={null} />);
}

/** The one toast shown (the queue holds one at a time), once it is there. */
const shownToast = () =>
  waitFor(() => {
    const shown = document.querySelector<HTMLElement>('[data-slot="toast"]');
    expect(shown).not.toBeNull();
    return shown as HTMLElement;
  });

const field = (label: string) => screen.getByLabelText(label, { exact: true });

describe('SettingsForm', () => {
  test('the rules show under their fields, Test Connection checks them first, and nothing is sent', async () => {
    const { sent } = settingsApi(() => HttpResponse.json(saved));
    const { user } = renderWithApp(<SettingsForm saved={saved} />);

    await user.clear(field('SharePoint Site URL'));
    await user.type(field('SharePoint Site URL'), 'not a url');
    await user.clear(field('Availability List Name'));
    await user.clear(field('Bookings List Name'));
    await user.type(field('Bookings List Name'), '   ');
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('Please enter a valid SharePoint site URL')).toBeVisible();
    expect(screen.getByText('Availability list name is required')).toBeVisible();
    expect(screen.getByText('Bookings list name is required')).toBeVisible();
    expect(field('SharePoint Site URL')).toHaveAttribute('aria-invalid', 'true');

    await user.click(screen.getByRole('button', { name: 'Test Connection' }));
    expect(screen.getByTestId('connection-status')).toHaveAttribute('data-state', 'idle');

    // fixing a field clears its message
    await user.clear(field('SharePoint Site URL'));
    await user.type(field('SharePoint Site URL'), saved.siteUrl);
    expect(screen.queryByText('Please enter a valid SharePoint site URL')).toBeNull();
    expect(sent).toEqual([]);
  });

  test('a save that never reaches the server shows "Error" and the fallback message', async () => {
    const { sent } = settingsApi(() => HttpResponse.error());
    const { user } = renderWithApp(<SettingsForm saved={saved} />);
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('Failed to save settings. Please try again.')).toBeVisible();
    expect(screen.getByText('Error')).toBeVisible();
    expect(sent).toEqual(['save']);
  });
  test('Test Connection: idle until asked, "Testing..." with both buttons held, then the answer with tips', async () => {
    let answer: () => void = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const { sent, bodies } = settingsApi(
      () => HttpResponse.json(saved),
      async () => {
        await answered;
        return HttpResponse.json({
          success: false,
          message: 'Could not sign in to Microsoft with these settings: check the client secret.',
        } satisfies TestConnectionResult);
      },
    );
    const { user } = renderWithApp(<SettingsForm saved={saved} />);
    const status = screen.getByTestId('connection-status');
    expect(status).toHaveAttribute('data-state', 'idle');
    expect(status).toHaveTextContent('Connection not tested yet');

    await user.type(field('Client Secret'), 'typed-secret');
    await user.click(screen.getByRole('button', { name: 'Test Connection' }));
    expect(await screen.findByRole('button', { name: 'Testing...' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Save Settings' })).toBeDisabled();
    expect(status).toHaveAttribute('data-state', 'testing');
    expect(status).toHaveTextContent('Testing connection to SharePoint...');
    // the settings as typed are tested, the secret with them
    await waitFor(() => expect(sent).toEqual(['test']));
    expect(bodies[0]).toMatchObject({ siteUrl: saved.siteUrl, clientSecret: 'typed-secret' });

    answer();
    await waitFor(() => expect(status).toHaveAttribute('data-state', 'error'));
    expect(status).toHaveTextContent('Connection Error');
    expect(status).toHaveTextContent(
      'Could not sign in to Microsoft with these settings: check the client secret.',
    );
    expect(status).toHaveTextContent('Troubleshooting tips');
    expect(screen.getByRole('button', { name: 'Test Connection' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Save Settings' })).toBeEnabled();
  });

  test('a connection test that never reaches the server says "Failed to connect to SharePoint."', async () => {
    settingsApi(
      () => HttpResponse.json(saved),
      () => HttpResponse.error(),
    );
    const { user } = renderWithApp(<SettingsForm saved={saved} />);
    await user.click(screen.getByRole('button', { name: 'Test Connection' }));
    const status = screen.getByTestId('connection-status');
    await waitFor(() => expect(status).toHaveAttribute('data-state', 'error'));
    expect(status).toHaveTextContent('Failed to connect to SharePoint.');
  });

  test('a save tests what it saved, toasts success, and shows the secrets blank with the stored hints', async () => {
    const nothingStored: SettingsResponse = { ...saved, hasPassword: false, hasClientSecret: false };
    const { sent, bodies } = settingsApi(() => HttpResponse.json(saved));
    const { user } = renderPage(nothingStored);
    await user.type(await screen.findByLabelText('Password', { exact: true }), 'the-password');
    expect(screen.getByText('No password is stored.')).toBeVisible();
    expect(screen.getByText('No client secret is stored.')).toBeVisible();
    expect(field('Password')).not.toHaveAttribute('placeholder');
    expect(screen.getByText(/Used for authentication/)).toBeVisible();
    expect(
      screen.getByText(/Username and password sign-in does not work for accounts with multi-factor/),
    ).toBeVisible();
    await user.type(field('Client Secret'), 'the-client-secret');
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));

    const shown = await shownToast();
    expect(shown).toHaveTextContent('Settings saved');
    expect(shown).toHaveTextContent('Your SharePoint settings have been saved successfully.');
    expect(sent).toEqual(['save', 'test']);
    expect(bodies[0]).toMatchObject({ password: 'the-password', clientSecret: 'the-client-secret' });
    // what was saved is tested at once, as it was sent
    expect(bodies[1]).toEqual(bodies[0]);
    expect(screen.getByTestId('connection-status')).toHaveAttribute('data-state', 'success');

    // the page shows the stored settings the save answered with
    expect(await screen.findByText('A password is stored. Leave blank to keep it.')).toBeVisible();
    expect(screen.getByText('A client secret is stored. Leave blank to keep it.')).toBeVisible();
    expect(field('Password')).toHaveValue('');
    expect(field('Client Secret')).toHaveValue('');
    expect(field('Password')).toHaveAttribute('placeholder', 'Leave blank to keep current');
    expect(field('Client Secret')).toHaveAttribute('placeholder', 'Leave blank to keep current');
  });

  test('saved settings that fail their test say so in the toast, with the reason, not only "Settings saved"', async () => {
    const reason = 'Availability list "Availability": The site\'s lists could not be read.';
    settingsApi(
      () => HttpResponse.json(saved),
      () => HttpResponse.json({ success: false, message: reason } satisfies TestConnectionResult),
    );
    const { user } = renderPage(saved);
    await user.click(await screen.findByRole('button', { name: 'Save Settings' }));

    const shown = await shownToast();
    expect(shown).toHaveTextContent('Settings saved, but the connection test failed');
    expect(shown).toHaveTextContent(reason);
    expect(shown).not.toHaveTextContent('have been saved successfully');
    const status = screen.getByTestId('connection-status');
    expect(status).toHaveAttribute('data-state', 'error');
    expect(status).toHaveTextContent(reason);
  });

  test('a later read that fails (the connection back after a drop) leaves the form and what was typed', async () => {
    const problems: SchedulerStatus = aSchedulerStatus();
    server.use(
      http.get('/api/sharepoint/settings', () => HttpResponse.json(saved)),
      http.get('/api/admin/scheduler/status', () => HttpResponse.json(problems)),
    );
    const { user, queryClient } = renderWithApp(
      <>
        <SharePointSettings backLink={null} />
        <ReadState />
      </>,
    );
    const site = await screen.findByLabelText('SharePoint Site URL', { exact: true });
    await user.clear(site);
    await user.type(site, 'https://contoso.sharepoint.com/sites/Other');

    server.use(http.get('/api/sharepoint/settings', () => HttpResponse.error()));
    await act(() => queryClient.invalidateQueries());
    // drawn in the same pass as the settings, which then had the failed read too
    expect(await screen.findByText('The settings read again failed')).toBeVisible();
    expect(screen.queryByTestId('settings-unavailable')).toBeNull();
    expect(field('SharePoint Site URL')).toHaveValue('https://contoso.sharepoint.com/sites/Other');
  });
});

/** Says when the settings' latest read failed. */
function ReadState() {
  const settings = useSharePointSettings();
  return settings.isError ? <p>The settings read again failed</p> : null;
}
