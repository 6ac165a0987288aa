/**
 * startTunedPortal: startPortal (system/support/portal.ts), the same process `npm start` runs, with
 * SharePoint's waits compressed through the configuration (SHAREPOINT_RETRY, SHAREPOINT_OUTBOX,
 * BACKGROUND_JOBS_TICK). Production waits are seconds to minutes (a failed day comes back after
 * 30 s, a silent call times out after 30 s); a fault suite with a one-minute budget needs the same
 * code paths on a millisecond scale. Use it only where production waits do not fit a test budget.
 */
import type { SchedulerOptions } from '../../src/server/jobs/scheduler';
import type { OutboxOptions } from '../../src/server/sharepoint/outbox-worker';
import type { RetryTimings } from '../../src/server/sharepoint/retry';
import { type PortalOptions, type PortalProcess, startPortal } from './portal';

type Numeric<T> = { [K in keyof T as T[K] extends number ? K : never]?: T[K] };

export interface PortalTuning {
  timings?: Numeric<RetryTimings>;
  outbox?: Numeric<OutboxOptions>;
  scheduler?: Partial<Pick<SchedulerOptions, 'tickPattern' | 'drainIdleMs'>>;
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

const pairs = (values: Record<string, number | undefined>) =>
  Object.entries(values)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}=${value}`)
    .join(',');

/** The tuning as the portal's configuration. */
export function tuningEnv(tuning: PortalTuning): Record<string, string> {
  const { timings = {}, outbox = {}, scheduler = {} } = tuning;
  return {
    SHAREPOINT_RETRY: pairs(timings),
    SHAREPOINT_OUTBOX: pairs({ ...outbox, idleMs: scheduler.drainIdleMs }),
    ...(scheduler.tickPattern ? { BACKGROUND_JOBS_TICK: scheduler.tickPattern } : {}),
  };
}

export function startTunedPortal(options: PortalOptions & { tuning?: PortalTuning }): Promise<PortalProcess> {
  const { tuning, ...rest } = options;
  return startPortal({ ...rest, env: { ...tuningEnv(tuning ?? FAST_PORTAL_TUNING), ...options.env } });
}
