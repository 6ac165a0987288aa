import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { availability, bookings, changeHistory, syncOutbox, users } from '../../db/schema';
import { dumpTables } from '../../test/db-state';
import { insertBooking } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';

const NOW = new Date('2026-11-23T10:00:00Z');
const PREVIEW = '/api/availability/pattern/preview';
const APPLY = '/api/availability/pattern';

let t: TestApp;
let alice: Awaited<ReturnType<TestApp['createUser']>>;
let bob: Awaited<ReturnType<TestApp['createUser']>>;
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
});
afterAll(() => t.close());

beforeEach(async () => {
  await t.ctx.db.delete(availability);
  await t.ctx.db.delete(bookings);
  await t.ctx.db.delete(syncOutbox);
  await t.ctx.db.update(users).set({ lastAvailabilityUpdatedAt: null });
});

const post = (url: string, payload: unknown, cookie?: string) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers: cookie ? { cookie } : {} });

/** Every fortnight on Mondays and Thursdays, from Wednesday 25 Nov 2026 to 31 Dec 2026. */
const fortnightly = (extra: Record<string, unknown> = {}) => ({
  startDate: '2026-11-25',
  endDate: '2026-12-31',
  everyWeeks: 2,
  daysOfWeek: [1, 4],
  status: 'limited',
  startTime: '09:00',
  endTime: '15:00',
  notes: 'School term',
  ...extra,
});
// anchor week Mon 23 Nov (23rd is before the start): Thu 26 Nov, then weeks 2 and 4
const FORTNIGHT_DAYS = ['2026-11-26', '2026-12-07', '2026-12-10', '2026-12-21', '2026-12-24'];

async function rowsOf(userId: number) {
  return t.ctx.db
    .select()
    .from(availability)
    .where(eq(availability.userId, userId))
    .orderBy(asc(availability.date));
}

/** What a refused or read-only call must leave exactly as it was. */
async function state() {
  const dump = await dumpTables(t.ctx.db);
  return {
    users: dump.users,
    availability: dump.availability,
    bookings: dump.bookings,
    outbox: dump.sync_outbox,
    history: dump.change_history,
  };
}

describe('POST /api/availability/pattern/preview', () => {
  it('lists the days to set, the booked days to skip and the saved days to replace, and changes nothing', async () => {
    await insertBooking(t.ctx.db, { userId: alice.id, date: '2026-12-07' });
    await insertBooking(t.ctx.db, { userId: alice.id, date: '2026-12-07' }); // two bookings, one skipped day
    await insertBooking(t.ctx.db, { userId: alice.id, date: '2026-12-08' }); // a Tuesday: not in the pattern, not reported
    await insertBooking(t.ctx.db, { userId: bob.id, date: '2026-12-10' }); // somebody else's booking locks nothing of Alice's
    await post('/api/availability', { date: '2026-12-21', status: 'unavailable' }, aliceCookie);
    await post('/api/availability', { date: '2026-12-14', status: 'unavailable' }, aliceCookie); // week 3
    const before = await state();

    const response = await post(PREVIEW, fortnightly(), aliceCookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      dates: ['2026-11-26', '2026-12-10', '2026-12-21', '2026-12-24'],
      skippedBookedDates: ['2026-12-07'],
      overwrittenDates: ['2026-12-21'],
    });
    expect(await state()).toEqual(before);
  });

  it('accepts the own userId, and an empty pattern previews no days', async () => {
    const response = await post(
      PREVIEW,
      fortnightly({ userId: alice.id, endDate: '2026-12-06', daysOfWeek: [1] }),
      aliceCookie,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ dates: [], skippedBookedDates: [], overwrittenDates: [] });
  });
});

