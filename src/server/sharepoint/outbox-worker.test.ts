/** Availability out: the outbox worker against the emulator, including lost answers and outages. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AvailabilityStatus } from '../../shared/schemas/availability';
import { availability, sharepointSettings, syncOutbox } from '../db/schema';
import { Scheduler } from '../jobs/scheduler';
import { bulkUpdate, requeueAllDays, saveDay } from '../modules/availability/service';
import { drainOutboxOnce } from './outbox-worker';
import { type ConnectorSetup, setupConnector } from './test-support';

let s: ConnectorSetup;
let clock = Date.now();
let ann: { id: number };
let ben: { id: number };
let noId: { id: number };
/** the statements sent while it is an array (the database's query hook) */
let captured: string[] | null = null;
const list = () => s.portal.lists.availability!;
const items = () => s.emu.control.items(list());

function save(
  userId: number,
  date: string,
  status: AvailabilityStatus,
  notes = '',
  times: [string, string] = ['', ''],
) {
  return saveDay(
    s.t.ctx,
    { userId, date, status, startTime: times[0], endTime: times[1], notes },
    { id: userId, mayOverrideBookings: false, via: 'facilitator' },
  );
}
const drain = () => s.t.ctx.sharePoint.drainOutbox();
const outbox = () => s.t.ctx.db.select().from(syncOutbox);
async function drainAll(maxRounds = 50) {
  for (let i = 0; i < maxRounds; i++) {
    const r = await drain();
    if (r.claimed === 0) return;
  }
  throw new Error('the outbox did not empty');
}
function byKey() {
  const map = new Map<string, Record<string, unknown>[]>();
  for (const item of items()) {
    const key = String(item.fields.Title);
    map.set(key, [...(map.get(key) ?? []), item.fields]);
  }
  return map;
}

beforeAll(async () => {
  s = await setupConnector({
    seed: { seed: 'outbox', bookingCount: 0, availability: [] },
    build: { now: () => new Date(clock), onQuery: (query) => captured?.push(query) },
  });
  ann = await s.t.createUser({
    username: 'ann@example.org',
    displayName: 'Ann Artist',
    freelancerId: '2001',
  });
  ben = await s.t.createUser({ username: 'ben@example.org', freelancerId: '2002' });
  noId = await s.t.createUser({ username: 'nofreelancer@example.org' });
  // The app's clock runs ahead of the database's, so rows queued "now" are due at once.
  clock = Date.now() + 10 * 60_000;
});
afterAll(() => s.close());
beforeEach(async () => {
  s.emu.control.clearFaults();
  s.emu.control.clearRequests();
  await s.emu.control.setOutage(false);
});

