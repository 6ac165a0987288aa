/**
 * The bookings refresh as a job: one at a time across every instance (advisory lock), its progress
 * in scheduler_state (so every instance reports the same status), and callers that arrive while one
 * runs join it instead of starting another.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../context';
import { tryJobLock } from '../db/job-locks';
import { schedulerState } from '../db/schema';
import { AppError, describeError } from '../errors';
import { tellBookingChanges } from '../modules/notifications/booking-changes';
import {
  BOOKINGS_RECONCILE_JOB,
  BOOKINGS_REFRESH_JOB,
  type BookingsRefresher,
  type RefreshStage,
} from '../modules/scheduler/service';
import type { BookingsRefreshResult } from '../sharepoint/bookings-refresh';

export interface RefreshJobOptions {
  /** how often a waiting caller looks whether another instance has finished */
  pollMs: number;
  /** how often a running refresh says it is alive */
  heartbeatMs: number;
  /** a running flag without a heartbeat for this long belongs to a dead instance */
  staleMs: number;
}

export const DEFAULT_REFRESH_JOB_OPTIONS: RefreshJobOptions = {
  pollMs: 500,
  heartbeatMs: 15_000,
  staleMs: 120_000,
};

type StateRow = typeof schedulerState.$inferSelect;

export async function readJobState(
  ctx: Pick<AppContext, 'db'>,
  name = BOOKINGS_REFRESH_JOB,
): Promise<StateRow | undefined> {
  const [row] = await ctx.db.select().from(schedulerState).where(eq(schedulerState.name, name));
  return row;
}

async function writeJobState(
  ctx: Pick<AppContext, 'db'>,
  values: Partial<typeof schedulerState.$inferInsert>,
  name = BOOKINGS_REFRESH_JOB,
) {
  await ctx.db
    .insert(schedulerState)
    .values({ name, ...values })
    .onConflictDoUpdate({ target: schedulerState.name, set: values });
}

/** `refresh`: the changes since last time; `reconcile`: the whole list (jobs/scheduler.ts decides when). */
export type RefreshKind = 'refresh' | 'reconcile';

export class RefreshJob implements BookingsRefresher {
  private inFlight: Promise<BookingsRefreshResult> | undefined;
  private followUp = { running: false, again: false };
  /**
   * Stages change in a second or two, too often to write to the shared row; a refresh on another
   * instance reads as `connecting` until it ends.
   */
  stage: RefreshStage | null = null;
  readonly options: RefreshJobOptions;

  constructor(
    private readonly ctx: Pick<
      AppContext,
      'db' | 'database' | 'now' | 'log' | 'sharePoint' | 'config' | 'appSecret' | 'mailer' | 'push'
    >,
    options: Partial<RefreshJobOptions> = {},
  ) {
    this.options = { ...DEFAULT_REFRESH_JOB_OPTIONS, ...options };
  }

  get running(): boolean {
    return this.inFlight !== undefined;
  }

