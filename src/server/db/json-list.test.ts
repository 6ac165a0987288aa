/**
 * The list answers built by the database (db/json-list.ts) must be what JSON.stringify of the same
 * rows gives, and must match the shared response schemas, for any text people can store.
 */
import { and, asc, between, eq, getTableColumns, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { availability as availabilitySchema } from '../../shared/schemas/availability';
import { booking as bookingSchema } from '../../shared/schemas/bookings';
import { availabilityListFormat, listAvailabilityJson } from '../modules/availability/service';
import { bookingsListFormat, listBookingsJson } from '../modules/bookings/service';
import { listUsers, listUsersJson } from '../modules/users/service';
import { insertBookings, insertDays } from '../test/factories';
import { createTestApp, type TestApp } from '../test/harness';
import { jsonArrayStatement, statementsFormat } from './json-list';
import { availability, bookings } from './schema';

let t: TestApp;
let ann: { id: number };
let bob: { id: number };

// Everything JSON escapes or PostgreSQL might print its own way: quotes, backslashes, control
// characters, HTML, non-Latin scripts, characters outside the Basic Multilingual Plane, a U+2028.
const AWKWARD = [
  'plain',
  '',
  'quote " and backslash \\ and slash /',
  'tab\tnewline\ncarriage\rbell\u0007 unit\u001f',
  '<script>alert("x")</script> &amp;',
  'Zoë Ångström, 東京, עברית, emoji 🎨🧑🏽‍🏫',
  'line\u2028separator\u2029paragraph',
  'x'.repeat(2000),
];

beforeAll(async () => {
  t = await createTestApp();
  ann = await t.createUser({ username: 'ann@example.org' });
  bob = await t.createUser({ username: 'bob@example.org' });
  const statuses = ['available', 'limited', 'unavailable'] as const;
  await insertDays(
    t.ctx.db,
    AWKWARD.flatMap((notes, i) =>
      [ann, bob].map((user, j) => ({
        userId: user.id,
        date: `2026-03-${String(20 - i).padStart(2, '0')}`,
        status: statuses[(i + j) % 3]!,
        startTime: i % 2 ? '09:00' : '',
        endTime: i % 2 ? '12:30' : '',
        notes,
        syncedToSharePoint: j === 0,
      })),
    ),
  );
  await insertBookings(
    t.ctx.db,
    AWKWARD.map((text, i) => ({
      userId: i % 3 === 0 ? null : ann.id,
      date: `2026-03-${String(10 + (i % 3)).padStart(2, '0')}`,
      title: text,
      sharePointId: `sp-${i}`,
      startTime: i % 4 === 0 ? null : `0${i}:00`,
      endTime: null,
      location: text,
      schoolId: i % 2 ? null : `S${i}`,
      schoolName: text,
      schoolAddress: null,
      schoolPostcode: text,
      program: text,
      timeSlot: i % 2 ? 'Morning' : null,
      deliveryType: null,
      year: 'Year 5',
    })),
  );
});
afterAll(() => t.close());

const march = { from: '2026-03-01', to: '2026-03-31' };

describe('lists serialised by the database', () => {
  it('availability: the same text as JSON.stringify of the rows, in user then date order', async () => {
    for (const userId of [undefined, ann.id]) {
      const rows = await t.ctx.db
        .select({
          id: availability.id,
          userId: availability.userId,
          date: availability.date,
          status: availability.status,
          startTime: availability.startTime,
          endTime: availability.endTime,
          notes: availability.notes,
          syncedToSharePoint: availability.syncedToSharePoint,
        })
        .from(availability)
        .where(
          and(
            between(availability.date, march.from, march.to),
            userId === undefined ? undefined : eq(availability.userId, userId),
          ),
        )
        .orderBy(asc(availability.userId), asc(availability.date));
      expect(rows.length).toBe(userId === undefined ? AWKWARD.length * 2 : AWKWARD.length);
      const text = await listAvailabilityJson(t.ctx.db, march, userId);
      expect(text).toBe(JSON.stringify(rows));
      expect(z.array(availabilitySchema).parse(JSON.parse(text))).toEqual(rows);
    }
  });

  it('bookings: the same text as JSON.stringify of the rows, nulls included, in date, time, id order', async () => {
    const columns = getTableColumns(bookings);
    const rows = await t.ctx.db
      .select(columns)
      .from(bookings)
      .where(between(bookings.date, march.from, march.to))
      .orderBy(asc(bookings.date), asc(bookings.startTime), asc(bookings.id));
    const text = await listBookingsJson(t.ctx.db, march);
    expect(JSON.parse(text)).toEqual(z.array(bookingSchema).parse(JSON.parse(text)));
    expect(JSON.parse(text)).toEqual(rows.map((row) => bookingSchema.parse(row)));
    expect(text).toBe(JSON.stringify(rows.map((row) => bookingSchema.parse(row))));
    expect(JSON.parse(await listBookingsJson(t.ctx.db, march, ann.id))).toHaveLength(
      rows.filter((r) => r.userId === ann.id).length,
    );
  });

  it('users: the same text as the rows mapped and stringified, nulls and times included, in name order', async () => {
    // a name needing escapes, no name (sorted by username), no area, a time with milliseconds, none
    await t.ctx.db.execute(
      sql`update users set display_name = ${AWKWARD[5]!}, area = null, email = ${AWKWARD[3]!},
                           last_availability_updated_at = '2026-03-01 10:11:12.345+00'
          where id = ${ann.id}`,
    );
    await t.ctx.db.execute(
      sql`update users set display_name = null, freelancer_id = ${AWKWARD[2]!}, area = ${AWKWARD[6]!},
                           last_availability_updated_at = null
          where id = ${bob.id}`,
    );
    const text = await listUsersJson(t.ctx.db);
    expect(text).toBe(JSON.stringify(await listUsers(t.ctx.db)));
    expect(JSON.parse(text).map((u: { id: number }) => u.id)).toEqual(
      expect.arrayContaining([ann.id, bob.id]),
    );
  });

  it('an empty range is an empty array', async () => {
    expect(await listAvailabilityJson(t.ctx.db, { from: '2030-01-01', to: '2030-01-31' })).toBe('[]');
    expect(await listBookingsJson(t.ctx.db, { from: '2030-01-01', to: '2030-01-31' })).toBe('[]');
  });
});

describe('the format of a list text (kept answers, ADR 56)', () => {
  const byDate = (from: string) =>
    jsonArrayStatement(
      { id: bookings.id, date: bookings.date },
      sql`from ${bookings} where ${bookings.date} >= ${from}`,
      ['date'],
    );

  it('is the same for every range built by the same statements', () => {
    expect(statementsFormat(byDate('2027-01-01'))).toBe(statementsFormat(byDate('2027-06-01')));
    expect(availabilityListFormat({ from: '2027-05-03', to: '2027-05-31' })).toBe(
      availabilityListFormat({ from: '2027-06-01', to: '2027-06-30' }),
    );
    expect(bookingsListFormat({ from: '2027-05-03', to: '2027-05-31' })).toBe(
      bookingsListFormat({ from: '2027-01-04', to: '2027-01-08' }),
    );
  });

  it('changes with anything the statements select, filter or order by', () => {
    const format = statementsFormat(byDate('2027-01-01'));
    const otherOrder = jsonArrayStatement(
      { id: bookings.id, date: bookings.date },
      sql`from ${bookings} where ${bookings.date} >= ${'2027-01-01'}`,
      ['id'],
    );
    const otherFilter = jsonArrayStatement(
      { id: bookings.id, date: bookings.date },
      sql`from ${bookings} where ${bookings.date} > ${'2027-01-01'}`,
      ['date'],
    );
    const otherColumns = jsonArrayStatement(
      { id: bookings.id, day: bookings.date },
      sql`from ${bookings} where ${bookings.date} >= ${'2027-01-01'}`,
      ['day'],
    );
    for (const statement of [otherOrder, otherFilter, otherColumns])
      expect(statementsFormat(statement)).not.toBe(format);
    // a month joined from kept texts and a week built from the rows are written by other statements
    expect(availabilityListFormat({ from: '2027-05-03', to: '2027-05-31' })).not.toBe(
      availabilityListFormat({ from: '2027-05-03', to: '2027-05-07' }),
    );
  });
});
