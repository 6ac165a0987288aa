/**
 * The retention schedule at each of its boundaries (the day before, the day of and the day after),
 * with the app's clock set by the test, and what deactivating a leaver stops at once. Dates are fixed
 * days: nothing here depends on the day the suite runs.
 */
import { eq, sql } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../../shared/calendar';
import {
  availability,
  calendarFeeds,
  certificateViews,
  changeHistory,
  facilitatorPhotos,
  offers,
  pushOutbox,
  pushSubscriptions,
  retentionRuns,
  safeguardingRecords,
  safeguardingRecordVersions,
  staffNotes,
  users,
} from '../../db/schema';
import { Scheduler } from '../../jobs/scheduler';
import { insertDay, insertDbsCheck, insertNote, insertOffer, insertOpenSession } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { turnOnFeed } from '../calendar-feed/service';
import { applyRetention } from './service';

let clock = new Date('2026-09-15T11:00:00Z');
let t: TestApp;
let staffCookie: string;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp({ ORG_TIMEZONE: 'Europe/London' }, { now: () => clock });
  staffCookie = await t.loginStaff();
}, 120_000);
afterAll(() => t.close());

/** Noon in London on a day (British Summer Time in September). */
const noonOn = (day: string) => new Date(`${day}T11:00:00Z`);

async function leaver(leftOn: string) {
  seq += 1;
  const person = await t.createUser({
    username: `leaver-${seq}@example.org`,
    displayName: `Leaver ${seq}`,
    email: `leaver-${seq}@example.org`,
    freelancerId: `L${seq}`,
  });
  await insertDbsCheck(t.ctx.db, { userId: person.id, dbsCertificateNumber: `00000000${1000 + seq}` });
  await t.ctx.db
    .update(users)
    .set({ deactivatedAt: noonOn(leftOn) })
    .where(eq(users.id, person.id));
  return person;
}

const call = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object, cookie = staffCookie) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

async function run(on: string) {
  clock = noonOn(on);
  const preview = await call('GET', '/api/staff/retention/preview');
  expect(preview.statusCode, preview.body).toBe(200);
  const counts = await applyRetention(t.ctx);
  // what staff were shown is what the run did
  expect(counts).toEqual(preview.json().counts);
  return counts;
}

const recordOf = async (userId: number) =>
  (await t.ctx.db.select().from(safeguardingRecords).where(eq(safeguardingRecords.userId, userId)))[0]!;
const userOf = async (userId: number) =>
  (await t.ctx.db.select().from(users).where(eq(users.id, userId)))[0]!;

describe('retention settings', () => {
  it('starts from the defaults, and refuses a bad schedule with a message and no change', async () => {
    const first = await call('GET', '/api/staff/retention');
    expect(first.json()).toEqual({
      settings: { certificateMonths: 6, anonymiseMonths: 12, recordsYears: 6 },
      lastRun: null,
    });
    const bad = await call('PUT', '/api/staff/retention', {
      certificateMonths: 13,
      anonymiseMonths: 12,
      recordsYears: 0,
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fieldErrors).sort()).toEqual(['anonymiseMonths', 'recordsYears']);
    const order = await call('PUT', '/api/staff/retention', {
      certificateMonths: 13,
      anonymiseMonths: 12,
      recordsYears: 6,
    });
    expect(order.statusCode).toBe(400);
    expect(order.json().fieldErrors.anonymiseMonths).toBeDefined();
    expect((await call('GET', '/api/staff/retention')).json().settings.certificateMonths).toBe(6);
  });
});

describe('a leaver’s certificate number', () => {
  // left on 15 March: six months later is 15 September
  it('is kept whole the day before six months have passed', async () => {
    const p = await leaver('2026-03-16');
    await run('2026-09-15');
    expect(await recordOf(p.id)).toMatchObject({
      dbsCertificateNumber: `00000000${1000 + seq}`,
      dbsCertificateLastFour: null,
    });
  });

  it('is cut to its last four digits on the day, keeping the check’s date, type and result', async () => {
    const p = await leaver('2026-03-15');
    const counts = await run('2026-09-15');
    expect(counts.certificateNumbers).toBe(1);
    const record = await recordOf(p.id);
    expect(record).toMatchObject({
      dbsCertificateNumber: null,
      dbsCertificateLastFour: String(1000 + seq),
      dbsIssueDate: '2026-01-05',
      dbsEnhancedWithBarredList: true,
    });
    const shown = await call('GET', `/api/staff/users/${p.id}/safeguarding`);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.body).not.toContain(`00000000${1000 + seq}`);
    expect(shown.json().dbs.certificateNumber).toBe(`********${1000 + seq}`);
    // the person's archive still holds the check, with the last four digits
    const archive = await call('GET', `/api/staff/users/${p.id}/subject-access`);
    expect(archive.statusCode).toBe(200);
    const files = unzipSync(new Uint8Array(archive.rawPayload));
    const safeguarding = JSON.parse(strFromU8(files['safeguarding.json']!));
    expect(safeguarding.current.dbs).toMatchObject({
      certificateLastFour: String(1000 + seq),
      issueDate: '2026-01-05',
    });
    expect(strFromU8(files['safeguarding.json']!)).not.toContain(`00000000${1000 + seq}`);
  });

  it('is cut the day after too', async () => {
    const p = await leaver('2026-03-14');
    await run('2026-09-15');
    expect((await recordOf(p.id)).dbsCertificateNumber).toBeNull();
  });
});

