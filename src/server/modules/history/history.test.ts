import { asc, eq, gt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKED_DAY_MESSAGE } from '../../../shared/schemas/availability';
import { changeHistory, users } from '../../db/schema';
import { setupConnector } from '../../sharepoint/test-support';
import { insertBooking } from '../../test/factories';
import { createTestApp, STAFF, type TestApp } from '../../test/harness';
import { recordChanges } from './record';

const NOW = new Date('2026-11-23T10:00:00Z');

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
  await t.ctx.db.update(users).set({ displayName: 'Sam' }).where(eq(users.id, staffId));
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

async function lastId(): Promise<number> {
  const [row] = await t.ctx.db
    .select({ id: sql<number>`coalesce(max(${changeHistory.id}), 0)::int` })
    .from(changeHistory);
  return row!.id;
}

/** The history rows written since `after` (an id from lastId()), oldest first. */
async function rowsSince(after: number) {
  return t.ctx.db
    .select()
    .from(changeHistory)
    .where(gt(changeHistory.id, after))
    .orderBy(asc(changeHistory.id));
}

const day = (date: string, status: string, extra: Record<string, string> = {}) => ({
  date,
  status,
  startTime: '',
  endTime: '',
  notes: '',
  ...extra,
});

describe('availability writes', () => {
  it('a facilitator saving a day records who, what, before and after, via facilitator', async () => {
    const mark = await lastId();
    expect(
      (await call('POST', '/api/availability', aliceCookie, day('2027-01-04', 'available'))).statusCode,
    ).toBe(200);
    expect(
      (
        await call(
          'POST',
          '/api/availability',
          aliceCookie,
          day('2027-01-04', 'limited', { startTime: '09:00', endTime: '12:00', notes: 'Mornings' }),
        )
      ).statusCode,
    ).toBe(200);
    const rows = await rowsSince(mark);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      entity: 'availability',
      action: 'create',
      subjectUserId: alice.id,
      subjectName: 'Alice',
      date: '2027-01-04',
      actorId: alice.id,
      actorName: 'Alice',
      via: 'facilitator',
      before: null,
      after: { status: 'available', startTime: '', endTime: '', notes: '' },
    });
    expect(rows[1]).toMatchObject({
      action: 'update',
      via: 'facilitator',
      before: { status: 'available', startTime: '', endTime: '', notes: '' },
      after: { status: 'limited', startTime: '09:00', endTime: '12:00', notes: 'Mornings' },
    });
  });

  it('saving a day with the values it already has records nothing', async () => {
    await call('POST', '/api/availability', aliceCookie, day('2027-01-05', 'unavailable'));
    const mark = await lastId();
    expect(
      (await call('POST', '/api/availability', aliceCookie, day('2027-01-05', 'unavailable'))).statusCode,
    ).toBe(200);
    expect(await rowsSince(mark)).toEqual([]);
  });

  it('staff changing a day records via staff with the staff name', async () => {
    const mark = await lastId();
    const response = await call('POST', '/api/staff/availability', staffCookie, {
      userId: alice.id,
      ...day('2027-01-04', 'unavailable'),
    });
    expect(response.statusCode).toBe(200);
    const rows = await rowsSince(mark);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      subjectUserId: alice.id,
      actorId: staffId,
      actorName: 'Sam',
      via: 'staff',
      before: { status: 'limited' },
      after: { status: 'unavailable' },
    });
  });

  it('a bulk update records one row per day written, none for booked days skipped', async () => {
    await insertBooking(t.ctx.db, { userId: bob.id, date: '2027-02-03' });
    await call('POST', '/api/availability', bobCookie, day('2027-02-01', 'available'));
    const mark = await lastId();
    const response = await call('POST', '/api/availability/bulk', bobCookie, {
      startDate: '2027-02-01',
      endDate: '2027-02-07',
      daysOfWeek: [1, 2, 3, 4, 5],
      status: 'unavailable',
    });
    expect(response.json()).toEqual({ updated: 4, skippedBookedDates: ['2027-02-03'] });
    const rows = await rowsSince(mark);
    expect(rows.map((r) => [r.date, r.action, r.via, r.actorId])).toEqual([
      ['2027-02-01', 'update', 'bulk', bob.id],
      ['2027-02-02', 'create', 'bulk', bob.id],
      ['2027-02-04', 'create', 'bulk', bob.id],
      ['2027-02-05', 'create', 'bulk', bob.id],
    ]);
    expect(rows[0]!.before).toMatchObject({ status: 'available' });
  });

  it('a refused change records nothing: a booked day (409), bad input (400), another calendar (403)', async () => {
    await insertBooking(t.ctx.db, { userId: alice.id, date: '2027-03-01' });
    const mark = await lastId();
    const booked = await call('POST', '/api/availability', aliceCookie, day('2027-03-01', 'unavailable'));
    expect(booked.statusCode).toBe(409);
    expect(booked.json().message).toBe(BOOKED_DAY_MESSAGE);
    expect(
      (await call('POST', '/api/availability', aliceCookie, day('2027-03-02', 'sometimes'))).statusCode,
    ).toBe(400);
    expect(
      (
        await call('POST', '/api/availability', bobCookie, {
          userId: alice.id,
          ...day('2027-03-02', 'available'),
        })
      ).statusCode,
    ).toBe(403);
    const tooLong = await call('POST', '/api/availability/bulk', aliceCookie, {
      startDate: '2027-01-01',
      endDate: '2030-01-01',
      daysOfWeek: [1],
      status: 'available',
    });
    expect(tooLong.statusCode).toBe(400);
    expect(await rowsSince(mark)).toEqual([]);
  });

  it('a year-long bulk save writes its history in the same transaction, one row per day', async () => {
    const mark = await lastId();
    const response = await call('POST', '/api/availability/bulk', aliceCookie, {
      startDate: '2028-01-01',
      endDate: '2028-12-31',
      daysOfWeek: [0, 1, 2, 3, 4, 5, 6],
      status: 'available',
    });
    expect(response.json().updated).toBe(366);
    const rows = await rowsSince(mark);
    expect(rows).toHaveLength(366);
    expect(new Set(rows.map((r) => r.date)).size).toBe(366);
  });
});

