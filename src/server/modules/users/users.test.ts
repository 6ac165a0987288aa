import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicUser, UsersPage } from '../../../shared/schemas/users';
import { verifyPassword } from '../../auth/passwords';
import { availability, bookings, sessions, staffNotes, users } from '../../db/schema';
import { insertBooking, insertBookings, insertDays, insertNotes } from '../../test/factories';
import { createTestApp, STAFF, type TestApp } from '../../test/harness';
import { deleteUser, findUserById, findUserByUsername } from './service';

let t: TestApp;
let staffCookie: string;
let facilitatorCookie: string;
let staffId: number;

beforeAll(async () => {
  t = await createTestApp();
  staffCookie = await t.loginStaff();
  const fran = await t.createUser({ username: 'fran@example.org', password: 'fran-pass-1' });
  facilitatorCookie = await t.login(fran.username, fran.password);
  staffId = (await findUserByUsername(t.ctx.db, STAFF.username))!.id;
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, cookie?: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: cookie ? { cookie } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const userCount = async () => (await t.ctx.db.select({ id: users.id }).from(users)).length;
const isSignedIn = async (cookie: string) => (await call('GET', '/api/user', cookie)).statusCode === 200;

describe('authorisation', () => {
  it.each([
    ['GET', '/api/staff/users', undefined],
    ['POST', '/api/staff/users', { username: 'new-one@example.org', password: 'secret-123' }],
    ['PUT', '/api/staff/users/1', { username: 'renamed@example.org' }],
    ['DELETE', '/api/staff/users/1', undefined],
  ] as const)('%s %s: anonymous 401, facilitator 403, nothing changes', async (method, url, payload) => {
    const before = await t.ctx.db.select().from(users).orderBy(users.id);
    const anonymous = await call(method, url, undefined, payload);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ message: 'Please sign in to continue' });
    const facilitator = await call(method, url, facilitatorCookie, payload);
    expect(facilitator.statusCode).toBe(403);
    expect(facilitator.json()).toEqual({ message: 'This is for staff only' });
    expect(await t.ctx.db.select().from(users).orderBy(users.id)).toEqual(before);
  });

  it('lets staff list every account, all roles, sorted by name case-insensitively, without secrets', async () => {
    await t.createUser({ username: 'zed@example.org', displayName: 'aaron lower' });
    await t.createUser({ username: 'Beth@example.org' });
    const response = await call('GET', '/api/staff/users', staffCookie);
    expect(response.statusCode).toBe(200);
    const list = response.json() as { username: string; displayName: string | null; role: string }[];
    expect(list.map((u) => u.role)).toContain('staff');
    expect(list.map((u) => u.role)).toContain('facilitator');
    const names = list.map((u) => (u.displayName ?? u.username).toLowerCase());
    expect(names).toEqual([...names].sort());
    expect(response.body).not.toMatch(/password/i);
    expect(response.body).not.toContain('$argon2');
  });

  it('pages the same accounts in the same order when asked, with a search and the counts', async () => {
    await t.createUser({ username: 'page-searched@example.org', displayName: '  Unique Pager ' });
    const whole = (await call('GET', '/api/staff/users', staffCookie)).json() as Array<{
      id: number;
      displayName: string | null;
      username: string;
    }>;
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url = `/api/staff/users?limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const response = await call('GET', url, staffCookie);
      expect(response.statusCode, url).toBe(200);
      const page = response.json() as UsersPage;
      expect(page.rows.length).toBeLessThanOrEqual(2);
      expect(page).toMatchObject({ total: whole.length, matching: whole.length });
      seen.push(...page.rows.map((u) => u.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(Math.ceil(whole.length / 2));
    // every account once, staff among them, by the name shown (trimmed), lower-cased, in the
    // database's collation, then id
    const ordered = (await t.ctx.db.execute(
      sql`select id from users order by lower(coalesce(nullif(btrim(display_name), ''), username)), id`,
    )) as unknown as { rows: Array<{ id: number }> };
    expect(seen).toEqual(ordered.rows.map((row) => row.id));
    expect(new Set(seen)).toEqual(new Set(whole.map((u) => u.id)));

    const found = (
      await call('GET', '/api/staff/users?search=UNIQUE%20pag', staffCookie)
    ).json() as UsersPage;
    expect(found.rows.map((u) => u.username)).toEqual(['page-searched@example.org']);
    expect(found).toMatchObject({ matching: 1, total: whole.length, nextCursor: null });
    const none = (await call('GET', '/api/staff/users?search=%25', staffCookie)).json() as UsersPage;
    expect(none.rows).toEqual([]);
  });

  /** Every page of `url` (which has its own query), by the cursors the pages give. */
  const allPages = async (url: string) => {
    const pages: UsersPage[] = [];
    let cursor: string | null = null;
    do {
      const address = `${url}${cursor ? `&cursor=${cursor}` : ''}`;
      const response = await call('GET', address, staffCookie);
      expect(response.statusCode, address).toBe(200);
      pages.push(response.json() as UsersPage);
      cursor = pages.at(-1)!.nextCursor;
    } while (cursor);
    return pages;
  };

  it('pages people of the same name by id, each once, and names every area in use', async () => {
    const same = [];
    for (const n of [1, 2, 3, 4, 5]) {
      same.push(
        await t.createUser({
          username: `twin-${n}@example.org`,
          displayName: 'Twin Same',
          area: ` Twinfield `,
        }),
      );
    }
    const pages = await allPages('/api/staff/users?limit=2&search=twin%20same');
    expect(pages.length).toBe(3);
    expect(pages.flatMap((p) => p.rows.map((u) => u.id))).toEqual(
      same.map((u) => u.id).sort((a, b) => a - b),
    );
    expect(pages.every((p) => p.matching === 5)).toBe(true);
    expect(pages[0]!.areas).toContain('Twinfield');
    expect(pages[0]!.areas).toEqual([...new Set(pages[0]!.areas)]);
  });

  it('searches without regard to accents or case, in names and the other fields', async () => {
    const nandu = await t.createUser({ username: 'nandu-search@example.org', displayName: 'Ñandú Ortega' });
    const zoe = await t.createUser({ username: 'zoe-search@example.org', displayName: 'Zoë Smith' });
    const amy = await t.createUser({
      username: 'amy-search@example.org',
      displayName: 'Amy Pond',
      area: 'Ōtaki',
    });
    const found = async (search: string) =>
      (
        (
          await call('GET', `/api/staff/users?search=${encodeURIComponent(search)}`, staffCookie)
        ).json() as UsersPage
      ).rows.map((u) => u.id);
    expect(await found('nandu ort')).toEqual([nandu.id]);
    expect(await found('ÑANDÚ')).toEqual([nandu.id]);
    expect(await found('zoe sm')).toEqual([zoe.id]);
    expect(await found('AMY-SEARCH@')).toEqual([amy.id]);
    expect(await found('otaki')).toEqual([amy.id]);
    // a wildcard is a character like any other
    expect(await found('_search@')).toEqual([]);
  });

  it('filters by safeguarding state today: facilitators only, every page, nobody twice', async () => {
    const whole = (await call('GET', '/api/staff/users', staffCookie)).json() as PublicUser[];
    const facilitators = whole.filter((u) => u.role !== 'staff').map((u) => u.id);
    // nobody here has records: every facilitator is missing them, and nobody is valid
    const missing = await allPages('/api/staff/users?limit=3&safeguarding=missing');
    expect(missing.length).toBeGreaterThan(1);
    const ids = missing.flatMap((p) => p.rows.map((u) => u.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => a - b)).toEqual([...facilitators].sort((a, b) => a - b));
    expect(missing[0]).toMatchObject({ matching: facilitators.length, total: whole.length });
    const valid = (await call('GET', '/api/staff/users?safeguarding=valid', staffCookie)).json() as UsersPage;
    expect(valid).toMatchObject({ rows: [], matching: 0, nextCursor: null, total: whole.length });
    // the search and the filter together
    const found = await allPages('/api/staff/users?limit=2&safeguarding=missing&search=twin-');
    expect(found.flatMap((p) => p.rows.map((u) => u.username)).sort()).toEqual(
      [1, 2, 3, 4, 5].map((n) => `twin-${n}@example.org`),
    );
  });

  it.each([
    '/api/staff/users?cursor=not-a-cursor',
    '/api/staff/users?limit=0',
    '/api/staff/users?limit=201',
    `/api/staff/users?search=${'x'.repeat(201)}`,
    '/api/staff/users?safeguarding=fine',
  ])('refuses %s with 400 and a message', async (url) => {
    const response = await call('GET', url, staffCookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBeTruthy();
  });
});

describe('create', () => {
  it('creates a facilitator with 201 and the public user; the new account can sign in', async () => {
    const response = await call('POST', '/api/staff/users', staffCookie, {
      username: 'Carla@Example.org',
      password: 'carla-pass-1',
      displayName: 'Carla Painter',
      email: 'carla@example.org',
      freelancerId: 'FL-42',
      role: 'facilitator',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      username: 'Carla@Example.org',
      displayName: 'Carla Painter',
      email: 'carla@example.org',
      freelancerId: 'FL-42',
      role: 'facilitator',
    });
    expect(response.body).not.toMatch(/password/i);
    await t.login('carla@example.org', 'carla-pass-1');
  });

  it('stores blank optional fields as null and defaults the role to facilitator', async () => {
    const response = await call('POST', '/api/staff/users', staffCookie, {
      username: 'dora@example.org',
      password: 'dora-pass-1',
      displayName: '',
      email: '  ',
      freelancerId: '',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      displayName: null,
      email: null,
      freelancerId: null,
      role: 'facilitator',
    });
  });

  it('refuses a username taken in another case with 409 and a clear message', async () => {
    const before = await userCount();
    const response = await call('POST', '/api/staff/users', staffCookie, {
      username: 'FRAN@EXAMPLE.ORG',
      password: 'another-pass',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('The username "FRAN@EXAMPLE.ORG" is already taken');
    expect(await userCount()).toBe(before);
  });

  it.each([
    [{ password: 'secret-123' }, 'username'],
    [{ username: '', password: 'secret-123' }, 'Username is required'],
    [{ username: '   ', password: 'secret-123' }, 'Username is required'],
    [{ username: 'erin@example.org' }, 'password'],
    [{ username: 'erin@example.org', password: '12345' }, 'Password must be at least 6 characters'],
    [{ username: 'erin@example.org', password: 'secret-123', role: 'Not A Role!' }, 'Role must be'],
    [{ username: 'erin@example.org', password: 'secret-123', displayName: 'x'.repeat(201) }, 'at most 200'],
    [{ username: 'erin@example.org', password: 'secret-123', email: 7 }, 'email'],
  ])('refuses %j with 400 and creates nothing', async (payload, expected) => {
    const before = await userCount();
    const response = await call('POST', '/api/staff/users', staffCookie, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(expected);
    expect(await userCount()).toBe(before);
  });

  it('accepts a numeric freelancer ID and stores it as text', async () => {
    const response = await call('POST', '/api/staff/users', staffCookie, {
      username: 'gwen@example.org',
      password: 'gwen-pass-1',
      freelancerId: 1234,
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().freelancerId).toBe('1234');
  });
});

describe('edit', () => {
  /** An edit as the users dialog makes it: on the account's current version. */
  const edit = async (id: number, cookie: string, body: Record<string, unknown>) => {
    const current = await findUserById(t.ctx.db, id);
    return call('PUT', `/api/staff/users/${id}`, cookie, { version: current?.version ?? 1, ...body });
  };

  it('keeps the current password when the password is blank or missing, and sessions stay', async () => {
    const user = await t.createUser({ username: 'hana@example.org', password: 'hana-pass-1', area: 'North' });
    const cookie = await t.login(user.username, user.password);
    for (const password of ['', undefined]) {
      const response = await edit(user.id, staffCookie, {
        username: 'hana@example.org',
        password,
        displayName: 'Hana Dancer',
        email: 'hana@example.org',
        freelancerId: '77',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        displayName: 'Hana Dancer',
        email: 'hana@example.org',
        freelancerId: '77',
        role: 'facilitator',
        // not sent by the page: kept
        area: 'North',
      });
    }
    const row = await findUserById(t.ctx.db, user.id);
    expect(await verifyPassword(row!.passwordHash!, 'hana-pass-1')).toBe(true);
    expect(await isSignedIn(cookie)).toBe(true);
  });

  it('keeps the role when it is omitted (a staff account stays staff)', async () => {
    const other = await t.createUser({ username: 'ivan-staff@example.org', role: 'staff' });
    const response = await edit(other.id, staffCookie, {
      username: 'ivan-staff@example.org',
      displayName: 'Ivan',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().role).toBe('staff');
  });

  it('clears an optional field sent blank or null', async () => {
    const user = await t.createUser({ username: 'jo@example.org', displayName: 'Jo', email: 'jo@x.org' });
    const response = await edit(user.id, staffCookie, {
      username: 'jo@example.org',
      displayName: '',
      email: null,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ displayName: null, email: null });
  });

  it("a new password set by staff ends the facilitator's sessions at once", async () => {
    const user = await t.createUser({ username: 'kim@example.org', password: 'kim-pass-1' });
    const cookie = await t.login(user.username, user.password);
    expect(await isSignedIn(cookie)).toBe(true);
    const response = await edit(user.id, staffCookie, {
      username: user.username,
      password: 'kim-new-pass',
    });
    expect(response.statusCode).toBe(200);
    expect(await isSignedIn(cookie)).toBe(false);
    expect(
      (await call('POST', '/api/login', undefined, { username: user.username, password: 'kim-pass-1' }))
        .statusCode,
    ).toBe(401);
    await t.login(user.username, 'kim-new-pass');
  });

  it('staff changing their own password stay signed in here and are signed out elsewhere', async () => {
    const me = await t.createUser({
      username: 'lee-staff@example.org',
      password: 'lee-pass-1',
      role: 'staff',
    });
    const here = await t.login(me.username, me.password, { staff: true });
    const elsewhere = await t.login(me.username, me.password, { staff: true });
    const response = await edit(me.id, here, {
      username: me.username,
      password: 'lee-pass-2',
    });
    expect(response.statusCode).toBe(200);
    expect(await isSignedIn(here)).toBe(true);
    expect(await isSignedIn(elsewhere)).toBe(false);
  });

  it('refuses renaming to a username taken in another case with 409 and changes nothing', async () => {
    const user = await t.createUser({ username: 'mia@example.org', displayName: 'Mia' });
    const response = await edit(user.id, staffCookie, {
      username: 'Fran@Example.Org',
      displayName: 'Changed',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('The username "Fran@Example.Org" is already taken');
    expect(await findUserById(t.ctx.db, user.id)).toMatchObject({
      username: 'mia@example.org',
      displayName: 'Mia',
    });
  });

  it('allows changing only the case of your own username', async () => {
    const user = await t.createUser({ username: 'nia@example.org' });
    const response = await edit(user.id, staffCookie, {
      username: 'Nia@example.org',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().username).toBe('Nia@example.org');
  });

  it.each([
    ['/api/staff/users/abc', { version: 1, username: 'x@example.org' }, 400, 'id'],
    ['/api/staff/users/0', { version: 1, username: 'x@example.org' }, 400, 'id'],
    ['/api/staff/users/99999', { version: 1, username: 'x@example.org' }, 404, 'User not found'],
    ['/api/staff/users/1', { username: '' }, 400, 'Username is required'],
    ['/api/staff/users/1', { username: 'x@example.org', password: '123' }, 400, 'at least 6'],
    ['/api/staff/users/1', { username: 'x\u200b@example.org' }, 400, 'invisible'],
    ['/api/staff/users/1', { username: 'x@example.org' }, 400, 'version'],
  ])('PUT %s %j → %i and nothing changes', async (url, payload, status, expected) => {
    const before = await t.ctx.db.select().from(users).orderBy(users.id);
    // the current version, unless the case is about a missing one
    const version = 'version' in payload || expected === 'version' ? {} : { version: before[0]!.version };
    const response = await call('PUT', url, staffCookie, { ...version, ...payload });
    expect(response.statusCode).toBe(status);
    expect(response.json().message).toContain(expected);
    expect(await t.ctx.db.select().from(users).orderBy(users.id)).toEqual(before);
  });

  it('refuses to take the staff role from the last staff account', async () => {
    const fresh = await createTestApp();
    try {
      const cookie = await fresh.loginStaff();
      const me = (await findUserByUsername(fresh.ctx.db, STAFF.username))!;
      const response = await fresh.app.inject({
        method: 'PUT',
        url: `/api/staff/users/${me.id}`,
        headers: { cookie },
        payload: { version: me.version, username: STAFF.username, role: 'facilitator' },
      });
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe('The last staff account cannot lose the staff role');
      expect((await findUserById(fresh.ctx.db, me.id))!.role).toBe('staff');
    } finally {
      await fresh.close();
    }
  });
});

describe('delete', () => {
  it("removes a facilitator's availability and notes, unlinks their bookings and ends their sessions", async () => {
    const user = await t.createUser({ username: 'olga@example.org', password: 'olga-pass-1' });
    const keep = await t.createUser({ username: 'pat@example.org' });
    const cookie = await t.login(user.username, user.password);
    await insertDays(t.ctx.db, [
      { userId: user.id, date: '2026-03-02', status: 'available' },
      { userId: user.id, date: '2026-03-03', status: 'limited' },
      { userId: keep.id, date: '2026-03-02', status: 'unavailable', updatedBy: user.id },
    ]);
    await insertNotes(t.ctx.db, [
      { facilitatorId: user.id, date: '2026-03-02', note: 'about olga', createdBy: staffId },
      { facilitatorId: keep.id, date: '2026-03-02', note: 'written by olga', createdBy: user.id },
    ]);
    await insertBookings(t.ctx.db, [
      { userId: user.id, date: '2026-03-02', sharePointId: 'sp-olga-1', title: 'Drama', freelancerId: 'F1' },
      { userId: keep.id, date: '2026-03-02', sharePointId: 'sp-pat-1', title: 'Art' },
    ]);

    const response = await call('DELETE', `/api/staff/users/${user.id}`, staffCookie);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');

    expect(await findUserById(t.ctx.db, user.id)).toBeUndefined();
    expect(await t.ctx.db.select().from(availability).where(eq(availability.userId, user.id))).toEqual([]);
    expect(await t.ctx.db.select().from(staffNotes).where(eq(staffNotes.facilitatorId, user.id))).toEqual([]);
    expect(await t.ctx.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    const [booking] = await t.ctx.db.select().from(bookings).where(eq(bookings.sharePointId, 'sp-olga-1'));
    expect(booking).toMatchObject({ userId: null, title: 'Drama', freelancerId: 'F1' });
    // other people's rows stay; references to the deleted user become null
    const [kept] = await t.ctx.db.select().from(availability).where(eq(availability.userId, keep.id));
    expect(kept).toMatchObject({ status: 'unavailable', updatedBy: null });
    const [keptNote] = await t.ctx.db.select().from(staffNotes).where(eq(staffNotes.facilitatorId, keep.id));
    expect(keptNote).toMatchObject({ note: 'written by olga', createdBy: null });
    const [patBooking] = await t.ctx.db.select().from(bookings).where(eq(bookings.sharePointId, 'sp-pat-1'));
    expect(patBooking!.userId).toBe(keep.id);

    // the deleted user's cookie is dead at once
    expect(await isSignedIn(cookie)).toBe(false);
    expect((await call('GET', '/api/availability', cookie)).statusCode).toBe(401);
    expect(
      (await call('POST', '/api/login', undefined, { username: user.username, password: user.password }))
        .statusCode,
    ).toBe(401);
  });

  it('refuses to delete your own account with 400', async () => {
    const before = await userCount();
    const response = await call('DELETE', `/api/staff/users/${staffId}`, staffCookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('You cannot delete your own account');
    expect(await userCount()).toBe(before);
    expect(await isSignedIn(staffCookie)).toBe(true);
  });

  it('deletes another staff account while one remains', async () => {
    const other = await t.createUser({ username: 'quinn-staff@example.org', role: 'staff' });
    const response = await call('DELETE', `/api/staff/users/${other.id}`, staffCookie);
    expect(response.statusCode).toBe(204);
    expect(await findUserById(t.ctx.db, other.id)).toBeUndefined();
  });

  it('never deletes the last staff account, and a refused delete changes nothing', async () => {
    const fresh = await createTestApp();
    try {
      const only = (await findUserByUsername(fresh.ctx.db, STAFF.username))!;
      const facilitator = await fresh.createUser({ username: 'rob@example.org' });
      await insertBooking(fresh.ctx.db, { userId: only.id, date: '2026-03-02', sharePointId: 'sp-staff-1' });
      // the route refuses self-deletion first; the service rule holds for any caller
      await expect(deleteUser(fresh.ctx.db, only.id, facilitator.id)).rejects.toMatchObject({
        status: 409,
        message: 'The last staff account cannot be deleted',
      });
      expect(await findUserById(fresh.ctx.db, only.id)).toBeDefined();
      const [booking] = await fresh.ctx.db.select().from(bookings);
      expect(booking!.userId).toBe(only.id);
    } finally {
      await fresh.close();
    }
  });

  it('two staff deleting each other at once leave at least one staff account', async () => {
    const fresh = await createTestApp();
    try {
      const a = (await findUserByUsername(fresh.ctx.db, STAFF.username))!;
      const b = await fresh.createUser({
        username: 'sam-staff@example.org',
        role: 'staff',
        password: 'sam-pass-1',
      });
      const cookieA = await fresh.loginStaff();
      const cookieB = await fresh.login(b.username, b.password, { staff: true });
      const results = await Promise.all([
        fresh.app.inject({ method: 'DELETE', url: `/api/staff/users/${b.id}`, headers: { cookie: cookieA } }),
        fresh.app.inject({ method: 'DELETE', url: `/api/staff/users/${a.id}`, headers: { cookie: cookieB } }),
      ]);
      for (const r of results) expect([204, 401, 404, 409]).toContain(r.statusCode);
      const staffLeft = await fresh.ctx.db.select().from(users).where(eq(users.role, 'staff'));
      expect(staffLeft.length).toBeGreaterThanOrEqual(1);
    } finally {
      await fresh.close();
    }
  });

  it.each([
    ['/api/staff/users/abc', 400],
    ['/api/staff/users/-1', 400],
    ['/api/staff/users/99999', 404],
  ])('DELETE %s → %i and nothing changes', async (url, status) => {
    const before = await userCount();
    const response = await call('DELETE', url, staffCookie);
    expect(response.statusCode).toBe(status);
    expect(typeof response.json().message).toBe('string');
    expect(await userCount()).toBe(before);
  });
});

describe('one canonical username', () => {
  it.each([
    ['VİCTOR@example.org', 'victor@example.org', 'dotted capital I'],
    ['STRAßE@example.org', 'strasse@example.org', 'sharp s'],
    ['ｏｌｇａ@example.org', 'olga@example.org', 'fullwidth letters'],
    ['ΣΟΦΙΑς@example.org', 'σοφιασ@example.org', 'final sigma'],
  ])('refuses %s while %s exists (%s) with 409, and it signs in as that account', async (second, first) => {
    const existing = await t.createUser({ username: first, password: 'same-pass-1' });
    const response = await call('POST', '/api/staff/users', staffCookie, {
      username: second,
      password: 'other-pass-1',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(`The username "${second}" is already taken`);
    const signIn = await call('POST', '/api/login', undefined, { username: second, password: 'same-pass-1' });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().id).toBe(existing.id);
  });

  it.each([
    ['аlice@example.org', 'alice@example.org', 'Cyrillic а'],
    ['bоb@example.org', 'bob@example.org', 'Cyrillic о'],
    ['ρaul@example.org', 'paul@example.org', 'Greek rho'],
    ['rnandy@example.org', 'mandy@example.org', 'rn for m'],
    ['j0e@example.org', 'joe@example.org', 'zero for o'],
  ])('refuses %s, which looks like %s (%s), with 409 on create and on rename', async (lookalike, first) => {
    await t.createUser({ username: first });
    const create = await call('POST', '/api/staff/users', staffCookie, {
      username: lookalike,
      password: 'other-pass-1',
    });
    expect(create.statusCode).toBe(409);
    expect(create.json()).toEqual({
      message: 'This username looks the same as an existing account',
      fieldErrors: { username: ['This username looks the same as an existing account'] },
    });
    const other = await t.createUser({ username: `other-${first}` });
    const rename = await call('PUT', `/api/staff/users/${other.id}`, staffCookie, {
      version: other.version,
      username: lookalike,
    });
    expect(rename.statusCode).toBe(409);
    expect((await findUserById(t.ctx.db, other.id))!.username).toBe(`other-${first}`);
  });

  it.each([
    ['zero-width space', 'ze\u200bro@example.org'],
    ['right-to-left override', '\u202eevil@example.org'],
    ['soft hyphen', 'soft\u00adhyphen@example.org'],
    ['variation selector', 'vs\ufe0f@example.org'],
    ['tag character', 'tag\u{e0041}@example.org'],
    ['word joiner', 'word\u2060joiner@example.org'],
  ])('refuses a username with a %s with 400 and a field error', async (_what, username) => {
    const before = await userCount();
    const response = await call('POST', '/api/staff/users', staffCookie, {
      username,
      password: 'secret-123',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({
      username: ['Username must not contain invisible or control characters'],
    });
    expect(await userCount()).toBe(before);
  });
});

describe('edits made on stale data', () => {
  it("refuses B's email edit made before A's role change with 409, keeping the role", async () => {
    const user = await t.createUser({ username: 'olive@example.org', email: 'olive@old.org' });
    const loaded = (await call('GET', '/api/staff/users', staffCookie)).json() as PublicUser[];
    const asLoaded = loaded.find((u) => u.id === user.id)!;
    // staff A promotes
    const a = await call('PUT', `/api/staff/users/${user.id}`, staffCookie, {
      version: asLoaded.version,
      role: 'staff',
    });
    expect(a.statusCode).toBe(200);
    // staff B, on the page loaded before that, changes the email (and re-sends the role it saw)
    const b = await call('PUT', `/api/staff/users/${user.id}`, staffCookie, {
      version: asLoaded.version,
      email: 'olive@new.org',
      role: asLoaded.role,
    });
    expect(b.statusCode).toBe(409);
    expect(b.json().message).toBe('This account was changed by someone else. Reload to see the changes.');
    expect(await findUserById(t.ctx.db, user.id)).toMatchObject({ role: 'staff', email: 'olive@old.org' });
  });

  it('changes only the fields sent: an email edit on the current version keeps the role', async () => {
    const user = await t.createUser({ username: 'pia@example.org', role: 'staff', displayName: 'Pia' });
    const response = await call('PUT', `/api/staff/users/${user.id}`, staffCookie, {
      version: user.version,
      email: 'pia@new.org',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      username: 'pia@example.org',
      displayName: 'Pia',
      email: 'pia@new.org',
      role: 'staff',
      version: user.version + 1,
    });
  });
});

describe('calendar feed', () => {
  it("stops working when staff reset the person's password, and goes with a deleted account", async () => {
    const user = await t.createUser({ username: 'quinn@example.org', password: 'quinn-pass-1' });
    const cookie = await t.login(user.username, user.password);
    const feedUrl = async (who: string) =>
      (await call('POST', '/api/calendar-feed', who)).json().path as string;
    const before = await feedUrl(cookie);
    expect((await call('GET', before)).statusCode).toBe(200);
    const reset = await call('PUT', `/api/staff/users/${user.id}`, staffCookie, {
      version: user.version,
      password: 'quinn-new-pass',
    });
    expect(reset.statusCode).toBe(200);
    expect((await call('GET', before)).statusCode).toBe(404);

    const again = await feedUrl(await t.login(user.username, 'quinn-new-pass'));
    expect((await call('GET', again)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/staff/users/${user.id}`, staffCookie)).statusCode).toBe(204);
    expect((await call('GET', again)).statusCode).toBe(404);
  });
});
