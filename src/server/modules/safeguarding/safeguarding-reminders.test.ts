import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeguardingReminderSends, users } from '../../db/schema';
import { Scheduler } from '../../jobs/scheduler';
import {
  startTestSmtpServer,
  type TestSmtpServer,
  testMailSettings,
  testSmtpEnvironment,
} from '../../mail/test-smtp';
import { insertDbsCheck } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';

/*
 * Safeguarding emails through the scheduler, to a real SMTP server started here on 127.0.0.1 and read
 * back from what it received. The app's clock is the test's.
 */
const PORTAL = 'https://portal.example.org';
const CERTIFICATE = '009876543210';
let clock = new Date('2026-11-30T10:00:00Z');
let t: TestApp;
let server: TestSmtpServer;
let scheduler: Scheduler;

async function dbsFor(userId: number, issueDate: string) {
  await insertDbsCheck(t.ctx.db, { userId, dbsCertificateNumber: CERTIFICATE, dbsIssueDate: issueDate });
}

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: PORTAL, ...testSmtpEnvironment() }, { now: () => clock });
  server = await startTestSmtpServer();
  const fran = await t.createUser({ username: 'fran', displayName: 'Fran', email: 'fran@example.org' });
  const dan = await t.createUser({ username: 'dan', displayName: 'Dan', email: 'dan@example.org' });
  await t.createUser({ username: 'sam', displayName: 'Sam', email: 'sam@example.org' });
  // 36 months from 10 Dec 2023: counts until 9 Dec 2026, so due soon from 10 Nov 2026
  await dbsFor(fran.id, '2023-12-10');
  await dbsFor(dan.id, '2026-01-05');
  await t.ctx.db.update(users).set({ email: 'office@example.org' }).where(eq(users.role, 'staff'));
  scheduler = new Scheduler(t.ctx);
}, 120_000);
afterAll(async () => {
  await t.close();
  await server.close();
});

async function saveEmailSettings() {
  const staffCookie = await t.loginStaff();
  const response = await t.app.inject({
    method: 'PUT',
    url: '/api/staff/reminders/settings',
    headers: { cookie: staffCookie },
    payload: testMailSettings(server),
  });
  expect(response.statusCode, response.body).toBe(200);
}

const recipients = (from = 0) =>
  server.messages
    .slice(from)
    .map((m) => m.to[0])
    .sort();

describe('safeguarding reminders (scheduler)', () => {
  it('send nothing, quietly, while email is not set up', async () => {
    expect(await scheduler.safeguardingTick()).toBe('not-configured');
    expect(server.messages).toHaveLength(0);
  });

  it('on a Monday from 09:00: the facilitator whose check is due, and a digest to staff; once a day', async () => {
    await saveEmailSettings();
    clock = new Date('2026-11-30T08:59:00Z'); // 08:59 in London (GMT)
    expect(await scheduler.safeguardingTick()).toBe('not-yet');
    expect(server.messages).toHaveLength(0);

    clock = new Date('2026-11-30T09:01:00Z');
    expect(await scheduler.safeguardingTick()).toBe('done');
    expect(recipients()).toEqual(['fran@example.org', 'office@example.org']);
    const toFran = server.messages.find((m) => m.to[0] === 'fran@example.org')!;
    expect(toFran.subject).toBe('Your safeguarding check is due for renewal');
    expect(toFran.text).toContain('DBS check due soon: valid until 9 December 2026');
    expect(toFran.text).toContain(`${PORTAL}/settings`);
    const digest = server.messages.find((m) => m.to[0] === 'office@example.org')!;
    expect(digest.subject).toBe('Safeguarding checks: 2 facilitators need attention');
    expect(digest.text).toContain('Fran (Expiring soon): DBS check due soon: valid until 9 December 2026');
    expect(digest.text).toContain('Sam (Missing): No DBS check recorded');
    expect(digest.text).not.toContain('Dan');
    for (const message of server.messages) expect(message.raw).not.toContain(CERTIFICATE);

    // the next tick the same day sends nothing more
    clock = new Date('2026-11-30T15:00:00Z');
    expect(await scheduler.safeguardingTick()).toBe('done');
    expect(server.messages).toHaveLength(2);
    const sends = await t.ctx.db.select().from(safeguardingReminderSends);
    expect(sends.map((s) => [s.kind, s.sentOn]).sort()).toEqual([
      ['digest', '2026-11-30'],
      ['expiry', '2026-11-30'],
    ]);
  });

  it('no digest on other days, and a facilitator is reminded again only a week later', async () => {
    clock = new Date('2026-12-01T10:00:00Z'); // Tuesday
    expect(await scheduler.safeguardingTick()).toBe('done');
    expect(server.messages).toHaveLength(2);

    clock = new Date('2026-12-07T10:00:00Z'); // the next Monday
    expect(await scheduler.safeguardingTick()).toBe('done');
    expect(recipients(2)).toEqual(['fran@example.org', 'office@example.org']);
  });

  it('a message the server refuses is not recorded, so the next tick tries again', async () => {
    await server.close();
    clock = new Date('2026-12-08T10:00:00Z');
    // 8 December: within a week of the last reminder, so nothing is due to anyone
    expect(await scheduler.safeguardingTick()).toBe('done');
    clock = new Date('2026-12-14T10:00:00Z'); // Monday; Fran's check stopped counting on the 10th
    const expiredRun = await scheduler.safeguardingTick();
    // the digest is due but the server is gone: failed, nothing recorded for that day
    expect(expiredRun).toBe('failed');
    const sends = await t.ctx.db
      .select()
      .from(safeguardingReminderSends)
      .where(eq(safeguardingReminderSends.sentOn, '2026-12-14'));
    expect(sends).toEqual([]);
    server = await startTestSmtpServer();
    await saveEmailSettings();
    expect(await scheduler.safeguardingTick()).toBe('done');
    // Fran's check has expired: no renewal reminder any more, but staff hear of it
    expect(server.messages.map((m) => m.to[0])).toEqual(['office@example.org']);
    expect(server.messages[0]!.text).toContain('Fran (Expired)');
  });

  it('a deactivated facilitator gets no reminder and is left out of the digest', async () => {
    // both due soon on Monday 4 January 2027: 36 months from 20 January 2024 counts until the 19th
    const kim = await t.createUser({ username: 'kim', displayName: 'Kim', email: 'kim@example.org' });
    const lee = await t.createUser({ username: 'lee', displayName: 'Lee', email: 'lee@example.org' });
    await dbsFor(kim.id, '2024-01-20');
    await dbsFor(lee.id, '2024-01-20');
    clock = new Date('2027-01-01T10:00:00Z');
    const left = await t.app.inject({
      method: 'POST',
      url: `/api/staff/users/${lee.id}/deactivate`,
      headers: { cookie: await t.loginStaff() },
    });
    expect(left.statusCode, left.body).toBe(200);

    const from = server.messages.length;
    clock = new Date('2027-01-04T10:00:00Z');
    expect(await scheduler.safeguardingTick()).toBe('done');
    expect(recipients(from)).toEqual(['kim@example.org', 'office@example.org']);
    const digest = server.messages.slice(from).find((m) => m.to[0] === 'office@example.org')!;
    expect(digest.text).toContain('Kim (Expiring soon)');
    expect(digest.text).not.toContain('Lee');
    const leeSends = await t.ctx.db
      .select()
      .from(safeguardingReminderSends)
      .where(eq(safeguardingReminderSends.userId, lee.id));
    expect(leeSends).toEqual([]);
  });
});