describe('outbox delivery', () => {
  it('creates the day item by its natural key, then updates the same item', async () => {
    await save(ann.id, '2026-05-04', 'limited', 'Mornings only', ['09:00', '12:00']);
    const first = await drain();
    expect(first).toMatchObject({ configured: true, claimed: 1, delivered: 1, failed: 0 });
    expect(items()).toHaveLength(1);
    expect(items()[0]!.fields).toEqual(
      expect.objectContaining({
        Title: '2001|2026-05-04',
        FreelancerID: '2001',
        FacilitatorName: 'Ann Artist',
        Day: '2026-05-04',
        Status: 'Limited',
        StartTime: '09:00',
        EndTime: '12:00',
        Notes: 'Mornings only',
      }),
    );
    const [row] = await s.t.ctx.db.select().from(availability).where(eq(availability.userId, ann.id));
    expect(row).toMatchObject({ syncedToSharePoint: true, sharePointItemId: items()[0]!.id });
    expect(await outbox()).toHaveLength(0);

    s.emu.control.clearRequests();
    await save(ann.id, '2026-05-04', 'available');
    await drain();
    expect(items()).toHaveLength(1);
    expect(items()[0]!.fields.Status).toBe('Available');
    // emptied columns are cleared, not left behind
    expect(items()[0]!.fields.Notes).toBeUndefined();
    expect(items()[0]!.fields.StartTime).toBeUndefined();
    expect(s.emu.control.requestCount({ method: 'POST', path: '*/items' })).toBe(0);
    expect(s.emu.control.requestCount({ method: 'PATCH' })).toBe(1);
  });

  it('coalesces several changes of one day into one write of the latest state', async () => {
    await save(ben.id, '2026-05-05', 'available');
    await save(ben.id, '2026-05-05', 'unavailable');
    await save(ben.id, '2026-05-05', 'limited', 'after 2pm');
    expect(await outbox()).toHaveLength(3);
    const result = await drain();
    expect(result).toMatchObject({ claimed: 3, delivered: 1 });
    expect(byKey().get('2002|2026-05-05')).toEqual([
      expect.objectContaining({ Status: 'Limited', Notes: 'after 2pm' }),
    ]);
    expect(s.emu.control.requestCount({ method: 'POST', path: '*/items' })).toBe(1);
  });

  it('drops rows queued for a day that one delivery already brought up to date', async () => {
    await save(ben.id, '2026-09-01', 'available');
    await save(ben.id, '2026-09-01', 'unavailable');
    await save(ben.id, '2026-09-02', 'available');
    // A round that claims only the first row still sends the day's latest state, so the day's other
    // row is done too; the other day's row is not.
    const session = await s.t.ctx.sharePoint.session();
    const result = await drainOutboxOnce(s.t.ctx.db, session, () => new Date(clock), { batchSize: 1 });
    expect(result).toMatchObject({ claimed: 1, delivered: 1 });
    expect(byKey().get('2002|2026-09-01')).toEqual([expect.objectContaining({ Status: 'Unavailable' })]);
    expect((await outbox()).map((r) => r.date)).toEqual(['2026-09-02']);
    await drainAll();
  });

  it('keeps a day queued when it changed after it was read for delivery', async () => {
    await save(ben.id, '2026-09-03', 'available');
    // The next save lands while the round is talking to SharePoint (between read and bookkeeping).
    s.emu.control.setLatency(150);
    const round = drain();
    await new Promise((resolve) => setTimeout(resolve, 60));
    await save(ben.id, '2026-09-03', 'limited', 'changed mid-round');
    await round;
    s.emu.control.setLatency(null);
    const [day] = await s.t.ctx.db.select().from(availability).where(eq(availability.date, '2026-09-03'));
    expect(day?.syncedToSharePoint).toBe(false);
    expect(await outbox()).toHaveLength(1);
    await drainAll();
    expect(byKey().get('2002|2026-09-03')).toEqual([
      expect.objectContaining({ Status: 'Limited', Notes: 'changed mid-round' }),
    ]);
    expect(await outbox()).toHaveLength(0);
  });

  it('finds an existing item by key when the portal does not know its id (no duplicate)', async () => {
    s.emu.control.addItem(list(), {
      Title: '2002|2026-05-06',
      FreelancerID: '2002',
      Day: '2026-05-06',
      Status: 'Available',
    });
    await save(ben.id, '2026-05-06', 'unavailable');
    await drain();
    expect(byKey().get('2002|2026-05-06')).toEqual([expect.objectContaining({ Status: 'Unavailable' })]);
  });

  it('re-creates an item deleted in SharePoint', async () => {
    const item = items().find((i) => i.fields.Title === '2001|2026-05-04')!;
    s.emu.control.deleteItem(list(), item.id);
    await save(ann.id, '2026-05-04', 'unavailable');
    await drain();
    expect(byKey().get('2001|2026-05-04')).toEqual([expect.objectContaining({ Status: 'Unavailable' })]);
  });

  it('never duplicates an item when a create times out after the server stored it', async () => {
    s.emu.control.addFault({
      method: 'POST',
      path: '*/items',
      times: 2,
      action: { type: 'timeoutAfterStoring', mode: 'hang' },
    });
    await save(ann.id, '2026-05-07', 'limited', 'first try');
    await save(ben.id, '2026-05-07', 'available');
    const result = await drain();
    expect(result.failed).toBe(0);
    expect(byKey().get('2001|2026-05-07')).toHaveLength(1);
    expect(byKey().get('2002|2026-05-07')).toHaveLength(1);
    expect(byKey().get('2001|2026-05-07')![0]).toMatchObject({ Status: 'Limited', Notes: 'first try' });
    expect(s.emu.control.requests({ method: 'POST' }).filter((r) => r.fault).length).toBe(2);
  });

  it('never lets an update SharePoint applies late overwrite a newer value', async () => {
    await save(ann.id, '2026-05-12', 'available', 'v1');
    await drain();
    // The first PATCH of v2 is stored only after the client has given up on it (2.5 s; the
    // client's timeout is 0.6 s); the retry succeeds at once. v3 then goes out before the late v2
    // arrives, and the late v2 must not win.
    s.emu.control.addFault({
      method: 'PATCH',
      path: '*/fields',
      times: 1,
      action: { type: 'delay', ms: 2500 },
    });
    const started = Date.now();
    await save(ann.id, '2026-05-12', 'limited', 'v2');
    expect(await drain()).toMatchObject({ delivered: 1, failed: 0 });
    await save(ann.id, '2026-05-12', 'unavailable', 'v3');
    expect(await drain()).toMatchObject({ delivered: 1, failed: 0 });
    await new Promise((r) => setTimeout(r, Math.max(0, started + 2800 - Date.now())));
    expect(s.emu.control.requests({ method: 'PATCH' }).some((r) => r.fault === 'delay')).toBe(true);
    expect(byKey().get('2001|2026-05-12')).toEqual([
      expect.objectContaining({ Status: 'Unavailable', Notes: 'v3' }),
    ]);
  });

  it('skips facilitators without a freelancer ID and says why, keeping the days queued', async () => {
    await save(noId.id, '2026-05-08', 'available');
    const result = await drain();
    expect(result).toMatchObject({ skipped: 1, delivered: 0 });
    const [row] = await s.t.ctx.db.select().from(syncOutbox).where(eq(syncOutbox.userId, noId.id));
    expect(row?.lastError).toMatch(/no freelancer ID/);
    expect(row?.attempts).toBe(0);
    await s.t.ctx.db.delete(syncOutbox).where(eq(syncOutbox.userId, noId.id));
  });

  it('sets aside a round of days without a freelancer ID in as many statements for 30 days as for 3', async () => {
    const statementsToSkip = async (days: number) => {
      await bulkUpdate(
        s.t.ctx,
        {
          userId: noId.id,
          startDate: '2026-08-01',
          endDate: `2026-08-${String(days).padStart(2, '0')}`,
          daysOfWeek: [0, 1, 2, 3, 4, 5, 6],
          status: 'available',
          startTime: '',
          endTime: '',
          notes: '',
        },
        { id: noId.id, mayOverrideBookings: false, via: 'facilitator' },
      );
      captured = [];
      const result = await drain();
      const sent = captured;
      captured = null;
      expect(result).toMatchObject({ skipped: days, delivered: 0 });
      const kept = await s.t.ctx.db.select().from(syncOutbox).where(eq(syncOutbox.userId, noId.id));
      expect(kept).toHaveLength(days);
      expect(kept.every((row) => /no freelancer ID/.test(row.lastError ?? ''))).toBe(true);
      await s.t.ctx.db.delete(syncOutbox).where(eq(syncOutbox.userId, noId.id));
      return sent.length;
    };
    expect(await statementsToSkip(30)).toBe(await statementsToSkip(3));
  });

  it('delivers staff bulk edits; sync-all then has nothing left to send', async () => {
    await bulkUpdate(
      s.t.ctx,
      {
        userId: ben.id,
        startDate: '2026-06-01',
        endDate: '2026-06-12',
        daysOfWeek: [1, 2, 3, 4, 5],
        status: 'unavailable',
        startTime: '',
        endTime: '',
        notes: 'holiday',
      },
      { id: ben.id, mayOverrideBookings: true, via: 'staff' },
    );
    await drainAll();
    const june = [...byKey().keys()].filter((k) => k.startsWith('2002|2026-06-'));
    expect(june).toHaveLength(10);
    const queued = await requeueAllDays(s.t.ctx, ben.id);
    const before = items().length;
    await drainAll();
    expect(queued).toBe(0);
    expect(items().length).toBe(before);
  });

  it('keeps rows queued, untouched, while SharePoint is not configured', async () => {
    // no credential left: not configured
    await s.t.ctx.db.update(sharepointSettings).set({ clientSecretEncrypted: null, username: '' });
    await save(ann.id, '2026-05-11', 'limited');
    const result = await drain();
    expect(result).toMatchObject({ configured: false, claimed: 0 });
    const [row] = await outbox();
    expect(row?.attempts).toBe(0);
    await s.configure();
    await drainAll();
    expect(byKey().get('2001|2026-05-11')).toHaveLength(1);
  });
});

