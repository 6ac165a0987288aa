import 'fake-indexeddb/auto';
import { SESSION_HINT_COOKIE } from '@shared/sign-in';
import { act, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { currentUserQueryKey } from '@/features/auth/api/auth-api';
import { clearQueue, queueChange, queuedChanges, sendQueued } from '@/lib/offline-queue';
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

    expect(await listedOutcomes()).toEqual(['Your availability for 7 December 2026: sent.']);
    expect(endpoint.sent()).toHaveLength(1);
  });

  test('what became of a change stays on screen from page to page', async () => {
    await queueChange(WAITING);
    const endpoint = availabilityEndpoint();
    const { user } = renderWithApp(<Pages />, { user: FACILITATOR });
    await backOnlineAndSent(endpoint);
    const sent = 'Your availability for 7 December 2026: sent.';
    expect(await screen.findByRole('region', { name: 'Changes made offline' })).toHaveTextContent(sent);

    await user.click(screen.getByRole('button', { name: 'Open the next page' }));
    expect(screen.getByRole('region', { name: 'Changes made offline' })).toHaveTextContent(sent);
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('region', { name: 'Changes made offline' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Open the next page' }));
    expect(screen.queryByRole('region', { name: 'Changes made offline' })).not.toBeInTheDocument();
  });

  test('a change answered while the next page is still loading is shown on that page', async () => {
    await queueChange(WAITING);
    let answer!: () => void;
    const endpoint = availabilityEndpoint(new Promise<void>((resolve) => (answer = resolve)));
    const { user } = renderWithApp(<Pages />, { user: FACILITATOR });
    // the change is on its way as the person opens another page
    await backOnlineAndSent(endpoint);
    await user.click(screen.getByRole('button', { name: 'Leave the page' }));
    answer();
    await waitFor(async () => expect(await queuedChanges()).toEqual([]));

    await user.click(screen.getByRole('button', { name: 'Open the next page' }));
    expect(await listedOutcomes()).toEqual(['Your availability for 7 December 2026: sent.']);
    expect(endpoint.sent()).toHaveLength(1);
  });

  test('a change answered after its owner signed out is not shown when they sign in again', async () => {
    await queueChange(WAITING);
    let answer!: () => void;
    const endpoint = availabilityEndpoint(new Promise<void>((resolve) => (answer = resolve)));
    const { queryClient } = renderWithApp(<DeviceStatus />, { user: FACILITATOR });
    await backOnlineAndSent(endpoint);

    // signed out while the change is on its way; the portal then answers
    act(() => queryClient.setQueryData(currentUserQueryKey, null));
    answer();
    await waitFor(async () => expect(await queuedChanges()).toEqual([]));
    act(() => queryClient.setQueryData(currentUserQueryKey, FACILITATOR));
    // what the send does once answered (a read of everything) has settled
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(screen.queryByRole('region', { name: 'Changes made offline' })).not.toBeInTheDocument();
  });
});

/** The page's first try, with no connection, is over: the change waits for the next. */
async function triedWithoutConnection(endpoint: ReturnType<typeof availabilityEndpoint>) {
  await endpoint.tried(1);
  // joins the try on its way (a try of its own, if that one was over, fails the same)
  expect(await sendQueued(FACILITATOR.id)).toEqual([]);
}

/** What "Changes made offline" lists, once it is shown. */
async function listedOutcomes(): Promise<Array<string | null>> {
  const outcomes = await screen.findByRole('region', { name: 'Changes made offline' });
  return within(outcomes)
    .getAllByRole('listitem')
    .map((item) => item.textContent);
}

/** The connection is back after the page's first try: the change is sent (its answer as the test holds it). */
async function backOnlineAndSent(endpoint: ReturnType<typeof availabilityEndpoint>) {
  await triedWithoutConnection(endpoint);
  endpoint.state.connected = true;
  window.dispatchEvent(new Event('online'));
  await endpoint.tried(endpoint.state.bodies.length + 1);
}

/**
 * Pages opened one after another, each drawing its own DeviceStatus as each page draws its own
 * layout; between two pages (the next one's code on its way) there is none.
 */
function Pages() {
  const [page, setPage] = useState<number | 'loading'>(0);
  return (
    <>
      <button type="button" onClick={() => setPage('loading')}>
        Leave the page
      </button>
      <button type="button" onClick={() => setPage((before) => (before === 'loading' ? 1 : before + 1))}>
        Open the next page
      </button>
      {page === 'loading' ? <p>Loading the next page</p> : <DeviceStatus key={page} />}
    </>
  );
}
