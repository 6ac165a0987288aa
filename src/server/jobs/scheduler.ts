/**
 * Background work: refresh bookings every BOOKINGS_REFRESH_MINUTES inside OFFICE_HOURS (in
 * ORG_TIMEZONE), and drain the availability outbox continuously. A refresh is due when the slot after
 * the last finished refresh has come (scheduler_state is shared, so restarts and other instances
 * agree); the advisory lock keeps it to one runner. Every SHAREPOINT_RECONCILE_DAYS, the due refresh
 * reads the whole Bookings list instead of the changes (ADR 0016).
 */
import { Cron } from 'croner';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../context';
import { tryJobLock } from '../db/job-locks';
import { schedulerState } from '../db/schema';
import { describeError } from '../errors';
import { deliverPushes, type PushRound } from '../modules/notifications/delivery';
import {
  expireOffers,
  withdrawOffersOfFilledSessions,
  withdrawOffersSafeguardingNoLongerAllows,
} from '../modules/offers/expiry';
import { acceptanceWriteBack } from '../modules/offers/write-back';
import { type AutomaticOutcome, runAutomaticReminders } from '../modules/reminders/service';
import { type RetentionRunOutcome, runDailyRetention } from '../modules/retention/service';
import { runSafeguardingReminders, type SafeguardingReminderRun } from '../modules/safeguarding/reminders';
import { BOOKINGS_RECONCILE_JOB } from '../modules/scheduler/service';
import { isWithinOfficeHours, nextRefreshAt } from '../office-hours';
import { maintainSubscription, type SubscriptionOutcome } from '../sharepoint/notifications';
import type { DrainResult } from '../sharepoint/outbox-worker';
import { type RefreshKind, readJobState, refreshJobOf } from './refresh-job';

export interface SchedulerOptions {
  /** croner pattern of the refresh check (default every 30 seconds) */
  tickPattern: string;
  /** wait between outbox rounds when nothing is due */
  drainIdleMs: number;
  /** rows per round (the outbox worker's batch size), to know whether more are waiting */
  drainBatchSize: number;
}

export const DEFAULT_SCHEDULER_OPTIONS: SchedulerOptions = {
  tickPattern: '*/30 * * * * *',
  drainIdleMs: 2000,
  drainBatchSize: 100,
};

export type TickOutcome =
  | 'outside-office-hours'
  | 'not-due'
  | 'not-configured'
  | 'refreshed'
  | 'reconciled'
  | 'failed'
  | 'busy';

export class Scheduler {
  readonly options: SchedulerOptions;
  private cron: Cron | undefined;
  private stopped = true;
  private drainLoop: Promise<void> | undefined;
  /** the drain loop's pause: a save committed while a round ran sends it round again at once */
  private readonly drainPause = new WakeablePause();
  private ticking: Promise<TickOutcome> | undefined;
  private reminding: Promise<AutomaticOutcome> | undefined;
  private subscribing: Promise<SubscriptionOutcome> | undefined;
  private safeguarding: Promise<SafeguardingReminderRun['outcome']> | undefined;
  private offering: Promise<number> | undefined;
  private retaining: Promise<RetentionRunOutcome | 'failed'> | undefined;
  private stopListening: (() => void) | undefined;
  private stopListeningForPushes: (() => void) | undefined;
  private pushLoop: Promise<void> | undefined;
  private readonly pushPause = new WakeablePause();

  constructor(
    private readonly ctx: AppContext,
    options: Partial<SchedulerOptions> = {},
  ) {
    this.options = { ...DEFAULT_SCHEDULER_OPTIONS, ...options };
  }

  start(): this {
    if (!this.stopped) return this;
    this.stopped = false;
    this.cron = new Cron(this.options.tickPattern, { protect: true, unref: true }, () => {
      void this.tick();
      void this.reminderTick();
      void this.subscriptionTick();
      void this.safeguardingTick();
      void this.offersTick();
      void this.retentionTick();
    });
    this.stopListening = this.ctx.sharePoint.outboxWakeUp.listen(() => this.notify());
    this.drainLoop = this.runDrainLoop();
    this.stopListeningForPushes = this.ctx.push.wakeUp.listen(() => this.notifyPushes());
    this.pushLoop = this.runPushLoop();
    void this.tick();
    void this.subscriptionTick();
    return this;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cron?.stop();
    this.cron = undefined;
    this.stopListening?.();
    this.stopListeningForPushes?.();
    this.drainPause.wake();
    this.pushPause.wake();
    await this.drainLoop?.catch(() => {});
    await this.pushLoop?.catch(() => {});
    await this.ticking?.catch(() => {});
    await this.reminding?.catch(() => {});
    await this.subscribing?.catch(() => {});
    await this.safeguarding?.catch(() => {});
    await this.offering?.catch(() => {});
    await this.retaining?.catch(() => {});
  }

  /**
   * The retention schedule (modules/retention/service.ts): once a day, on one instance, at the first
   * tick of the day in ORG_TIMEZONE. Never throws.
   */
  retentionTick(): Promise<RetentionRunOutcome | 'failed'> {
    this.retaining ??= runDailyRetention(this.ctx)
      .catch((error: unknown) => {
        this.ctx.log.warn({ err: describeError(error) }, 'retention run failed');
        return 'failed' as const;
      })
      .finally(() => {
        this.retaining = undefined;
      });
    return this.retaining;
  }

