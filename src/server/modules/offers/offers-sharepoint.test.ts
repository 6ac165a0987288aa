/**
 * Offers against the SharePoint emulator: an open item comes in through the refresh, a session made
 * in the portal goes out as a new item and comes back as open, an acceptance writes the freelancer
 * with If-Match, and an item filled or changed in SharePoint meanwhile undoes the acceptance.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OpenSessionsResponse } from '../../../shared/schemas/offers';
import { bookingOutbox, bookings, changeHistory, offers } from '../../db/schema';
import { Scheduler } from '../../jobs/scheduler';
import {
  startTestSmtpServer,
  type TestSmtpServer,
  testMailSettings,
  testSmtpEnvironment,
} from '../../mail/test-smtp';
import { type ConnectorSetup, setupConnector } from '../../sharepoint/test-support';
import { insertDbsCheck } from '../../test/factories';
import { saveReminderSettings } from '../reminders/service';
import { acceptanceWriteBack } from './write-back';

const clock = new Date('2026-11-20T10:00:00Z');
let s: ConnectorSetup;
let smtp: TestSmtpServer;
let staff: string;
let seq = 0;
const list = () => s.portal.lists.bookings!;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  s = await setupConnector({
    seed: { seed: 'offers', bookingCount: 0 },
    env: { PUBLIC_URL: 'http://portal.example.org', ...testSmtpEnvironment() },
    build: { now: () => clock },
  });
  await saveReminderSettings(s.t.ctx, testMailSettings(smtp), 1);
  staff = await s.t.loginStaff();
});
afterAll(async () => {
  await s.close();
  await smtp.close();
});

const call = (method: 'GET' | 'POST', url: string, cookie?: string, payload?: object) =>
  s.t.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });

async function facilitator() {
  seq += 1;
  const user = await s.t.createUser({
    username: `sp-${seq}@example.org`,
    email: `sp-${seq}@example.org`,
    displayName: `SharePoint Person ${seq}`,
    freelancerId: String(8000 + seq),
  });
  // a DBS check valid for years, so safeguarding never stands in the way of these offers
  await insertDbsCheck(s.t.ctx.db, { userId: user.id });
  return {
    id: user.id,
    freelancerId: String(8000 + seq),
    cookie: await s.t.login(user.username, user.password),
  };
}

const refresh = () => s.t.ctx.sharePoint.refreshBookings();
const drain = () => s.t.ctx.sharePoint.drainBookingWrites(acceptanceWriteBack(s.t.ctx));

/** An open item in SharePoint, read in by a refresh; its booking id here. */
async function openItem(date: string): Promise<{ itemId: string; bookingId: number }> {
  const item = s.emu.control.addItem(list(), {
    Title: `Open ${date}`,
    SessionDate: date,
    StartTime: '09:30',
    EndTime: '12:00',
    SchoolName: 'Oakfield Primary',
    Programme: 'Dance',
    Status: 'Confirmed',
  });
  await refresh();
  const [row] = await s.t.ctx.db.select().from(bookings).where(eq(bookings.sharePointId, item.id));
  expect(row, 'the refresh keeps a booking without a freelancer').toBeDefined();
  expect(row!.eTag).toBe(item.eTag);
  return { itemId: item.id, bookingId: row!.id };
}

async function offerAndAccept(bookingId: number, who: Awaited<ReturnType<typeof facilitator>>) {
  const made = await call('POST', `/api/staff/sessions/${bookingId}/offers`, staff, {
    userIds: [who.id],
    replyBy: '2026-11-25T17:00:00Z',
  });
  expect(made.statusCode, made.body).toBe(201);
  const offerId = made.json().offers[0].id as number;
  const accepted = await call('POST', `/api/offers/${offerId}/accept`, who.cookie);
  expect(accepted.statusCode, accepted.body).toBe(200);
  return offerId;
}

