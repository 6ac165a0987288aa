import { type SQL, sql } from 'drizzle-orm';
import { endOfMonth, monthLabel, monthWeekdays, todayIn } from '../../../shared/calendar';
import { compareAreaNames } from '../../../shared/collate';
import type {
  CompletenessResponse,
  CompletenessSort,
  CompletenessStatus,
  FacilitatorCompleteness,
} from '../../../shared/schemas/completeness';
import type { SortDirection } from '../../../shared/schemas/paging';
import { isEmailAddress } from '../../../shared/schemas/reminders';
import type { Queryable } from '../../db/client';
import { after, decodeKeyset, encodeKeyset, type OrderColumn, orderBy } from '../keyset';
import { STAFF_ROLE } from '../users/service';

export interface CompletenessOptions {
  /** `yyyy-MM` */
  month: string;
  area?: string | undefined;
  timeZone: string;
  now: Date;
}

/** Every facilitator's completeness of a month, for the reminders that go to all who need them. */
export interface MonthCompleteness {
  label: string;
  facilitators: FacilitatorCompleteness[];
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
 * facilitators. The reminders read it whole, as they write to everyone it names; the page reads
 * one page at a time (`readCompletenessPage`).
 */
export async function computeCompleteness(
  db: Queryable,
  options: CompletenessOptions,
): Promise<MonthCompleteness> {
  const from = `${options.month}-01`;
  const to = endOfMonth(from);
  const weekdays = monthWeekdays(from).length;
  const today = todayIn(options.timeZone, options.now);

  const result = await db.execute(sql`
    with covered as (
      ${coveredWeekdays(from, to)}
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

  return {
    label: monthLabel(from),
    facilitators: rows
      .filter((row) => !options.area || row.area === options.area)
      .map((row) => toFacilitator(row, weekdays, today)),
  };
}

function toFacilitator(row: Row, weekdays: number, today: string): FacilitatorCompleteness {
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
}

export interface CompletenessPageQuery {
  month: string;
  area?: string | undefined;
  sort: CompletenessSort;
  direction: SortDirection;
  cursor?: string | undefined;
  limit: number;
}

/**
 * The grid's order of names, lower-cased, the expression `users_grid_order_idx` holds: sorted by
 * name, a page is read from that index from where the cursor points.
 */
const NAME = sql`lower(coalesce(nullif(btrim(u.display_name), ''), u.username))`;

/** The list's order: the chosen column, then the name and the id (by name: the name and the id). */
function orderOf(sort: CompletenessSort, direction: SortDirection, weekdays: number): OrderColumn[] {
  const descending = direction === 'descending';
  if (sort === 'name') {
    return [
      { expression: NAME, descending },
      { expression: sql`u.id`, descending },
    ];
  }
  const keys: SQL[] =
    sort === 'area'
      ? // those without an area after the rest (before them, the other way)
        [
          sql`(case when nullif(btrim(u.area), '') is null then 1 else 0 end)`,
          sql`lower(coalesce(btrim(u.area), ''))`,
        ]
      : sort === 'status'
        ? // missing, partial, complete: those to chase first
          [sql`(case when f.set_days <= 0 then 0 when f.set_days >= ${weekdays}::int then 2 else 1 end)`]
        : [sql`f.set_days`];
  return [
    ...keys.map((expression) => ({ expression, descending })),
    { expression: NAME, descending: false },
    { expression: sql`u.id`, descending: false },
  ];
}

/** Every facilitator's count of weekdays set between `from` and `to` (their days and bookings), as `user_id, set_days`. */
function coveredWeekdays(from: string, to: string): SQL {
  return sql`select user_id, count(distinct date)::int as set_days
    from (
      select user_id, date from availability where date between ${from} and ${to}
      union
      select user_id, date from bookings where user_id is not null and date between ${from} and ${to}
    ) days
    where extract(isodow from date) < 6
    group by user_id`;
}

/** The weekdays of the month set by one facilitator `u`: their days and bookings, through the (person, day) indexes. */
function setDaysOf(from: string, to: string): SQL {
  return sql`(select count(*)::int from (
      select a.date from availability a where a.user_id = u.id and a.date between ${from} and ${to}
      union
      select b.date from bookings b where b.user_id = u.id and b.date between ${from} and ${to}
    ) d where extract(isodow from d.date) < 6)`;
}

/**
 * One page of a month's completeness: the facilitators of the area (or everyone) in the chosen order
 * from the cursor on, each with the weekdays they have set and their last reminder; and, from one
 * aggregate over everyone, the counts, the areas and whom "everyone" reminds. By name the page comes
 * from the order's index and only its rows are counted; by another column every facilitator's month
 * is counted in the database and only the page leaves it.
 */
export async function readCompletenessPage(
  db: Queryable,
  query: CompletenessPageQuery,
  clock: { timeZone: string; now: Date },
): Promise<CompletenessResponse> {
  const from = `${query.month}-01`;
  const to = endOfMonth(from);
  const weekdays = monthWeekdays(from).length;
  const today = todayIn(clock.timeZone, clock.now);
  const order = orderOf(query.sort, query.direction, weekdays);
  const cursor = query.cursor ? decodeKeyset(query.cursor, order.length) : null;
  const inArea = query.area ? sql`u.area = ${query.area}` : sql`true`;
  const keyValues = sql.join(
    order.map((column, i) => sql`${column.expression} as ${sql.raw(`k${i}`)}`),
    sql`, `,
  );

  const [pageResult, summaryResult] = await Promise.all([
    db.execute(sql`
      select u.id, u.username, u.display_name, u.email, u.area, f.set_days,
             (select max(r.sent_at) from reminder_sends r where r.user_id = u.id and r.month = ${query.month}) as last_reminded_at,
             (select max(r.sent_on)::text from reminder_sends r where r.user_id = u.id and r.month = ${query.month}) as reminded_on,
             ${keyValues}
      from users u, lateral (select ${setDaysOf(from, to)} as set_days) f
      where u.role <> ${STAFF_ROLE} and ${inArea} ${cursor ? sql`and ${after(order, cursor)}` : sql``}
      order by ${orderBy(order)}
      limit ${query.limit + 1}`),
    db.execute(sql`
      with covered as (
        ${coveredWeekdays(from, to)}
      ), people as (
        select u.id, u.area, ${inArea} as shown, coalesce(c.set_days, 0) as set_days
        from users u left join covered c on c.user_id = u.id
        where u.role <> ${STAFF_ROLE}
      )
      select (count(*) filter (where shown))::int as matching,
             (count(*) filter (where shown and set_days <= 0))::int as missing,
             (count(*) filter (where shown and set_days > 0 and set_days < ${weekdays}::int))::int as partial,
             (count(*) filter (where shown and set_days > 0 and set_days >= ${weekdays}::int))::int as complete,
             coalesce(array_agg(id order by id) filter (where shown and set_days < ${weekdays}::int), '{}') as remindable,
             coalesce(array_agg(distinct area) filter (where area is not null and area <> ''), '{}') as areas
      from people`),
  ]);
  const rows = (pageResult as unknown as { rows: Array<Row & Record<string, CursorCell>> }).rows;
  const [summary] = (
    summaryResult as unknown as {
      rows: Array<{
        matching: number;
        missing: number;
        partial: number;
        complete: number;
        remindable: number[];
        areas: string[];
      }>;
    }
  ).rows;
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const nextCursor =
    rows.length > query.limit && last ? encodeKeyset(order.map((_, i) => cursorValue(last[`k${i}`]))) : null;
  return {
    month: query.month,
    label: monthLabel(from),
    weekdays,
    areas: [...(summary?.areas ?? [])].sort(compareAreaNames),
    counts: {
      complete: summary?.complete ?? 0,
      partial: summary?.partial ?? 0,
      missing: summary?.missing ?? 0,
    },
    matching: summary?.matching ?? 0,
    remindableIds: (summary?.remindable ?? []).map(Number),
    facilitators: page.map((row) => toFacilitator(row, weekdays, today)),
    nextCursor,
  };
}

type CursorCell = string | number | null;

/** A key as the cursor holds it: numbers as numbers, text as text. */
function cursorValue(value: CursorCell | undefined): string | number {
  if (typeof value === 'number') return value;
  return value ?? '';
}
