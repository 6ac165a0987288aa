/**
 * The staff month and the accounts list are put together from texts kept in the database
 * (availability_range_json, users_list_json; ADR 44, ADR 45). Each cold answer (the list answers'
 * memory emptied, as after start-up) must be exactly what JSON.stringify of the rows gives, after
 * every kind of write, whichever path made it; a kept text is served while its version is current
 * and never once the rows behind it changed or the code writes rows differently. Runs on PGlite, or
 * on PostgreSQL when TEST_DATABASE_URL is set.
 */
import { and, asc, between, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkUpdate, saveDay } from '../modules/availability/service';
import { deleteUser, listUsers, updateUser } from '../modules/users/service';
import { insertDays } from '../test/factories';
import { createTestApp, type TestApp } from '../test/harness';
import { availability, availabilityRangeJson, users, usersListJson } from './schema';

let t: TestApp;
let staff: string;
let staffId: number;
let ann: { id: number };
let bob: { id: number };

// A month as the staff grid asks for it (first to last weekday): written ahead.
const MONTH = { from: '2026-03-02', to: '2026-03-31' };
// A week, and a range across two months: built from the rows each time.
const WEEK = { from: '2026-03-09', to: '2026-03-13' };
const ACROSS = { from: '2026-03-20', to: '2026-04-10' };

beforeAll(async () => {
  t = await createTestApp();
  staff = await t.loginStaff();
  const [row] = await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.role, 'staff'));
  staffId = row!.id;
  ann = await t.createUser({ username: 'ann@example.org', displayName: 'Ann' });
  bob = await t.createUser({ username: 'bob@example.org', displayName: 'Bob' });
  await t.createUser({ username: 'cat@example.org', displayName: 'Cat' });
  // days inside the month, and on each side of it
  await insertDays(
    t.ctx.db,
    ['2026-03-01', '2026-03-02', '2026-03-13', '2026-03-31', '2026-04-01', '2026-04-06'].flatMap(
      (date, i) => [
        {
          userId: ann.id,
          date,
          status: 'available' as const,
          notes: i % 2 ? 'Quote " and \\ backslash' : '',
        },
        { userId: bob.id, date, status: 'limited' as const, startTime: '09:00', endTime: '12:00' },
      ],
    ),
  );
}, 120_000);
afterAll(() => t?.close());

/** What the answer must be: the rows in the range, by facilitator then date, as JSON.stringify writes them. */
async function expectedDays(range: { from: string; to: string }) {
  const a = availability;
  const rows = await t.ctx.db
    .select({
      id: a.id,
      userId: a.userId,
      date: a.date,
      status: a.status,
      startTime: a.startTime,
      endTime: a.endTime,
      notes: a.notes,
      syncedToSharePoint: a.syncedToSharePoint,
    })
    .from(a)
    .where(between(a.date, range.from, range.to))
    .orderBy(asc(a.userId), asc(a.date));
  return JSON.stringify(rows);
}

/** A cold answer: the list answers' memory emptied first, as after start-up. */
async function cold(url: string) {
  t.ctx.lists.clear();
  const response = await t.app.inject({ url, headers: { cookie: staff } });
  expect(response.statusCode, response.body).toBe(200);
  return response.body;
}
const staffDays = (range: { from: string; to: string }) =>
  cold(`/api/staff/availabilities?from=${range.from}&to=${range.to}`);
const accounts = () => cold('/api/staff/users');

/** The month, the week and the range across months all answer exactly the rows, twice in a row. */
async function expectEveryRangeRight() {
  for (const range of [MONTH, WEEK, ACROSS]) {
    const expected = await expectedDays(range);
    expect(await staffDays(range), `${range.from}..${range.to}`).toBe(expected);
    expect(await staffDays(range), `${range.from}..${range.to}, again`).toBe(expected);
  }
}

const keptDays = () =>
  t.ctx.db
    .select()
    .from(availabilityRangeJson)
    .where(and(eq(availabilityRangeJson.rangeFrom, MONTH.from), eq(availabilityRangeJson.rangeTo, MONTH.to)));

