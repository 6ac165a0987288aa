import type { CalendarFeedStatus } from '@shared/schemas/calendar-feed';
import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { CalendarFeedCard } from './calendar-feed-card';

const OFF: CalendarFeedStatus = { enabled: false, path: null, createdAt: null };
const on = (token: string): CalendarFeedStatus => ({
  enabled: true,
  path: `/api/calendar-feed/${token}.ics`,
  createdAt: '2026-01-05T10:00:00.000Z',
});

/** The feed as the server keeps it: GET reads it, POST turns it on, rotate replaces it, DELETE ends it. */
function feedServer(start: CalendarFeedStatus) {
  let feed = start;
  let tokens = 0;
  const newLink = () => {
    feed = on(`token-${++tokens}`);
    return HttpResponse.json(feed);
  };
  server.use(
    http.get('/api/calendar-feed', () => HttpResponse.json(feed)),
    http.post('/api/calendar-feed', newLink),
    http.post('/api/calendar-feed/rotate', newLink),
    http.delete('/api/calendar-feed', () => {
      feed = OFF;
      return new HttpResponse(null, { status: 204 });
    }),
  );
}

describe('CalendarFeedCard', () => {
  test('turns the feed on, copies the link, gets a new link after confirming, and turns it off', async () => {
    feedServer(OFF);
    const { user } = renderWithApp(<CalendarFeedCard />);

    expect(await screen.findByText('Your calendar feed is off.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Turn on calendar feed' }));
    const link = await screen.findByRole('textbox', { name: 'Your calendar feed link' });
    expect(link).toHaveValue(`${window.location.origin}/api/calendar-feed/token-1.ics`);
    expect(await screen.findByText('Calendar feed turned on')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Open in Apple Calendar' })).toHaveAttribute(
      'href',
      `webcal://${window.location.host}/api/calendar-feed/token-1.ics`,
    );

    await user.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(await screen.findByText('Link copied. Paste it into your calendar app.')).toBeVisible();
    expect(await navigator.clipboard.readText()).toBe(
      `${window.location.origin}/api/calendar-feed/token-1.ics`,
    );

    // a new link is confirmed first; cancelling keeps the old one
    await user.click(screen.getByRole('button', { name: 'Get a new link' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Get a new link?' });
    expect(dialog).toHaveTextContent('The current link stops working at once.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(link).toHaveValue(`${window.location.origin}/api/calendar-feed/token-1.ics`);

    await user.click(screen.getByRole('button', { name: 'Get a new link' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Get a new link?' });
    await user.click(within(dialog).getByRole('button', { name: 'Get new link' }));
    expect(await screen.findByText('New link created')).toBeVisible();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Your calendar feed link' })).toHaveValue(
      `${window.location.origin}/api/calendar-feed/token-2.ics`,
    );

    await user.click(screen.getByRole('button', { name: 'Turn off' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Turn off your calendar feed?' });
    await user.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByText('Your calendar feed is off.')).toBeVisible();
    expect(await screen.findByText('Calendar feed turned off')).toBeVisible();
  });

  test('a feed that is on but whose link the server no longer shows offers only a new link', async () => {
    feedServer({ enabled: true, path: null, createdAt: '2026-01-05T10:00:00.000Z' });
    renderWithApp(<CalendarFeedCard />);

    expect(await screen.findByRole('note')).toHaveTextContent('its link can no longer be shown here');
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Get a new link' })).toBeEnabled();
  });

  test('a refused change keeps the feed as it was and says why', async () => {
    feedServer(OFF);
    server.use(
      http.post('/api/calendar-feed', () =>
        HttpResponse.json({ message: 'Too many requests, please wait a moment.' }, { status: 429 }),
      ),
    );
    const { user } = renderWithApp(<CalendarFeedCard />);

    await user.click(await screen.findByRole('button', { name: 'Turn on calendar feed' }));
    expect(await screen.findByText('The calendar feed could not be changed')).toBeVisible();
    expect(screen.getByText('Too many requests, please wait a moment.')).toBeVisible();
    expect(screen.getByText('Your calendar feed is off.')).toBeVisible();
  });

  test('a feed that cannot be loaded can be asked for again', async () => {
    let answers = 0;
    server.use(
      http.get('/api/calendar-feed', () =>
        ++answers === 1 ? new HttpResponse('down', { status: 503 }) : HttpResponse.json(OFF),
      ),
    );
    const { user } = renderWithApp(<CalendarFeedCard />);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your calendar feed could not be loaded.');
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Your calendar feed is off.')).toBeVisible();
  });
});