const offerRow = async (id: number) => (await s.t.ctx.db.select().from(offers).where(eq(offers.id, id)))[0]!;
const bookingRow = async (id: number) =>
  (await s.t.ctx.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;

describe('open sessions from SharePoint', () => {
  it('an item with an empty freelancer column is an open session', async () => {
    const { bookingId } = await openItem('2026-12-01');
    const list: OpenSessionsResponse = (
      await call('GET', '/api/staff/sessions?from=2026-12-01&to=2026-12-01', staff)
    ).json();
    expect(list.sessions.map((x) => x.id)).toEqual([bookingId]);
  });

  it('a session made in the portal is created in SharePoint, listed as open at once, and kept by the refresh', async () => {
    const created = await call('POST', '/api/staff/sessions', staff, {
      date: '2026-12-14',
      startTime: '13:00',
      endTime: '15:30',
      schoolName: 'Riverside Academy',
      program: 'Drama',
    });
    expect(created.statusCode, created.body).toBe(201);
    const before = s.emu.control.items(list()).length;
    expect((await drain()).created).toBe(1);
    const items = s.emu.control.items(list());
    expect(items).toHaveLength(before + 1);
    expect(items.at(-1)!.fields).toMatchObject({
      SchoolName: 'Riverside Academy',
      Programme: 'Drama',
      StartTime: '13:00',
    });
    expect(items.at(-1)!.fields.FreelancerID ?? null).toBeNull();
    expect(await s.t.ctx.db.select().from(bookingOutbox)).toEqual([]);
    // open as soon as SharePoint has it: no refresh needed
    const atOnce: OpenSessionsResponse = (
      await call('GET', '/api/staff/sessions?from=2026-12-14&to=2026-12-14', staff)
    ).json();
    expect(atOnce.pending).toEqual([]);
    expect(atOnce.sessions).toMatchObject([
      {
        sharePointId: items.at(-1)!.id,
        schoolName: 'Riverside Academy',
        startTime: '13:00',
        endTime: '15:30',
      },
    ]);

    await refresh();
    const open: OpenSessionsResponse = (
      await call('GET', '/api/staff/sessions?from=2026-12-14&to=2026-12-14', staff)
    ).json();
    expect(open.sessions).toHaveLength(1);
    expect(open.sessions[0]).toMatchObject({
      id: atOnce.sessions[0]!.id,
      date: '2026-12-14',
      schoolName: 'Riverside Academy',
      program: 'Drama',
    });
    expect(open.pending).toEqual([]);
  });
});

describe('write-back of an acceptance', () => {
  it('writes the freelancer id with the eTag the refresh read; the refresh then agrees', async () => {
    const { itemId, bookingId } = await openItem('2026-12-02');
    const a = await facilitator();
    const offerId = await offerAndAccept(bookingId, a);
    // a refresh before the write-back lands keeps the acceptance
    await refresh();
    expect((await bookingRow(bookingId)).userId).toBe(a.id);

    expect((await drain()).assigned).toBe(1);
    expect(s.emu.control.item(list(), itemId)!.fields.FreelancerID).toBe(a.freelancerId);
    expect(await offerRow(offerId)).toMatchObject({ state: 'accepted', writeBack: 'done' });
    await refresh();
    expect(await bookingRow(bookingId)).toMatchObject({ userId: a.id, freelancerId: a.freelancerId });
  });

  it('an acceptance reaches SharePoint at once: the delivery loop is woken after the commit', async () => {
    const { itemId, bookingId } = await openItem('2026-12-08');
    const a = await facilitator();
    // the loop would otherwise wait an hour between polls
    const scheduler = new Scheduler(s.t.ctx, { drainIdleMs: 3_600_000, tickPattern: '0 0 0 1 1 *' }).start();
    try {
      await vi.waitFor(async () => expect(await s.t.ctx.db.select().from(bookingOutbox)).toEqual([]));
      const offerId = await offerAndAccept(bookingId, a);
      await vi.waitFor(
        () => expect(s.emu.control.item(list(), itemId)!.fields.FreelancerID).toBe(a.freelancerId),
        { timeout: 20_000, interval: 20 },
      );
      await vi.waitFor(async () => expect((await offerRow(offerId)).writeBack).toBe('done'));
    } finally {
      await scheduler.stop();
    }
  });

  it('a session filled in SharePoint meanwhile: the acceptance is undone, SharePoint keeps its facilitator', async () => {
    const { itemId, bookingId } = await openItem('2026-12-03');
    const a = await facilitator();
    const offerId = await offerAndAccept(bookingId, a);
    s.emu.control.updateItem(list(), itemId, { FreelancerID: '4242' });

    expect((await drain()).undone).toBe(1);
    expect(s.emu.control.item(list(), itemId)!.fields.FreelancerID).toBe('4242');
    expect(await offerRow(offerId)).toMatchObject({
      state: 'withdrawn',
      endedReason: 'sharepoint',
      writeBack: 'undone',
    });
    expect((await bookingRow(bookingId)).userId).toBeNull();
    const mine = (await call('GET', '/api/offers', a.cookie)).json();
    expect(mine[0]).toMatchObject({ state: 'withdrawn', endedReason: 'sharepoint' });
    // the facilitator is told why, by email
    const told = smtp.messages.filter((m) => m.to.includes(`sp-${seq}@example.org`));
    expect(told.at(-1)?.text).toContain('SharePoint showed the session filled or changed');
    const history = await s.t.ctx.db.select().from(changeHistory).where(eq(changeHistory.via, 'sharepoint'));
    expect(history.some((h) => (h.after as { offerId?: number }).offerId === offerId)).toBe(true);
    expect(await s.t.ctx.db.select().from(bookingOutbox)).toEqual([]);
  });

  it('a session changed in SharePoint meanwhile (412): the acceptance is undone and nothing is written', async () => {
    const { itemId, bookingId } = await openItem('2026-12-04');
    const a = await facilitator();
    const offerId = await offerAndAccept(bookingId, a);
    s.emu.control.updateItem(list(), itemId, { StartTime: '10:00' });

    expect((await drain()).undone).toBe(1);
    expect(s.emu.control.item(list(), itemId)!.fields.FreelancerID ?? null).toBeNull();
    expect(await offerRow(offerId)).toMatchObject({ state: 'withdrawn', endedReason: 'sharepoint' });
  });

  it('SharePoint failing keeps the write queued and retries it later', async () => {
    const { itemId, bookingId } = await openItem('2026-12-07');
    const a = await facilitator();
    const offerId = await offerAndAccept(bookingId, a);
    s.emu.control.failNext(20, 503, { method: 'PATCH' });
    const failed = await drain();
    expect(failed.failed).toBe(1);
    s.emu.control.clearFaults();
    const [row] = await s.t.ctx.db.select().from(bookingOutbox).where(eq(bookingOutbox.offerId, offerId));
    expect(row!.attempts).toBe(1);
    await s.t.ctx.db.update(bookingOutbox).set({ nextAttemptAt: clock }).where(eq(bookingOutbox.id, row!.id));
    expect((await drain()).assigned).toBe(1);
    expect(s.emu.control.item(list(), itemId)!.fields.FreelancerID).toBe(a.freelancerId);
  });
});