describe('anonymising leavers', () => {
  it('anonymises twelve months after leaving, not a day before, and keeps the fact of the check', async () => {
    const before = await leaver('2025-09-16');
    const on = await leaver('2025-09-15');
    const after = await leaver('2025-09-14');
    await insertNote(t.ctx.db, { facilitatorId: on.id, date: '2026-01-10', note: 'A note about them' });
    await insertDay(t.ctx.db, { userId: on.id, date: '2026-01-12', status: 'available' });
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xd9]);
    for (const p of [before, on])
      await t.ctx.db.insert(facilitatorPhotos).values({ userId: p.id, image: jpeg, width: 1, height: 1 });
    const counts = await run('2026-09-15');
    expect(counts.leaversAnonymised).toBe(2);
    // a leaver's photo goes when they are anonymised, not before
    expect(counts.photos).toBe(1);
    expect(
      (await t.ctx.db.select({ userId: facilitatorPhotos.userId }).from(facilitatorPhotos)).map(
        (r) => r.userId,
      ),
    ).toEqual([before.id]);
    expect(await userOf(before.id)).toMatchObject({ anonymisedAt: null, email: before.email });
    for (const p of [on, after]) {
      const row = await userOf(p.id);
      expect(row).toMatchObject({
        username: `former-${p.id}`,
        displayName: null,
        email: null,
        freelancerId: null,
        passwordHash: null,
      });
      expect(row.anonymisedAt).not.toBeNull();
      expect(await recordOf(p.id)).toMatchObject({ dbsCertificateNumber: null, dbsIssueDate: '2026-01-05' });
    }
    expect(await t.ctx.db.select().from(staffNotes).where(eq(staffNotes.facilitatorId, on.id))).toEqual([]);
    expect(await t.ctx.db.select().from(availability).where(eq(availability.userId, on.id))).toEqual([]);
    // an anonymised account cannot come back
    const again = await call('POST', `/api/staff/users/${on.id}/reactivate`);
    expect(again.statusCode).toBe(409);
  });
});

const dates = async <T>(rows: Promise<T[]>, pick: (row: T) => string) => (await rows).map(pick).sort();

describe('records older than the schedule keeps', () => {
  it('removes availability, notes, offers and history dated before the day six years back, keeps that day on', async () => {
    const p = await t.createUser({ username: 'records@example.org', displayName: 'Rec' });
    // today 15 September 2026: records dated before 15 September 2020 go
    const cutoff = '2020-09-15';
    const days = [addDays(cutoff, -1), cutoff, addDays(cutoff, 1)];
    for (const date of days) {
      await insertDay(t.ctx.db, { userId: p.id, date, status: 'available' });
      await insertNote(t.ctx.db, { facilitatorId: p.id, date, note: `Note ${date}` });
      const session = await insertOpenSession(t.ctx.db, { date });
      await insertOffer(t.ctx.db, {
        bookingId: session.id,
        userId: p.id,
        state: 'declined',
        replyBy: noonOn(date),
        createdAt: noonOn(date),
      });
      await t.ctx.db.execute(sql`insert into change_history (at, entity, action, subject_user_id, via)
        values (${noonOn(date).toISOString()}::timestamptz, 'availability', 'create', ${p.id}, 'staff')`);
      await t.ctx.db
        .insert(certificateViews)
        .values({ at: noonOn(date), subjectUserId: p.id, viewerName: 'Staff', via: 'staff-records' });
      // a state of the records saved each day: the one of the day before stops being in force on the cutoff
      await t.ctx.db.insert(safeguardingRecordVersions).values({
        userId: p.id,
        recordedOn: date,
        recordedAt: noonOn(date),
        dbsCertificateLast4: '1234',
        dbsIssueDate: '2020-01-01',
      });
    }
    // an earlier state still in force on the cutoff stays: sessions from that day on need it
    const q = await t.createUser({ username: 'records-q@example.org', displayName: 'Req' });
    await t.ctx.db.insert(safeguardingRecordVersions).values({
      userId: q.id,
      recordedOn: addDays(cutoff, -30),
      dbsCertificateLast4: '5678',
      dbsIssueDate: '2020-01-01',
    });
    const counts = await run('2026-09-15');
    expect(counts).toMatchObject({
      availability: 1,
      notes: 1,
      offers: 1,
      history: 1,
      certificateViews: 1,
      recordVersions: 1,
    });
    expect(
      (await t.ctx.db.select().from(certificateViews).where(eq(certificateViews.subjectUserId, p.id)))
        .map((r) => r.at.toISOString())
        .sort(),
    ).toEqual(days.slice(1).map((d) => noonOn(d).toISOString()));
    expect(
      await dates(
        t.ctx.db
          .select()
          .from(safeguardingRecordVersions)
          .where(sql`${safeguardingRecordVersions.userId} in (${p.id}, ${q.id})`),
        (r) => `${r.userId}:${r.recordedOn}`,
      ),
    ).toEqual([`${p.id}:${cutoff}`, `${p.id}:${days[2]}`, `${q.id}:${addDays(cutoff, -30)}`].sort());
    expect(
      await dates(t.ctx.db.select().from(availability).where(eq(availability.userId, p.id)), (r) => r.date),
    ).toEqual(days.slice(1));
    expect(
      await dates(
        t.ctx.db.select().from(staffNotes).where(eq(staffNotes.facilitatorId, p.id)),
        (r) => r.date,
      ),
    ).toEqual(days.slice(1));
    expect(await t.ctx.db.select().from(offers).where(eq(offers.userId, p.id))).toHaveLength(2);
    expect(
      (await t.ctx.db.select().from(changeHistory).where(eq(changeHistory.subjectUserId, p.id))).filter(
        (row) => row.at < noonOn('2021-01-01'),
      ),
    ).toHaveLength(2);
  });

  it('runs once a day from the scheduler and records kinds and counts only', async () => {
    clock = noonOn('2026-09-16');
    const scheduler = new Scheduler(t.ctx);
    expect(await scheduler.retentionTick()).toBe('done');
    expect(await scheduler.retentionTick()).toBe('not-due');
    const [last] = await t.ctx.db.select().from(retentionRuns).orderBy(sql`id desc`).limit(1);
    expect(Object.values(last!.counts).every((n) => typeof n === 'number')).toBe(true);
    const status = await call('GET', '/api/staff/retention');
    expect(status.json().lastRun.ranAt).toBe(clock.toISOString());
  });
});