describe('POST /api/availability/pattern', () => {
  it('sets exactly the previewed days with the values, skips booked days, and says so', async () => {
    await post('/api/availability', { date: '2026-12-10', status: 'available' }, aliceCookie);
    await insertBooking(t.ctx.db, { userId: alice.id, date: '2026-12-10' });
    await t.ctx.db.delete(syncOutbox);
    const preview = (await post(PREVIEW, fortnightly(), aliceCookie)).json();

    const response = await post(APPLY, fortnightly(), aliceCookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ updated: 4, skippedBookedDates: ['2026-12-10'] });
    expect(preview.dates).toHaveLength(4);
    expect(preview.skippedBookedDates).toEqual(['2026-12-10']);

    const rows = await rowsOf(alice.id);
    const patterned = rows.filter((r) => r.status === 'limited');
    expect(patterned.map((r) => r.date)).toEqual(preview.dates);
    for (const row of patterned) {
      expect(row).toMatchObject({
        startTime: '09:00',
        endTime: '15:00',
        notes: 'School term',
        syncedToSharePoint: false,
        updatedBy: alice.id,
      });
    }
    // the booked day keeps what it had
    expect(rows.find((r) => r.date === '2026-12-10')).toMatchObject({ status: 'available' });
    // one SharePoint outbox row per day set, and the "last updated" time moved
    const queued = await t.ctx.db
      .select({ userId: syncOutbox.userId, date: syncOutbox.date })
      .from(syncOutbox)
      .orderBy(asc(syncOutbox.date));
    expect(queued).toEqual(preview.dates.map((date: string) => ({ userId: alice.id, date })));
    const [user] = await t.ctx.db
      .select({ at: users.lastAvailabilityUpdatedAt })
      .from(users)
      .where(eq(users.id, alice.id));
    expect(user!.at).toBeInstanceOf(Date);
  });

  it('records the changes in the history as made by the facilitator through a pattern', async () => {
    await post('/api/availability', { date: '2026-11-26', status: 'available' }, aliceCookie);
    // the history is append-only: only what this test adds is looked at
    const [{ last } = { last: 0 }] = await t.ctx.db
      .select({ last: sql<number>`coalesce(max(${changeHistory.id}), 0)::int` })
      .from(changeHistory);
    const response = await post(APPLY, fortnightly(), aliceCookie);
    expect(response.statusCode).toBe(200);
    const entries = await t.ctx.db
      .select({
        date: changeHistory.date,
        action: changeHistory.action,
        actorId: changeHistory.actorId,
        via: changeHistory.via,
      })
      .from(changeHistory)
      .where(and(eq(changeHistory.subjectUserId, alice.id), gt(changeHistory.id, last)))
      .orderBy(asc(changeHistory.date));
    expect(entries).toEqual(
      FORTNIGHT_DAYS.map((date) => ({
        date,
        action: date === '2026-11-26' ? 'update' : 'create',
        actorId: alice.id,
        via: 'pattern',
      })),
    );
  });

  it('replaces saved days and leaves the pattern weeks in between alone', async () => {
    await post(
      '/api/availability/bulk',
      { startDate: '2026-11-23', endDate: '2026-12-31', daysOfWeek: [1, 4], status: 'unavailable' },
      aliceCookie,
    );
    const response = await post(APPLY, fortnightly({ status: 'available', notes: '' }), aliceCookie);
    expect(response.json()).toEqual({ updated: 5, skippedBookedDates: [] });
    const rows = await rowsOf(alice.id);
    expect(rows.filter((r) => r.status === 'available').map((r) => r.date)).toEqual(FORTNIGHT_DAYS);
    // Mon 23 Nov (before the start) and the odd weeks stay unavailable
    expect(rows.filter((r) => r.status === 'unavailable').map((r) => r.date)).toEqual([
      '2026-11-23',
      '2026-11-30',
      '2026-12-03',
      '2026-12-14',
      '2026-12-17',
      '2026-12-28',
      '2026-12-31',
    ]);
  });

  it('every 4 weeks across the October clock change and into the new year', async () => {
    const response = await post(
      APPLY,
      fortnightly({ startDate: '2026-10-01', endDate: '2027-01-31', everyWeeks: 4, daysOfWeek: [1] }),
      aliceCookie,
    );
    expect(response.statusCode).toBe(200);
    // Thu 1 Oct 2026: anchor week Mon 28 Sep; weeks 4, 8, 12, 16 start 26 Oct (the day after the
    // clocks go back), 23 Nov, 21 Dec and 18 Jan
    expect((await rowsOf(alice.id)).map((r) => r.date)).toEqual([
      '2026-10-26',
      '2026-11-23',
      '2026-12-21',
      '2027-01-18',
    ]);
  });

  it('is all or nothing: a failure part-way leaves no day, outbox row or history entry behind', async () => {
    const before = await state();
    // a fault at the last step, queueing the days for SharePoint: the days themselves, the user's
    // "last updated" time and the history were written by then and must be rolled back
    await t.ctx.db.execute(sql`
      create function pattern_test_fault() returns trigger language plpgsql as $$
      begin raise exception 'disk full'; end $$`);
    await t.ctx.db.execute(sql`
      create trigger pattern_test_fault after insert on sync_outbox
      for each statement execute function pattern_test_fault()`);
    try {
      const response = await post(APPLY, fortnightly(), aliceCookie);
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ message: expect.any(String) });
      expect(response.body).not.toContain('disk full');
    } finally {
      await t.ctx.db.execute(sql`drop trigger pattern_test_fault on sync_outbox`);
      await t.ctx.db.execute(sql`drop function pattern_test_fault()`);
    }
    expect(await state()).toEqual(before);
    // and the same pattern goes through once the fault is gone
    expect((await post(APPLY, fortnightly(), aliceCookie)).json()).toEqual({
      updated: 5,
      skippedBookedDates: [],
    });
  });
});

