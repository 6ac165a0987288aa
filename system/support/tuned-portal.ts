/**
 * startTunedPortal: like startPortal (system/support/portal.ts) — a real portal process on a free
 * port, same environment, same health wait — but running system/support/tuned-main.ts, which hands
 * buildApp short SharePoint retry timings and outbox/scheduler waits. Use it only where production
 * waits (30 s request timeout, 30 s first outbox retry, 2 s drain idle) do not fit a test budget.
 */
import type { SchedulerOptions } from '../../src/server/jobs/scheduler';
import type { OutboxOptions } from '../../src/server/sharepoint/outbox-worker';
import type { RetryTimings } from '../../src/server/sharepoint/retry';
import { type PortalOptions, type PortalProcess, startPortal } from './portal';

type Numeric<T> = { [K in keyof T as T[K] extends number ? K : never]?: T[K] };

/** Only plain values: they travel to the process as JSON. */
export interface PortalTuning {
  timings?: Numeric<RetryTimings>;
  outbox?: Numeric<OutboxOptions>;
  scheduler?: Partial<SchedulerOptions>;
}

/** Compressed but proportionate: the same retry ladders and lease rules, in tens of milliseconds. */
export const FAST_PORTAL_TUNING: PortalTuning = {
  timings: {
    baseDelayMs: 25,
    maxDelayMs: 250,
    maxAttempts: 5,
    maxRetryAfterMs: 3000,
    requestTimeoutMs: 1500,
  },
  outbox: { retryBaseMs: 200, retryMaxMs: 1500, concurrency: 4 },
  scheduler: { drainIdleMs: 100 },
};

export function startTunedPortal(options: PortalOptions & { tuning?: PortalTuning }): Promise<PortalProcess> {
  const { tuning, ...rest } = options;
  return startPortal({
    ...rest,
    entry: 'system/support/tuned-main.ts',
    env: { AFP_SYSTEM_TUNING: JSON.stringify(tuning ?? FAST_PORTAL_TUNING), ...options.env },
  });
}
