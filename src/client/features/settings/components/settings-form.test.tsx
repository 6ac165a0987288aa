import type { SettingsResponse } from '@shared/schemas/settings';
import { screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { SettingsForm } from './settings-form';

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

/** Counts what is sent to the SharePoint routes; a save answers as `answer` says. */
function settingsApi(answer: () => Response) {
  const sent: string[] = [];
  const count = (name: string, reply: () => Response) => () => {
    sent.push(name);
    return reply();
  };
  server.use(
    http.post('/api/sharepoint/settings', count('save', answer)),
    http.post(
      '/api/sharepoint/test-connection-with-credentials',
      count('test', () => HttpResponse.json({ success: true, message: 'ok' })),
    ),
    http.post(
      '/api/sharepoint/columns',
      count('columns', () => HttpResponse.json({})),
    ),
  );
  return sent;
}

const field = (label: string) => screen.getByLabelText(label, { exact: true });

describe('SettingsForm', () => {
  test('the rules show under their fields, Test Connection checks them first, and nothing is sent', async () => {
    const sent = settingsApi(() => HttpResponse.json(saved));
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
    const sent = settingsApi(() => HttpResponse.error());
    const { user } = renderWithApp(<SettingsForm saved={saved} />);
    await user.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(await screen.findByText('Failed to save settings. Please try again.')).toBeVisible();
    expect(screen.getByText('Error')).toBeVisible();
    expect(sent).toEqual(['save']);
  });
});
