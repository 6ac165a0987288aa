/** Bookings in, through POST /api/staff/bookings/refresh, against the emulator. */
import { eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookings, sharepointSettings } from '../db/schema';
import { type ConnectorSetup, setupConnector } from './test-support';

let s: ConnectorSetup;
let staff: string;
let facilitatorCookie: string;
const list = () => s.portal.lists.bookings!;

async function refresh() {
  return s.t.app.inject({ method: 'POST', url: '/api/staff/bookings/refresh', headers: { cookie: staff } });
}
async function rows() {
  return s.t.ctx.db.select().from(bookings).orderBy(bookings.sharePointId);
}
/** What the portal should hold: every live item that is not cancelled. */
function liveIds() {
  return s.emu.control
    .items(list())
    .filter((i) => i.fields.Status !== 'Cancelled')
    .map((i) => i.id)
    .sort();
}

beforeAll(async () => {
  s = await setupConnector({ seed: { seed: 'bookings', bookingCount: 60, facilitatorCount: 6 } });
  staff = await s.t.loginStaff();
  // Users exist for the first four freelancers only; the other two are unknown to the portal.
  for (const f of s.portal.facilitators.slice(0, 4)) {
    await s.t.createUser({ username: f.email, displayName: f.name, freelancerId: ` ${f.freelancerId} ` });
  }
  const fran = await s.t.createUser({ username: 'fran@example.org', password: 'fran-pass-1' });
  facilitatorCookie = await s.t.login(fran.username, 'fran-pass-1');
});
afterAll(() => s.close());
beforeEach(() => {
  s.emu.control.clearFaults();
  s.emu.control.clearRequests();
});

