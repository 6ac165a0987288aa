import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addDays } from '../../../shared/calendar';
import { BOOKED_DAY_MESSAGE } from '../../../shared/schemas/availability';
import { availability, bookings, syncOutbox, users } from '../../db/schema';
import { insertBooking } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';

// 23:30 UTC on 30 June is already 1 July in London (summer time): "today" must be the 1st.
const NOW = new Date('2026-06-30T23:30:00Z');
const TODAY = '2026-07-01';

let t: TestApp;
let alice: Awaited<ReturnType<TestApp['createUser']>>;
let bob: Awaited<ReturnType<TestApp['createUser']>>;
let staffId: number;
let aliceCookie: string;
let bobCookie: string;
let staffCookie: string;

beforeAll(async () => {
  t = await createTestApp({ ORG_TIMEZONE: 'Europe/London' }, { now: () => NOW });
  alice = await t.createUser({
    username: 'alice@example.org',
    displayName: 'Alice',
    password: 'alice-pass-1',
  });
  bob = await t.createUser({ username: 'bob@example.org', displayName: 'Bob', password: 'bob-pass-1' });
  aliceCookie = await t.login('alice@example.org', 'alice-pass-1');
  bobCookie = await t.login('bob@example.org', 'bob-pass-1');
  staffCookie = await t.loginStaff();
  const [staff] = await t.ctx.db.select().from(users).where(eq(users.role, 'staff'));
  staffId = staff!.id;
});
afterAll(() => t.close());

beforeEach(async () => {
  await t.ctx.db.delete(availability);
  await t.ctx.db.delete(bookings);
  await t.ctx.db.delete(syncOutbox);
  await t.ctx.db.update(users).set({ lastAvailabilityUpdatedAt: null });
});

const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const post = (url: string, payload: unknown, cookie?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    payload: payload as object,
    headers: cookie ? { cookie } : {},
  });

async function book(userId: number | null, date: string, extra: Partial<typeof bookings.$inferInsert> = {}) {
  return insertBooking(t.ctx.db, { userId, date, ...extra });
}

async function rowsOf(userId: number) {
  return t.ctx.db
    .select()
    .from(availability)
    .where(eq(availability.userId, userId))
    .orderBy(asc(availability.date));
}

async function outbox() {
  return t.ctx.db
    .select({ userId: syncOutbox.userId, date: syncOutbox.date })
    .from(syncOutbox)
    .orderBy(asc(syncOutbox.id));
}

async function lastUpdated(userId: number) {
  const [row] = await t.ctx.db
    .select({ at: users.lastAvailabilityUpdatedAt })
    .from(users)
    .where(eq(users.id, userId));
  return row?.at ?? null;
}

/** Everything a refused write must leave as it was. */
async function snapshot() {
  return {
    availability: await t.ctx.db.select().from(availability).orderBy(asc(availability.id)),
    outbox: await outbox(),
    users: await t.ctx.db
      .select({ id: users.id, at: users.lastAvailabilityUpdatedAt })
      .from(users)
      .orderBy(asc(users.id)),
  };
}

const day = (date: string, status = 'available', extra: Record<string, unknown> = {}) => ({
  date,
  status,
  ...extra,
});

