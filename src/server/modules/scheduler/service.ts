import { eq } from 'drizzle-orm';
import type { SchedulerStatus } from '../../../shared/schemas/scheduler';
import type { AppContext } from '../../context';
import { schedulerState } from '../../db/schema';
import { officeHoursStatus } from '../../jobs/office-hours';

/** The scheduler_state row the booking-refresh job keeps. */
export const BOOKINGS_REFRESH_JOB = 'bookings-refresh';
/** The scheduler_state row of the last full read of the Bookings list (its finishedAt: last success). */
export const BOOKINGS_RECONCILE_JOB = 'bookings-reconcile';

/**
 * What the dashboard shows about background updates. Office hours and the next update come from the
 * configuration and the clock; whether an update runs right now comes from the shared state row, so
 * every instance answers the same.
 */
export async function schedulerStatusNow(
  ctx: Pick<AppContext, 'db' | 'config' | 'now'>,
): Promise<SchedulerStatus> {
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
    refreshStage: isUpdating ? (refreshStageHere(ctx) ?? 'connecting') : null,
    lastRefreshError: isUpdating ? null : (row?.lastError ?? null),
  };
}

/**
 * The stage of a refresh running in this process. Stages change in a second or two, too often to
 * write to the shared row; a refresh on another instance reads as `connecting` until it ends.
 */
const stages = new WeakMap<object, 'connecting' | 'processing'>();

export function setRefreshStageHere(ctx: object, stage: 'connecting' | 'processing' | null) {
  if (stage) stages.set(ctx, stage);
  else stages.delete(ctx);
}

function refreshStageHere(ctx: object) {
  return stages.get(ctx);
}
