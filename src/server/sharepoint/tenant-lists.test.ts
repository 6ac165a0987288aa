/**
 * Lists as a real tenant has them (encoded, modern-UI and truncated internal names, other display
 * names, big lists) against the emulator: the column mapping end to end, writes that change nothing,
 * sync-all, and delivery right after a save.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AvailabilityStatus } from '../../shared/schemas/availability';
import type { ColumnCheckResult } from '../../shared/schemas/sharepoint-columns';
import { portalSettingsFor } from '../../sharepoint-emulator/index';
import { availability, bookings, schedulerState, syncOutbox } from '../db/schema';
import { Scheduler } from '../jobs/scheduler';
import { saveDay } from '../modules/availability/service';
import { type ConnectorSetup, FAST_TIMINGS, setupConnector } from './test-support';

let s: ConnectorSetup;
let staff: string;
let fran: { id: number; username: string; password: string };
let franCookie: string;

const settings = (overrides: Record<string, unknown> = {}) => ({
  ...portalSettingsFor(s.portal, s.emu.control.credentials),
  ...overrides,
});
const post = (url: string, payload: unknown, cookie = staff) =>
  s.t.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers: { cookie } });
const availabilityList = () => s.portal.lists.availability!;
const drain = () => s.t.ctx.sharePoint.drainOutbox();
const graphWrites = () =>
  s.emu.control
    .requests()
    .filter((r) => r.method === 'PATCH' || r.method === 'POST' || r.method === 'DELETE');

function save(date: string, status: AvailabilityStatus, notes = '', times: [string, string] = ['', '']) {
  return saveDay(
    s.t.ctx,
    { userId: fran.id, date, status, startTime: times[0], endTime: times[1], notes },
    { id: fran.id, mayOverrideBookings: false, via: 'facilitator' },
  );
}

beforeAll(async () => {
  s = await setupConnector({
    seed: { seed: 'tenant', bookingCount: 30, facilitatorCount: 5, columnNames: 'tenant' },
  });
  staff = await s.t.loginStaff();
  fran = await s.t.createUser({
    username: 'fran@example.org',
    password: 'fran-pass-1',
    freelancerId: '1001',
  });
  franCookie = await s.t.login(fran.username, 'fran-pass-1');
});
afterAll(() => s.close());
beforeEach(async () => {
  s.emu.control.clearFaults();
  s.emu.control.clearRequests();
  await s.configure({ columnMapping: {} });
});

describe('automatic column matching', () => {
  it('matches every field of lists whose columns carry real-looking names', async () => {
    const response = await post('/api/sharepoint/columns', settings());
    expect(response.statusCode).toBe(200);
    const result = response.json() as ColumnCheckResult;
    expect(result.reached).toBe(true);
    expect(result.lists.map((l) => l.list)).toEqual(['availability', 'bookings', 'facilitators', 'schools']);
    for (const list of result.lists) {
      expect(list.error).toBeNull();
      expect(list.fields.filter((f) => f.problem !== null)).toEqual([]);
    }
    const field = (list: string, name: string) =>
      result.lists.find((l) => l.list === list)!.fields.find((f) => f.field === name)!;
    expect(field('bookings', 'date')).toMatchObject({ column: 'Session_x0020_Date', source: 'auto' });
    expect(field('bookings', 'startTime')).toMatchObject({
      column: 'StartTime',
      columnDisplayName: 'Start Time',
    });
    expect(field('bookings', 'status')).toMatchObject({ column: 'Booking_x0020_Status' });
    expect(field('bookings', 'schoolPostcode')).toMatchObject({ column: 'School_x0020_Post_x0020_Code' });
    expect(field('availability', 'notes')).toMatchObject({ column: 'Notes_x0020_for_x0020_the_x0020_' });
    expect(field('facilitators', 'email')).toMatchObject({ column: 'E_x002d_mail' });
    // the list's own columns come with types, for the choice staff make
    const date = result.lists[1]!.columns.find((c) => c.name === 'Session_x0020_Date');
    expect(date).toEqual({
      name: 'Session_x0020_Date',
      displayName: 'Session Date',
      type: 'dateOnly',
      indexed: true,
    });
  });

  it('Test Connection passes with no manual step', async () => {
    const response = await post('/api/sharepoint/test-connection-with-credentials', settings());
    expect(response.json()).toMatchObject({ success: true });
  });

  it('a refresh reads the bookings through the mapping', async () => {
    const result = await s.t.ctx.sharePoint.refreshBookings();
    const seeded = s.portal.bookings.filter((b) => b.fields.Booking_x0020_Status !== 'Cancelled');
    expect(result.total).toBe(seeded.length);
    expect(result.skipped).toBe(0);
    const first = seeded[0]!;
    const [row] = await s.t.ctx.db.select().from(bookings).where(eq(bookings.sharePointId, first.id));
    expect(row).toMatchObject({
      freelancerId: String(first.fields.Freelancer_x0020_ID),
      startTime: first.fields.StartTime,
      timeSlot: first.fields.Time_x0020_Slot,
      year: first.fields.Year_x0020_Group,
    });
    expect(row!.date).toMatch(/^2026-0[4-7]-\d\d$/);
  });
});

describe('delta entries without fields', () => {
  it('an updated item that arrives without fields is read again by id, never taken as removed', async () => {
    await s.t.ctx.sharePoint.refreshBookings();
    const bookingsList = s.portal.lists.bookings!;
    const target = s.portal.bookings.find((b) => b.fields.Booking_x0020_Status !== 'Cancelled')!;
    s.emu.control.updateItem(bookingsList, target.id, { StartTime: '07:45' });
    s.emu.control.setDeltaQuirks({ omitFields: true });
    try {
      s.emu.control.clearRequests();
      const result = await s.t.ctx.sharePoint.refreshBookings();
      expect(result).toMatchObject({ mode: 'delta', removed: 0, updated: 1 });
      const [row] = await s.t.ctx.db.select().from(bookings).where(eq(bookings.sharePointId, target.id));
      expect(row!.startTime).toBe('07:45');
      expect(s.emu.control.requestCount({ method: 'GET', path: new RegExp(`/items/${target.id}$`) })).toBe(1);
    } finally {
      s.emu.control.setDeltaQuirks({ omitFields: false });
    }
  });
});

describe('availability out', () => {
  it('writes through the mapping and skips a write that changes nothing', async () => {
    await save('2026-09-01', 'limited', 'Morning only', ['09:00', '12:00']);
    expect(await drain()).toMatchObject({ delivered: 1, unchanged: 0, failed: 0 });
    const [item] = s.emu.control
      .items(availabilityList())
      .filter((i) => i.fields.Title === '1001|2026-09-01');
    expect(item!.fields).toMatchObject({
      Freelancer_x0020_ID: '1001',
      Day: '2026-09-01',
      Status: 'Limited',
      Start_x0020_Time: '09:00',
      End_x0020_Time: '12:00',
      Notes_x0020_for_x0020_the_x0020_: 'Morning only',
    });
    const version = item!.version;

    // the same values saved again: queued, read, not written (a PATCH would make a new version)
    s.emu.control.clearRequests();
    await save('2026-09-01', 'limited', 'Morning only', ['09:00', '12:00']);
    expect(await drain()).toMatchObject({ delivered: 1, unchanged: 1 });
    expect(graphWrites()).toEqual([]);
    expect(s.emu.control.item(availabilityList(), item!.id)!.version).toBe(version);

    // a real change is written once
    s.emu.control.clearRequests();
    await save('2026-09-01', 'limited', 'Afternoon only', ['13:00', '17:00']);
    expect(await drain()).toMatchObject({ delivered: 1, unchanged: 0 });
    expect(graphWrites().map((r) => r.method)).toEqual(['PATCH']);
    expect(s.emu.control.item(availabilityList(), item!.id)!.version).toBe(version + 1);
  });

  it('sync-all queues only days not yet delivered, and delivery skips values SharePoint holds', async () => {
    for (const date of ['2026-09-07', '2026-09-08', '2026-09-09']) await save(date, 'available');
    while ((await drain()).claimed > 0) {}
    s.emu.control.clearRequests();

    const nothing = await post('/api/sharepoint/sync-all', {}, franCookie);
    expect(nothing.json()).toEqual({ queued: 0 });
    expect(await s.t.ctx.db.select().from(syncOutbox)).toEqual([]);
    await drain();
    expect(s.emu.control.requestCount()).toBe(0);

    // one day the portal does not know to be delivered: one read by its remembered id, no write
    await s.t.ctx.db
      .update(availability)
      .set({ syncedToSharePoint: false })
      .where(and(eq(availability.userId, fran.id), eq(availability.date, '2026-09-08')));
    const one = await post('/api/sharepoint/sync-all', {}, franCookie);
    expect(one.json()).toEqual({ queued: 1 });
    expect(await drain()).toMatchObject({ delivered: 1, unchanged: 1 });
    const calls = s.emu.control
      .requests()
      .map((r) => `${r.method} ${r.path.replace(/^.*\/lists\/[^/]+/, '')}`);
    expect(calls).toEqual([expect.stringMatching(/^GET \/items\/\d+$/)]);
  });

  it('a single save reaches SharePoint at once: the worker is woken after the commit', async () => {
    // The worker would otherwise wait an hour between polls.
    const scheduler = new Scheduler(s.t.ctx, { drainIdleMs: 3_600_000, tickPattern: '0 0 0 1 1 *' }).start();
    try {
      await vi.waitFor(async () => expect(await s.t.ctx.db.select().from(syncOutbox)).toEqual([]));
      s.emu.control.clearRequests();
      await save('2026-09-14', 'unavailable');
      await vi.waitFor(() => expect(s.emu.control.requestCount({ method: 'POST' })).toBe(1), {
        timeout: 20_000,
        interval: 20,
      });
      const [row] = await s.t.ctx.db
        .select()
        .from(availability)
        .where(and(eq(availability.userId, fran.id), eq(availability.date, '2026-09-14')));
      await vi.waitFor(async () => {
        const [fresh] = await s.t.ctx.db.select().from(availability).where(eq(availability.id, row!.id));
        expect(fresh!.syncedToSharePoint).toBe(true);
      });
      // that day only
      expect(graphWrites()).toHaveLength(1);
    } finally {
      await scheduler.stop();
    }
  });
});

describe('staff correct the mapping', () => {
  let sessions: { id: string };
  beforeAll(() => {
    sessions = s.emu.control.createList(s.portal.site.id, {
      displayName: 'Sessions',
      columns: [
        { name: 'Title', displayName: 'Title', type: 'text' },
        { name: 'Tutor', displayName: 'Tutor', type: 'text' },
        { name: 'Session_x0020_Date', displayName: 'Session Date', type: 'text' },
        { name: 'When', displayName: 'When', type: 'dateOnly' },
      ],
    });
    s.emu.control.addItem(
      { siteId: s.portal.site.id, list: sessions.id },
      {
        Title: 'Clay',
        Tutor: '1001',
        Session_x0020_Date: 'the tenth',
        When: '2026-06-10',
      },
    );
  });

  it('shows what is missing and what has an unsuitable type, in the check and in Test Connection', async () => {
    const check = (
      await post('/api/sharepoint/columns', settings({ bookingsListName: 'Sessions' }))
    ).json() as ColumnCheckResult;
    const fields = check.lists.find((l) => l.list === 'bookings')!.fields;
    expect(fields.find((f) => f.field === 'freelancerId')).toMatchObject({
      problem: 'missing',
      column: null,
    });
    expect(fields.find((f) => f.field === 'date')).toMatchObject({
      problem: 'wrong-type',
      column: 'Session_x0020_Date',
    });
    expect(check.lists.find((l) => l.list === 'bookings')!.columns.map((c) => c.name)).toContain('When');

    const test = (
      await post(
        '/api/sharepoint/test-connection-with-credentials',
        settings({ bookingsListName: 'Sessions' }),
      )
    ).json();
    expect(test.success).toBe(false);
    expect(test.message).toContain('Freelancer ID: no column found');
    expect(test.message).toContain(
      'Session date: the column "Session Date" (Session_x0020_Date) is a text column; it needs a date column.',
    );
  });

  it("staff's choice is checked, saved with the settings and used by the refresh", async () => {
    const mapping = { bookings: { freelancerId: 'Tutor', date: 'When' } };
    const body = settings({ bookingsListName: 'Sessions', columnMapping: mapping });
    const check = (await post('/api/sharepoint/columns', body)).json() as ColumnCheckResult;
    const fields = check.lists.find((l) => l.list === 'bookings')!.fields;
    expect(fields.filter((f) => f.problem)).toEqual([]);
    expect(fields.find((f) => f.field === 'date')).toMatchObject({ column: 'When', source: 'staff' });
    expect((await post('/api/sharepoint/test-connection-with-credentials', body)).json()).toMatchObject({
      success: true,
    });

    expect((await post('/api/sharepoint/settings', body)).statusCode).toBe(200);
    const saved = await s.t.app.inject({
      method: 'GET',
      url: '/api/sharepoint/settings',
      headers: { cookie: staff },
    });
    expect(saved.json().columnMapping).toEqual(mapping);

    const result = await s.t.ctx.sharePoint.refreshBookings();
    expect(result.total).toBe(1);
    const [row] = await s.t.ctx.db.select().from(bookings);
    expect(row).toMatchObject({ date: '2026-06-10', freelancerId: '1001', userId: fran.id, title: 'Clay' });
  });

  it('a chosen column that no longer exists is named', async () => {
    const body = settings({
      bookingsListName: 'Sessions',
      columnMapping: { bookings: { freelancerId: 'Tutor', date: 'Gone' } },
    });
    const test = (await post('/api/sharepoint/test-connection-with-credentials', body)).json();
    expect(test).toMatchObject({ success: false });
    expect(test.message).toContain('Session date: the list has no column "Gone" any more');
  });

  it('a mapping naming an unknown field or list is refused and nothing changes', async () => {
    const before = (
      await s.t.app.inject({ method: 'GET', url: '/api/sharepoint/settings', headers: { cookie: staff } })
    ).json();
    for (const columnMapping of [
      { bookings: { nosuch: 'X' } },
      { tasks: {} },
      { bookings: { date: 'x'.repeat(300) } },
    ]) {
      const response = await post('/api/sharepoint/settings', settings({ columnMapping }));
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toEqual(expect.any(String));
    }
    const after = (
      await s.t.app.inject({ method: 'GET', url: '/api/sharepoint/settings', headers: { cookie: staff } })
    ).json();
    expect(after).toEqual(before);
  });
});

describe('a list past 5,000 items', () => {
  let big: ReturnType<typeof s.emu.control.seedPortalSite>;
  beforeAll(() => {
    big = s.emu.control.seedPortalSite({
      seed: 'big',
      path: '/sites/Big',
      bookingCount: 1,
      columnNames: 'tenant',
      indexed: { availability: [] },
    });
    for (let i = 0; i < 5001; i++) {
      s.emu.control.addItem(big.lists.availability!, { Title: `9${i}|2026-01-01`, Day: '2026-01-01' });
    }
  });
  const bigSettings = () => portalSettingsFor(big, s.emu.control.credentials);

  it('Test Connection passes and asks for no index: the portal filters on no column', async () => {
    const test = (await post('/api/sharepoint/test-connection-with-credentials', bigSettings())).json();
    expect(test.success).toBe(true);
    expect(test.message).not.toContain('Index the column');
  });

  it('saved days arrive without a filtered look-up: item ids come from the change feed', async () => {
    await s.configure(bigSettings());
    s.emu.control.clearRequests();
    await save('2026-10-05', 'available');
    // a day whose item already exists in the big list (written by the portal before, or by hand)
    const existing = s.emu.control.addItem(big.lists.availability!, {
      Title: '1001|2026-10-06',
      Day: '2026-10-06',
    });
    await save('2026-10-06', 'limited');
    const result = await drain();
    expect(result).toMatchObject({ delivered: 2, failed: 0 });
    expect(s.emu.control.requests({ method: 'GET', path: /\/items$/ })).toEqual([]);
    const items = s.emu.control.items(big.lists.availability!);
    const ours = items.filter((item) => String(item.fields.Title).startsWith('1001|'));
    expect(ours.map((item) => item.fields.Title).sort()).toEqual(['1001|2026-10-05', '1001|2026-10-06']);
    // the item that held the day was written to, not a second one made
    expect(ours.find((item) => item.fields.Title === '1001|2026-10-06')!.id).toBe(existing.id);
    expect(items).toHaveLength(5001 + 2);

    // the next day costs one read of the changes, not the whole list again
    await save('2026-10-07', 'available');
    s.emu.control.clearRequests();
    expect(await drain()).toMatchObject({ delivered: 1, failed: 0 });
    const feedReads = s.emu.control.requests({ method: 'GET', path: /\/items\/delta/ });
    expect(feedReads).toHaveLength(1);
    await s.t.ctx.db.delete(syncOutbox);
  });

  it('when the list refuses, the whole list waits: one failure pauses every day, not each on its own', async () => {
    await s.configure(bigSettings());
    for (const date of ['2026-10-12', '2026-10-13', '2026-10-14']) await save(date, 'available');
    s.emu.control.addFault({
      path: '*/items/delta',
      times: 'always',
      action: { type: 'status', status: 429, retryAfter: 1 },
    });
    s.emu.control.clearRequests();
    const first = await drain();
    expect(first).toMatchObject({ delivered: 0, serviceDown: true });
    expect(first.pausedUntil!.getTime()).toBeGreaterThan(Date.now());
    const feed = s.emu.control.requestCount({ path: /\/items\/delta/ });
    expect(feed).toBeGreaterThan(0);
    expect(feed).toBeLessThanOrEqual(FAST_TIMINGS.maxAttempts!);
    const sent = s.emu.control.requestCount();
    // rounds in the pause claim nothing and send nothing, however many days wait
    await save('2026-10-15', 'limited');
    for (let round = 0; round < 3; round++) {
      expect(await drain()).toMatchObject({ claimed: 0, pausedUntil: first.pausedUntil });
    }
    expect(s.emu.control.requestCount()).toBe(sent);
    s.emu.control.clearFaults();
    await s.t.ctx.db.delete(syncOutbox);
    await s.t.ctx.db.delete(schedulerState).where(eq(schedulerState.name, 'sharepoint-pause:availability'));
  });
});
