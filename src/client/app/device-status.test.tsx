import 'fake-indexeddb/auto';
import type { PublicUser } from '@shared/schemas/users';
import { SESSION_HINT_COOKIE } from '@shared/sign-in';
import { screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { clearQueue, queueChange } from '@/lib/offline-queue';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { DeviceStatus } from './device-status';

const FACILITATOR: PublicUser = {
  id: 7,
  username: 'alice.walker@example.org',
  displayName: 'Alice Walker',
  email: 'alice.walker@example.org',
  freelancerId: null,
  role: 'facilitator',
  area: null,
  lastAvailabilityUpdatedAt: null,
  version: 1,
  deactivatedAt: null,
  anonymisedAt: null,
};

const WAITING = {
  key: 'availability:7:2026-12-07',
  userId: 7,
  method: 'POST' as const,
  url: '/api/availability',
  body: { date: '2026-12-07', status: 'unavailable' },
  label: 'Your availability for 7 December 2026',
};

beforeEach(async () => {
  await clearQueue();
  // the cookie the server sets beside a session: with it, the app reads the session again after sending
  // biome-ignore lint/suspicious/noDocumentCookie: jsdom's cookie jar is where the app looks for it
  document.cookie = `${SESSION_HINT_COOKIE}=1; Path=/`;
});
afterEach(() => {
  vi.useRealTimers();
  // biome-ignore lint/suspicious/noDocumentCookie: as above
  document.cookie = `${SESSION_HINT_COOKIE}=; Path=/; Max-Age=0`;
});

describe('changes made offline', () => {
  test('are tried again every 20 s when the browser never says it is online, and what became of them is shown', async () => {
    // only the retry's interval is under the test's control; IndexedDB and requests keep real time
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    await queueChange(WAITING);
    let connected = false;
    let tries = 0;
    const sent: unknown[] = [];
    server.use(
      http.post('/api/availability', async ({ request }) => {
        tries += 1;
        if (!connected) return HttpResponse.error();
        sent.push(await request.json());
        return HttpResponse.json({ ok: true });
      }),
      // everything is read again once the changes are sent
      http.get('/api/user', () => HttpResponse.json(FACILITATOR)),
    );
    renderWithApp(<DeviceStatus />, { user: FACILITATOR });

    // tried as the page opens: no connection, so it waits
    expect(await screen.findByText('1 change waiting to be sent when you are back online.')).toBeVisible();
    await waitFor(() => expect(tries).toBe(1));

    // the connection is back but no "online" event comes: nothing is tried before the 20 s are up
    connected = true;
    await vi.advanceTimersByTimeAsync(19_900);
    expect(tries).toBe(1);
    await vi.advanceTimersByTimeAsync(100);

    const outcomes = await screen.findByRole('region', { name: 'Changes made offline' });
    expect(outcomes).toHaveTextContent('Your availability for 7 December 2026: sent.');
    expect(sent).toEqual([{ date: '2026-12-07', status: 'unavailable' }]);
    await waitFor(() =>
      expect(screen.queryByText(/waiting to be sent when you are back online/)).not.toBeInTheDocument(),
    );

    // nothing waits any more, so the next tick sends nothing
    await vi.advanceTimersByTimeAsync(20_000);
    expect(tries).toBe(2);
  });
});
