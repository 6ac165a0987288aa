/**
 * SharePoint work that keeps failing is shown to staff with what to do (the scheduler status the
 * dashboard and the settings page read), retried a bounded number of times, and cleared by the next
 * run that succeeds.
 */
import { like } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { portalSettingsFor } from '../../sharepoint-emulator/index';
import { schedulerState, syncOutbox } from '../db/schema';
import { saveDay } from '../modules/availability/service';
import { type ConnectorSetup, setupConnector } from './test-support';

let s: ConnectorSetup;
let staff: string;
let facilitator: string;
let fran: { id: number; username: string; password: string };

beforeAll(async () => {
  s = await setupConnector({ seed: { seed: 'problems', bookingCount: 10, facilitatorCount: 3 } });
  staff = await s.t.loginStaff();
  fran = await s.t.createUser({
    username: 'fran@example.org',
    password: 'fran-pass-1',
    freelancerId: '1001',
  });
  facilitator = await s.t.login(fran.username, 'fran-pass-1');
});
afterAll(() => s.close());
beforeEach(async () => {
  s.emu.control.clearFaults();
  s.emu.control.clearRequests();
  await s.configure();
});

const status = async (cookie = staff) =>
  s.t.app.inject({ method: 'GET', url: '/api/admin/scheduler/status', headers: { cookie } });
const problems = async () => (await status()).json().sharePointProblems as Array<Record<string, unknown>>;
const refresh = () =>
  s.t.app.inject({ method: 'POST', url: '/api/staff/bookings/refresh', headers: { cookie: staff } });
const drain = () => s.t.ctx.sharePoint.drainOutbox();
const save = (date: string) =>
  saveDay(
    s.t.ctx,
    { userId: fran.id, date, status: 'available', startTime: '', endTime: '', notes: '' },
    { id: fran.id, mayOverrideBookings: false, via: 'facilitator' },
  );
/** Rows wait for their backoff; a test that wants the next round now makes them due. */
/** The queued days due now, and the list's pause after a failure over. */
async function makeDue() {
  await s.t.ctx.db.update(syncOutbox).set({ nextAttemptAt: new Date(0) });
  await s.t.ctx.db
    .update(schedulerState)
    .set({ nextRunAt: new Date(0) })
    .where(like(schedulerState.name, 'sharepoint-pause:%'));
}

describe('bookings refresh', () => {
  it('a 403 is not retried, and staff read what failed and what to do until a refresh succeeds', async () => {
    expect(await problems()).toEqual([]);
    s.emu.control.failNext(99, 403, { path: '*/items/delta', code: 'accessDenied' });
    expect((await refresh()).statusCode).toBe(503);
    expect(s.emu.control.requestCount({ path: /\/items\/delta$/ })).toBe(1);
    const [problem] = await problems();
    expect(problem).toEqual({
      area: 'bookings',
      message: expect.stringContaining('403'),
      action: expect.stringContaining(
        `Give the app registration read access to the site ${s.portal.siteUrl}`,
      ),
      since: expect.stringMatching(/^Today at \d{1,2}:\d\d (AM|PM)$/),
      waitingDays: null,
    });
    expect(problem!.message).toMatch(/^Reading bookings from SharePoint failed: /);

    s.emu.control.clearFaults();
    expect((await refresh()).statusCode).toBe(200);
    expect(await problems()).toEqual([]);
  });

  it('a list that does not exist: create it or correct its name', async () => {
    await s.configure({ bookingsListName: 'Sessions 2026' });
    expect((await refresh()).statusCode).toBe(409);
    expect(await problems()).toEqual([
      expect.objectContaining({
        area: 'bookings',
        action:
          'Create the Bookings list "Sessions 2026" on the site, or correct the list name on the settings page.',
      }),
    ]);
    await s.configure();
    expect((await refresh()).statusCode).toBe(200);
    expect(await problems()).toEqual([]);
  });

  it('facilitators and anonymous callers never see it', async () => {
    expect((await status(facilitator)).statusCode).toBe(403);
    expect((await s.t.app.inject({ method: 'GET', url: '/api/admin/scheduler/status' })).statusCode).toBe(
      401,
    );
  });
});

describe('availability delivery', () => {
  it('refused writes: the day waits with backoff, staff see why, and a delivery clears it', async () => {
    await save('2026-10-05');
    s.emu.control.failNext(99, 403, { path: '*/items', method: ['POST', 'PATCH'], code: 'accessDenied' });
    const first = await drain();
    expect(first).toMatchObject({ delivered: 0, failed: 1, serviceDown: true });
    const writes = () => s.emu.control.requests().filter((r) => r.method === 'POST' || r.method === 'PATCH');
    expect(writes()).toHaveLength(1);
    expect(await problems()).toEqual([
      {
        area: 'availability',
        message: expect.stringMatching(/^Writing availability to SharePoint failed: .*403/),
        action: expect.stringContaining('Give the app registration write access to the site'),
        since: expect.stringMatching(/^Today at /),
        waitingDays: 1,
      },
    ]);
    // no hammering: nothing is sent again before the day's backoff is over
    s.emu.control.clearRequests();
    expect(await drain()).toMatchObject({ claimed: 0 });
    expect(s.emu.control.requestCount()).toBe(0);

    s.emu.control.clearFaults();
    await makeDue();
    expect(await drain()).toMatchObject({ delivered: 1, failed: 0 });
    expect(await problems()).toEqual([]);
  });

  it('a list past 5,000 items with the key column not indexed: delivered all the same, no problem to show', async () => {
    const big = s.emu.control.seedPortalSite({
      seed: 'big',
      path: '/sites/Big',
      bookingCount: 1,
      indexed: { availability: [] },
    });
    for (let i = 0; i < 5001; i++) {
      s.emu.control.addItem(big.lists.availability!, { Title: `9${i}|2026-01-01`, Day: '2026-01-01' });
    }
    await s.t.ctx.db.delete(syncOutbox);
    await s.configure(portalSettingsFor(big, s.emu.control.credentials));
    await save('2026-10-06');
    s.emu.control.clearRequests();
    expect(await drain()).toMatchObject({ delivered: 1, failed: 0 });
    // the item was found through the change feed, never by a filtered look-up
    expect(s.emu.control.requests({ method: 'GET', path: /\/items$/ })).toEqual([]);
    expect(await problems()).toEqual([]);
  });
});