  /** Refresh now, or join the refresh already running here or on another instance. */
  run(): Promise<BookingsRefreshResult> {
    this.inFlight ??= this.runOnce().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /**
   * A refresh now; when one is already running, another right after it, because the running one may
   * have read the list before the change that asked for this one.
   */
  runSoon(): void {
    const state = this.followUp;
    if (state.running) {
      state.again = true;
      return;
    }
    state.running = true;
    void this.run()
      .catch((error: unknown) =>
        this.ctx.log.warn({ err: describeError(error) }, 'refresh after a change notification failed'),
      )
      .finally(() => {
        state.running = false;
        if (state.again) {
          state.again = false;
          this.runSoon();
        }
      });
  }

  /**
   * The scheduler's refresh: only if the lock is free and, once it is held, `isDue()` still says so.
   * Every instance checks "due" on its own; without the second look under the lock, an instance that
   * found the slot due just before another finished it would refresh the same slot again
   * (system/scale-out.test.ts saw two refreshes in one slot).
   */
  async runIfDue(
    whatIsDue: () => Promise<RefreshKind | null>,
  ): Promise<
    | { outcome: 'refreshed'; kind: RefreshKind; result: BookingsRefreshResult }
    | { outcome: 'busy' | 'not-due' }
  > {
    if (this.inFlight) return { outcome: 'busy' };
    const lock = await tryJobLock(this.ctx.database, 'bookings-refresh');
    if (!lock) return { outcome: 'busy' };
    try {
      if (this.inFlight) return { outcome: 'busy' };
      const kind = await whatIsDue();
      if (!kind) return { outcome: 'not-due' };
      // a staff refresh asked for on this instance meanwhile joins this one
      this.inFlight = this.runLocked(kind).finally(() => {
        this.inFlight = undefined;
      });
      return { outcome: 'refreshed', kind, result: await this.inFlight };
    } finally {
      await lock.release();
    }
  }

  private async runOnce(): Promise<BookingsRefreshResult> {
    const connector = this.ctx.sharePoint;
    // Fail fast (409) when there is nothing to connect to; nothing is recorded as running.
    await connector.requireSession();
    const askedAt = this.ctx.now();
    for (;;) {
      const lock = await tryJobLock(this.ctx.database, 'bookings-refresh');
      if (lock) {
        try {
          return await this.runLocked('refresh');
        } finally {
          await lock.release();
        }
      }
      // Another instance is refreshing: wait for it and share its result.
      const joined = await this.waitForOther(askedAt);
      if (joined) return joined;
    }
  }

  private async runLocked(kind: RefreshKind): Promise<BookingsRefreshResult> {
    const startedAt = this.ctx.now();
    await writeJobState(this.ctx, { isUpdating: true, startedAt, heartbeatAt: startedAt, lastError: null });
    const heartbeat = setInterval(() => {
      writeJobState(this.ctx, { heartbeatAt: this.ctx.now() }).catch(() => {});
    }, this.options.heartbeatMs);
    heartbeat.unref();
    this.stage = 'connecting';
    try {
      const { changes, ...result } = await this.ctx.sharePoint.refreshBookings(() => {
        this.stage = 'processing';
      }, kind === 'reconcile');
      const finishedAt = this.ctx.now();
      await writeJobState(this.ctx, { isUpdating: false, finishedAt, lastResult: result, lastError: null });
      // Any read of the whole list (a first read, a restart after an expired change token) is a
      // reconciliation too: the next one is due a full period later.
      if (result.mode !== 'delta') {
        await writeJobState(
          this.ctx,
          { startedAt, finishedAt, lastResult: result, lastError: null },
          BOOKINGS_RECONCILE_JOB,
        );
      }
      this.ctx.log.info({ result }, 'bookings refreshed from SharePoint');
      if (changes.length > 0) {
        // the bookings are stored whatever becomes of the messages: a failure here fails no refresh
        await tellBookingChanges(this.ctx, changes).catch((error: unknown) =>
          this.ctx.log.warn({ err: describeError(error) }, 'telling facilitators of booking changes failed'),
        );
      }
      return result;
    } catch (error) {
      const message = describeError(error);
      await writeJobState(this.ctx, {
        isUpdating: false,
        finishedAt: this.ctx.now(),
        lastError: message,
      }).catch(() => {});
      if (kind === 'reconcile') {
        // The reconciliation stays due (its finishedAt is unchanged): the next slot tries it again.
        await writeJobState(this.ctx, { lastError: message }, BOOKINGS_RECONCILE_JOB).catch(() => {});
      }
      this.ctx.log.warn({ err: message }, 'bookings refresh failed');
      throw error;
    } finally {
      clearInterval(heartbeat);
      this.stage = null;
    }
  }

  /** The other instance's result once it finishes after `askedAt`; undefined to try the lock again. */
  private async waitForOther(askedAt: Date): Promise<BookingsRefreshResult | undefined> {
    for (;;) {
      await sleep(this.options.pollMs);
      const state = await readJobState(this.ctx);
      const alive =
        state?.isUpdating &&
        state.heartbeatAt &&
        this.ctx.now().getTime() - state.heartbeatAt.getTime() < this.options.staleMs;
      if (alive) continue;
      // A refresh that ended after we asked covers our request, whoever started it.
      if (state?.finishedAt && state.finishedAt.getTime() >= askedAt.getTime()) {
        if (state.lastError) throw new AppError(503, state.lastError);
        if (state.lastResult) return state.lastResult as BookingsRefreshResult;
      }
      return undefined;
    }
  }
}

/** The app's refresher as the scheduler needs it (buildApp always gives it a RefreshJob). */
export function refreshJobOf(ctx: AppContext): RefreshJob {
  if (!(ctx.bookingsRefresh instanceof RefreshJob))
    throw new Error('the bookings refresher is not a RefreshJob');
  return ctx.bookingsRefresh;
}
