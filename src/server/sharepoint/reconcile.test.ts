/**
 * The weekly full read of the Bookings list (ADR 0016): what SharePoint's change feed never reported
 * is corrected by the scheduler's reconciliation, on one runner at a time.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, schedulerState } from '../db/schema';
import { Scheduler } from '../jobs/scheduler';
import { type ConnectorSetup, setupConnector } from './test-support';

let s: ConnectorSetup;
// Monday 4 May 2026, 10:02 in London (BST): inside the default office hours.
let clock = Date.parse('2026-05-04T09:02:00Z');
const list = () => s.portal.lists.bookings!;
const DAY = 24 * 3600_000;

beforeAll(async () => {
  s = await setupConnector({
    seed: { seed: 'reconcile', bookingCount: 30, facilitatorCount: 4 },
    build: { now: () => new Date(clock) },
    env: { BOOKINGS_REFRESH_MINUTES: '15', SHAREPOINT_RECONCILE_DAYS: '7' },
  });
  for (const f of s.portal.facilitators) {
    await s.t.createUser({ username: f.email, displayName: f.name, freelancerId: f.freelancerId });
  }
});
afterAll(() => s.close());

async function row(sharePointId: string) {
  const [found] = await s.t.ctx.db.select().from(bookings).where(eq(bookings.sharePointId, sharePointId));
  return found;
}
/** Reads of the Bookings list through the items endpoint (the Schools list is read that way too). */
const fullReads = () =>
  s.emu.control.requestCount({
    path: new RegExp(`/lists/${s.emu.control.getList(list()).id}/items$`),
    method: 'GET',
  });
const deltaReads = () => s.emu.control.requestCount({ path: /\/items\/delta$/ });

describe('reconciliation', () => {
  it('reads the whole list once a period and corrects what delta never reported', async () => {
    const scheduler = new Scheduler(s.t.ctx);
    // The first refresh reads everything through the change feed: it counts as a reconciliation.
    expect(await scheduler.tick()).toBe('refreshed');
    const [reconciled] = await s.t.ctx.db
      .select()
      .from(schedulerState)
      .where(eq(schedulerState.name, 'bookings-reconcile'));
    expect(reconciled?.finishedAt?.getTime()).toBe(clock);

    const live = s.emu.control.items(list()).filter((i) => i.fields.Status !== 'Cancelled');
    const [edited, removed, recorded] = live;
    expect(await row(edited!.id)).toBeDefined();
    expect(await row(removed!.id)).toBeDefined();
    // Behind delta's back: these changes never appear in the change feed.
    s.emu.control.updateItemUnrecorded(list(), edited!.id, {
      Title: 'Moved to the hall',
      StartTime: '13:15',
    });
    s.emu.control.deleteItemUnrecorded(list(), removed!.id);

    // A delta refresh a slot later does not see them (the portal is wrong now)…
    clock += 15 * 60_000;
    s.emu.control.clearRequests();
    expect(await scheduler.tick()).toBe('refreshed');
    expect(fullReads()).toBe(0);
    expect((await row(edited!.id))?.title).not.toBe('Moved to the hall');
    expect(await row(removed!.id)).toBeDefined();

    // …and three days on (Thursday), still only the changes.
    clock += 3 * DAY;
    expect(await scheduler.tick()).toBe('refreshed');
    expect(fullReads()).toBe(0);

    // Seven days after the last full read (Monday), the due refresh reads the whole list. Two
    // schedulers (two instances) tick together: one runs it.
    clock += 4 * DAY;
    s.emu.control.clearRequests();
    const other = new Scheduler(s.t.ctx);
    const outcomes = await Promise.all([scheduler.tick(), other.tick()]);
    expect(outcomes.filter((o) => o === 'reconciled')).toHaveLength(1);
    expect(outcomes.filter((o) => o !== 'reconciled')).toEqual([expect.stringMatching(/^(busy|not-due)$/)]);
    expect(fullReads()).toBeGreaterThan(0);
    expect(deltaReads()).toBe(0);
    expect(await row(edited!.id)).toMatchObject({ title: 'Moved to the hall', startTime: '13:15' });
    expect(await row(removed!.id)).toBeUndefined();
    const stored = await s.t.ctx.db.select({ id: bookings.sharePointId }).from(bookings);
    const expected = s.emu.control
      .items(list())
      .filter((i) => i.fields.Status !== 'Cancelled')
      .map((i) => i.id);
    expect(stored.map((r) => r.id).sort()).toEqual(expected.sort());

    // The change feed carries on from where it was: a change made meanwhile comes through the next delta.
    s.emu.control.updateItem(list(), recorded!.id, { Title: 'Recorded change' });
    clock += 15 * 60_000;
    s.emu.control.clearRequests();
    expect(await scheduler.tick()).toBe('refreshed');
    expect(fullReads()).toBe(0);
    expect(deltaReads()).toBeGreaterThan(0);
    expect((await row(recorded!.id))?.title).toBe('Recorded change');
  });

  it('a failed reconciliation stays due and is tried again at the next slot', async () => {
    const scheduler = new Scheduler(s.t.ctx);
    clock += 7 * DAY + 15 * 60_000;
    s.emu.control.failNext(1, 403, { path: '*/items', method: 'GET' });
    expect(await scheduler.tick()).toBe('failed');
    clock += 15 * 60_000;
    s.emu.control.clearRequests();
    expect(await scheduler.tick()).toBe('reconciled');
    expect(fullReads()).toBeGreaterThan(0);
  });
});
