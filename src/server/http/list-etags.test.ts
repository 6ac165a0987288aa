/**
 * List answers revalidate (http/list-answers.ts, ADR 81): the ETag stands for the list's version,
 * a browser that still holds the current version gets 304 with no body, any write that moves the
 * version gets 200 and a new ETag, and an ETag valid for one person's answer is never valid for
 * another's. Runs on PGlite, or on PostgreSQL when TEST_DATABASE_URL is set.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema';
import { toPublicUser } from '../modules/users/service';
import type { TestApp } from '../test/harness';
import { listApp, type SignedIn } from '../test/list-app';
import { matchesIfNoneMatch } from './list-answers';

const RANGE = 'from=2027-05-01&to=2027-05-31';
const OWN = `/api/availability?${RANGE}`;
const OWN_BOOKINGS = `/api/bookings?${RANGE}`;
const STAFF_GRID = `/api/staff/availabilities?${RANGE}`;
const STAFF_BOOKINGS = `/api/staff/bookings?${RANGE}`;
const USERS = '/api/staff/users';
const NOTES = '/api/staff/notes?date=2027-05-10&view=month';

describe('If-None-Match', () => {
  it('compares weakly, reads lists and *', () => {
    expect(matchesIfNoneMatch('W/"a"', 'W/"a"')).toBe(true);
    expect(matchesIfNoneMatch('"a"', 'W/"a"')).toBe(true);
    expect(matchesIfNoneMatch('W/"b", W/"a"', 'W/"a"')).toBe(true);
    expect(matchesIfNoneMatch('*', 'W/"a"')).toBe(true);
    expect(matchesIfNoneMatch('W/"b"', 'W/"a"')).toBe(false);
    expect(matchesIfNoneMatch('', 'W/"a"')).toBe(false);
    expect(matchesIfNoneMatch(undefined, 'W/"a"')).toBe(false);
  });
});

describe('list answers with ETags', () => {
  const world = listApp();
  let t: TestApp;
  let staff: string;
  let alice: SignedIn;
  let ben: SignedIn;
  beforeAll(() => {
    ({ t, staff, alice, ben } = world);
  });

  const get = (url: string, cookie: string, ifNoneMatch?: string, encoding = 'br, gzip') =>
    t.app.inject({
      url,
      headers: {
        cookie,
        'accept-encoding': encoding,
        ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}),
      },
    });
  const { save } = world;
  const asStaff = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie: staff }, ...(payload ? { payload } : {}) });
  /** A note made through the API, as staff make them; answers its id. */
  const addNote = async (facilitatorId: number, date: string, note: string) => {
    const created = await asStaff('POST', '/api/staff/notes', {
      facilitatorId,
      date,
      note,
      priority: 'high',
    });
    expect(created.statusCode).toBe(201);
    return created.json().id as number;
  };

  it.each([
    ['own availability', OWN, 'alice'],
    ['own bookings', OWN_BOOKINGS, 'alice'],
    ['staff availability', STAFF_GRID, 'staff'],
    ['staff bookings', STAFF_BOOKINGS, 'staff'],
    ['accounts', USERS, 'staff'],
    ['staff notes', NOTES, 'staff'],
  ])('%s: asked again with its ETag, 304 with no body', async (_name, url, who) => {
    const cookie = who === 'staff' ? staff : alice.cookie;
    const first = await get(url, cookie);
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    expect(first.headers.vary).toMatch(/accept-encoding/i);

    const again = await get(url, cookie, etag);
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('private, no-cache');
    expect(again.headers['content-encoding']).toBeUndefined();
    // the same ETag whatever the encoding: the same list, sent compressed or not
    expect((await get(url, cookie, undefined, 'identity')).headers.etag).toBe(etag);
  });

  it('any write that moves the version gives 200 and a new ETag', async () => {
    const grid = await get(STAFF_GRID, staff);
    const own = await get(OWN, alice.cookie);
    const people = await get(USERS, staff);

    expect((await save(alice.cookie, '2027-05-10', 'available')).statusCode).toBe(200);
    const gridAfter = await get(STAFF_GRID, staff, grid.headers.etag as string);
    expect(gridAfter.statusCode).toBe(200);
    expect(gridAfter.headers.etag).not.toBe(grid.headers.etag);
    expect(JSON.parse(gridAfter.body)).toContainEqual(
      expect.objectContaining({ userId: alice.id, date: '2027-05-10', status: 'available' }),
    );
    const ownAfter = await get(OWN, alice.cookie, own.headers.etag as string);
    expect(ownAfter.statusCode).toBe(200);
    expect(ownAfter.headers.etag).not.toBe(own.headers.etag);
    // the save moved alice's "last updated" time, which the accounts list shows
    const peopleAfter = await get(USERS, staff, people.headers.etag as string);
    expect(peopleAfter.statusCode).toBe(200);
    expect(peopleAfter.headers.etag).not.toBe(people.headers.etag);

    // A write no service sees (plain SQL, as a script would) that changes nothing visible still
    // moves the version: 200 and a new ETag, then 304 with that one.
    const bookings = await get(STAFF_BOOKINGS, staff);
    await t.ctx.db.execute(sql`update bookings set title = title`);
    await t.ctx.db.execute(
      sql`insert into bookings (user_id, sharepoint_id, title, date, start_time, end_time) values (${ben.id}, 'etag-test-1', 'Clay', '2027-05-12', '09:00', '12:00')`,
    );
    const bookingsAfter = await get(STAFF_BOOKINGS, staff, bookings.headers.etag as string);
    expect(bookingsAfter.statusCode).toBe(200);
    expect(bookingsAfter.headers.etag).not.toBe(bookings.headers.etag);
    expect((await get(STAFF_BOOKINGS, staff, bookingsAfter.headers.etag as string)).statusCode).toBe(304);

    // An account edited in SQL moves the accounts list too.
    const before = await get(USERS, staff);
    await t.ctx.db.execute(sql`update users set area = 'North' where id = ${ben.id}`);
    const edited = await get(USERS, staff, before.headers.etag as string);
    expect(edited.statusCode).toBe(200);
    expect(JSON.parse(edited.body)).toContainEqual(expect.objectContaining({ id: ben.id, area: 'North' }));
  });

  it('one person never gets a 304 for what another was sent', async () => {
    await save(alice.cookie, '2027-05-11', 'limited');
    await save(ben.cookie, '2027-05-11', 'unavailable');
    const alices = await get(OWN, alice.cookie);
    const bens = await get(OWN, ben.cookie);
    expect(alices.body).not.toBe(bens.body);
    expect(alices.headers.etag).not.toBe(bens.headers.etag);
    // ben's browser holding alice's ETag for the same address (the same browser, a new sign-in)
    const benWithAlices = await get(OWN, ben.cookie, alices.headers.etag as string);
    expect(benWithAlices.statusCode).toBe(200);
    expect(JSON.parse(benWithAlices.body).every((day: { userId: number }) => day.userId === ben.id)).toBe(
      true,
    );
  });

  it('a facilitator and staff never get each other’s ETag-valid answer', async () => {
    const staffGrid = await get(STAFF_GRID, staff);
    const alicesOwn = await get(OWN, alice.cookie);
    // alice with the staff grid's ETag: her own list, in full
    const mine = await get(OWN, alice.cookie, staffGrid.headers.etag as string);
    expect(mine.statusCode).toBe(200);
    expect(mine.body).toBe((await get(OWN, alice.cookie, undefined, 'identity')).body);
    // staff holding alice's ETag: the whole grid, with ben's days as well as hers
    const grid = await get(STAFF_GRID, staff, alicesOwn.headers.etag as string);
    expect(grid.statusCode).toBe(200);
    expect(new Set(JSON.parse(grid.body).map((day: { userId: number }) => day.userId))).toEqual(
      new Set([alice.id, ben.id]),
    );
    expect(grid.headers.etag).not.toBe(alicesOwn.headers.etag);
    // and alice may not use the staff grid's address at all, ETag or not
    const refused = await get(STAFF_GRID, alice.cookie, staffGrid.headers.etag as string);
    expect(refused.statusCode).toBe(403);
    expect(refused.headers.etag).toBeUndefined();
  });

  it('the accounts list is byte for byte what the serializer wrote before', async () => {
    await t.ctx.db.execute(
      sql`update users set display_name = ${'Zoë "quoted" <b>\u2028'}, last_availability_updated_at = '2027-01-02 03:04:05.678912+00' where id = ${ben.id}`,
    );
    const rows = await t.ctx.db
      .select()
      .from(users)
      .orderBy(sql`lower(coalesce(${users.displayName}, ${users.username}))`, users.id);
    const response = await get(USERS, staff, undefined, 'identity');
    expect(response.body).toBe(JSON.stringify(rows.map(toPublicUser)));
    expect(JSON.parse(response.body)).toContainEqual(
      expect.objectContaining({ id: ben.id, lastAvailabilityUpdatedAt: '2027-01-02T03:04:05.678Z' }),
    );
  });

  it('every change to the notes, by any path, gives 200 and a new ETag', async () => {
    const changed = async (etag: string) => {
      const after = await get(NOTES, staff, etag);
      expect(after.statusCode).toBe(200);
      expect(after.headers.etag).not.toBe(etag);
      expect((await get(NOTES, staff, after.headers.etag as string)).statusCode).toBe(304);
      return after;
    };
    const notesOf = (response: { body: string }) =>
      (JSON.parse(response.body) as Array<{ id: number; note: string }>).map((n) => n.note);
    const first = await get(NOTES, staff);

    const id = await addNote(ben.id, '2027-05-14', 'Ring the school');
    const afterCreate = await changed(first.headers.etag as string);
    expect(notesOf(afterCreate)).toContain('Ring the school');

    const edited = await asStaff('PUT', `/api/staff/notes/${id}`, {
      note: 'School rang back',
      priority: 'normal',
    });
    expect(edited.statusCode).toBe(200);
    const afterEdit = await changed(afterCreate.headers.etag as string);
    expect(notesOf(afterEdit)).toContain('School rang back');
    expect(notesOf(afterEdit)).not.toContain('Ring the school');

    // the answer is what the serializer wrote for the same notes before they were versioned
    const identity = await get(NOTES, staff, undefined, 'identity');
    const rows = await t.ctx.db.execute(
      sql`select id from staff_notes where date between '2027-05-01' and '2027-05-31' order by date, facilitator_id, created_at, id`,
    );
    expect((JSON.parse(identity.body) as Array<{ id: number }>).map((n) => n.id)).toEqual(
      (rows as unknown as { rows: Array<{ id: number }> }).rows.map((r) => r.id),
    );
    expect(JSON.parse(identity.body)).toContainEqual({
      id,
      facilitatorId: ben.id,
      date: '2027-05-14',
      note: 'School rang back',
      priority: 'normal',
      createdBy: expect.any(Number),
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });

    // a write no service sees, as a script would make it
    await t.ctx.db.execute(sql`update staff_notes set note = 'Changed in SQL' where id = ${id}`);
    const afterSql = await changed(afterEdit.headers.etag as string);
    expect(notesOf(afterSql)).toContain('Changed in SQL');

    const deleted = await asStaff('DELETE', `/api/staff/notes/${id}`);
    expect(deleted.statusCode).toBe(204);
    const afterDelete = await changed(afterSql.headers.etag as string);
    expect(notesOf(afterDelete)).not.toContain('Changed in SQL');
  });

  it('the notes about an account go from the notes list when the account is deleted', async () => {
    const doomed = await t.createUser({ username: 'etag-doomed@example.org', password: 'doomed-pass-1' });
    await addNote(doomed.id, '2027-05-20', 'Leaving soon');
    const before = await get(NOTES, staff);
    expect(before.body).toContain('Leaving soon');
    const removed = await asStaff('DELETE', `/api/staff/users/${doomed.id}`);
    expect(removed.statusCode).toBe(204);
    const after = await get(NOTES, staff, before.headers.etag as string);
    expect(after.statusCode).toBe(200);
    expect(after.body).not.toContain('Leaving soon');
  });

  it('other API answers stay uncacheable', async () => {
    const offers = await get('/api/offers', alice.cookie);
    expect(offers.statusCode).toBe(200);
    expect(offers.headers['cache-control']).toBe('no-store');
    expect(offers.headers.etag).toBeUndefined();
  });
});
