/**
 * The one retry policy for every call to Microsoft Graph and to the token endpoint
 * (docs/decisions/0032):
 *
 * - Repeated at once: no answer (connection refused or dropped, timed out, answer cut off) and the
 *   statuses 429, 503 and 504. Nothing else: another 4xx will not change, a 500 or 502 from Graph is
 *   most often a request it cannot serve (a query on an unindexed column of a big list), and a 412 is
 *   a conflict the caller resolves by reading the item again, never by sending the same thing twice.
 * - A call that may have been acted on (a create) is repeated only after a 429, when the service
 *   certainly did not act; otherwise the caller looks the item up by its key first.
 * - Wait: `Retry-After` when sent (seconds, decimal or an HTTP date), capped at maxRetryAfterMs;
 *   otherwise exponential backoff with jitter (baseDelayMs doubling up to maxDelayMs). A throttled
 *   call pauses every call to the same host (PauseGate), since more calls only prolong throttling.
 * - At most maxAttempts sends per call, and never past totalBudgetMs from the first send: a wait
 *   that would end past the budget is not started, the failure goes back to the caller.
 *
 * The durable layer above this is the outboxes' own backoff across rounds (attempts and
 * next_attempt_at in the database): work a call gave up on stays queued and is retried later.
 * Every timing, the clock and the sleep are injectable, so tests run without waiting real time.
 */
import { setTimeout as sleepFor } from 'node:timers/promises';
import { SharePointError } from './errors';

export interface RetryTimings {
  /** First backoff step without Retry-After (1 s). */
  baseDelayMs: number;
  /** Largest backoff step (60 s). */
  maxDelayMs: number;
  /** Tries per call, the first included (6). */
  maxAttempts: number;
  /** Longest wait a Retry-After may ask for (300 s); longer values are clamped. */
  maxRetryAfterMs: number;
  /** A call that has not answered by then counts as a network failure (30 s). */
  requestTimeoutMs: number;
  /** Longest a call may take from its first send, waits included (120 s); then it gives up. */
  totalBudgetMs: number;
  /** 0 ≤ x < 1; Math.random by default. */
  random: () => number;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
}

export const DEFAULT_TIMINGS: RetryTimings = {
  baseDelayMs: 1000,
  maxDelayMs: 60_000,
  maxAttempts: 6,
  maxRetryAfterMs: 300_000,
  requestTimeoutMs: 30_000,
  totalBudgetMs: 120_000,
  random: Math.random,
  sleep: (ms) => sleepFor(ms).then(() => undefined),
  now: Date.now,
};

export function resolveTimings(partial: Partial<RetryTimings> = {}): RetryTimings {
  return { ...DEFAULT_TIMINGS, ...partial };
}

/**
 * Milliseconds to wait from a Retry-After header: `2`, `2.128` or an HTTP date. Undefined when the
 * header is absent or unreadable (the caller then backs off on its own).
 */
export function parseRetryAfter(
  value: string | null | undefined,
  nowMs: number,
  maxMs: number,
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.min(maxMs, Math.round(Number(text) * 1000));
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.min(maxMs, Math.max(0, at - nowMs));
}

/** Exponential backoff with jitter: attempt 1 waits about base, attempt 2 about 2×base … capped. */
export function backoffDelay(
  attempt: number,
  timings: Pick<RetryTimings, 'baseDelayMs' | 'maxDelayMs' | 'random'>,
) {
  const ceiling = Math.min(timings.maxDelayMs, timings.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  // "equal jitter": never less than half the step, so retries do not bunch up at zero
  return Math.round(ceiling / 2 + timings.random() * (ceiling / 2));
}

/**
 * One shared "do not call before" instant. When a call is throttled every other call waits too,
 * instead of each discovering the throttle on its own and making it worse.
 */
export class PauseGate {
  private until = 0;

  constructor(private readonly timings: Pick<RetryTimings, 'now' | 'sleep'> = DEFAULT_TIMINGS) {}

  pause(ms: number): void {
    this.until = Math.max(this.until, this.timings.now() + ms);
  }

  /** Milliseconds left of the current pause. */
  remaining(): number {
    return Math.max(0, this.until - this.timings.now());
  }

  async wait(): Promise<void> {
    for (let left = this.remaining(); left > 0; left = this.remaining()) await this.timings.sleep(left);
  }
}

const gates = new Map<string, PauseGate>();

/** The process-wide gate of one Graph host (every client talking to it shares the pause). */
export function sharedGate(baseUrl: string): PauseGate {
  const origin = new URL(baseUrl).origin;
  let gate = gates.get(origin);
  if (!gate) {
    gate = new PauseGate();
    gates.set(origin, gate);
  }
  return gate;
}

/** Statuses sent again at once: throttled, unavailable, gateway timeout. */
export const REPEAT_STATUSES: ReadonlySet<number> = new Set([429, 503, 504]);

/** Statuses worth trying again later (the outbox's next round): the above, and other server errors. */
export const LATER_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/** Whether this failure may be sent again now, by the rules above. */
export function mayRepeat(error: unknown, options: { notIdempotent?: boolean } = {}): boolean {
  if (!(error instanceof SharePointError)) return false;
  if (options.notIdempotent) return error.kind === 'http' && error.status === 429;
  if (error.kind === 'network') return true;
  return error.kind === 'http' && error.status !== undefined && REPEAT_STATUSES.has(error.status);
}

/**
 * Sends with the policy. `send` makes one attempt and throws a SharePointError on failure; a
 * failure the policy does not repeat, or the last one, is thrown unchanged.
 */
export async function withRetries<T>(
  timings: RetryTimings,
  gate: PauseGate,
  send: (attempt: number) => Promise<T>,
  options: { notIdempotent?: boolean } = {},
): Promise<T> {
  const started = timings.now();
  for (let attempt = 1; ; attempt++) {
    await gate.wait();
    try {
      return await send(attempt);
    } catch (error) {
      if (!(error instanceof SharePointError) || !mayRepeat(error, options)) throw error;
      const retryAfter = error.details.retryAfterMs;
      const throttled = error.status === 429 || retryAfter !== undefined;
      const wait = retryAfter ?? backoffDelay(attempt, timings);
      // Everyone waits, this call or not: the gate is checked before every send.
      if (throttled) gate.pause(wait);
      const resumeIn = Math.max(wait, gate.remaining());
      if (attempt >= timings.maxAttempts || timings.now() - started + resumeIn > timings.totalBudgetMs)
        throw error;
      if (!throttled) await timings.sleep(wait);
    }
  }
}
