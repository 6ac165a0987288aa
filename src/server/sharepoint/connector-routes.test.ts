/** Test connection, the Facilitators import and the scheduler, against the emulator. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { schedulerState, users } from '../db/schema';
import { refreshJobOf } from '../jobs/refresh-job';
import { Scheduler } from '../jobs/scheduler';
import { type ConnectorSetup, setupConnector } from './test-support';

let s: ConnectorSetup;
let staff: string;
let facilitator: string;
// Monday 4 May 2026, 10:02 in London (BST): inside the default office hours Mon-Fri 08:00-18:00.
let clock = Date.parse('2026-05-04T09:02:00Z');
// Milliseconds the clock moves on each reading (0: frozen). A real clock moves between two readings.
let tickPerRead = 0;

beforeAll(async () => {
  s = await setupConnector({
    seed: { seed: 'routes', bookingCount: 20, facilitatorCount: 5, freelancerIdType: 'number' },
    build: {
      now: () => {
        clock += tickPerRead;
        return new Date(clock);
      },
    },
    env: { BOOKINGS_REFRESH_MINUTES: '15' },
  });
  staff = await s.t.loginStaff();
  const fran = await s.t.createUser({ username: 'fran@example.org', password: 'fran-pass-1' });
  facilitator = await s.t.login(fran.username, 'fran-pass-1');
});
afterAll(() => s.close());
beforeEach(() => {
  s.emu.control.clearFaults();
  s.emu.control.clearRequests();
});

function testConnection(body: Record<string, string> = {}) {
  const c = s.emu.control.credentials;
  return s.t.app.inject({
    method: 'POST',
    url: '/api/sharepoint/test-connection-with-credentials',
    headers: { cookie: staff },
    payload: {
      siteUrl: s.portal.siteUrl,
      availabilityListName: 'Availability',
      bookingsListName: 'Bookings',
      facilitatorListName: 'Facilitators',
      schoolsListName: 'Schools',
      tenantId: c.tenantId,
      clientId: c.clientId,
      clientSecret: c.clientSecret,
      ...body,
    },
  });
}

describe('test connection', () => {
  it('checks token, site, lists and columns', async () => {
    const response = await testConnection();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      success: true,
      message: expect.stringMatching(/^Connection to SharePoint successful!/),
    });
  });

  it.each([
    [{ clientSecret: 'wrong' }, /^Could not sign in to Microsoft with these settings: .*invalid_client/],
    [{ tenantId: 'not-our-tenant' }, /^Could not sign in to Microsoft with these settings/],
    [
      { siteUrl: 'https://contoso.sharepoint.com/sites/Nope' },
      /^Signed in, but no SharePoint site was found at https:\/\/contoso.sharepoint.com\/sites\/Nope: check the site URL/,
    ],
    [
      { bookingsListName: 'Bookingz' },
      /^Bookings list "Bookingz": The site has no list called "Bookingz". Check the name/,
    ],
  ])('says in words what failed for %j, and what to check', async (body, message) => {
    const response = await testConnection(body);
    expect(response.json()).toMatchObject({ success: false, message: expect.stringMatching(message) });
    expect(response.json().message).not.toContain(s.emu.control.credentials.clientSecret);
  });

  it('names every missing column', async () => {
    s.emu.control.createList(s.portal.site.id, {
      displayName: 'Thin availability',
      columns: [
        { name: 'Title', type: 'text' },
        { name: 'Day', type: 'text' },
      ],
    });
    const response = await testConnection({ availabilityListName: 'Thin availability' });
    expect(response.json().success).toBe(false);
    expect(response.json().message).toMatch(
      /^The Availability list "Thin availability" lacks columns the portal needs: Freelancer ID: no column found.*Facilitator name: no column found.*Notes: no column found/,
    );
  });
});

describe('POST /api/staff/facilitators/import', () => {
  const post = (cookie?: string) =>
    s.t.app.inject({
      method: 'POST',
      url: '/api/staff/facilitators/import',
      headers: cookie ? { cookie } : {},
    });

  it('is for staff only', async () => {
    expect((await post()).statusCode).toBe(401);
    expect((await post(facilitator)).statusCode).toBe(403);
  });

  it('creates accounts without a usable password and updates existing ones by freelancer ID', async () => {
    const [first, second] = s.portal.facilitators;
    // numeric column: the emulator sends 1001, the portal stores "1001"
    const existing = await s.t.createUser({
      username: 'existing@example.org',
      freelancerId: first!.freelancerId,
      area: 'Old area',
    });
    s.emu.control.addItem(s.portal.lists.facilitators!, {
      Title: 'No Number',
      Email: 'nonumber@example.org',
    });
    const response = await post(staff);
    expect(response.statusCode).toBe(200);
    const result = response.json();
    expect(result).toMatchObject({ created: 4, updated: 1, unchanged: 0, total: 6 });
    expect(result.skipped).toEqual([
      expect.objectContaining({ name: 'No Number', reason: 'no freelancer ID' }),
    ]);
    const [updated] = await s.t.ctx.db.select().from(users).where(eq(users.id, existing.id));
    expect(updated).toMatchObject({ displayName: first!.name, email: first!.email, area: first!.area });
    expect(updated!.passwordHash).not.toBeNull(); // an existing password is never touched
    const [created] = await s.t.ctx.db
      .select()
      .from(users)
      .where(eq(users.freelancerId, second!.freelancerId));
    expect(created).toMatchObject({
      username: second!.email.toLowerCase(),
      displayName: second!.name,
      area: second!.area,
      role: 'facilitator',
      passwordHash: null,
    });
    // no usable password: signing in fails
    const login = await s.t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: created!.username, password: 'guess-password-1' },
    });
    expect(login.statusCode).toBe(401);
    const again = await post(staff);
    expect(again.json()).toMatchObject({ created: 0, updated: 0, unchanged: 5 });
  });

  it('answers 409 when no Facilitators list is configured', async () => {
    await s.configure({ facilitatorListName: '' });
    const response = await post(staff);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toMatch(/Facilitators list/);
    await s.configure();
  });
});

describe('scheduler', () => {
  const status = (cookie = staff) =>
    s.t.app.inject({ method: 'GET', url: '/api/admin/scheduler/status', headers: { cookie } });

  it('refreshes inside office hours when due, and only then', async () => {
    const scheduler = new Scheduler(s.t.ctx);
    // Sunday 3 May 2026, 12:00 London: outside office hours
    clock = Date.parse('2026-05-03T11:00:00Z');
    expect(await scheduler.tick()).toBe('outside-office-hours');
    expect(s.emu.control.requestCount({ path: /\/items\/delta$/ })).toBe(0);

    clock = Date.parse('2026-05-04T09:02:00Z'); // Monday 10:02 BST, never refreshed: due now
    // with a moving clock: "due now" must not be read a moment later and found in the future
    tickPerRead = 1;
    try {
      expect(await scheduler.tick()).toBe('refreshed');
    } finally {
      tickPerRead = 0;
    }
    expect(await scheduler.tick()).toBe('not-due');
    const [state] = await s.t.ctx.db.select().from(schedulerState);
    expect(state).toMatchObject({ name: 'bookings-refresh', isUpdating: false, lastError: null });
    expect(state?.lastResult).toMatchObject({ total: expect.any(Number) });

    clock = Date.parse('2026-05-04T09:14:00Z'); // 10:14: the 10:15 slot has not come
    expect(await scheduler.tick()).toBe('not-due');
    clock = Date.parse('2026-05-04T09:15:30Z'); // 10:15:30
    expect(await scheduler.tick()).toBe('refreshed');
    clock = Date.parse('2026-05-04T17:05:00Z'); // 18:05 BST: office hours are over
    expect(await scheduler.tick()).toBe('outside-office-hours');
    expect((await status()).json()).toMatchObject({
      isUpdating: false,
      isOfficeHours: false,
      nextUpdate: 'Tomorrow at 8:00 AM',
    });
  });

  it('reports a refresh in progress to every caller', async () => {
    clock = Date.parse('2026-05-05T09:00:00Z');
    s.emu.control.setLatency(150);
    const refresh = s.t.app.inject({
      method: 'POST',
      url: '/api/staff/bookings/refresh',
      headers: { cookie: staff },
    });
    await new Promise((r) => setTimeout(r, 100));
    expect((await status()).json()).toMatchObject({ isUpdating: true, isOfficeHours: true });
    expect((await refresh).statusCode).toBe(200);
    s.emu.control.setLatency(null);
    expect((await status()).json()).toMatchObject({ isUpdating: false });
  });

  it('looks again under the lock: a slot another instance has just refreshed is not refreshed twice', async () => {
    const job = refreshJobOf(s.t.ctx);
    const deltaCalls = () => s.emu.control.requestCount({ path: /\/items\/delta$/ });
    const before = deltaCalls();
    // found due, but by the time the lock is held the slot's refresh has finished elsewhere
    expect(await job.runIfDue(async () => null)).toEqual({ outcome: 'not-due' });
    expect(deltaCalls()).toBe(before);
    // a refresh running here already: the scheduler does not start another
    s.emu.control.setLatency(150);
    const staffRefresh = s.t.app.inject({
      method: 'POST',
      url: '/api/staff/bookings/refresh',
      headers: { cookie: staff },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await job.runIfDue(async () => 'refresh')).toEqual({ outcome: 'busy' });
    expect((await staffRefresh).statusCode).toBe(200);
    s.emu.control.setLatency(null);
    const result = await job.runIfDue(async () => 'refresh');
    expect(result).toMatchObject({ outcome: 'refreshed', result: { total: expect.any(Number) } });
  });

  it('clears the running flag left by an instance that died mid-refresh', async () => {
    await s.t.ctx.db
      .update(schedulerState)
      .set({ isUpdating: true, heartbeatAt: new Date(clock - 10 * 60_000) })
      .where(eq(schedulerState.name, 'bookings-refresh'));
    const scheduler = new Scheduler(s.t.ctx);
    clock = Date.parse('2026-05-09T11:00:00Z'); // Saturday: no refresh, but the flag is cleaned up
    expect(await scheduler.tick()).toBe('outside-office-hours');
    // sessions keep the app's clock, moved here by five days: sign in at the current time
    expect((await status(await s.t.loginStaff())).json().isUpdating).toBe(false);
  });
});
