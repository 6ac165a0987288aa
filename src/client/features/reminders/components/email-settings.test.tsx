import type { ReminderSettingsResponse } from '@shared/schemas/reminders';
import { act, screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { useReminderSettings } from '../api/reminders-api';
import { EmailSettings } from './email-settings';

const stored: ReminderSettingsResponse = {
  host: 'smtp.example.org',
  port: 587,
  security: 'starttls',
  username: 'portal',
  hasPassword: true,
  fromAddress: 'portal@example.org',
  portalUrl: 'https://portal.example.org',
  autoEnabled: false,
  autoDay: 25,
  autoMonth: 'next',
  configured: true,
  nextAutomatic: null,
  passwordCleared: false,
};

/** The stored email settings, and a save answering `answer`; returns the bodies sent. */
function emailApi(answer: ReminderSettingsResponse) {
  const bodies: unknown[] = [];
  server.use(
    http.get('/api/staff/reminders/settings', () => HttpResponse.json(stored)),
    http.put('/api/staff/reminders/settings', async ({ request }) => {
      bodies.push(await request.json());
      return HttpResponse.json(answer);
    }),
  );
  return bodies;
}

const field = (label: string) => screen.getByLabelText(label, { exact: true });

describe('EmailSettings', () => {
  test('a server that is not a host name is named at its field, and nothing is sent', async () => {
    const bodies = emailApi(stored);
    const { user } = renderWithApp(<EmailSettings />);
    const host = await screen.findByLabelText('SMTP server', { exact: true });
    await user.clear(host);
    await user.type(host, 'not a host');
    await user.click(screen.getByRole('button', { name: 'Save email settings' }));
    expect(await screen.findByText('Enter a host name such as smtp.example.org')).toBeVisible();
    expect(host).toHaveAttribute('aria-invalid', 'true');
    expect(bodies).toEqual([]);
  });

  test('a save shows what the server stored: the password blank, cleared or kept, and the next reminder', async () => {
    const bodies = emailApi({
      ...stored,
      host: 'mail.example.org',
      hasPassword: false,
      passwordCleared: true,
      autoEnabled: true,
      nextAutomatic: { date: '2026-12-28', month: '2027-01', label: 'January 2027' },
    });
    const { user } = renderWithApp(<EmailSettings />);
    const host = await screen.findByLabelText('SMTP server', { exact: true });
    expect(screen.getByText('An SMTP password is stored. Leave blank to keep it.')).toBeVisible();
    expect(field('SMTP password')).toHaveAttribute('placeholder', 'Leave blank to keep current');
    expect(screen.getByTestId('next-automatic')).toHaveTextContent('The automatic reminder is off.');
    // the link in every reminder is the operator's PUBLIC_URL, shown, not typed
    expect(screen.getByTestId('portal-address')).toHaveTextContent('https://portal.example.org');
    expect(screen.queryByRole('textbox', { name: 'Portal address' })).toBeNull();

    await user.clear(host);
    await user.type(host, 'mail.example.org');
    await user.click(screen.getByRole('checkbox', { name: 'Send a reminder automatically every month' }));
    await user.click(screen.getByRole('button', { name: 'Save email settings' }));

    expect(await screen.findByText('Email settings saved')).toBeVisible();
    expect(bodies).toEqual([
      {
        host: 'mail.example.org',
        port: 587,
        security: 'starttls',
        username: 'portal',
        password: '',
        fromAddress: 'portal@example.org',
        autoEnabled: true,
        autoDay: 25,
        autoMonth: 'next',
      },
    ]);
    const note = screen.getByTestId('password-cleared');
    expect(note).toHaveTextContent('The password was cleared because the server changed: enter it again.');
    await waitFor(() => expect(screen.getByText('No SMTP password is stored.')).toBeVisible());
    expect(field('SMTP password')).toHaveValue('');
    expect(field('SMTP password')).not.toHaveAttribute('placeholder');
    expect(screen.getByTestId('next-automatic')).toHaveTextContent(
      'Next automatic reminder: Monday, 28 December 2026, about January 2027.',
    );
  });

  test('a save that kept the password says reminders will use the settings, and no note', async () => {
    emailApi(stored);
    const { user } = renderWithApp(<EmailSettings />);
    await user.type(await screen.findByLabelText('SMTP password', { exact: true }), 'the-smtp-password');
    await user.click(screen.getByRole('button', { name: 'Save email settings' }));
    expect(await screen.findByText('Reminders will use these settings.')).toBeVisible();
    expect(field('SMTP password')).toHaveValue('');
    expect(screen.getByText('An SMTP password is stored. Leave blank to keep it.')).toBeVisible();
    expect(screen.queryByTestId('password-cleared')).toBeNull();
  });

  test('a later read that fails (the connection back after a drop) leaves the form and what was typed', async () => {
    emailApi(stored);
    const { user, queryClient } = renderWithApp(
      <>
        <EmailSettings />
        <ReadState />
      </>,
    );
    const host = await screen.findByLabelText('SMTP server', { exact: true });
    await user.clear(host);
    await user.type(host, 'mail.example.org');

    server.use(http.get('/api/staff/reminders/settings', () => HttpResponse.error()));
    await act(() => queryClient.invalidateQueries());
    // drawn in the same pass as the form's component, which then had the failed read too
    expect(await screen.findByText('The settings read again failed')).toBeVisible();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(field('SMTP server')).toHaveValue('mail.example.org');
  });
});

/** Says when the settings' latest read failed. */
function ReadState() {
  const settings = useReminderSettings();
  return settings.isError ? <p>The settings read again failed</p> : null;
}