  /**
   * Safeguarding emails (modules/safeguarding/reminders.ts): facilitators' checks due soon every day,
   * the staff digest on Mondays, from 09:00 in ORG_TIMEZONE; once a day per person. Never throws.
   */
  safeguardingTick(): Promise<SafeguardingReminderRun['outcome']> {
    this.safeguarding ??= runSafeguardingReminders(this.ctx)
      .then((run) => run.outcome)
      .catch((error: unknown) => {
        this.ctx.log.warn({ err: describeError(error) }, 'safeguarding reminder check failed');
        return 'failed' as const;
      })
      .finally(() => {
        this.safeguarding = undefined;
      });
    return this.safeguarding;
  }

  /**
   * Offers whose reply-by time passed expire (and, where staff asked, go to the next ranked
   * facilitator); live offers of sessions a refresh found filled, and those whose facilitator's
   * safeguarding checks no longer cover the session's day, are withdrawn. Each instance may
   * run it: rows are claimed with SKIP LOCKED. Never throws; resolves to the offers expired.
   */
  offersTick(): Promise<number> {
    this.offering ??= (async () => {
      const expired = await expireOffers(this.ctx);
      await withdrawOffersOfFilledSessions(this.ctx);
      await withdrawOffersSafeguardingNoLongerAllows(this.ctx);
      return expired;
    })()
      .catch((error: unknown) => {
        this.ctx.log.warn({ err: describeError(error) }, 'offer expiry check failed');
        return 0;
      })
      .finally(() => {
        this.offering = undefined;
      });
    return this.offering;
  }

  /**
   * The automatic availability reminder (modules/reminders/service.ts): sends on its day of the month
   * in ORG_TIMEZONE, once; otherwise a single read. Independent of office hours. Never throws.
   */
  reminderTick(): Promise<AutomaticOutcome> {
    this.reminding ??= runAutomaticReminders(this.ctx)
      .catch((error: unknown) => {
        this.ctx.log.warn({ err: describeError(error) }, 'automatic reminder check failed');
        return 'failed' as const;
      })
      .finally(() => {
        this.reminding = undefined;
      });
    return this.reminding;
  }

  /** Keeps the change-notification subscription (sharepoint/notifications.ts). Never throws. */
  subscriptionTick(): Promise<SubscriptionOutcome> {
    this.subscribing ??= maintainSubscription(this.ctx)
      .catch((error: unknown) => {
        this.ctx.log.warn({ err: describeError(error) }, 'change-notification check failed');
        return 'failed' as const;
      })
      .finally(() => {
        this.subscribing = undefined;
      });
    return this.subscribing;
  }

  /** When the next background refresh is due, given the last one that finished. */
  async nextDueAt(now: Date = this.ctx.now()): Promise<Date> {
    const { config } = this.ctx;
    const state = await readJobState(this.ctx);
    const last = state?.finishedAt;
    // Never refreshed: due at once. Compared with the caller's `now`, not a later reading of the
    // clock, which would always lie a few milliseconds ahead and keep the first refresh "not due".
    if (!last) return now;
    return nextRefreshAt(config.OFFICE_HOURS, config.ORG_TIMEZONE, config.BOOKINGS_REFRESH_MINUTES, last);
  }

  /**
   * When the next full read of the Bookings list is due: a reconciliation period after the last
   * one that succeeded. Never reconciled but refreshed: due now (after an upgrade). Never refreshed
   * at all: undefined, as the first refresh reads everything and counts as a reconciliation.
   */
  async reconcileDueAt(now: Date = this.ctx.now()): Promise<Date | undefined> {
    const last = (await readJobState(this.ctx, BOOKINGS_RECONCILE_JOB))?.finishedAt;
    if (last) return new Date(last.getTime() + this.ctx.config.SHAREPOINT_RECONCILE_DAYS * 24 * 3600_000);
    return (await readJobState(this.ctx))?.finishedAt ? now : undefined;
  }

  /** What the scheduler should run now: a reconciliation when one is due, else a refresh when due. */
  private async whatIsDue(now: Date): Promise<RefreshKind | null> {
    if ((await this.nextDueAt(now)).getTime() > now.getTime()) return null;
    const reconcileAt = await this.reconcileDueAt(now);
    return reconcileAt && reconcileAt.getTime() <= now.getTime() ? 'reconcile' : 'refresh';
  }

  /** One check: refresh (or reconcile) if inside office hours and due. Never throws. */
  tick(): Promise<TickOutcome> {
    this.ticking ??= this.tickOnce()
      .catch((error: unknown) => {
        this.ctx.log.warn({ err: describeError(error) }, 'scheduler tick failed');
        return 'failed' as const;
      })
      .finally(() => {
        this.ticking = undefined;
      });
    return this.ticking;
  }