describe('staff notes', () => {
  it('create, edit and delete are recorded via staff with the note before and after', async () => {
    const mark = await lastId();
    const created = await call('POST', '/api/staff/notes', staffCookie, {
      facilitatorId: alice.id,
      date: '2027-01-04',
      note: 'Call first',
      priority: 'high',
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    expect(
      (await call('PUT', `/api/staff/notes/${id}`, staffCookie, { note: 'Call Monday', priority: 'urgent' }))
        .statusCode,
    ).toBe(200);
    expect((await call('DELETE', `/api/staff/notes/${id}`, staffCookie)).statusCode).toBe(204);
    const rows = await rowsSince(mark);
    expect(rows.map((r) => [r.entity, r.action, r.via, r.actorId, r.subjectUserId, r.date])).toEqual([
      ['note', 'create', 'staff', staffId, alice.id, '2027-01-04'],
      ['note', 'update', 'staff', staffId, alice.id, '2027-01-04'],
      ['note', 'delete', 'staff', staffId, alice.id, '2027-01-04'],
    ]);
    expect(rows[0]!.after).toEqual({ date: '2027-01-04', note: 'Call first', priority: 'high' });
    expect(rows[1]!.before).toEqual({ date: '2027-01-04', note: 'Call first', priority: 'high' });
    expect(rows[1]!.after).toEqual({ date: '2027-01-04', note: 'Call Monday', priority: 'urgent' });
    expect(rows[2]).toMatchObject({ before: { note: 'Call Monday' }, after: null });
  });

  it('a refused note change records nothing', async () => {
    const mark = await lastId();
    expect(
      (await call('PUT', '/api/staff/notes/999999', staffCookie, { note: 'x', priority: 'normal' }))
        .statusCode,
    ).toBe(404);
    expect((await call('DELETE', '/api/staff/notes/999999', staffCookie)).statusCode).toBe(404);
    expect(
      (
        await call('POST', '/api/staff/notes', staffCookie, {
          facilitatorId: alice.id,
          date: '2027-01-04',
          note: '  ',
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await call('POST', '/api/staff/notes', staffCookie, {
          facilitatorId: staffId,
          date: '2027-01-04',
          note: 'x',
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await call('POST', '/api/staff/notes', aliceCookie, {
          facilitatorId: alice.id,
          date: '2027-01-04',
          note: 'x',
        })
      ).statusCode,
    ).toBe(403);
    expect(await rowsSince(mark)).toEqual([]);
  });
});

describe('accounts', () => {
  it('staff creating, editing, resetting a password, changing a role and deleting are recorded', async () => {
    const mark = await lastId();
    const created = await call('POST', '/api/staff/users', staffCookie, {
      username: 'cara@example.org',
      password: 'cara-pass-1',
      displayName: 'Cara',
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    let version = created.json().version as number;
    const edit = async (body: Record<string, unknown>) => {
      const response = await call('PUT', `/api/staff/users/${id}`, staffCookie, {
        version,
        username: 'cara@example.org',
        ...body,
      });
      if (response.statusCode === 200) version = response.json().version;
      return response;
    };
    expect((await edit({ displayName: 'Cara Jones', area: 'North' })).statusCode).toBe(200);
    expect((await edit({ password: 'cara-new-pass-2' })).statusCode).toBe(200);
    expect((await edit({ role: 'staff' })).statusCode).toBe(200);
    expect((await edit({})).statusCode).toBe(200); // nothing changed: not recorded
    expect((await call('DELETE', `/api/staff/users/${id}`, staffCookie)).statusCode).toBe(204);

    const rows = await rowsSince(mark);
    expect(rows.map((r) => [r.entity, r.action, r.via, r.actorId, r.subjectUserId])).toEqual([
      ['account', 'create', 'staff', staffId, id],
      ['account', 'update', 'staff', staffId, id],
      ['account', 'update', 'staff', staffId, id],
      ['account', 'update', 'staff', staffId, id],
      ['account', 'delete', 'staff', staffId, id],
    ]);
    expect(rows[0]!.after).toMatchObject({
      username: 'cara@example.org',
      displayName: 'Cara',
      role: 'facilitator',
    });
    expect(rows[1]).toMatchObject({
      before: { displayName: 'Cara', area: null },
      after: { displayName: 'Cara Jones', area: 'North' },
    });
    expect(rows[2]!.after).toMatchObject({ password: 'changed' });
    expect(rows[2]!.before).not.toHaveProperty('password');
    expect(rows[3]).toMatchObject({ before: { role: 'facilitator' }, after: { role: 'staff' } });
    // the deleted account's history stays, with the name it had
    expect(rows[4]).toMatchObject({
      subjectName: 'Cara Jones',
      before: { displayName: 'Cara Jones' },
      after: null,
    });
    const [gone] = await t.ctx.db.select().from(users).where(eq(users.id, id));
    expect(gone).toBeUndefined();
    const afterDelete = await call('GET', `/api/staff/users/${id}/history`, staffCookie);
    expect(afterDelete.json().entries).toHaveLength(5);
    // no password hash, and no password, anywhere in the history
    const text = JSON.stringify(rows);
    expect(text).not.toContain('cara-pass-1');
    expect(text).not.toContain('cara-new-pass-2');
    expect(text).not.toMatch(/\$argon2|\$scrypt|\$2[aby]\$|passwordHash|password_hash/);
  });

  it('a facilitator changing their own password is recorded via facilitator, without the password', async () => {
    const dana = await t.createUser({ username: 'dana@example.org', password: 'dana-pass-1' });
    const cookie = await t.login('dana@example.org', 'dana-pass-1');
    const mark = await lastId();
    const response = await call('PUT', '/api/user/password', cookie, {
      currentPassword: 'dana-pass-1',
      newPassword: 'dana-pass-2',
    });
    expect(response.statusCode).toBe(200);
    const rows = await rowsSince(mark);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      entity: 'account',
      action: 'update',
      subjectUserId: dana.id,
      actorId: dana.id,
      via: 'facilitator',
    });
    expect(rows[0]!.after).toMatchObject({ password: 'changed' });
    expect(JSON.stringify(rows)).not.toContain('dana-pass');
  });

  it('a refused account change records nothing', async () => {
    const mark = await lastId();
    expect(
      (
        await call('POST', '/api/staff/users', staffCookie, {
          username: 'ALICE@example.org',
          password: 'x-pass-123',
        })
      ).statusCode,
    ).toBe(409);
    expect(
      (
        await call('PUT', `/api/staff/users/${alice.id}`, staffCookie, {
          version: alice.version,
          username: 'bob@example.org',
        })
      ).statusCode,
    ).toBe(409);
    expect((await call('DELETE', `/api/staff/users/${staffId}`, staffCookie)).statusCode).toBe(400);
    expect((await call('DELETE', '/api/staff/users/999999', staffCookie)).statusCode).toBe(404);
    expect(
      (
        await call('PUT', '/api/user/password', aliceCookie, {
          currentPassword: 'wrong-pass-1',
          newPassword: 'alice-pass-2',
        })
      ).statusCode,
    ).toBe(400);
    expect(await rowsSince(mark)).toEqual([]);
  });

  it('registration is recorded as the new user, via facilitator', async () => {
    const open = await createTestApp({ ALLOW_REGISTRATION: 'true' });
    try {
      const response = await open.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: { username: 'eve@example.org', password: 'eve-pass-123', displayName: 'Eve' },
      });
      expect(response.statusCode).toBe(201);
      const rows = await open.ctx.db.select().from(changeHistory);
      expect(rows).toHaveLength(1);
      const id = rows[0]!.subjectUserId;
      expect(rows[0]).toMatchObject({
        entity: 'account',
        action: 'create',
        actorId: id,
        actorName: 'Eve',
        via: 'facilitator',
      });
    } finally {
      await open.close();
    }
  });
});

describe('settings', () => {
  const settings = {
    siteUrl: 'https://example.sharepoint.com/sites/hist',
    availabilityListName: 'Availability',
    bookingsListName: 'Bookings',
    tenantId: 'tenant-1',
    clientId: 'client-1',
    username: 'svc@example.org',
  };

  it('saving records the plain fields; secrets only as "changed", never their values', async () => {
    const mark = await lastId();
    const first = await call('POST', '/api/sharepoint/settings', staffCookie, {
      ...settings,
      clientSecret: 'top-secret-client-value',
      password: 'top-secret-password-value',
    });
    expect(first.statusCode).toBe(200);
    const second = await call('POST', '/api/sharepoint/settings', staffCookie, {
      ...settings,
      bookingsListName: 'Sessions',
    });
    expect(second.statusCode).toBe(200);
    const again = await call('POST', '/api/sharepoint/settings', staffCookie, {
      ...settings,
      bookingsListName: 'Sessions',
    });
    expect(again.statusCode).toBe(200); // the same values again: not a change
    const rows = await rowsSince(mark);
    expect(rows.map((r) => [r.entity, r.action, r.via, r.actorId, r.subjectUserId])).toEqual([
      ['settings', 'create', 'staff', staffId, null],
      ['settings', 'update', 'staff', staffId, null],
    ]);
    expect(rows[0]!.after).toMatchObject({ ...settings, clientSecret: 'changed', password: 'changed' });
    expect(rows[1]!.before).toMatchObject({ bookingsListName: 'Bookings' });
    expect(rows[1]!.after).toMatchObject({ bookingsListName: 'Sessions' });
    expect(rows[1]!.after).not.toHaveProperty('password');
    const all = JSON.stringify(await t.ctx.db.select().from(changeHistory));
    expect(all).not.toContain('top-secret');
    const stored = await t.ctx.db.execute(
      sql`select client_secret_encrypted, password_encrypted from sharepoint_settings`,
    );
    for (const value of Object.values((stored as unknown as { rows: Record<string, string>[] }).rows[0]!)) {
      expect(all).not.toContain(value);
    }
  });

  it('refused settings record nothing', async () => {
    const mark = await lastId();
    expect(
      (await call('POST', '/api/sharepoint/settings', staffCookie, { ...settings, siteUrl: 'not a url' }))
        .statusCode,
    ).toBe(400);
    expect((await call('POST', '/api/sharepoint/settings', aliceCookie, settings)).statusCode).toBe(403);
    expect(await rowsSince(mark)).toEqual([]);
  });
});

/** Drizzle wraps the database's error: the trigger's message is on its cause. */
async function expectRefused(work: Promise<unknown>) {
  const error = await work.then(
    () => null,
    (e: unknown) => e as Error & { cause?: Error },
  );
  expect(error, 'the statement was not refused').not.toBeNull();
  expect(`${error!.message} ${error!.cause?.message ?? ''}`).toMatch(/change_history is append-only/);
}

describe('append-only', () => {
  it('history rows cannot be updated, deleted or truncated', async () => {
    expect(await lastId()).toBeGreaterThan(0);
    const before = await t.ctx.db.select().from(changeHistory).orderBy(asc(changeHistory.id));
    await expectRefused(t.ctx.db.execute(sql`update change_history set via = 'bulk'`));
    await expectRefused(t.ctx.db.update(changeHistory).set({ after: null }));
    await expectRefused(t.ctx.db.execute(sql`delete from change_history`));
    await expectRefused(t.ctx.db.delete(changeHistory).where(eq(changeHistory.subjectUserId, alice.id)));
    await expectRefused(t.ctx.db.execute(sql`truncate change_history`));
    // even with the purge switch, a row is never rewritten
    await expectRefused(
      t.ctx.db.transaction(async (tx) => {
        await tx.execute(sql`set local change_history.purge = 'on'`);
        await tx.execute(sql`update change_history set via = 'bulk'`);
      }),
    );
    expect(await t.ctx.db.select().from(changeHistory).orderBy(asc(changeHistory.id))).toEqual(before);
  });

  it('a change that fails after its history was written leaves no history (same transaction)', async () => {
    const mark = await lastId();
    await expect(
      t.ctx.db.transaction(async (tx) => {
        await recordChanges(tx, [
          {
            entity: 'availability',
            action: 'update',
            subjectUserId: alice.id,
            date: '2027-06-01',
            actorId: alice.id,
            via: 'facilitator',
            before: null,
            after: { status: 'available' },
          },
        ]);
        throw new Error('the change itself failed');
      }),
    ).rejects.toThrow('the change itself failed');
    expect(await rowsSince(mark)).toEqual([]);
  });

  it('deleting an account keeps its history, ids and name snapshots', async () => {
    const fred = await t.createUser({
      username: 'fred@example.org',
      displayName: 'Fred',
      password: 'fred-pass-1',
    });
    const cookie = await t.login('fred@example.org', 'fred-pass-1');
    await call('POST', '/api/availability', cookie, day('2027-04-01', 'available'));
    expect((await call('DELETE', `/api/staff/users/${fred.id}`, staffCookie)).statusCode).toBe(204);
    const rows = await t.ctx.db.select().from(changeHistory).where(eq(changeHistory.subjectUserId, fred.id));
    expect(rows.map((r) => [r.entity, r.action, r.subjectName, r.actorName])).toEqual([
      ['availability', 'create', 'Fred', 'Fred'],
      ['account', 'delete', 'Fred', 'Sam'],
    ]);
  });
});

describe('reading the history', () => {
  it('staff see a facilitator day: availability and notes, newest first, with names, via and time', async () => {
    await call('POST', '/api/staff/notes', staffCookie, {
      facilitatorId: alice.id,
      date: '2027-01-04',
      note: 'Ring',
      priority: 'normal',
    });
    const response = await call('GET', `/api/staff/history?userId=${alice.id}&date=2027-01-04`, staffCookie);
    expect(response.statusCode).toBe(200);
    const page = response.json();
    expect(page.timeZone).toBe('Europe/London');
    expect(page.nextBefore).toBeNull();
    const entries = page.entries as {
      id: number;
      entity: string;
      via: string;
      actorName: string;
      at: string;
      date: string;
    }[];
    expect(entries.map((e) => [e.entity, e.via, e.actorName])).toEqual([
      ['note', 'staff', 'Sam'],
      ['note', 'staff', 'Sam'],
      ['note', 'staff', 'Sam'],
      ['note', 'staff', 'Sam'],
      ['availability', 'staff', 'Sam'],
      ['availability', 'facilitator', 'Alice'],
      ['availability', 'facilitator', 'Alice'],
    ]);
    expect(entries.every((e) => e.date === '2027-01-04')).toBe(true);
    expect(entries.map((e) => e.id)).toEqual([...entries.map((e) => e.id)].sort((a, b) => b - a));
    expect(new Date(entries[0]!.at).toISOString()).toBe(entries[0]!.at);
  });

  it("staff page through a person's history, newest first", async () => {
    const all = (await call('GET', `/api/staff/users/${bob.id}/history?limit=200`, staffCookie)).json();
    expect(all.entries.length).toBeGreaterThanOrEqual(5);
    const first = (await call('GET', `/api/staff/users/${bob.id}/history?limit=2`, staffCookie)).json();
    expect(first.entries.map((e: { id: number }) => e.id)).toEqual(
      all.entries.slice(0, 2).map((e: { id: number }) => e.id),
    );
    expect(first.nextBefore).toBe(first.entries[1].id);
    const second = (
      await call('GET', `/api/staff/users/${bob.id}/history?limit=2&before=${first.nextBefore}`, staffCookie)
    ).json();
    expect(second.entries.map((e: { id: number }) => e.id)).toEqual(
      all.entries.slice(2, 4).map((e: { id: number }) => e.id),
    );
    const none = (await call('GET', '/api/staff/users/999999/history', staffCookie)).json();
    expect(none).toEqual({ entries: [], nextBefore: null, timeZone: 'Europe/London' });
  });

  it('a facilitator sees only their own availability history: no notes, nobody else', async () => {
    const response = await call('GET', '/api/history?from=2027-01-01&to=2027-01-31', aliceCookie);
    expect(response.statusCode).toBe(200);
    const entries = response.json().entries as { entity: string; subjectUserId: number; date: string }[];
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => e.entity === 'availability' && e.subjectUserId === alice.id)).toBe(true);
    expect(entries.every((e) => e.date >= '2027-01-01' && e.date <= '2027-01-31')).toBe(true);
    expect(response.body).not.toContain('Ring');
    expect(response.body).not.toContain('Call first');
    // the same with her own id named
    const named = await call(
      'GET',
      `/api/history?from=2027-01-01&to=2027-01-31&userId=${alice.id}`,
      aliceCookie,
    );
    expect(named.json().entries).toEqual(response.json().entries);
  });

  it('authorisation: anonymous 401; facilitators 403 on staff routes and on somebody else', async () => {
    const staffRoutes = [
      `/api/staff/history?userId=${alice.id}&date=2027-01-04`,
      `/api/staff/users/${alice.id}/history`,
    ];
    for (const url of staffRoutes) {
      expect((await call('GET', url)).statusCode).toBe(401);
      expect((await call('GET', url, aliceCookie)).statusCode).toBe(403);
      expect((await call('GET', url, bobCookie)).statusCode).toBe(403);
      expect((await call('GET', url, staffCookie)).statusCode).toBe(200);
    }
    const own = `/api/history?from=2027-01-01&to=2027-01-31&userId=${alice.id}`;
    expect((await call('GET', own)).statusCode).toBe(401);
    expect((await call('GET', own, aliceCookie)).statusCode).toBe(200);
    const other = await call('GET', own, bobCookie);
    expect(other.statusCode).toBe(403);
    expect(other.body).not.toContain('Mornings');
    expect((await call('GET', own, staffCookie)).statusCode).toBe(403);
    // Bob's own view has nothing of Alice's
    const bobs = (await call('GET', '/api/history?from=2027-01-01&to=2027-01-31', bobCookie)).json();
    expect(bobs.entries).toEqual([]);
  });

  it('bad queries are 400 with a message', async () => {
    const bad = [
      ['/api/staff/history?userId=abc&date=2027-01-04', staffCookie],
      ['/api/staff/history?userId=1&date=2027-13-01', staffCookie],
      ['/api/staff/history?date=2027-01-04', staffCookie],
      [`/api/staff/users/${alice.id}/history?limit=0`, staffCookie],
      [`/api/staff/users/${alice.id}/history?limit=201`, staffCookie],
      [`/api/staff/users/${alice.id}/history?before=-1`, staffCookie],
      ['/api/staff/users/abc/history', staffCookie],
      ['/api/history?from=2027-02-01&to=2027-01-01', aliceCookie],
      ['/api/history?from=2020-01-01&to=2027-01-01', aliceCookie],
      ['/api/history?limit=x', aliceCookie],
    ] as const;
    for (const [url, cookie] of bad) {
      const response = await call('GET', url, cookie);
      expect(response.statusCode, url).toBe(400);
      expect(typeof response.json().message, url).toBe('string');
    }
  });

  it('no read answer carries a password, hash or secret', async () => {
    const answers = await Promise.all([
      call('GET', `/api/staff/users/${staffId}/history?limit=200`, staffCookie),
      call('GET', `/api/staff/users/${alice.id}/history?limit=200`, staffCookie),
      call('GET', '/api/history', aliceCookie),
    ]);
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(answer.body).not.toMatch(/\$argon2|\$scrypt|passwordHash|password_hash|top-secret/);
      expect(answer.body).not.toContain(STAFF.password);
    }
  });
});

describe('SharePoint facilitator import', () => {
  it('records every account it creates or changes, via sharepoint, by the staff member who ran it', async () => {
    const s = await setupConnector({ seed: { seed: 'history', bookingCount: 4, facilitatorCount: 3 } });
    try {
      const staff = await s.t.loginStaff();
      const [staffRow] = await s.t.ctx.db.select().from(users).where(eq(users.role, 'staff'));
      const [first] = s.portal.facilitators;
      const existing = await s.t.createUser({
        username: 'existing@example.org',
        freelancerId: first!.freelancerId,
        area: 'Old area',
      });
      const run = () =>
        s.t.app.inject({ method: 'POST', url: '/api/staff/facilitators/import', headers: { cookie: staff } });
      const response = await run();
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ created: 2, updated: 1 });
      const rows = await s.t.ctx.db.select().from(changeHistory).orderBy(asc(changeHistory.id));
      expect(rows).toHaveLength(3);
      expect(
        rows.every((r) => r.entity === 'account' && r.via === 'sharepoint' && r.actorId === staffRow!.id),
      ).toBe(true);
      const update = rows.find((r) => r.action === 'update')!;
      expect(update).toMatchObject({
        subjectUserId: existing.id,
        before: { area: 'Old area', displayName: null },
        after: { area: first!.area, displayName: first!.name },
      });
      const creates = rows.filter((r) => r.action === 'create');
      expect(creates).toHaveLength(2);
      for (const row of creates) expect(row).toMatchObject({ before: null, after: { role: 'facilitator' } });
      // a second run changes nothing and records nothing
      expect((await run()).json()).toMatchObject({ created: 0, updated: 0 });
      expect(await s.t.ctx.db.select().from(changeHistory)).toHaveLength(3);
    } finally {
      await s.close();
    }
  });
});