describe('POST /api/availability (one day)', () => {
  it('refuses anonymous callers with 401 and changes nothing', async () => {
    const before = await snapshot();
    const response = await post('/api/availability', day('2026-07-06'));
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBeTruthy();
    expect(await snapshot()).toEqual(before);
  });

  it('saves the day for the session user, records who and when, and queues a SharePoint sync', async () => {
    const response = await post(
      '/api/availability',
      day('2026-07-06', 'limited', { startTime: '09:00', endTime: '13:00', notes: 'Mornings only' }),
      aliceCookie,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: expect.any(Number),
      userId: alice.id,
      date: '2026-07-06',
      status: 'limited',
      startTime: '09:00',
      endTime: '13:00',
      notes: 'Mornings only',
      syncedToSharePoint: false,
    });
    const [row] = await rowsOf(alice.id);
    expect(row).toMatchObject({ date: '2026-07-06', status: 'limited', updatedBy: alice.id });
    expect(await lastUpdated(alice.id)).toBeInstanceOf(Date);
    expect(await lastUpdated(bob.id)).toBeNull();
    expect(await outbox()).toEqual([{ userId: alice.id, date: '2026-07-06' }]);
  });

  it('defaults missing times and notes to empty strings and accepts the own userId', async () => {
    const response = await post('/api/availability', { ...day('2026-07-07'), userId: alice.id }, aliceCookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ userId: alice.id, startTime: '', endTime: '', notes: '' });
  });

  it('stores no note for one made only of invisible characters, on every way of saving a day', async () => {
    const invisible = '\u200b\u200c\u200d\u2060\ufeff \u00ad';
    const one = await post(
      '/api/availability',
      day('2026-07-13', 'available', { notes: invisible }),
      aliceCookie,
    );
    expect(one.json()).toMatchObject({ notes: '' });
    const bulk = await post(
      '/api/availability/bulk',
      {
        startDate: '2026-07-14',
        endDate: '2026-07-15',
        daysOfWeek: [1, 2, 3, 4, 5],
        status: 'limited',
        notes: invisible,
      },
      aliceCookie,
    );
    expect(bulk.statusCode, bulk.body).toBe(200);
    const staffSave = await post(
      '/api/staff/availability',
      { userId: alice.id, date: '2026-07-16', status: 'available', notes: invisible },
      staffCookie,
    );
    expect(staffSave.statusCode, staffSave.body).toBe(200);
    const rows = (await rowsOf(alice.id)).filter((r) => r.date >= '2026-07-13' && r.date <= '2026-07-16');
    expect(rows.map((r) => [r.date, r.notes])).toEqual([
      ['2026-07-13', ''],
      ['2026-07-14', ''],
      ['2026-07-15', ''],
      ['2026-07-16', ''],
    ]);
    // a note that shows something keeps its invisible characters as typed
    const visible = await post(
      '/api/availability',
      day('2026-07-17', 'available', { notes: 'a\u200bb' }),
      aliceCookie,
    );
    expect(visible.json()).toMatchObject({ notes: 'a\u200bb' });
  });

  it('upserts: saving the same day again replaces it, one row per day', async () => {
    await post('/api/availability', day('2026-07-08', 'available', { startTime: '09:00' }), aliceCookie);
    const second = await post('/api/availability', day('2026-07-08', 'unavailable'), aliceCookie);
    expect(second.statusCode).toBe(200);
    const rows = await rowsOf(alice.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ date: '2026-07-08', status: 'unavailable', startTime: '', notes: '' });
    expect(second.json().id).toBe(rows[0]!.id);
    expect(await outbox()).toHaveLength(2);
  });

  it('keeps the calendar day exactly as sent, whatever the zone', async () => {
    await post('/api/availability', day('2026-03-29'), aliceCookie); // London clocks change that night
    await post('/api/availability', day('2028-02-29'), aliceCookie); // leap day
    expect((await rowsOf(alice.id)).map((r) => r.date)).toEqual(['2026-03-29', '2028-02-29']);
  });

  it("refuses another user's id with 403 and changes nothing", async () => {
    await post('/api/availability', day('2026-07-09', 'available'), bobCookie);
    const before = await snapshot();
    const response = await post(
      '/api/availability',
      { ...day('2026-07-09', 'unavailable'), userId: bob.id },
      aliceCookie,
    );
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toMatch(/your own/);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a facilitator on a booked day with 409 and the booked-day message, changing nothing', async () => {
    await post('/api/availability', day('2026-07-10', 'available'), aliceCookie);
    await book(alice.id, '2026-07-10');
    const before = await snapshot();
    const response = await post('/api/availability', day('2026-07-10', 'unavailable'), aliceCookie);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ message: BOOKED_DAY_MESSAGE });
    expect(await snapshot()).toEqual(before);
  });

  it("is not locked by somebody else's booking or an unlinked one", async () => {
    await book(bob.id, '2026-07-13');
    await book(null, '2026-07-13');
    const response = await post('/api/availability', day('2026-07-13', 'limited'), aliceCookie);
    expect(response.statusCode).toBe(200);
  });

  it('lets a staff member save their own days, booked ones included', async () => {
    await book(staffId, '2026-07-14');
    const response = await post('/api/availability', day('2026-07-14', 'unavailable'), staffCookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ userId: staffId, status: 'unavailable' });
    const other = await post('/api/availability', { ...day('2026-07-14'), userId: alice.id }, staffCookie);
    expect(other.statusCode).toBe(403);
    expect(await rowsOf(alice.id)).toEqual([]);
  });

  it.each([
    ['date missing', { status: 'available' }, 'date'],
    ['date not a string', { date: 20260706, status: 'available' }, 'date'],
    ['date wrong format', { date: '06/07/2026', status: 'available' }, 'yyyy-MM-dd'],
    ['date with a time', { date: '2026-07-06T00:00:00Z', status: 'available' }, 'yyyy-MM-dd'],
    ['date not a real day', { date: '2026-02-29', status: 'available' }, 'real calendar day'],
    ['status missing', { date: '2026-07-06' }, 'status'],
    ['status unknown', { date: '2026-07-06', status: 'busy' }, 'available, limited or unavailable'],
    ['startTime wrong format', { ...day('2026-07-06'), startTime: '9am' }, 'HH:mm'],
    ['startTime out of range', { ...day('2026-07-06'), startTime: '24:00' }, 'HH:mm'],
    ['startTime not a string', { ...day('2026-07-06'), startTime: 9 }, 'startTime'],
    ['endTime wrong format', { ...day('2026-07-06'), endTime: '17:60' }, 'HH:mm'],
    ['endTime before startTime', { ...day('2026-07-06'), startTime: '13:00', endTime: '09:00' }, 'after'],
    ['notes not a string', { ...day('2026-07-06'), notes: ['x'] }, 'notes'],
    ['notes too long', { ...day('2026-07-06'), notes: 'x'.repeat(2001) }, '2000'],
    ['userId not a number', { ...day('2026-07-06'), userId: 'me' }, 'userId'],
    ['userId negative', { ...day('2026-07-06'), userId: -1 }, 'userId'],
    ['userId too large', { ...day('2026-07-06'), userId: 2 ** 40 }, 'userId'],
  ])('refuses bad input (%s) with 400, a message and no change', async (_name, payload, expected) => {
    const before = await snapshot();
    const response = await post('/api/availability', payload, aliceCookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(expected);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a body that is not JSON, or none at all, with 400', async () => {
    const before = await snapshot();
    const broken = await t.app.inject({
      method: 'POST',
      url: '/api/availability',
      payload: '{"date":',
      headers: { cookie: aliceCookie, 'content-type': 'application/json' },
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().message).toBeTruthy();
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/availability',
      headers: { cookie: aliceCookie },
    });
    expect(empty.statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
  });
});

