import { eq } from 'drizzle-orm';
import type { SchedulerStatus } from '../../../shared/schemas/scheduler';
import type { AppContext } from '../../context';
import { schedulerState } from '../../db/schema';
import { officeHoursStatus } from '../../jobs/office-hours';

/** The scheduler_state row the booking-refresh job keeps. */
export const BOOKINGS_REFRESH_JOB = 'bookings-refresh';

/**
 * What the dashboard shows about background updates. Office hours and the next update come from the
 * configuration and the clock; whether an update runs right now comes from the shared state row, so
 * every instance answers the same.
 */
export async function schedulerStatusNow(
  ctx: Pick<AppContext, 'db' | 'config' | 'now'>,
): Promise<SchedulerStatus> {
  const [row] = await ctx.db
    .select({ isUpdating: schedulerState.isUpdating })
    .from(schedulerState)
    .where(eq(schedulerState.name, BOOKINGS_REFRESH_JOB));
  const { isOfficeHours, nextUpdate } = officeHoursStatus(
    ctx.config.OFFICE_HOURS,
    ctx.config.ORG_TIMEZONE,
    ctx.config.BOOKINGS_REFRESH_MINUTES,
    ctx.now(),
  );
  return { isUpdating: row?.isUpdating ?? false, isOfficeHours, nextUpdate };
}