describe('POST /api/staff/bookings/refresh', () => {
  it('refuses anonymous callers and facilitators', async () => {
    const anonymous = await s.t.app.inject({ method: 'POST', url: '/api/staff/bookings/refresh' });
    expect(anonymous.statusCode).toBe(401);
    const facilitator = await s.t.app.inject({
      method: 'POST',
      url: '/api/staff/bookings/refresh',
      headers: { cookie: facilitatorCookie },
    });
    expect(facilitator.statusCode).toBe(403);
    expect(await rows()).toHaveLength(0);
  });

  it('first reads everything: cancelled items are no bookings, unknown freelancers are kept unlinked', async () => {
    const response = await refresh();
    expect(response.statusCode).toBe(200);
    const result = response.json();
    const stored = await rows();
    expect(stored.map((r) => r.sharePointId).sort()).toEqual(liveIds());
    const unknown = new Set(s.portal.facilitators.slice(4).map((f) => f.freelancerId));
    const unlinked = stored.filter((r) => r.userId === null);
    expect(unlinked.every((r) => unknown.has(r.freelancerId!))).toBe(true);
    expect(result).toEqual({
      added: stored.length,
      updated: 0,
      removed: 0,
      total: stored.length,
      unmatched: unlinked.length,
    });
    expect(result.unmatched).toBeGreaterThan(0);
    // the first read went through the change feed from the start, not a stored link
    expect(s.emu.control.requests({ path: /\/items\/delta$/ })[0]?.query).not.toContain('token=');
  });

  it('fills missing school details from the Schools list', async () => {
    const withoutName = s.portal.bookings.filter(
      (b) => b.fields.SchoolName === undefined && b.fields.Status !== 'Cancelled',
    );
    expect(withoutName.length).toBeGreaterThan(0);
    const stored = await rows();
    for (const item of withoutName) {
      const row = stored.find((r) => r.sharePointId === item.id)!;
      const school = s.portal.schools.find((sc) => sc.schoolId === item.fields.SchoolID)!;
      expect(row).toMatchObject({
        schoolName: school.name,
        schoolAddress: school.address,
        schoolPostcode: school.postcode,
      });
    }
  });

  it('later reads only the changes through the delta link: edits, deletions, cancellations, new items', async () => {
    const live = s.emu.control.items(list()).filter((i) => i.fields.Status !== 'Cancelled');
    const [edit, remove, cancel] = live;
    s.emu.control.updateItem(list(), edit!.id, { Title: 'Renamed workshop', StartTime: '10:00' });
    s.emu.control.deleteItem(list(), remove!.id);
    s.emu.control.updateItem(list(), cancel!.id, { Status: 'Cancelled' });
    const added = s.emu.control.addItem(list(), {
      Title: 'New session',
      FreelancerID: s.portal.facilitators[0]!.freelancerId,
      SessionDate: '2026-05-20',
      StartTime: '09:30',
      EndTime: '12:00',
      SchoolID: 'SCH001',
      Status: 'Confirmed',
    });
    // The feed may repeat an item and may write deletions as @removed: last occurrence wins.
    s.emu.control.setDeltaQuirks({ repeatItems: true, deletedAs: 'removed' });

    const response = await refresh();
    s.emu.control.setDeltaQuirks({ repeatItems: false, deletedAs: 'deleted' });
    expect(response.statusCode).toBe(200);
    const stored = await rows();
    expect(response.json()).toMatchObject({ added: 1, updated: 1, removed: 2, total: stored.length });
    expect(stored.map((r) => r.sharePointId).sort()).toEqual(liveIds());
    expect(stored.find((r) => r.sharePointId === edit!.id)).toMatchObject({
      title: 'Renamed workshop',
      startTime: '10:00',
    });
    expect(stored.find((r) => r.sharePointId === added.id)).toMatchObject({
      date: '2026-05-20',
      schoolName: expect.any(String),
    });
    const deltaCalls = s.emu.control.requests({ path: /\/items\/delta$/ });
    expect(deltaCalls[0]?.query).toContain('token=');
  });

  it('converts date-only values in ORG_TIMEZONE: summer and winter dates stay on their day', async () => {
    const summer = s.emu.control.addItem(list(), {
      Title: 'Summer',
      FreelancerID: '1001',
      SessionDate: '2026-06-09',
      Status: 'Confirmed',
    });
    const winter = s.emu.control.addItem(list(), {
      Title: 'Winter',
      FreelancerID: '1001',
      SessionDate: '2026-03-09',
      Status: 'Confirmed',
    });
    // what Graph sends: local midnight of the site as UTC
    const token = await (await import('../../sharepoint-emulator/test-support')).clientCredentialsToken(
      s.emu,
    );
    const raw = await fetch(
      `${s.emu.graphBaseUrl}/sites/${s.portal.site.id}/lists/${list().id}/items/${summer.id}?$expand=fields`,
      { headers: { Authorization: `Bearer ${token}` } },
    ).then((r) => r.json() as Promise<{ fields: { SessionDate: string } }>);
    expect(raw.fields.SessionDate).toBe('2026-06-08T23:00:00Z');

    expect((await refresh()).statusCode).toBe(200);
    const stored = await rows();
    expect(stored.find((r) => r.sharePointId === summer.id)?.date).toBe('2026-06-09');
    expect(stored.find((r) => r.sharePointId === winter.id)?.date).toBe('2026-03-09');
  });

  it('stores typed times as HH:mm so they sort and show right; text that is no time is kept as it came', async () => {
    const item = (StartTime: string, EndTime: string) =>
      s.emu.control.addItem(list(), {
        Title: 'Typed times',
        FreelancerID: '1001',
        SessionDate: '2026-05-12',
        StartTime,
        EndTime,
        Status: 'Confirmed',
      });
    const padded = item('010:00', '012:30');
    const short = item('8:00', '9.45');
    const seconds = item('13:15:00', '2:30 pm');
    const words = item('morning', '25:00');
    expect((await refresh()).statusCode).toBe(200);
    const stored = await rows();
    const times = (id: string) => {
      const row = stored.find((r) => r.sharePointId === id);
      return [row?.startTime, row?.endTime];
    };
    expect(times(padded.id)).toEqual(['10:00', '12:30']);
    expect(times(short.id)).toEqual(['08:00', '09:45']);
    expect(times(seconds.id)).toEqual(['13:15', '14:30']);
    expect(times(words.id)).toEqual(['morning', '25:00']);
    // "08:00" now sorts before "10:00", which the raw "010:00" did not
    expect(['10:00', '08:00'].sort()).toEqual([times(short.id)[0], times(padded.id)[0]]);
  });

  it('links unlinked bookings once a user gets their freelancer ID', async () => {
    const before = (await refresh()).json();
    const unknown = s.portal.facilitators[4]!;
    const user = await s.t.createUser({ username: 'late@example.org', freelancerId: unknown.freelancerId });
    const after = (await refresh()).json();
    expect(after.unmatched).toBeLessThan(before.unmatched);
    const linked = await s.t.ctx.db.select().from(bookings).where(eq(bookings.userId, user.id));
    expect(linked.length).toBeGreaterThan(0);
    expect(linked.every((r) => r.freelancerId === unknown.freelancerId)).toBe(true);
  });

  it('starts over with a full read when the delta link has expired (410)', async () => {
    s.emu.control.invalidateDeltaTokens(list());
    const gone = s.emu.control.items(list())[5]!;
    s.emu.control.deleteItem(list(), gone.id);
    const response = await refresh();
    expect(response.statusCode).toBe(200);
    expect(s.emu.control.requests({ path: /\/items\/delta$/ }).map((r) => r.status)).toContain(410);
    expect((await rows()).map((r) => r.sharePointId).sort()).toEqual(liveIds());
    expect(response.json().removed).toBeGreaterThanOrEqual(gone.fields.Status === 'Cancelled' ? 0 : 1);
  });

  it('fetches a change page again when an entry has no id', async () => {
    s.emu.control.updateItem(list(), s.emu.control.items(list())[0]!.id, { Location: 'Hall B' });
    s.emu.control.setDeltaQuirks({ errorEntryNextPage: true });
    const response = await refresh();
    expect(response.statusCode).toBe(200);
    expect(response.json().updated + response.json().removed).toBeGreaterThanOrEqual(1);
  });

  it('is all or nothing: a failure half-way leaves the bookings and the delta link as they were', async () => {
    // a full read over many small pages, failing on a later page until the retries run out
    s.emu.control.invalidateDeltaTokens(list());
    s.emu.control.setPaging({ maxPageSize: 5 });
    for (const item of s.emu.control.items(list()).slice(0, 10)) {
      s.emu.control.updateItem(list(), item.id, { Title: 'Changed while failing' });
    }
    const before = await rows();
    const [linkBefore] = await s.t.ctx.db
      .select({ links: sharepointSettings.deltaLinks })
      .from(sharepointSettings);
    s.emu.control.failNext(100, 503, { path: '*/items/delta', skip: 4 });
    const failed = await refresh();
    s.emu.control.clearFaults();
    expect(failed.statusCode).toBe(503);
    expect(failed.json().message).toMatch(/Could not refresh bookings/);
    expect(await rows()).toEqual(before);
    const [linkAfter] = await s.t.ctx.db
      .select({ links: sharepointSettings.deltaLinks })
      .from(sharepointSettings);
    expect(linkAfter).toEqual(linkBefore);

    const retried = await refresh();
    s.emu.control.setPaging({ maxPageSize: 5000 });
    expect(retried.statusCode).toBe(200);
    const after = await rows();
    expect(after.filter((r) => r.title === 'Changed while failing').length).toBeGreaterThan(0);
  });

  it('joins a refresh in progress instead of starting another', async () => {
    s.emu.control.setLatency(40);
    s.emu.control.clearRequests();
    const [a, b] = await Promise.all([refresh(), refresh()]);
    s.emu.control.setLatency(null);
    expect(a.statusCode).toBe(200);
    expect(b.json()).toEqual(a.json());
    expect(s.emu.control.requestCount({ path: /\/items\/delta$/ })).toBe(1);
  });

  it('reports its stage through the scheduler status while it runs, and why it failed afterwards', async () => {
    const status = async () =>
      (
        await s.t.app.inject({
          method: 'GET',
          url: '/api/admin/scheduler/status',
          headers: { cookie: staff },
        })
      ).json() as { isUpdating: boolean; refreshStage: string | null; lastRefreshError: string | null };
    s.emu.control.setLatency(150);
    let done = false;
    const running = refresh().finally(() => {
      done = true;
    });
    const seen = new Set<string | null>();
    // read the status until the refresh reports a stage or has ended
    while (!done) {
      const latest = await status();
      if (latest.refreshStage) {
        seen.add(latest.refreshStage);
        break;
      }
    }
    expect((await running).statusCode).toBe(200);
    s.emu.control.setLatency(null);
    expect([...seen].some((stage) => stage === 'connecting' || stage === 'processing')).toBe(true);
    expect(await status()).toMatchObject({ isUpdating: false, refreshStage: null, lastRefreshError: null });

    s.emu.control.failNext(1, 403);
    const failed = await refresh();
    expect(failed.statusCode).toBeGreaterThanOrEqual(400);
    const after = await status();
    expect(after.refreshStage).toBeNull();
    expect(after.lastRefreshError).toBe(failed.json().message);
  });

  it('reports connecting until SharePoint has sent the changes, then processing while it works through them', async () => {
    const status = async () =>
      (
        await s.t.app.inject({
          method: 'GET',
          url: '/api/admin/scheduler/status',
          headers: { cookie: staff },
        })
      ).json() as { isUpdating: boolean; refreshStage: string | null };
    // a new booking without its school's details: the refresh looks them up in the Schools list
    s.emu.control.addItem(list(), {
      Title: 'Stage test session',
      FreelancerID: s.portal.facilitators[0]!.freelancerId,
      SessionDate: '2026-06-10',
      SchoolID: 'SCH001',
      Status: 'Confirmed',
    });
    const holdDelta = s.emu.control.addFault({ path: '*/items/delta', action: { type: 'hold' } });
    const holdSchools = s.emu.control.addFault({ method: 'GET', path: '*/items', action: { type: 'hold' } });
    const heldAt = (path: RegExp) => () =>
      s.emu.control.requests({ path }).filter((r) => r.fault === 'hold').length;
    const running = refresh();
    try {
      await expect.poll(heldAt(/\/items\/delta$/)).toBe(1);
      expect(await status()).toMatchObject({ isUpdating: true, refreshStage: 'connecting' });
      s.emu.control.removeFault(holdDelta);
      await expect.poll(heldAt(/\/items$/)).toBe(1);
      expect(await status()).toMatchObject({ isUpdating: true, refreshStage: 'processing' });
    } finally {
      s.emu.control.removeFault(holdDelta);
      s.emu.control.removeFault(holdSchools);
    }
    expect((await running).statusCode).toBe(200);
    expect(await status()).toMatchObject({ isUpdating: false, refreshStage: null });
  });

  it('answers 409 with what is missing when SharePoint is not configured', async () => {
    await s.configure({ tenantId: '' });
    const response = await refresh();
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toMatch(/tenant ID/);
    await s.configure();
  });

  it('keeps unlinked bookings counted in the result', async () => {
    const response = await refresh();
    const unlinked = await s.t.ctx.db.select().from(bookings).where(isNull(bookings.userId));
    expect(response.json().unmatched).toBe(unlinked.length);
  });
});