describe('bad input: 400 with a message, nothing changed', () => {
  it.each([
    ['a 3-week repeat', { everyWeeks: 3 }, 'everyWeeks'],
    ['no repeat', { everyWeeks: undefined }, 'everyWeeks'],
    ['no weekdays', { daysOfWeek: [] }, 'daysOfWeek'],
    ['weekday 7', { daysOfWeek: [7] }, 'daysOfWeek.0'],
    ['an end before the start', { endDate: '2026-11-01' }, 'endDate'],
    ['more than 800 days', { endDate: '2029-12-31' }, 'endDate'],
    ['times out of order', { startTime: '15:00', endTime: '09:00' }, 'endTime'],
    ['a time not HH:mm', { startTime: '9' }, 'startTime'],
    ['an unknown status', { status: 'maybe' }, 'status'],
    ['an impossible date', { startDate: '2026-02-29' }, 'startDate'],
    ['notes over 2000 characters', { notes: 'n'.repeat(2001) }, 'notes'],
    ['a userId that is not a number', { userId: true }, 'userId'],
  ])('refuses %s', async (_name, extra, field) => {
    const before = await state();
    for (const url of [PREVIEW, APPLY]) {
      const response = await post(url, fortnightly(extra), aliceCookie);
      expect(response.statusCode, url).toBe(400);
      const body = response.json();
      expect(body.message).toEqual(expect.any(String));
      expect(Object.keys(body.fieldErrors)).toContain(field);
    }
    expect(await state()).toEqual(before);
  });

  it('refuses a body that is not an object', async () => {
    for (const payload of [[], 'pattern', null]) {
      const response = await t.app.inject({
        method: 'POST',
        url: APPLY,
        payload: JSON.stringify(payload),
        headers: { cookie: aliceCookie, 'content-type': 'application/json' },
      });
      expect(response.statusCode).toBe(400);
    }
  });
});

describe('who may preview and apply', () => {
  it.each([PREVIEW, APPLY])('%s: anonymous 401, nothing changed', async (url) => {
    const before = await state();
    const response = await post(url, fortnightly({ userId: alice.id }));
    expect(response.statusCode).toBe(401);
    expect(await state()).toEqual(before);
  });

  it.each([PREVIEW, APPLY])(
    '%s: another facilitator naming Alice gets 403, and learns nothing',
    async (url) => {
      await insertBooking(t.ctx.db, { userId: alice.id, date: '2026-12-07' });
      await post('/api/availability', { date: '2026-12-21', status: 'available' }, aliceCookie);
      const before = await state();
      const response = await post(url, fortnightly({ userId: alice.id }), bobCookie);
      expect(response.statusCode).toBe(403);
      expect(response.body).not.toContain('2026-12');
      expect(await state()).toEqual(before);
    },
  );

  it.each([PREVIEW, APPLY])('%s: staff naming Alice get 403 too (self-service route)', async (url) => {
    const before = await state();
    const response = await post(url, fortnightly({ userId: alice.id }), staffCookie);
    expect(response.statusCode).toBe(403);
    expect(await state()).toEqual(before);
  });

  it('a facilitator without a userId sets only their own days', async () => {
    const response = await post(APPLY, fortnightly(), bobCookie);
    expect(response.json()).toEqual({ updated: 5, skippedBookedDates: [] });
    expect(await rowsOf(alice.id)).toEqual([]);
    expect((await rowsOf(bob.id)).map((r) => r.date)).toEqual(FORTNIGHT_DAYS);
  });

  it('a cross-site request is refused before anything is read or written', async () => {
    const before = await state();
    const response = await t.app.inject({
      method: 'POST',
      url: APPLY,
      payload: fortnightly(),
      headers: { cookie: aliceCookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(response.statusCode).toBe(403);
    expect(await state()).toEqual(before);
  });
});