describe('deactivating an account', () => {
  it('stops sign-in, sessions, the calendar feed, offers and reminders at once, until reactivated', async () => {
    clock = noonOn('2026-09-20');
    // sessions count idle time by the app's clock: a fresh one for the new day
    staffCookie = await t.loginStaff();
    const p = await t.createUser({ username: 'dee@example.org', displayName: 'Dee', freelancerId: 'D1' });
    const cookie = await t.login(p.username, p.password);
    const feed = await turnOnFeed(t.ctx.db, t.ctx.appSecret, p.id);
    const session = await insertOpenSession(t.ctx.db, { date: '2026-10-20' });
    const offer = await insertOffer(t.ctx.db, {
      bookingId: session.id,
      userId: p.id,
      replyBy: noonOn('2026-10-01'),
    });
    const [device] = await t.ctx.db
      .insert(pushSubscriptions)
      .values({ userId: p.id, endpoint: 'https://push.example/dee', p256dh: 'p', auth: 'a' })
      .returning();
    await t.ctx.db.insert(pushOutbox).values({ subscriptionId: device!.id, kind: 'offer', link: '/offers' });

    const done = await call('POST', `/api/staff/users/${p.id}/deactivate`);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().deactivatedAt).toBe(clock.toISOString());

    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).statusCode).toBe(401);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: p.username, password: p.password },
    });
    expect(signIn.statusCode).toBe(403);
    expect(signIn.json().message).toContain('deactivated');
    expect((await t.app.inject({ url: `/api/calendar-feed/${feed.token}.ics` })).statusCode).toBe(404);
    // nothing more is pushed to their devices
    expect(await t.ctx.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, p.id))).toEqual(
      [],
    );
    expect(await t.ctx.db.select().from(pushOutbox)).toEqual([]);
    const [withdrawn] = await t.ctx.db.select().from(offers).where(eq(offers.id, offer.id));
    expect(withdrawn!.state).toBe('withdrawn');
    const other = await insertOpenSession(t.ctx.db, { date: '2026-10-21' });
    const offered = await call('POST', `/api/staff/sessions/${other.id}/offers`, {
      userIds: [p.id],
      replyBy: noonOn('2026-10-02').toISOString(),
      message: '',
    });
    expect(offered.statusCode).toBe(400);
    expect(offered.body).toContain('deactivated');
    expect(await t.ctx.db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, p.id))).toHaveLength(1);
    const history = await call('GET', `/api/staff/users/${p.id}/history`);
    expect(history.statusCode, history.body).toBe(200);
    expect(history.body).toContain('"active":false');

    const again = await call('POST', `/api/staff/users/${p.id}/deactivate`);
    expect(again.statusCode).toBe(409);
    const back = await call('POST', `/api/staff/users/${p.id}/reactivate`);
    expect(back.statusCode).toBe(200);
    expect(back.json().deactivatedAt).toBeNull();
    expect((await t.app.inject({ url: `/api/calendar-feed/${feed.token}.ics` })).statusCode).toBe(200);
    await t.login(p.username, p.password);
  });

  it('refuses to deactivate the caller or the last active staff account', async () => {
    const me = (await t.ctx.db.select().from(users).where(eq(users.role, 'staff')))[0]!;
    expect((await call('POST', `/api/staff/users/${me.id}/deactivate`)).statusCode).toBe(400);
  });
});
