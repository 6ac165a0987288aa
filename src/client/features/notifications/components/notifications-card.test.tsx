import type { NotificationPreferences } from '@shared/schemas/notifications';
import { screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, test } from 'vitest';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { NotificationsCard } from './notifications-card';

const DEFAULTS: NotificationPreferences = {
  channels: {
    'offer-new': 'both',
    'offer-ended': 'both',
    'booking-changed': 'push',
    'availability-reminder': 'both',
    'safeguarding-expiring': 'both',
  },
  quietHours: null,
};

/** The preferences as the server keeps them: GET reads, PUT replaces and answers what it saved. */
function preferencesServer() {
  let saved = DEFAULTS;
  const puts: unknown[] = [];
  server.use(
    http.get('/api/notifications/preferences', () =>
      HttpResponse.json({ ...saved, timeZone: 'Europe/London' }),
    ),
    http.put('/api/notifications/preferences', async ({ request }) => {
      const body = (await request.json()) as NotificationPreferences;
      puts.push(body);
      saved = body;
      return HttpResponse.json({ ...saved, timeZone: 'Europe/London' });
    }),
  );
  return puts;
}

const userAgent = navigator.userAgent;
afterEach(() => {
  Object.defineProperty(navigator, 'userAgent', { value: userAgent, configurable: true });
});

describe('NotificationsCard', () => {
  test('saves a channel per kind and quiet hours, checking the hours with the shared rules', async () => {
    const puts = preferencesServer();
    const { user } = renderWithApp(<NotificationsCard />);

    const offers = await screen.findByLabelText('A new offer of a session');
    expect(offers).toHaveValue('both');
    await user.selectOptions(offers, 'push');
    await user.selectOptions(
      screen.getByLabelText('A booking added, moved or cancelled on your calendar'),
      'none',
    );
    await user.click(screen.getByLabelText('Hold push notifications during quiet hours'));
    const from = screen.getByLabelText('From');
    const until = screen.getByLabelText('Until');
    await user.clear(until);
    await user.type(until, '22:00');
    expect(from).toHaveValue('22:00');
    await user.click(screen.getByRole('button', { name: 'Save notification settings' }));
    expect(await screen.findByText('Quiet hours must end at another time than they start')).toBeVisible();
    expect(puts).toEqual([]);

    await user.clear(until);
    await user.type(until, '06:30');
    await user.click(screen.getByRole('button', { name: 'Save notification settings' }));
    expect(await screen.findByText('Notification settings saved')).toBeVisible();
    expect(puts).toEqual([
      {
        channels: { ...DEFAULTS.channels, 'offer-new': 'push', 'booking-changed': 'none' },
        quietHours: { start: '22:00', end: '06:30' },
      },
    ]);
    expect(screen.getByText(/Times are in Europe\/London time/)).toBeVisible();
  });

  test('shows a refusal from the server under the form', async () => {
    preferencesServer();
    server.use(
      http.put('/api/notifications/preferences', () =>
        HttpResponse.json({ message: 'Too many changes; try again in a minute' }, { status: 429 }),
      ),
    );
    const { user } = renderWithApp(<NotificationsCard />);
    await screen.findByLabelText('A new offer of a session');
    await user.click(screen.getByRole('button', { name: 'Save notification settings' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many changes; try again in a minute');
  });

  test('on an iPhone outside the Home Screen, says push needs the portal added to it', async () => {
    Object.defineProperty(navigator, 'userAgent', {
      value:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Mobile/15E148 Safari/604.1',
      configurable: true,
    });
    preferencesServer();
    renderWithApp(<NotificationsCard />);
    expect(await screen.findByTestId('ios-home-screen-note')).toHaveTextContent(
      'notifications work only in the portal added to the Home Screen',
    );
    expect(screen.queryByRole('button', { name: 'Turn on notifications on this device' })).toBeNull();
  });

  test('in a browser without push, says so and offers no button', async () => {
    preferencesServer();
    renderWithApp(<NotificationsCard />);
    expect(await screen.findByText('This browser cannot show notifications from the portal.')).toBeVisible();
  });
});
