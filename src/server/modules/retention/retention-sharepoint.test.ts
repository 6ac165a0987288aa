/**
 * A leaver anonymised by the retention schedule leaves the SharePoint Availability list too: their
 * items are queued for removal in the run's transaction and removed by the outbox's drain, against
 * the SharePoint emulator. A leaver not yet due, and everyone else, keep theirs.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../../shared/calendar';
import { availabilityRemovals, users } from '../../db/schema';
import { type ConnectorSetup, setupConnector } from '../../sharepoint/test-support';
import { saveDay } from '../availability/service';
import { applyRetention } from './service';

let s: ConnectorSetup;
let clock = Date.now();

const DAY_MS = 24 * 60 * 60 * 1000;
const list = () => s.portal.lists.availability!;
const itemsOf = (freelancerId: string) =>
  s.emu.control.items(list()).filter((item) => String(item.fields.Title).startsWith(`${freelancerId}|`));

beforeAll(async () => {
  s = await setupConnector({
    seed: { seed: 'retention-sharepoint', bookingCount: 0, availability: [] },
    build: { now: () => new Date(clock) },
  });
  // the app's clock runs ahead of the database's, so rows queued "now" are due at once
  clock = Date.now() + 10 * 60_000;
}, 120_000);
afterAll(() => s.close());

async function personWithDays(freelancerId: string, days: string[]) {
  const person = await s.t.createUser({
    username: `${freelancerId.toLowerCase()}@example.org`,
    displayName: `Person ${freelancerId}`,
    freelancerId,
  });
  for (const date of days) {
    await saveDay(
      s.t.ctx,
      { userId: person.id, date, status: 'available', startTime: '', endTime: '', notes: '' },
      { id: person.id, mayOverrideBookings: false, via: 'facilitator' },
    );
  }
  return person;
}

const leftDaysAgo = (id: number, days: number) =>
  s.t.ctx.db
    .update(users)
    .set({ deactivatedAt: new Date(clock - days * DAY_MS) })
    .where(eq(users.id, id));

describe('anonymisation by the retention schedule', () => {
  it('removes the leaver’s items from the SharePoint availability list through the outbox', async () => {
    const { t } = s;
    const db = t.ctx.db;
    const today = todayIn(t.ctx.config.ORG_TIMEZONE, new Date(clock));
    const days = [addDays(today, 20), addDays(today, 21)];
    // anonymised after 12 months by default: one left 400 days ago, one 30 days ago, one stays
    const gone = await personWithDays('FZGONE4', days);
    const recent = await personWithDays('FZRECENT5', days.slice(0, 1));
    await personWithDays('FZSTAY6', days.slice(0, 1));
    for (let i = 0; i < 10 && (await t.ctx.sharePoint.drainOutbox()).claimed > 0; i++);
    expect(itemsOf('FZGONE4')).toHaveLength(2);
    expect(itemsOf('FZRECENT5')).toHaveLength(1);
    expect(itemsOf('FZSTAY6')).toHaveLength(1);
    await leftDaysAgo(gone.id, 400);
    await leftDaysAgo(recent.id, 30);

    const counts = await applyRetention(t.ctx);
    expect(counts.leaversAnonymised).toBe(1);
    const [anonymised] = await db.select().from(users).where(eq(users.id, gone.id));
    expect(anonymised).toMatchObject({ username: `former-${gone.id}`, freelancerId: null });
    // queued in the run, keyed by the freelancer ID the account no longer holds
    const queued = await db.select().from(availabilityRemovals);
    expect(queued.map((row) => row.key).sort()).toEqual(days.map((day) => `FZGONE4|${day}`));

    for (let i = 0; i < 10; i++) {
      await t.ctx.sharePoint.drainOutbox();
      if ((await db.select().from(availabilityRemovals)).length === 0) break;
    }
    expect(await db.select().from(availabilityRemovals)).toEqual([]);
    expect(itemsOf('FZGONE4')).toEqual([]);
    expect(
      s.emu.control.items(list()).filter((item) => JSON.stringify(item.fields).includes('FZGONE4')),
    ).toEqual([]);
    expect(itemsOf('FZRECENT5')).toHaveLength(1);
    expect(itemsOf('FZSTAY6')).toHaveLength(1);
  });
});
