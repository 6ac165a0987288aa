/**
 * Retry rules of sharepoint-protocol.md section 5: honour `Retry-After` (seconds, possibly decimal,
 * or an HTTP date), otherwise back off exponentially with jitter; pause every caller together while
 * the service is throttling us. Every timing is injectable so tests run in milliseconds.
 */
import { setTimeout as sleepFor } from 'node:timers/promises';

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
