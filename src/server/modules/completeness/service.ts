import { sql } from 'drizzle-orm';
import { endOfMonth, monthLabel, monthWeekdays, todayIn } from '../../../shared/calendar';
import { compareAreaNames } from '../../../shared/collate';
import type {
  CompletenessResponse,
  CompletenessStatus,
  FacilitatorCompleteness,
} from '../../../shared/schemas/completeness';
import { isEmailAddress } from '../../../shared/schemas/reminders';
import type { Queryable } from '../../db/client';
import { STAFF_ROLE } from '../users/service';

export interface CompletenessOptions {
  /** `yyyy-MM` */
  month: string;
  area?: string | undefined;
  timeZone: string;
  now: Date;
}

interface Row {
  id: number;
  username: string;
  display_name: string | null;
  email: string | null;
  area: string | null;
  set_days: number;
  last_reminded_at: string | Date | null;
  reminded_on: string | null;
}

/** The month a date falls in, `yyyy-MM`, in the organisation's zone. */
export function currentMonth(timeZone: string, now: Date): string {
  return todayIn(timeZone, now).slice(0, 7);
}

/**
 * Where a reminder to this person goes: their email, else their username when it is an email address
 * (usernames are email addresses in practice); null when neither is usable.
 */
export function reminderAddress(row: { email: string | null; username: string }): string | null {
  const email = row.email?.trim() ?? '';
  if (email && isEmailAddress(email)) return email;
  return isEmailAddress(row.username) ? row.username : null;
}

export function statusOf(setDays: number, weekdays: number): CompletenessStatus {
  if (setDays <= 0) return 'missing';
  return setDays >= weekdays ? 'complete' : 'partial';
}

/**
 * Every facilitator (anyone but staff) with how many of the month's weekdays (Monday to Friday) have
 * availability set. A weekday with a booking counts as set: the facilitator is working and cannot
 * change that day, so a reminder about it could not be acted on. One query whatever the number of
 * facilitators; the area filter is applied to its rows so the list of areas stays complete.
 */
export async function computeCompleteness(
  db: Queryable,
  options: CompletenessOptions,
): Promise<CompletenessResponse> {
  const from = `${options.month}-01`;
  const to = endOfMonth(from);
  const weekdays = monthWeekdays(from).length;
  const today = todayIn(options.timeZone, options.now);

  const result = await db.execute(sql`
    with covered as (
      select user_id, count(distinct date)::int as set_days
      from (
        select user_id, date from availability where date between ${from} and ${to}
        union
        select user_id, date from bookings where user_id is not null and date between ${from} and ${to}
      ) days
      where extract(isodow from date) < 6
      group by user_id
    ), reminded as (
      select user_id, max(sent_at) as last_reminded_at, max(sent_on)::text as reminded_on
      from reminder_sends
      where month = ${options.month}
      group by user_id
    )
    select u.id, u.username, u.display_name, u.email, u.area,
           coalesce(c.set_days, 0) as set_days, r.last_reminded_at, r.reminded_on
    from users u
    left join covered c on c.user_id = u.id
    left join reminded r on r.user_id = u.id
    where u.role <> ${STAFF_ROLE}
    order by lower(coalesce(nullif(u.display_name, ''), u.username)), u.id`);
  const rows = (result as unknown as { rows: Row[] }).rows;

  const areas = [
    ...new Set(rows.map((row) => row.area).filter((area): area is string => Boolean(area))),
  ].sort(compareAreaNames);
  const facilitators: FacilitatorCompleteness[] = rows
    .filter((row) => !options.area || row.area === options.area)
    .map((row) => {
      const setDays = Number(row.set_days);
      return {
        userId: row.id,
        name: row.display_name || row.username,
        email: reminderAddress(row),
        area: row.area,
        status: statusOf(setDays, weekdays),
        setDays,
        weekdays,
        lastRemindedAt: row.last_reminded_at ? new Date(row.last_reminded_at).toISOString() : null,
        remindedToday: row.reminded_on === today,
      };
    });
  const counts = { complete: 0, partial: 0, missing: 0 };
  for (const f of facilitators) counts[f.status] += 1;
  return { month: options.month, label: monthLabel(from), weekdays, areas, counts, facilitators };
}
