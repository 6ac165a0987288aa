import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  availability,
  safeguardingPolicyVersions,
  safeguardingRecords,
  schedulerState,
  syncOutbox,
  users,
} from '../../db/schema';
import { insertBookings, insertDays } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';

// Wednesday 4 March 2026, 10:07 in London (winter time = UTC).
let clock = new Date('2026-03-04T10:07:00Z');
let t: TestApp;
let staffCookie: string;
let facilitatorCookie: string;
let fran: Awaited<ReturnType<TestApp['createUser']>>;
let sam: Awaited<ReturnType<TestApp['createUser']>>;
let staffId: number;

beforeAll(async () => {
  t = await createTestApp({}, { now: () => clock });
  fran = await t.createUser({ username: 'fran@example.org', password: 'fran-pass-1', area: 'North' });
  sam = await t.createUser({ username: 'sam@example.org', area: 'South' });
  staffCookie = await t.loginStaff();
  facilitatorCookie = await t.login('fran@example.org', 'fran-pass-1');
  const [staff] = await t.ctx.db.select().from(users).where(eq(users.role, 'staff'));
  staffId = staff!.id;

  await insertDays(t.ctx.db, [
    { userId: fran.id, date: '2026-02-27', status: 'available' },
    { userId: fran.id, date: '2026-03-02', status: 'limited', startTime: '09:00', endTime: '12:00' },
    { userId: sam.id, date: '2026-03-02', status: 'unavailable' },
    { userId: sam.id, date: '2026-03-31', status: 'available' },
    { userId: fran.id, date: '2026-04-01', status: 'available' },
  ]);
  await insertBookings(t.ctx.db, [
    { userId: fran.id, date: '2026-03-03', title: 'Dance', sharePointId: 'sp-1' },
    { userId: null, freelancerId: 'F-404', date: '2026-03-05', title: 'Unlinked', sharePointId: 'sp-2' },
    { userId: sam.id, date: '2026-04-02', title: 'Music', sharePointId: 'sp-3' },
  ]);
});
afterAll(() => t.close());

type Method = 'GET' | 'POST';
const call = (method: Method, url: string, cookie?: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: cookie ? { cookie } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

describe('authorisation of every staff dashboard endpoint', () => {
  const endpoints: [Method, string, unknown?][] = [
    ['GET', '/api/staff/availabilities?from=2026-03-01&to=2026-03-31'],
    ['GET', '/api/staff/bookings?from=2026-03-01&to=2026-03-31'],
    ['GET', '/api/staff/users'],
    ['GET', '/api/admin/scheduler/status'],
    ['POST', '/api/staff/availability', { userId: 0, date: '2026-03-10', status: 'unavailable' }],
  ];

  it.each(endpoints)('%s %s: anonymous 401, facilitator 403, staff 200', async (method, url, body) => {
    const payload = body ? { ...(body as object), userId: sam.id } : undefined;
    const anonymous = await call(method, url, undefined, payload);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ message: 'Please sign in to continue' });
    const facilitator = await call(method, url, facilitatorCookie, payload);
    expect(facilitator.statusCode).toBe(403);
    expect(facilitator.json()).toEqual({ message: 'This is for staff only' });
    // The facilitator's attempt changed nothing.
    const [row] = await t.ctx.db.select().from(availability).where(eq(availability.date, '2026-03-10'));
    expect(row).toBeUndefined();
    const staff = await call(method, url, staffCookie, payload);
    expect(staff.statusCode).toBe(200);
    if (method === 'POST') await t.ctx.db.delete(availability).where(eq(availability.date, '2026-03-10'));
  });
});

