import { clear, createStore, del, entries, set } from 'idb-keyval';
import { ApiError, apiJson, type HttpMethod, isNetworkError } from './api';
import { OUTBOX_DATABASE, OUTBOX_STORE } from './device-data';

/**
 * Changes made with no connection wait on the device, in IndexedDB, until they can be sent: the
 * facilitator's availability saves and offer replies. One way only: the server decides, and each
 * change's outcome is shown when it is sent (docs/decisions/0101-installable-app-and-facilitators-days-offline.md).
 *
 * - A change has a key naming what it changes (a day, an offer): a later change of the same thing
 *   replaces the waiting one, so only the last word is sent.
 * - Changes are sent in the order they were made, one at a time, by one tab at a time.
 * - A change leaves the queue only when the server has answered it: accepted, or refused for good
 *   (a 4xx other than 401, 408 and 429). With no answer, a 5xx, or a session that has ended, it stays,
 *   with the ones after it, for the next try. Sending one again is safe: the server treats a repeated
 *   availability save or offer reply as the same request.
 */

/** What a change made with no connection says (a toast where it was made). */
export const WAITING_TITLE = 'Saved on this device';
export const WAITING_DESCRIPTION = 'There is no connection. It will be sent when you are back online.';

export interface QueuedChange {
  /** what the change is of (`availability:2026-12-07`, `offer:12`): a newer one replaces it */
  key: string;
  /** whose change it is: it is sent only while they are signed in */
  userId: number;
  method: HttpMethod;
  url: string;
  body?: unknown;
  /** for people: what the change was ("Your availability for Monday 7 December 2026") */
  label: string;
  /** when it was made on the device (ISO 8601) */
  queuedAt: string;
  /** orders changes made in the same millisecond */
  seq: number;
}

export type ChangeOutcome =
  | { change: QueuedChange; result: 'sent'; answer: unknown }
  | { change: QueuedChange; result: 'refused'; error: ApiError };

export type SendResult<T> = { queued: false; answer: T } | { queued: true; change: QueuedChange };

let store: ReturnType<typeof createStore> | null = null;
const outbox = () => {
  store ??= createStore(OUTBOX_DATABASE, OUTBOX_STORE);
  return store;
};

let seq = 0;
const changed = new Set<() => void>();

function emitChanged() {
  for (const listener of changed) listener();
}

/** Called after the queue changes (a change added, sent or cleared). */
export function onQueueChanged(listener: () => void): () => void {
  changed.add(listener);
  return () => changed.delete(listener);
}

/** Puts a change in the queue, replacing a waiting change of the same thing. */
export async function queueChange(change: Omit<QueuedChange, 'queuedAt' | 'seq'>): Promise<QueuedChange> {
  seq += 1;
  const queued: QueuedChange = {
    ...change,
    queuedAt: new Date().toISOString(),
    seq: Date.now() * 1000 + (seq % 1000),
  };
  await set(change.key, queued, outbox());
  emitChanged();
  return queued;
}

/** The waiting changes, oldest first (every user's: a caller filters by user). */
export async function queuedChanges(): Promise<QueuedChange[]> {
  const all = await entries<string, QueuedChange>(outbox());
  return all.map(([, change]) => change).sort((a, b) => a.seq - b.seq);
}

/** Empties the queue (`clearDeviceData` empties it too, at sign-out and when someone else signs in). */
export async function clearQueue(): Promise<void> {
  await clear(outbox());
  emitChanged();
}

/**
 * Sends a change now, or queues it when there is no connection (the browser says it is offline, or
 * the request got no answer). A refusal is thrown as usual.
 */
export async function sendOrQueue<T>(change: Omit<QueuedChange, 'queuedAt' | 'seq'>): Promise<SendResult<T>> {
  if (typeof navigator !== 'undefined' && navigator.onLine === false)
    return { queued: true, change: await queueChange(change) };
  try {
    return { queued: false, answer: await apiJson<T>(change.method, change.url, change.body) };
  } catch (error) {
    if (!isNetworkError(error)) throw error;
    return { queued: true, change: await queueChange(change) };
  }
}

/** A refusal that will be the same however often the change is sent. */
function refusedForGood(error: unknown): error is ApiError {
  return (
    error instanceof ApiError &&
    error.status >= 400 &&
    error.status < 500 &&
    ![401, 408, 429].includes(error.status)
  );
}

/** The run on its way for each person: a second call for them joins it. */
const sending = new Map<number, Promise<ChangeOutcome[]>>();

/**
 * Sends the user's waiting changes, oldest first, and returns each answered change's outcome. Stops at
 * the first change that gets no lasting answer, keeping it and the rest. One run at a time: in this
 * tab a second call for the same person joins the first (a call for someone else is a run of its
 * own: nobody is told of another's changes), and across tabs a Web Lock (where the browser has them)
 * lets one tab send while the others wait, then find the queue empty.
 */
export function sendQueued(userId: number): Promise<ChangeOutcome[]> {
  let run = sending.get(userId);
  if (!run) {
    run = withDeviceLock(() => sendInOrder(userId)).finally(() => sending.delete(userId));
    sending.set(userId, run);
  }
  return run;
}

async function withDeviceLock<T>(work: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) return work();
  return locks.request('afp-outbox', work);
}

async function sendInOrder(userId: number): Promise<ChangeOutcome[]> {
  const outcomes: ChangeOutcome[] = [];
  for (const change of await queuedChanges()) {
    if (change.userId !== userId) continue;
    let outcome: ChangeOutcome;
    try {
      outcome = {
        change,
        result: 'sent',
        answer: await apiJson<unknown>(change.method, change.url, change.body),
      };
    } catch (error) {
      if (!refusedForGood(error)) break;
      outcome = { change, result: 'refused', error };
    }
    await removeIfUnchanged(change);
    outcomes.push(outcome);
  }
  if (outcomes.length > 0) emitChanged();
  return outcomes;
}

/** Removes a sent change, unless a newer change of the same thing was queued while it was on its way. */
async function removeIfUnchanged(change: QueuedChange): Promise<void> {
  const now = (await queuedChanges()).find((c) => c.key === change.key);
  if (now && now.seq === change.seq) await del(change.key, outbox());
}