describe('numbers in the query string', () => {
  it('are canonical digits only, as in paths: 0x10, 1e1, 016, +16, 16.0 and " 16" are refused', async () => {
    const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
    // account 16 may exist or not: a spelling of it must never be read as it
    for (const spelling of ['0x10', '1e1', '016', '%2B16', '16.0', '%2016', '0', '-1', '16abc', '']) {
      const day = await get(`/api/staff/history?userId=${spelling}&date=2026-07-06`, staffCookie);
      expect(day.statusCode, `userId=${spelling}`).toBe(400);
      const own = await get(`/api/history?userId=${spelling}`, aliceCookie);
      expect(own.statusCode, `own userId=${spelling}`).toBe(400);
      const exported = await get(
        `/api/availability/export?from=2026-07-01&to=2026-07-31&userId=${spelling}`,
        aliceCookie,
      );
      expect(exported.statusCode, `export userId=${spelling}`).toBe(400);
      const page = await get(`/api/history?limit=${spelling}`, aliceCookie);
      expect(page.statusCode, `limit=${spelling}`).toBe(400);
      const before = await get(`/api/history?before=${spelling}`, aliceCookie);
      expect(before.statusCode, `before=${spelling}`).toBe(400);
    }
    // written plainly, they work
    expect((await get(`/api/history?userId=${alice.id}&limit=16&before=99999`, aliceCookie)).statusCode).toBe(
      200,
    );
    expect(
      (await get(`/api/availability/export?from=2026-07-01&to=2026-07-31&userId=${alice.id}`, aliceCookie))
        .statusCode,
    ).toBe(200);
  });
});
