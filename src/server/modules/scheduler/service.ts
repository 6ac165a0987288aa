import { eq, sql } from 'drizzle-orm';
import type { SchedulerStatus } from '../../../shared/schemas/scheduler';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { schedulerState, syncOutbox } from '../../db/schema';
import { describeMoment, officeHoursStatus } from '../../office-hours';
import type { BookingsRefreshResult } from '../../sharepoint/bookings-refresh';
import type { SharePointConnector } from '../../sharepoint/connector';
import { notificationsActive } from '../../sharepoint/notifications';
import { readProblems } from '../../sharepoint/problems';

/** Where a refresh running in this process has got to (the status line shows it). */
export type RefreshStage = 'connecting' | 'processing';

/**
 * The bookings refresh as routes and services see it. jobs/refresh-job.ts implements it; it is handed
 * in (the app context's `bookingsRefresh`) so that nothing below jobs/ imports jobs/.
 */
export interface BookingsRefresher {
  /** Refresh now, or join the refresh already running here or on another instance. */
  run(): Promise<BookingsRefreshResult>;
  /** Start a refresh without waiting; one already running is followed by another (a change arrived). */
  runSoon(): void;
  /** The stage of a refresh running in this process; null when none is. */
  readonly stage: RefreshStage | null;
}

/** The scheduler_state row the booking-refresh job keeps. */
export const BOOKINGS_REFRESH_JOB = 'bookings-refresh';
/** The scheduler_state row of the last full read of the Bookings list (its finishedAt: last success). */
export const BOOKINGS_RECONCILE_JOB = 'bookings-reconcile';

/**
 * What the dashboard shows about background updates. Office hours and the next update come from the
 * configuration and the clock; whether an update runs right now comes from the shared state row, so
 * every instance answers the same.
 */
export async function schedulerStatusNow(ctx: {
  db: Db;
  config: Config;
  now: () => Date;
  bookingsRefresh: Pick<BookingsRefresher, 'stage'>;
  sharePoint: SharePointConnector;
}): Promise<SchedulerStatus> {
  const [row] = await ctx.db
    .select({ isUpdating: schedulerState.isUpdating, lastError: schedulerState.lastError })
    .from(schedulerState)
    .where(eq(schedulerState.name, BOOKINGS_REFRESH_JOB));
  const { isOfficeHours, nextUpdate } = officeHoursStatus(
    ctx.config.OFFICE_HOURS,
    ctx.config.ORG_TIMEZONE,
    ctx.config.BOOKINGS_REFRESH_MINUTES,
    ctx.now(),
  );
  const isUpdating = row?.isUpdating ?? false;
  return {
    isUpdating,
    isOfficeHours,
    nextUpdate,
    refreshStage: isUpdating ? (ctx.bookingsRefresh.stage ?? 'connecting') : null,
    lastRefreshError: isUpdating ? null : (row?.lastError ?? null),
    changeMode: (await notificationsActive(ctx)) ? 'notifications' : 'polling',
    sharePointConfigured: 'session' in (await ctx.sharePoint.sessionOrReason()),
    sharePointProblems: await sharePointProblemsNow(ctx),
  };
}

/** Failing SharePoint work, with what to do. An availability problem with nothing left to send is over. */
async function sharePointProblemsNow(ctx: { db: Db; config: Config; now: () => Date }) {
  const problems = await readProblems(ctx.db);
  if (problems.length === 0) return [];
  const [waiting] = await ctx.db
    .select({ days: sql<number>`count(distinct (${syncOutbox.userId}, ${syncOutbox.date}))::int` })
    .from(syncOutbox);
  const now = ctx.now();
  return problems
    .filter((p) => p.area !== 'availability' || (waiting?.days ?? 0) > 0)
    .map((p) => ({
      area: p.area,
      message: p.message,
      action: p.action,
      since: describeMoment(p.since, now, ctx.config.ORG_TIMEZONE),
      waitingDays: p.area === 'availability' ? (waiting?.days ?? 0) : null,
    }));
}
