import 'fake-indexeddb/auto';
import { SESSION_HINT_COOKIE } from '@shared/sign-in';
import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { clearQueue, queueChange } from '@/lib/offline-queue';
import { anAccount } from '@/test/accounts';
import { renderWithApp } from '@/test/render';
import { server } from '@/test/server';
import { DeviceStatus } from './device-status';

const FACILITATOR = anAccount({ id: 7, username: 'alice.walker@example.org', displayName: 'Alice Walker' });

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
  vi.restoreAllMocks();
  vi.useRealTimers();
  // biome-ignore lint/suspicious/noDocumentCookie: as above
  document.cookie = `${SESSION_HINT_COOKIE}=; Path=/; Max-Age=0`;
});

/**
 * POST /api/availability as the portal answers it while `connected` (else as no connection does), each
 * try recorded; `tried(n)` settles when the n-th try has come. (Testing Library's waitFor polls with
 * setInterval, which these tests fake, so it notices only changes to the page: the tests wait on this
 * for the requests.)
 */
function availabilityEndpoint(hold?: Promise<void>) {
  const state = { connected: false, bodies: [] as unknown[] };
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  server.use(
    http.post('/api/availability', async ({ request }) => {
      const connected = state.connected;
      state.bodies.push(connected ? await request.json() : null);
      for (const w of waiting) if (state.bodies.length >= w.count) w.resolve();
      if (!connected) return HttpResponse.error();
      await hold;
      return HttpResponse.json({ ok: true });
    }),
    // everything is read again once the changes are sent
    http.get('/api/user', () => HttpResponse.json(FACILITATOR)),
  );
  const tried = (count: number) =>
    new Promise<void>((resolve) => {
      if (state.bodies.length >= count) resolve();
      else waiting.push({ count, resolve });
    });
  return { state, tried, sent: () => state.bodies.filter((body) => body !== null) };
}

describe('changes made offline', () => {
  test('are tried again every 20 s when the browser never says it is online, and what became of them is shown', async () => {
    // only the retry's interval is under the test's control; IndexedDB and requests keep real time
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const intervals = vi.spyOn(window, 'setInterval');
    await queueChange(WAITING);
    const endpoint = availabilityEndpoint();
    renderWithApp(<DeviceStatus />, { user: FACILITATOR });

    // tried as the page opens: no connection, so it waits
    expect(await screen.findByText('1 change waiting to be sent when you are back online.')).toBeVisible();
    await endpoint.tried(1);
    expect(intervals).toHaveBeenCalledWith(expect.any(Function), 20_000);

    // the connection is back but no "online" event comes: the next try sends it
    endpoint.state.connected = true;
    await vi.advanceTimersByTimeAsync(20_000);
    const outcomes = await screen.findByRole('region', { name: 'Changes made offline' });
    expect(outcomes).toHaveTextContent('Your availability for 7 December 2026: sent.');
    expect(endpoint.sent()).toEqual([{ date: '2026-12-07', status: 'unavailable' }]);
    // (waitFor checks again on every change to the page, without its faked interval)
    await waitFor(() =>
      expect(screen.queryByText(/waiting to be sent when you are back online/)).not.toBeInTheDocument(),
    );
  });

  test('shown once when the browser says "online" while the retry is already sending', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    await queueChange(WAITING);
    let answer!: () => void;
    const endpoint = availabilityEndpoint(new Promise<void>((resolve) => (answer = resolve)));
    renderWithApp(<DeviceStatus />, { user: FACILITATOR });
    expect(await screen.findByText('1 change waiting to be sent when you are back online.')).toBeVisible();
    await endpoint.tried(1);

    // the retry starts sending; the browser's "online" comes before the portal has answered
    endpoint.state.connected = true;
    await vi.advanceTimersByTimeAsync(20_000);
    await endpoint.tried(2);
    window.dispatchEvent(new Event('online'));
    answer();

    const outcomes = await screen.findByRole('region', { name: 'Changes made offline' });
    expect(
      within(outcomes)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Your availability for 7 December 2026: sent.']);
    expect(endpoint.sent()).toHaveLength(1);
  });
});
