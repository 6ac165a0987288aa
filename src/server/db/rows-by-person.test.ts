import { and, asc, between, inArray, sql } from 'drizzle-orm';
import { type AnyPgColumn, integer, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Booking } from '../../shared/schemas/bookings';
import type { AvailabilityRecord } from '../modules/availability/service';
import { bookingColumns } from '../modules/bookings/service';
import { insertBookings, insertDays } from '../test/factories';
import { createTestApp, type TestApp } from '../test/harness';
import { rowsByPerson } from './rows-by-person';
import { availability, bookings } from './schema';

let t: TestApp;
let ids: number[];

// text that JSON must carry exactly: quotes, backslashes, a newline, a tab, accents, an emoji, markup
const AWKWARD = 'Say "hi" \\ back\nthen\ttab — Zoë 🎨 <b>&amp;</b>';

beforeAll(async () => {
  t = await createTestApp();
  const ann = await t.createUser({ username: 'ann@example.org' });
  const ben = await t.createUser({ username: 'ben@example.org' });
  const cat = await t.createUser({ username: 'cat@example.org' });
  ids = [ann.id, ben.id, cat.id];
  await insertDays(t.ctx.db, [
    {
      userId: ann.id,
      date: '2026-03-03',
      status: 'limited',
      startTime: '09:00',
      endTime: '12:30',
      notes: AWKWARD,
    },
    { userId: ann.id, date: '2026-03-02', status: 'available' },
    { userId: ben.id, date: '2026-03-02', status: 'unavailable', syncedToSharePoint: true },
    { userId: ben.id, date: '2026-04-01', status: 'available' },
  ]);
  await insertBookings(t.ctx.db, [
    { userId: ann.id, date: '2026-03-02', startTime: '13:00', title: AWKWARD, schoolName: null },
    { userId: ann.id, date: '2026-03-02', startTime: '09:00', year: 'Year 5', location: 'Hall' },
    { userId: ben.id, date: '2026-03-05', startTime: '10:00', program: 'Drama' },
    { userId: null, date: '2026-03-05', startTime: '10:00' },
  ]);
});
afterAll(() => t.close());

describe('rowsByPerson', () => {
  it('gives each person the rows a plain select gives, with the same values and in the same order', async () => {
    const inMarch = (date: AnyPgColumn) => between(date, '2026-03-01', '2026-03-31');
    const days = await rowsByPerson<AvailabilityRecord>(
      t.ctx.db,
      {
        id: availability.id,
        userId: availability.userId,
        date: availability.date,
        status: availability.status,
        startTime: availability.startTime,
        endTime: availability.endTime,
        notes: availability.notes,
        syncedToSharePoint: availability.syncedToSharePoint,
      },
      availability.userId,
      and(inArray(availability.userId, ids), inMarch(availability.date)),
      sql`${availability.date}`,
    );
    const plainDays = await t.ctx.db
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
      .where(and(inArray(availability.userId, ids), inMarch(availability.date)))
      .orderBy(asc(availability.userId), asc(availability.date));
    const byPerson = <Row extends { userId: number | null }>(rows: Row[]) => {
      const groups = new Map<number | null, Row[]>();
      for (const row of rows) groups.set(row.userId, [...(groups.get(row.userId) ?? []), row]);
      return groups;
    };
    expect(byPerson(days)).toEqual(byPerson(plainDays));
    expect(days.find((day) => day.startTime === '09:00')?.notes).toBe(AWKWARD);

    const sessions = await rowsByPerson<Booking>(
      t.ctx.db,
      bookingColumns,
      bookings.userId,
      and(inArray(bookings.userId, ids), inMarch(bookings.date)),
      sql`${bookings.date}, ${bookings.startTime}, ${bookings.id}`,
    );
    const plainSessions = await t.ctx.db
      .select(bookingColumns)
      .from(bookings)
      .where(and(inArray(bookings.userId, ids), inMarch(bookings.date)))
      .orderBy(asc(bookings.date), asc(bookings.startTime), asc(bookings.id));
    expect(byPerson(sessions)).toEqual(byPerson(plainSessions));
    // Ann's two sessions by start time, the null school kept as null, nobody's session left out
    expect(sessions.filter((s) => s.userId === ids[0]).map((s) => s.startTime)).toEqual(['09:00', '13:00']);
    expect(sessions.find((s) => s.title === AWKWARD)?.schoolName).toBeNull();
    expect(sessions).toHaveLength(3);
  });

  it('gives nothing for people with no rows in the range', async () => {
    const none = await rowsByPerson(
      t.ctx.db,
      { id: availability.id },
      availability.userId,
      and(inArray(availability.userId, [ids[2]!]), between(availability.date, '2026-03-01', '2026-03-31')),
      sql`${availability.date}`,
    );
    expect(none).toEqual([]);
  });

  it('refuses a column whose JSON differs from what drizzle gives', async () => {
    await expect(
      rowsByPerson(
        t.ctx.db,
        { updatedAt: availability.updatedAt },
        availability.userId,
        undefined,
        sql`${availability.date}`,
      ),
    ).rejects.toThrow(/updatedAt is a date/);
    // the same column read as text: JSON would write "2026-03-02T10:00:00", drizzle "2026-03-02 10:00:00"
    const asText = pgTable('availability', {
      userId: integer('user_id'),
      updatedAt: timestamp('updated_at', { mode: 'string' }),
    });
    await expect(
      rowsByPerson(t.ctx.db, { updatedAt: asText.updatedAt }, asText.userId, undefined, sql`1`),
    ).rejects.toThrow(/updatedAt is a string/);
  });
});