  private async tickOnce(): Promise<TickOutcome> {
    const { config } = this.ctx;
    const now = this.ctx.now();
    await this.clearDeadRunner(now);
    if (!isWithinOfficeHours(config.OFFICE_HOURS, config.ORG_TIMEZONE, now)) return 'outside-office-hours';
    if (!(await this.whatIsDue(now))) return 'not-due';
    const job = refreshJobOf(this.ctx);
    if (job.running) return 'busy';
    if (!(await this.ctx.sharePoint.session())) return 'not-configured';
    try {
      const ran = await job.runIfDue(() => this.whatIsDue(now));
      if (ran.outcome === 'refreshed' && ran.kind === 'reconcile') return 'reconciled';
      return ran.outcome;
    } catch {
      // recorded in scheduler_state and logged by the job; the next slot tries again
      return 'failed';
    }
  }

  /** An instance that died mid-refresh leaves "updating" behind; whoever can take the lock clears it. */
  private async clearDeadRunner(now: Date): Promise<void> {
    const state = await readJobState(this.ctx);
    const job = refreshJobOf(this.ctx);
    if (!state?.isUpdating || job.running) return;
    const beat = state.heartbeatAt ?? state.startedAt;
    if (beat && now.getTime() - beat.getTime() < job.options.staleMs) return;
    const lock = await tryJobLock(this.ctx.database, 'bookings-refresh');
    if (!lock) return;
    try {
      await this.ctx.db
        .update(schedulerState)
        .set({
          isUpdating: false,
          lastError: 'The refresh stopped unexpectedly (the instance running it ended).',
        })
        .where(eq(schedulerState.name, state.name));
    } finally {
      await lock.release();
    }
  }

  /** Deliver availability until stopped: straight on while work is due, else a short idle wait. */
  private async runDrainLoop(): Promise<void> {
    while (!this.stopped) {
      let result: DrainResult | undefined;
      try {
        result = await this.drainOnce();
      } catch (error) {
        this.ctx.log.warn({ err: describeError(error) }, 'outbox drain failed');
      }
      if (this.stopped) break;
      const moreDue = result !== undefined && result.claimed > 0 && !result.serviceDown;
      const woken = this.drainPause.takeWakeUp() && result?.serviceDown !== true;
      if (!moreDue && !woken) await this.drainPause.wait(this.options.drainIdleMs);
    }
  }

  /** One outbox round under the drain lock (one drainer across instances). */
  async drainOnce(): Promise<DrainResult | undefined> {
    const lock = await tryJobLock(this.ctx.database, 'outbox-drain');
    if (!lock) return undefined;
    try {
      const connector = this.ctx.sharePoint;
      const writes = await connector.drainBookingWrites(acceptanceWriteBack(this.ctx));
      if (writes.failed > 0) {
        this.ctx.log.warn(
          { failed: writes.failed, err: writes.lastError },
          'bookings write to SharePoint failed; will retry',
        );
      }
      const result = await connector.drainOutbox();
      // session writes count as work done, so the loop goes round again at once while any are due
      result.claimed += writes.claimed;
      if (result.failed > 0) {
        this.ctx.log.warn(
          { delivered: result.delivered, failed: result.failed, err: result.lastError },
          'availability delivery to SharePoint failed; will retry',
        );
      }
      return result;
    } finally {
      await lock.release();
    }
  }

  /** Wake the drain loop early (e.g. right after availability was saved). */
  notify(): void {
    this.drainPause.wake();
  }

  /**
   * Deliver web pushes until stopped (modules/notifications/delivery.ts). Every instance runs one: the
   * lease shares the queue, so no push is sent twice. Woken when one is queued, else every idle wait,
   * which also picks up pushes held by quiet hours and retries when they come due.
   */
  private async runPushLoop(): Promise<void> {
    while (!this.stopped) {
      let round: PushRound | undefined;
      try {
        round = await deliverPushes(this.ctx);
      } catch (error) {
        this.ctx.log.warn({ err: describeError(error) }, 'push delivery failed');
      }
      if (this.stopped) break;
      const moreDue = round !== undefined && round.claimed > 0;
      const woken = this.pushPause.takeWakeUp();
      if (!moreDue && !woken) await this.pushPause.wait(this.options.drainIdleMs);
    }
  }

  /** Wake the push loop early (right after a push was queued). */
  notifyPushes(): void {
    this.pushPause.wake();
  }
}

/**
 * A work loop's idle wait that a wake-up ends early. A wake-up that comes while the loop is working
 * (not waiting) is kept, so the loop can go round again at once instead of waiting.
 */
class WakeablePause {
  private endWait: (() => void) | undefined;
  private wokenWhileWorking = false;

  wake(): void {
    if (this.endWait) this.endWait();
    else this.wokenWhileWorking = true;
  }

  /** Whether a wake-up came while the loop worked; asking forgets it. */
  takeWakeUp(): boolean {
    const woken = this.wokenWhileWorking;
    this.wokenWhileWorking = false;
    return woken;
  }

  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.endWait = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      this.endWait = done;
    });
  }
}

export function startScheduler(ctx: AppContext, options: Partial<SchedulerOptions> = {}): Scheduler {
  return new Scheduler(ctx, options).start();
}