describe('an outage of many minutes', () => {
  it('loses nothing while facilitators keep saving, and delivers everything once, afterwards', async () => {
    await s.emu.control.setOutage({ mode: 'status', status: 503 });
    const expected = new Map<string, { status: AvailabilityStatus; notes: string }>();
    const statuses: AvailabilityStatus[] = ['available', 'limited', 'unavailable'];
    // 40 simulated minutes: a save burst, then the worker tries and fails, then time passes.
    for (let minute = 0; minute < 40; minute += 4) {
      for (let i = 0; i < 3; i++) {
        const user = i % 2 === 0 ? ann : ben;
        const freelancer = user === ann ? '2001' : '2002';
        const date = `2026-07-${String(1 + ((minute + i) % 9)).padStart(2, '0')}`;
        const status = statuses[(minute + i) % 3]!;
        const notes = `minute ${minute}`;
        await save(user.id, date, status, notes);
        expected.set(`${freelancer}|${date}`, { status, notes });
      }
      const round = await drain();
      expect(round.delivered).toBe(0);
      expect(round.serviceDown || round.claimed === 0).toBe(true);
      clock += 4 * 60_000;
    }
    const queued = await outbox();
    expect(queued.length).toBe(30);
    expect(queued.some((r) => r.attempts > 0 && r.lastError?.includes('503'))).toBe(true);

    await s.emu.control.setOutage(false);
    s.emu.control.clearRequests();
    clock += 30 * 60_000; // past every backoff
    await drainAll();
    expect(await outbox()).toHaveLength(0);
    const found = byKey();
    for (const [key, value] of expected) {
      const copies = found.get(key);
      expect(copies, key).toHaveLength(1);
      expect(copies![0]).toMatchObject({
        Status: value.status[0]!.toUpperCase() + value.status.slice(1),
        Notes: value.notes,
      });
    }
    const july = await s.t.ctx.db.select().from(availability);
    expect(july.filter((r) => r.date.startsWith('2026-07')).every((r) => r.syncedToSharePoint)).toBe(true);
  });

  it('delivers by itself in the background once SharePoint is back', async () => {
    const scheduler = new Scheduler(s.t.ctx, { drainIdleMs: 20, tickPattern: '0 0 1 1 *' });
    await s.emu.control.setOutage({ mode: 'refuse' });
    await save(ben.id, '2026-08-03', 'limited', 'background');
    scheduler.start();
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect(byKey().get('2002|2026-08-03')).toBeUndefined();
      await s.emu.control.setOutage(false);
      clock += 60 * 60_000;
      const deadline = Date.now() + 10_000;
      while (!byKey().get('2002|2026-08-03') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(byKey().get('2002|2026-08-03')).toHaveLength(1);
    } finally {
      await scheduler.stop();
    }
  });
});
