/**
 * Seeds an organisation for the benchmarks, in SQL so that millions of rows take seconds, not
 * minutes. Every choice (which days are set, their status, times, notes, bookings) comes from
 * `hashtext` of the facilitator and the day, so the same size and range give the same rows on
 * PGlite and PostgreSQL, in any order, on every run.
 */
import { sql } from 'drizzle-orm';
import { hashPassword } from '../src/server/auth/passwords';
import type { Db } from '../src/server/db/client';

export const BENCH_PASSWORD = 'facilitator-password';
export const AREAS = ['North', 'South', 'East', 'West', 'Central', 'Coast', 'Valley'];

/** `facilitator0001@example.org` … : the user name of facilitator n (1-based). */
export const facilitatorUsername = (n: number) => `facilitator${String(n).padStart(4, '0')}@example.org`;

/** Creates facilitators 1..count (all with BENCH_PASSWORD) and returns their ids in order. */
export async function seedFacilitators(db: Db, count: number): Promise<number[]> {
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const areas = sql.raw(`array[${AREAS.map((a) => `'${a}'`).join(',')}]`);
  const result = (await db.execute(sql`
    insert into users (username, username_canonical, password_hash, display_name, email, freelancer_id, role, area, last_availability_updated_at)
    select 'facilitator' || lpad(n::text, 4, '0') || '@example.org', 'facilitator' || lpad(n::text, 4, '0') || '@example.org', ${passwordHash},
           case when n % 3 = 0 then 'dr ' else '' end || 'Facilitator ' || lpad(n::text, 4, '0'),
           'facilitator' || n || '@example.org', 'F' || n, 'facilitator',
           case when n % 11 = 0 then null else (${areas})[1 + n % ${AREAS.length}] end,
           case when n % 5 = 0 then null else now() end
    from generate_series(1, ${count}) n
    order by n
    returning id`)) as unknown as { rows: Array<{ id: number }> };
  return result.rows.map((r) => r.id).sort((a, b) => a - b);
}

/**
 * Availability, bookings and staff notes for every facilitator over [from, to]: about 85% of
 * weekdays and 15% of weekend days set (a third each available, limited, unavailable; half with
 * times; one in ten with a note), a booking on about a fifth of weekdays, and a staff note on about
 * one facilitator-day in seventy. Days already set are left as they are.
 */
export async function seedDays(
  db: Db,
  from: string,
  to: string,
): Promise<{ availability: number; bookings: number; notes: number }> {
  const h = (salt: string) => sql.raw(`abs(hashtext(u.id || ':' || d.day || ':${salt}')) % 100`);
  const days = sql`(select day::date as day, extract(isodow from day) as dow
                    from generate_series(${from}::date, ${to}::date, '1 day') day) d`;
  const facilitators = sql`(select id from users where role = 'facilitator') u`;
  const availability = (await db.execute(sql`
    insert into availability (user_id, date, status, start_time, end_time, notes, synced_to_sharepoint)
    select u.id, d.day,
           (array['available', 'limited', 'unavailable'])[1 + ${h('status')} % 3],
           case when ${h('times')} < 50 then '09:00' else '' end,
           case when ${h('times')} < 50 then case when ${h('end')} < 50 then '12:00' else '17:00' end else '' end,
           case when ${h('notes')} < 10 then 'Prefers mornings' else '' end,
           true
    from ${facilitators} cross join ${days}
    where ${h('set')} < case when d.dow < 6 then 85 else 15 end
    on conflict (user_id, date) do nothing`)) as unknown as { affectedRows?: number; rowCount?: number };
  const bookings = (await db.execute(sql`
    insert into bookings (user_id, freelancer_id, title, date, start_time, end_time, location, sharepoint_id,
                          school_id, school_name, school_address, school_postcode, program, time_slot,
                          delivery_type, year)
    select u.id, 'F' || u.id, 'Workshop ' || u.id || '-' || d.day, d.day,
           case when ${h('slot')} < 50 then '09:30' else '13:00' end,
           case when ${h('slot')} < 50 then '12:00' else '15:30' end,
           'School hall', 'bench-' || u.id || '-' || d.day, 'S' || ${h('school')},
           'School ' || ${h('school')}, ${h('school')} || ' High Street', 'AB1 2CD', 'Clay',
           case when ${h('slot')} < 50 then 'Morning' else 'Afternoon' end, 'Live', 'Year 5'
    from ${facilitators} cross join ${days}
    where d.dow < 6 and ${h('booked')} < 20
    on conflict (sharepoint_id) do nothing`)) as unknown as { affectedRows?: number; rowCount?: number };
  const notes = (await db.execute(sql`
    insert into staff_notes (facilitator_id, date, note, priority)
    select u.id, d.day, 'Check DBS renewal', (array['normal', 'high', 'urgent'])[1 + ${h('priority')} % 3]
    from ${facilitators} cross join ${days}
    where abs(hashtext(u.id || ':' || d.day || ':note')) % 1000 < 15`)) as unknown as {
    affectedRows?: number;
    rowCount?: number;
  };
  const count = (r: { affectedRows?: number; rowCount?: number }) => r.affectedRows ?? r.rowCount ?? 0;
  await db.execute(sql`analyze`);
  return { availability: count(availability), bookings: count(bookings), notes: count(notes) };
}

/**
 * One open session (a booking with no facilitator yet, ADR 19) on every weekday in [from,
 * to], so the open-sessions page has sessions to offer, each offer listing every facilitator.
 */
export async function seedOpenSessions(db: Db, from: string, to: string): Promise<number> {
  const result = (await db.execute(sql`
    insert into bookings (user_id, freelancer_id, title, date, start_time, end_time, location, sharepoint_id,
                          school_id, school_name, school_address, school_postcode, program, time_slot,
                          delivery_type, year)
    select null, '', 'Open workshop ' || d.day, d.day, '09:30', '12:00', 'School hall',
           'bench-open-' || d.day, 'S-open', 'Open Lane Primary', '1 High Street', 'AB1 2CD', 'Clay',
           'Morning', 'Live', 'Year 5'
    from (select day::date as day, extract(isodow from day) as dow
          from generate_series(${from}::date, ${to}::date, '1 day') day) d
    where d.dow < 6
    on conflict (sharepoint_id) do nothing`)) as unknown as { affectedRows?: number; rowCount?: number };
  return result.affectedRows ?? result.rowCount ?? 0;
}