describe('GET /api/availability', () => {
  it('refuses anonymous callers with 401', async () => {
    const response = await get('/api/availability?from=2026-07-01&to=2026-07-31');
    expect(response.statusCode).toBe(401);
  });

  it('returns only the own rows inside the inclusive range, in date order', async () => {
    for (const date of ['2026-06-30', '2026-07-01', '2026-07-15', '2026-07-31', '2026-08-01']) {
      await post('/api/availability', day(date), aliceCookie);
    }
    await post('/api/availability', day('2026-07-15', 'unavailable'), bobCookie);
    const response = await get('/api/availability?from=2026-07-01&to=2026-07-31', aliceCookie);
    expect(response.statusCode).toBe(200);
    const body = response.json() as { date: string; userId: number }[];
    expect(body.map((r) => r.date)).toEqual(['2026-07-01', '2026-07-15', '2026-07-31']);
    expect(body.every((r) => r.userId === alice.id)).toBe(true);
    expect(Object.keys(body[0]!).sort()).toEqual(
      ['date', 'endTime', 'id', 'notes', 'startTime', 'status', 'syncedToSharePoint', 'userId'].sort(),
    );
  });

  it("accepts the own userId and refuses another user's with 403", async () => {
    await post('/api/availability', day('2026-07-15'), bobCookie);
    const own = await get(`/api/availability?from=2026-07-01&to=2026-07-31&userId=${alice.id}`, aliceCookie);
    expect(own.statusCode).toBe(200);
    const other = await get(`/api/availability?from=2026-07-01&to=2026-07-31&userId=${bob.id}`, aliceCookie);
    expect(other.statusCode).toBe(403);
    expect(other.body).not.toContain('2026-07-15');
  });

  it('applies a bounded default window around today in ORG_TIMEZONE when no range is given', async () => {
    // today is 2026-07-01 in London; the default window is 62 days back and 183 ahead
    const first = addDays(TODAY, -62);
    const last = addDays(TODAY, 183);
    for (const date of [addDays(first, -1), first, last, addDays(last, 1)]) {
      await post('/api/availability', day(date), aliceCookie);
    }
    const response = await get('/api/availability', aliceCookie);
    expect(response.statusCode).toBe(200);
    expect(response.json().map((r: { date: string }) => r.date)).toEqual([first, last]);
  });

  it.each([
    ['reversed range', 'from=2026-07-31&to=2026-07-01', 'on or before'],
    ['more than 400 days', 'from=2026-01-01&to=2027-02-05', '400'],
    ['bad from', 'from=2026-7-1&to=2026-07-31', 'yyyy-MM-dd'],
    ['unreal to', 'from=2026-07-01&to=2026-06-31', 'real calendar day'],
    ['bad userId', 'userId=abc', 'userId'],
  ])('refuses %s with 400 and a message', async (_name, query, expected) => {
    const response = await get(`/api/availability?${query}`, aliceCookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(expected);
  });

  it('accepts exactly 400 days', async () => {
    const response = await get(
      `/api/availability?from=2026-01-01&to=${addDays('2026-01-01', 399)}`,
      aliceCookie,
    );
    expect(response.statusCode).toBe(200);
  });
});

describe('GET /api/bookings', () => {
  it('refuses anonymous callers with 401', async () => {
    expect((await get('/api/bookings?from=2026-07-01&to=2026-07-31')).statusCode).toBe(401);
  });

  it('returns only the own bookings in the range with every field', async () => {
    await book(alice.id, '2026-07-06', {
      startTime: '09:30',
      endTime: '11:00',
      schoolName: 'Hillside Primary',
      schoolAddress: '1 Hill Road',
      schoolPostcode: 'AB1 2CD',
      program: 'Dance',
      timeSlot: 'AM',
      deliveryType: 'Live',
      year: 'Year 4',
      location: 'Hall',
      schoolId: 'S1',
    });
    await book(alice.id, '2026-08-06');
    await book(bob.id, '2026-07-06');
    await book(null, '2026-07-06');
    const response = await get('/api/bookings?from=2026-07-01&to=2026-07-31', aliceCookie);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toHaveLength(1);
    expect(body[0]).toEqual({
      id: expect.any(Number),
      userId: alice.id,
      title: expect.any(String),
      date: '2026-07-06',
      startTime: '09:30',
      endTime: '11:00',
      location: 'Hall',
      sharePointId: expect.any(String),
      schoolId: 'S1',
      schoolName: 'Hillside Primary',
      schoolAddress: '1 Hill Road',
      schoolPostcode: 'AB1 2CD',
      program: 'Dance',
      timeSlot: 'AM',
      deliveryType: 'Live',
      year: 'Year 4',
    });
  });

  it("accepts the own userId and refuses another user's with 403", async () => {
    await book(bob.id, '2026-07-06');
    expect((await get(`/api/bookings?userId=${alice.id}`, aliceCookie)).statusCode).toBe(200);
    const other = await get(`/api/bookings?userId=${bob.id}`, aliceCookie);
    expect(other.statusCode).toBe(403);
    expect(other.body).not.toContain('2026-07-06');
  });

  it.each([
    ['reversed range', 'from=2026-07-31&to=2026-07-01'],
    ['more than 400 days', 'from=2025-01-01&to=2026-12-31'],
    ['bad date', 'from=yesterday'],
  ])('refuses %s with 400 and a message', async (_name, query) => {
    const response = await get(`/api/bookings?${query}`, aliceCookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBeTruthy();
  });
});

describe('POST /api/availability/bulk', () => {
  const bulk = (extra: Record<string, unknown> = {}) => ({
    startDate: '2026-07-01',
    endDate: '2026-07-14',
    daysOfWeek: [1, 2, 3, 4, 5],
    status: 'available',
    ...extra,
  });

  it('refuses anonymous callers with 401 and changes nothing', async () => {
    const before = await snapshot();
    expect((await post('/api/availability/bulk', bulk())).statusCode).toBe(401);
    expect(await snapshot()).toEqual(before);
  });

  it('writes the chosen weekdays, skips booked days, and reports both', async () => {
    await post('/api/availability', day('2026-07-03', 'unavailable'), aliceCookie);
    await book(alice.id, '2026-07-03');
    await book(alice.id, '2026-07-03'); // two bookings, one skipped day
    await book(alice.id, '2026-07-08');
    await book(alice.id, '2026-07-11'); // a Saturday: not chosen, so not reported
    await t.ctx.db.delete(syncOutbox);
    const response = await post(
      '/api/availability/bulk',
      bulk({ status: 'limited', startTime: '10:00', endTime: '15:00', notes: 'School hours' }),
      aliceCookie,
    );
    expect(response.statusCode).toBe(200);
    // weekdays 1–14 July 2026: 1,2,3,6,7,8,9,10,13,14 = 10, minus booked 3rd and 8th
    expect(response.json()).toEqual({ updated: 8, skippedBookedDates: ['2026-07-03', '2026-07-08'] });
    const rows = await rowsOf(alice.id);
    expect(rows.map((r) => r.date)).toEqual([
      '2026-07-01',
      '2026-07-02',
      '2026-07-03',
      '2026-07-06',
      '2026-07-07',
      '2026-07-09',
      '2026-07-10',
      '2026-07-13',
      '2026-07-14',
    ]);
    // the booked day kept its old value
    expect(rows.find((r) => r.date === '2026-07-03')).toMatchObject({ status: 'unavailable' });
    expect(rows.filter((r) => r.status === 'limited')).toHaveLength(8);
    expect(rows.find((r) => r.date === '2026-07-01')).toMatchObject({
      startTime: '10:00',
      endTime: '15:00',
      notes: 'School hours',
      updatedBy: alice.id,
    });
    expect(await lastUpdated(alice.id)).toBeInstanceOf(Date);
    const queued = await outbox();
    expect(queued).toHaveLength(8);
    expect(queued.every((q) => q.userId === alice.id)).toBe(true);
    expect(queued.map((q) => q.date)).not.toContain('2026-07-03');
  });

  it('upserts over existing days instead of adding rows', async () => {
    await post('/api/availability/bulk', bulk(), aliceCookie);
    const again = await post('/api/availability/bulk', bulk({ status: 'unavailable' }), aliceCookie);
    expect(again.json()).toEqual({ updated: 10, skippedBookedDates: [] });
    const rows = await rowsOf(alice.id);
    expect(rows).toHaveLength(10);
    expect(rows.every((r) => r.status === 'unavailable')).toBe(true);
  });

  it('honours the chosen days of week (0 Sunday … 6 Saturday) across a month boundary', async () => {
    const response = await post(
      '/api/availability/bulk',
      bulk({ startDate: '2026-07-25', endDate: '2026-08-03', daysOfWeek: [0, 6] }),
      aliceCookie,
    );
    expect(response.json()).toEqual({ updated: 4, skippedBookedDates: [] });
    expect((await rowsOf(alice.id)).map((r) => r.date)).toEqual([
      '2026-07-25',
      '2026-07-26',
      '2026-08-01',
      '2026-08-02',
    ]);
  });

  it('does not touch the user when every chosen day is booked', async () => {
    await book(alice.id, '2026-07-06');
    const response = await post(
      '/api/availability/bulk',
      bulk({ startDate: '2026-07-06', endDate: '2026-07-06' }),
      aliceCookie,
    );
    expect(response.json()).toEqual({ updated: 0, skippedBookedDates: ['2026-07-06'] });
    expect(await lastUpdated(alice.id)).toBeNull();
    expect(await outbox()).toEqual([]);
  });

  it("refuses another user's id with 403 and changes nothing", async () => {
    const before = await snapshot();
    const response = await post('/api/availability/bulk', bulk({ userId: bob.id }), aliceCookie);
    expect(response.statusCode).toBe(403);
    expect(await snapshot()).toEqual(before);
    const own = await post('/api/availability/bulk', bulk({ userId: alice.id }), aliceCookie);
    expect(own.statusCode).toBe(200);
  });

  it('skips booked days for staff too', async () => {
    await book(staffId, '2026-07-06');
    const response = await post(
      '/api/availability/bulk',
      bulk({ startDate: '2026-07-06', endDate: '2026-07-07' }),
      staffCookie,
    );
    expect(response.json()).toEqual({ updated: 1, skippedBookedDates: ['2026-07-06'] });
  });

  it.each([
    ['startDate missing', { ...bulk(), startDate: undefined }, 'startDate'],
    ['startDate bad', bulk({ startDate: '2026-7-1' }), 'yyyy-MM-dd'],
    ['startDate unreal', bulk({ startDate: '2026-06-31' }), 'real calendar day'],
    ['endDate missing', { ...bulk(), endDate: undefined }, 'endDate'],
    ['endDate bad', bulk({ endDate: 'tomorrow' }), 'yyyy-MM-dd'],
    ['endDate before startDate', bulk({ startDate: '2026-07-14', endDate: '2026-07-01' }), 'on or after'],
    ['range over the bulk limit', bulk({ startDate: '2026-01-01', endDate: '2028-12-31' }), 'at most'],
    ['daysOfWeek missing', { ...bulk(), daysOfWeek: undefined }, 'daysOfWeek'],
    ['daysOfWeek empty', bulk({ daysOfWeek: [] }), 'at least one day'],
    ['daysOfWeek above 6', bulk({ daysOfWeek: [1, 7] }), '0 to 6'],
    ['daysOfWeek negative', bulk({ daysOfWeek: [-1] }), '0 to 6'],
    ['daysOfWeek fractional', bulk({ daysOfWeek: [1.5] }), 'daysOfWeek'],
    ['daysOfWeek not numbers', bulk({ daysOfWeek: ['Mon'] }), 'daysOfWeek'],
    ['daysOfWeek not an array', bulk({ daysOfWeek: 1 }), 'daysOfWeek'],
    ['status missing', { ...bulk(), status: undefined }, 'status'],
    ['status unknown', bulk({ status: 'maybe' }), 'available, limited or unavailable'],
    ['startTime bad', bulk({ startTime: '7:00' }), 'HH:mm'],
    ['endTime bad', bulk({ endTime: '25:00' }), 'HH:mm'],
    ['endTime before startTime', bulk({ startTime: '15:00', endTime: '10:00' }), 'after'],
    ['notes too long', bulk({ notes: 'n'.repeat(2001) }), '2000'],
    ['notes not a string', bulk({ notes: 5 }), 'notes'],
    ['userId bad', bulk({ userId: 'x' }), 'userId'],
  ])('refuses bad input (%s) with 400, a message and no change', async (_name, payload, expected) => {
    const before = await snapshot();
    const response = await post('/api/availability/bulk', payload, aliceCookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(expected);
    expect(await snapshot()).toEqual(before);
  });
});

describe('POST /api/sharepoint/sync-all', () => {
  it('refuses anonymous callers with 401', async () => {
    expect((await post('/api/sharepoint/sync-all', { userId: alice.id })).statusCode).toBe(401);
  });

  it('queues every saved day of the session user', async () => {
    await post('/api/availability', day('2026-07-06'), aliceCookie);
    await post('/api/availability', day('2026-07-07'), aliceCookie);
    await post('/api/availability', day('2026-07-07'), bobCookie);
    await t.ctx.db.delete(syncOutbox);
    const response = await post('/api/sharepoint/sync-all', { userId: alice.id }, aliceCookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ queued: 2 });
    expect(await outbox()).toEqual([
      { userId: alice.id, date: '2026-07-06' },
      { userId: alice.id, date: '2026-07-07' },
    ]);
  });

  it('queues nothing for a user with no days', async () => {
    const response = await post('/api/sharepoint/sync-all', {}, aliceCookie);
    expect(response.json()).toEqual({ queued: 0 });
  });

  it("refuses another user's id with 403 and queues nothing", async () => {
    await post('/api/availability', day('2026-07-06'), bobCookie);
    await t.ctx.db.delete(syncOutbox);
    const response = await post('/api/sharepoint/sync-all', { userId: bob.id }, aliceCookie);
    expect(response.statusCode).toBe(403);
    expect(await outbox()).toEqual([]);
  });

  it.each([
    ['userId not a number', { userId: 'all' }],
    ['userId zero', { userId: 0 }],
  ])('refuses bad input (%s) with 400 and queues nothing', async (_name, payload) => {
    const response = await post('/api/sharepoint/sync-all', payload, aliceCookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('userId');
    expect(await outbox()).toEqual([]);
  });

  it('keeps the other /api/sharepoint routes for staff', async () => {
    const response = await get('/api/sharepoint/settings', aliceCookie);
    expect(response.statusCode).toBe(403);
  });
});

describe('row ownership at the database', () => {
  it('never writes into another user through any self-service call', async () => {
    await post('/api/availability', { ...day('2026-07-06'), userId: bob.id }, aliceCookie);
    await post(
      '/api/availability/bulk',
      {
        startDate: '2026-07-06',
        endDate: '2026-07-10',
        daysOfWeek: [1],
        status: 'available',
        userId: bob.id,
      },
      aliceCookie,
    );
    const bobRows = await t.ctx.db
      .select()
      .from(availability)
      .where(and(eq(availability.userId, bob.id)));
    expect(bobRows).toEqual([]);
  });
});