describe('GET /api/staff/availabilities', () => {
  it('answers every facilitator in exactly the inclusive range', async () => {
    const response = await call(
      'GET',
      '/api/staff/availabilities?from=2026-03-02&to=2026-03-31',
      staffCookie,
    );
    expect(response.statusCode).toBe(200);
    const rows = response.json() as { userId: number; date: string }[];
    expect(rows.map((r) => [r.date, r.userId])).toEqual([
      ['2026-03-02', fran.id],
      ['2026-03-02', sam.id],
      ['2026-03-31', sam.id],
    ]);
    expect(rows[0]).toEqual({
      id: expect.any(Number),
      userId: fran.id,
      date: '2026-03-02',
      status: 'limited',
      startTime: '09:00',
      endTime: '12:00',
      notes: '',
      syncedToSharePoint: false,
    });
  });

  it('a one-day range is inclusive at both ends', async () => {
    const response = await call(
      'GET',
      '/api/staff/availabilities?from=2026-03-31&to=2026-03-31',
      staffCookie,
    );
    expect((response.json() as unknown[]).length).toBe(1);
  });

  it('without a range uses the bounded default window around today', async () => {
    const response = await call('GET', '/api/staff/availabilities', staffCookie);
    expect(response.statusCode).toBe(200);
    expect((response.json() as unknown[]).length).toBe(5);
  });

  it.each([
    ['from=2026-03-31&to=2026-03-01', '"from" must be on or before "to"'],
    ['from=2026-01-01&to=2027-12-31', 'A range can cover at most 400 days'],
    ['from=2026-02-30&to=2026-03-31', 'Date is not a real calendar day'],
    ['from=yesterday', 'Date must be in yyyy-MM-dd format'],
  ])('refuses %s with 400', async (query, expected) => {
    const response = await call('GET', `/api/staff/availabilities?${query}`, staffCookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(expected);
  });
});

describe('GET /api/staff/bookings', () => {
  it('answers every booking in the range, unlinked ones included', async () => {
    const response = await call('GET', '/api/staff/bookings?from=2026-03-01&to=2026-03-31', staffCookie);
    expect(response.statusCode).toBe(200);
    const rows = response.json() as { title: string; userId: number | null }[];
    expect(rows.map((r) => [r.title, r.userId])).toEqual([
      ['Dance', fran.id],
      ['Unlinked', null],
    ]);
    expect(response.body).not.toContain('freelancerId');
  });

  it.each([
    ['from=2026-03-31&to=2026-03-01', '"from" must be on or before "to"'],
    ['from=2025-01-01&to=2026-12-31', 'A range can cover at most 400 days'],
    ['to=31-03-2026', 'Date must be in yyyy-MM-dd format'],
  ])('refuses %s with 400', async (query, expected) => {
    const response = await call('GET', `/api/staff/bookings?${query}`, staffCookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(expected);
  });
});

describe('GET /api/staff/grid', () => {
  const MARCH = 'from=2026-03-01&to=2026-03-31';
  type Page = {
    rows: {
      user: { id: number; username: string };
      availability: { date: string }[];
      bookings: { title: string }[];
      notes: { date: string; priority: string }[];
      safeguarding: { state: string };
    }[];
    nextCursor: string | null;
    matching: number;
    total: number;
    areas: string[];
  };
  const page = async (query: string) => {
    const response = await call('GET', `/api/staff/grid?${query}`, staffCookie);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Page;
  };
  const names = (p: Page) => p.rows.map((row) => row.user.username);

  it('answers the facilitators by name with their range, note marks and safeguarding; staff left out', async () => {
    await t.ctx.db.execute(
      sql`insert into staff_notes (facilitator_id, date, note, priority) values
          (${fran.id}, '2026-03-02', 'a', 'normal'), (${fran.id}, '2026-03-02', 'b', 'urgent'),
          (${sam.id}, '2026-04-02', 'later', 'high')`,
    );
    const first = await page(MARCH);
    expect(names(first)).toEqual(['fran@example.org', 'sam@example.org']);
    expect(first).toMatchObject({ nextCursor: null, matching: 2, total: 2, areas: ['North', 'South'] });
    const [franRow, samRow] = first.rows;
    expect(franRow!.availability.map((day) => day.date)).toEqual(['2026-03-02']);
    expect(franRow!.bookings.map((b) => b.title)).toEqual(['Dance']);
    expect(franRow!.notes).toEqual([{ date: '2026-03-02', priority: 'urgent' }]);
    expect(franRow!.safeguarding.state).toBe('missing');
    expect(samRow!.availability.map((day) => day.date)).toEqual(['2026-03-02', '2026-03-31']);
    expect(samRow!.notes).toEqual([]);
  });

  it('pages by cursor, and filters by area, chosen facilitators and search on the server', async () => {
    const one = await page(`${MARCH}&limit=1`);
    expect(names(one)).toEqual(['fran@example.org']);
    expect(one.matching).toBe(2);
    const two = await page(`${MARCH}&limit=1&cursor=${one.nextCursor}`);
    expect(names(two)).toEqual(['sam@example.org']);
    expect(two.nextCursor).toBeNull();
    expect(names(await page(`${MARCH}&area=South`))).toEqual(['sam@example.org']);
    expect(names(await page(`${MARCH}&area=__no_area__`))).toEqual([]);
    expect(names(await page(`${MARCH}&only=${sam.id}`))).toEqual(['sam@example.org']);
    expect(names(await page(`${MARCH}&exclude=${sam.id}`))).toEqual(['fran@example.org']);
    const searched = await page(`${MARCH}&search=FRA`);
    expect(names(searched)).toEqual(['fran@example.org']);
    expect(searched).toMatchObject({ matching: 1, total: 2 });
    expect(names(await page(`${MARCH}&search=%25`))).toEqual([]);
  });

  it('counts each area as the accounts change: a new one, an area moved or cleared, a role changed, one deleted', async () => {
    const counts = async (query = '') => {
      const { matching, total, areas } = await page(`${MARCH}${query}`);
      return { matching, total, areas };
    };
    expect(await counts('&area=South')).toEqual({ matching: 1, total: 2, areas: ['North', 'South'] });
    const kim = await t.createUser({ username: 'kim@example.org', area: '  East ' });
    expect(await counts('&area=East&area=South')).toEqual({
      matching: 2,
      total: 3,
      areas: ['East', 'North', 'South'],
    });
    await t.ctx.db.update(users).set({ area: null }).where(eq(users.id, kim.id));
    expect(await counts('&area=__no_area__')).toEqual({
      matching: 1,
      total: 3,
      areas: ['North', 'South', '__no_area__'],
    });
    await t.ctx.db.update(users).set({ role: 'staff' }).where(eq(users.id, kim.id));
    expect(await counts()).toEqual({ matching: 2, total: 2, areas: ['North', 'South'] });
    await t.ctx.db.update(users).set({ role: 'facilitator', area: 'South' }).where(eq(users.id, kim.id));
    expect(await counts('&area=South')).toEqual({ matching: 2, total: 3, areas: ['North', 'South'] });
    // a search, chosen people or people left out are counted from the accounts themselves
    expect(await counts('&area=South&search=kim')).toMatchObject({ matching: 1, total: 3 });
    expect(await counts(`&exclude=${kim.id}`)).toMatchObject({ matching: 2, total: 3 });
    await t.ctx.db.delete(users).where(eq(users.id, kim.id));
    expect(await counts()).toEqual({ matching: 2, total: 2, areas: ['North', 'South'] });
    // the counts kept match the accounts counted
    const kept = (await t.ctx.db.execute(
      sql`select area, facilitators from facilitator_areas where facilitators > 0 order by area`,
    )) as unknown as { rows: Array<{ area: string; facilitators: number }> };
    expect(kept.rows).toEqual([
      { area: 'North', facilitators: 1 },
      { area: 'South', facilitators: 1 },
    ]);
  });

  it('answers 304 while nothing it reads has changed, and 200 after a change to a day', async () => {
    const first = await call('GET', `/api/staff/grid?${MARCH}`, staffCookie);
    const etag = String(first.headers.etag);
    const again = await t.app.inject({
      url: `/api/staff/grid?${MARCH}`,
      headers: { cookie: staffCookie, 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    await insertDays(t.ctx.db, [{ userId: fran.id, date: '2026-03-20', status: 'available' }]);
    const changed = await t.app.inject({
      url: `/api/staff/grid?${MARCH}`,
      headers: { cookie: staffCookie, 'if-none-match': etag },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('answers 200 again after a safeguarding record or the policy changes', async () => {
    const etagNow = async () =>
      String((await call('GET', `/api/staff/grid?${MARCH}`, staffCookie)).headers.etag);
    const before = await etagNow();
    await t.ctx.db.insert(safeguardingRecords).values({ userId: sam.id });
    const afterRecord = await etagNow();
    expect(afterRecord).not.toBe(before);
    await t.ctx.db
      .insert(safeguardingPolicyVersions)
      .values({ effectiveFrom: '2026-01-01', dbsMonths: 36, updateServiceMonths: 12, warningDays: 30 });
    expect(await etagNow()).not.toBe(afterRecord);
  });

  it.each([
    ['from=2026-03-31&to=2026-03-01', 'to'],
    [`${MARCH}&limit=0`, 'limit'],
    [`${MARCH}&limit=201`, 'limit'],
    [`${MARCH}&only=1,,2`, 'only'],
    [`${MARCH}&exclude=0x10`, 'exclude'],
    [`${MARCH}&cursor=not-a-cursor`, 'cursor'],
  ])('refuses %s with 400 and the field named', async (query, field) => {
    const response = await call('GET', `/api/staff/grid?${query}`, staffCookie);
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().fieldErrors ?? {})).toContain(field);
  });

  it('a facilitator may not use it', async () => {
    expect((await call('GET', `/api/staff/grid?${MARCH}`, facilitatorCookie)).statusCode).toBe(403);
  });
});

describe('POST /api/staff/availability', () => {
  it("saves any facilitator's day, even a booked one, and queues it for SharePoint", async () => {
    const before = (await t.ctx.db.select().from(syncOutbox)).length;
    const response = await call('POST', '/api/staff/availability', staffCookie, {
      userId: fran.id,
      date: '2026-03-03', // Fran has a booking that day: staff may still edit it
      status: 'unavailable',
      startTime: '09:00',
      endTime: '17:00',
      notes: 'Set by staff',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      userId: fran.id,
      date: '2026-03-03',
      status: 'unavailable',
      startTime: '09:00',
      endTime: '17:00',
      notes: 'Set by staff',
      syncedToSharePoint: false,
    });
    const [row] = await t.ctx.db.select().from(availability).where(eq(availability.date, '2026-03-03'));
    expect(row?.updatedBy).toBe(staffId);
    const [user] = await t.ctx.db.select().from(users).where(eq(users.id, fran.id));
    expect(user?.lastAvailabilityUpdatedAt).toBeInstanceOf(Date);
    expect((await t.ctx.db.select().from(syncOutbox)).length).toBe(before + 1);
  });

  it('replaces an existing day (upsert)', async () => {
    const response = await call('POST', '/api/staff/availability', staffCookie, {
      userId: sam.id,
      date: '2026-03-02',
      status: 'available',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'available', startTime: '', endTime: '', notes: '' });
    const rows = await t.ctx.db.select().from(availability).where(eq(availability.userId, sam.id));
    expect(rows.filter((r) => r.date === '2026-03-02')).toHaveLength(1);
  });

  it('answers 404 for an unknown user and writes nothing', async () => {
    const response = await call('POST', '/api/staff/availability', staffCookie, {
      userId: 987_654,
      date: '2026-03-10',
      status: 'available',
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'User not found' });
  });

  it.each([
    [{ userId: undefined }, 'userId'],
    [{ status: 'busy' }, 'Status must be available, limited or unavailable'],
    [{ date: '2026-13-01' }, 'Date is not a real calendar day'],
    [{ startTime: '9am' }, 'Time must be in HH:mm format or empty'],
    [{ startTime: '17:00', endTime: '09:00' }, 'End time must be after start time'],
    [{ notes: 'x'.repeat(2001) }, 'Notes must be at most 2000 characters'],
  ])('refuses %j with 400 and changes nothing', async (override, expected) => {
    const before = await t.ctx.db.select().from(availability);
    const response = await call('POST', '/api/staff/availability', staffCookie, {
      userId: sam.id,
      date: '2026-03-11',
      status: 'available',
      ...override,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(expected);
    expect(await t.ctx.db.select().from(availability)).toEqual(before);
  });
});

describe('GET /api/admin/scheduler/status', () => {
  const status = async () => {
    const response = await call('GET', '/api/admin/scheduler/status', staffCookie);
    expect(response.statusCode).toBe(200);
    return response.json();
  };

  it('inside office hours with no job state: not updating, next step of 15 minutes', async () => {
    clock = new Date('2026-03-04T10:07:00Z');
    expect(await status()).toEqual({
      isUpdating: false,
      isOfficeHours: true,
      nextUpdate: 'Today at 10:15 AM',
      refreshStage: null,
      lastRefreshError: null,
      sharePointProblems: [],
      changeMode: 'polling',
      sharePointConfigured: false,
    });
  });

  it('outside office hours: next office-day start', async () => {
    clock = new Date('2026-03-06T19:30:00Z'); // Friday evening
    expect(await status()).toEqual({
      isUpdating: false,
      isOfficeHours: false,
      nextUpdate: 'Monday 9 March at 8:00 AM',
      refreshStage: null,
      lastRefreshError: null,
      sharePointProblems: [],
      changeMode: 'polling',
      sharePointConfigured: false,
    });
    clock = new Date('2026-03-04T06:00:00Z');
    expect(await status()).toMatchObject({ isOfficeHours: false, nextUpdate: 'Today at 8:00 AM' });
  });

  it('reports a running refresh from scheduler_state', async () => {
    clock = new Date('2026-03-04T10:07:00Z');
    await t.ctx.db.insert(schedulerState).values({ name: 'bookings-refresh', isUpdating: true });
    // a refresh on another instance: running, its stage not known here beyond "connecting"
    expect(await status()).toMatchObject({
      isUpdating: true,
      isOfficeHours: true,
      refreshStage: 'connecting',
    });
    await t.ctx.db
      .update(schedulerState)
      .set({ isUpdating: false, lastError: 'SharePoint refused the sign-in' })
      .where(eq(schedulerState.name, 'bookings-refresh'));
    expect(await status()).toMatchObject({
      isUpdating: false,
      refreshStage: null,
      lastRefreshError: 'SharePoint refused the sign-in',
    });
  });
});

describe('configured office hours', () => {
  it('follows OFFICE_HOURS, ORG_TIMEZONE and BOOKINGS_REFRESH_MINUTES', async () => {
    const other = await createTestApp(
      {
        OFFICE_HOURS: 'Sun-Sat 00:00-24:00',
        ORG_TIMEZONE: 'America/New_York',
        BOOKINGS_REFRESH_MINUTES: '60',
      },
      { now: () => new Date('2026-03-07T15:30:00Z') },
    );
    try {
      const cookie = await other.loginStaff();
      const response = await other.app.inject({
        method: 'GET',
        url: '/api/admin/scheduler/status',
        headers: { cookie },
      });
      expect(response.json()).toEqual({
        isUpdating: false,
        isOfficeHours: true,
        nextUpdate: 'Today at 11:00 AM',
        refreshStage: null,
        lastRefreshError: null,
        sharePointProblems: [],
        changeMode: 'polling',
        sharePointConfigured: false,
      });
    } finally {
      await other.close();
    }
  });
});