describe('the staff month written ahead', () => {
  it('answers the rows exactly, and keeps one text per account for the month only', async () => {
    await expectEveryRangeRight();
    const kept = await keptDays();
    const everyone = await t.ctx.db.select({ id: users.id }).from(users);
    expect(kept.map((k) => k.userId).sort()).toEqual(everyone.map((u) => u.id).sort());
    expect(kept.find((k) => k.userId === ann.id)!.json).not.toBe('');
    // the week and the range across months are not kept
    const ranges = await t.ctx.db.execute(
      sql`select distinct range_from::text, range_to::text from availability_range_json`,
    );
    expect((ranges as unknown as { rows: unknown[] }).rows).toEqual([
      { range_from: MONTH.from, range_to: MONTH.to },
    ]);
  });

  it('serves a kept text while its version is current', async () => {
    await staffDays(MONTH);
    // only the database's own copy is changed, so an answer holding it was read from there
    const planted = '{"planted":true}';
    await t.ctx.db
      .update(availabilityRangeJson)
      .set({ json: planted })
      .where(eq(availabilityRangeJson.userId, ann.id));
    expect(await staffDays(MONTH)).toContain(planted);
    // an older version is never used: the next read writes that text again
    await t.ctx.db
      .update(availabilityRangeJson)
      .set({ version: sql`${availabilityRangeJson.version} - 1` })
      .where(eq(availabilityRangeJson.userId, ann.id));
    expect(await staffDays(MONTH)).toBe(await expectedDays(MONTH));
    // nor a text written by code that wrote rows another way
    await t.ctx.db
      .update(availabilityRangeJson)
      .set({ json: planted, shape: 'an-older-shape' })
      .where(eq(availabilityRangeJson.userId, bob.id));
    expect(await staffDays(MONTH)).toBe(await expectedDays(MONTH));
    const bobs = (await keptDays()).find((k) => k.userId === bob.id)!;
    expect(bobs.shape).not.toBe('an-older-shape');
    expect(bobs.json).not.toContain('planted');
  });

  it('is right after a save, a bulk save, a delete, a change by another path, a new account and a deleted one', async () => {
    await staffDays(MONTH);
    const asStaff = { id: staffId, mayOverrideBookings: true, via: 'staff' as const };
    await saveDay(
      t.ctx,
      { userId: bob.id, date: '2026-03-10', status: 'unavailable', startTime: '', endTime: '', notes: 'Ill' },
      asStaff,
    );
    await expectEveryRangeRight();

    await bulkUpdate(
      t.ctx,
      {
        userId: ann.id,
        startDate: '2026-03-16',
        endDate: '2026-04-03',
        daysOfWeek: [1, 3, 5],
        status: 'limited',
        startTime: '13:00',
        endTime: '17:00',
        notes: 'Afternoons',
      },
      asStaff,
    );
    await expectEveryRangeRight();

    await t.ctx.db
      .delete(availability)
      .where(and(eq(availability.userId, ann.id), eq(availability.date, '2026-03-13')));
    await expectEveryRangeRight();

    // as the SharePoint outbox marks days sent
    await t.ctx.db
      .update(availability)
      .set({ syncedToSharePoint: true })
      .where(eq(availability.userId, bob.id));
    await expectEveryRangeRight();

    const dan = await t.createUser({ username: 'dan@example.org' });
    await insertDays(t.ctx.db, [{ userId: dan.id, date: '2026-03-11', status: 'available' }]);
    await expectEveryRangeRight();

    await deleteUser(t.ctx.db, bob.id, staffId);
    await expectEveryRangeRight();
    expect((await keptDays()).some((k) => k.userId === bob.id)).toBe(false);

    await t.ctx.db.execute(sql`truncate availability`);
    await expectEveryRangeRight();
    expect(await staffDays(MONTH)).toBe('[]');
  });
});

describe('the accounts list written ahead', () => {
  const expectedAccounts = async () => JSON.stringify(await listUsers(t.ctx.db));

  it('answers the accounts exactly, and serves a kept text while its version is current', async () => {
    expect(await accounts()).toBe(await expectedAccounts());
    expect(await accounts()).toBe(await expectedAccounts());
    const planted = '{"planted":true}';
    await t.ctx.db.update(usersListJson).set({ json: planted }).where(eq(usersListJson.userId, ann.id));
    expect(await accounts()).toContain(planted);
    await t.ctx.db
      .update(usersListJson)
      .set({ version: sql`${usersListJson.version} - 1` })
      .where(eq(usersListJson.userId, ann.id));
    expect(await accounts()).toBe(await expectedAccounts());
    await t.ctx.db.update(usersListJson).set({ json: planted, shape: 'an-older-shape' });
    expect(await accounts()).toBe(await expectedAccounts());
  });

  it('is right after a new account, a change of name and area, a saved day and a deleted account', async () => {
    await accounts();
    const eve = await t.createUser({
      username: 'eve@example.org',
      displayName: 'Aardvark "Eve"',
      area: 'North',
    });
    expect(await accounts()).toBe(await expectedAccounts());

    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, eve.id));
    await updateUser(t.ctx.db, eve.id, { displayName: 'Zed', area: 'South', version: row!.version });
    expect(await accounts()).toBe(await expectedAccounts());

    // a facilitator's save moves their "last updated" time, which the list shows
    await saveDay(
      t.ctx,
      { userId: ann.id, date: '2026-05-04', status: 'available', startTime: '', endTime: '', notes: '' },
      { id: ann.id, mayOverrideBookings: false, via: 'facilitator' },
    );
    const answer = await accounts();
    expect(answer).toBe(await expectedAccounts());
    const anns = (JSON.parse(answer) as Array<{ id: number; lastAvailabilityUpdatedAt: string | null }>).find(
      (u) => u.id === ann.id,
    );
    expect(anns?.lastAvailabilityUpdatedAt).not.toBeNull();

    await deleteUser(t.ctx.db, eve.id, staffId);
    expect(await accounts()).toBe(await expectedAccounts());
    expect(JSON.parse(await accounts()).some((u: { id: number }) => u.id === eve.id)).toBe(false);
  });
});
