/**
 * Web push end to end against a push service stand-in started here (test/push-service.ts), which
 * checks each push's VAPID signature and decrypts it with the keys of the device it was sent to: every
 * event reaches each device once, none during quiet hours, none after unsubscribing, gone endpoints
 * are pruned, a refused key is shown to staff, and a push says nothing about anyone. The same on two
 * instances sharing one database (PGlite here; PostgreSQL with TEST_DATABASE_URL).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type BuiltApp, buildApp } from '../../app';
import { pushOutbox, pushSubscriptions } from '../../db/schema';
import {
  startTestSmtpServer,
  type TestSmtpServer,
  testMailSettings,
  testSmtpEnvironment,
} from '../../mail/test-smtp';
import { insertBooking, insertDbsCheck } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { startTestPushService, type TestDevice, type TestPushService } from '../../test/push-service';
import { saveReminderSettings } from '../reminders/service';
import { deliverPushes } from './delivery';

// A pinned clock (the server's): Friday 20 November 2026, 10:00 in London; sessions a fortnight on.
let clock = new Date('2026-11-20T10:00:00Z');
const now = () => clock;
let t: TestApp;
let second: BuiltApp;
let push: TestPushService;
let smtp: TestSmtpServer;
let staff: string;
let seq = 0;

beforeAll(async () => {
  push = await startTestPushService();
  smtp = await startTestSmtpServer();
  t = await createTestApp(
    { PUBLIC_URL: 'https://portal.example.org', PUSH_ALLOWED_ORIGINS: push.origin, ...testSmtpEnvironment() },
    { now },
  );
  second = await buildApp(t.config, { database: t.ctx.database, now });
  await saveReminderSettings(t.ctx, testMailSettings(smtp), 1);
  staff = await t.loginStaff();
});
afterAll(async () => {
  await second?.close();
  await t?.close();
  await push?.close();
  await smtp?.close();
});
beforeEach(() => {
  clock = new Date('2026-11-20T10:00:00Z');
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

async function facilitator() {
  seq += 1;
  const user = await t.createUser({
    username: `push-${seq}@example.org`,
    displayName: `Push Person ${seq}`,
    email: `push-${seq}@example.org`,
    freelancerId: String(8100 + seq),
  });
  await insertDbsCheck(t.ctx.db, { userId: user.id });
  return {
    id: user.id,
    name: `Push Person ${seq}`,
    email: user.email!,
    cookie: await t.login(user.username, user.password),
  };
}

async function subscribe(cookie: string, device: TestDevice) {
  const response = await call('POST', '/api/push/subscription', cookie, device.subscription);
  expect(response.statusCode, response.body).toBe(200);
}

async function offer(userIds: number[], replyBy = '2026-11-25T17:00:00Z') {
  const session = await insertBooking(t.ctx.db, {
    date: '2026-12-04',
    startTime: '09:30',
    endTime: '12:00',
    title: '',
    schoolName: 'Oakfield Primary',
    program: 'Dance',
  });
  const response = await call('POST', `/api/staff/sessions/${session.id}/offers`, staff, {
    userIds,
    replyBy,
    message: 'Bring the big drum.',
  });
  expect(response.statusCode, response.body).toBe(201);
  return session.id;
}

/** Deliver until nothing is due (what the scheduler's push loop does). */
async function drain(app: Pick<BuiltApp, 'ctx'> = t) {
  for (;;) if ((await deliverPushes(app.ctx)).claimed === 0) return;
}

const pushesTo = (device: TestDevice) => push.received.filter((p) => p.deviceId === device.id);

describe('web push', () => {
  it('answers the VAPID public key to signed-in users', async () => {
    const person = await facilitator();
    const response = await call('GET', '/api/push/key', person.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json().publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(response.json().publicKey).toBe(t.ctx.push.vapid.publicKey);
  });

  it('delivers a new offer once to each of the person’s devices, naming only the event and a link', async () => {
    const person = await facilitator();
    const phone = push.device();
    const laptop = push.device();
    await subscribe(person.cookie, phone);
    await subscribe(person.cookie, laptop);
    const other = await facilitator();
    const othersPhone = push.device();
    await subscribe(other.cookie, othersPhone);

    await offer([person.id]);
    await drain();
    await drain();

    for (const device of [phone, laptop]) {
      const got = pushesTo(device);
      expect(got).toHaveLength(1);
      expect(JSON.parse(got[0]!.payload)).toEqual({ kind: 'offer-new', link: '/offers' });
      expect(got[0]!.vapidKey).toBe(t.ctx.push.vapid.publicKey);
      expect(got[0]!.urgency).toBe('high');
      // nothing personal: no name, email, school, programme or message
      for (const secret of [person.name, person.email, 'Oakfield', 'Dance', 'drum'])
        expect(got[0]!.payload).not.toContain(secret);
    }
    expect(pushesTo(othersPhone)).toHaveLength(0);
    expect(push.rejected).toEqual([]);
    // the email goes as well (the default is both)
    expect(smtp.messages.some((m) => m.to.includes(person.email))).toBe(true);
  });

  it('holds pushes during quiet hours, and emails an offer that would expire before they end', async () => {
    const person = await facilitator();
    const phone = push.device();
    await subscribe(person.cookie, phone);
    const prefs = await call('GET', '/api/notifications/preferences', person.cookie);
    const saved = await call('PUT', '/api/notifications/preferences', person.cookie, {
      channels: { ...prefs.json().channels, 'offer-new': 'push' },
      quietHours: { start: '22:00', end: '07:00' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().quietHours).toEqual({ start: '22:00', end: '07:00' });

    clock = new Date('2026-11-20T23:00:00Z'); // 23:00 in London
    const emailsBefore = smtp.messages.filter((m) => m.to.includes(person.email)).length;
    await offer([person.id], '2026-11-23T17:00:00Z'); // after the quiet hours: held
    await offer([person.id], '2026-11-21T01:00:00Z'); // before they end: by email instead
    await drain();
    expect(pushesTo(phone)).toHaveLength(0);
    const emails = smtp.messages.filter((m) => m.to.includes(person.email));
    // push only was chosen: the held offer is not emailed, the one that cannot wait is
    expect(emails.length - emailsBefore).toBe(1);

    clock = new Date('2026-11-21T06:59:00Z');
    await drain();
    expect(pushesTo(phone)).toHaveLength(0);
    clock = new Date('2026-11-21T07:00:00Z');
    await drain();
    expect(pushesTo(phone)).toHaveLength(1);
  });

  it('sends nothing to a device after it unsubscribes, and nothing queued for it', async () => {
    const person = await facilitator();
    const kept = push.device();
    const dropped = push.device();
    await subscribe(person.cookie, kept);
    await subscribe(person.cookie, dropped);
    await offer([person.id]);
    const gone = await call('DELETE', '/api/push/subscription', person.cookie, {
      endpoint: dropped.subscription.endpoint,
    });
    expect(gone.json()).toEqual({ subscribed: false });
    await offer([person.id]);
    await drain();
    expect(pushesTo(kept)).toHaveLength(2);
    expect(pushesTo(dropped)).toHaveLength(0);
  });

  it('lets nobody unsubscribe another person’s device, and gives a device to whoever subscribes it last', async () => {
    const a = await facilitator();
    const b = await facilitator();
    const shared = push.device();
    await subscribe(a.cookie, shared);
    await call('DELETE', '/api/push/subscription', b.cookie, { endpoint: shared.subscription.endpoint });
    const [row] = await t.ctx.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, shared.subscription.endpoint));
    expect(row?.userId).toBe(a.id);
    // B signs in on the same browser: A's pushes stop reaching it
    await subscribe(b.cookie, shared);
    await offer([a.id]);
    await drain();
    expect(pushesTo(shared)).toHaveLength(0);
  });

  it('replaces a device’s old subscription when the browser subscribes again', async () => {
    const person = await facilitator();
    const before = push.device();
    const after = push.device();
    await subscribe(person.cookie, before);
    const response = await call('POST', '/api/push/subscription', person.cookie, {
      ...after.subscription,
      replaces: before.subscription.endpoint,
    });
    expect(response.statusCode).toBe(200);
    const rows = await t.ctx.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, person.id));
    expect(rows.map((r) => r.endpoint)).toEqual([after.subscription.endpoint]);
  });

  it('prunes an endpoint the push service calls gone (404, 410), with what was queued for it', async () => {
    const person = await facilitator();
    const gone = push.device();
    const missing = push.device();
    const fine = push.device();
    await subscribe(person.cookie, gone);
    await subscribe(person.cookie, missing);
    await subscribe(person.cookie, fine);
    gone.status = 410;
    missing.status = 404;
    await offer([person.id]);
    await offer([person.id]);
    await drain();
    const rows = await t.ctx.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, person.id));
    expect(rows.map((r) => r.endpoint)).toEqual([fine.subscription.endpoint]);
    expect(rows[0]!.lastSuccessAt).not.toBeNull();
    expect(pushesTo(fine)).toHaveLength(2);
    const queued = await t.ctx.db.select().from(pushOutbox);
    expect(queued).toEqual([]);
  });

  it('tells staff when a push service refuses the key (401, 403), and retries a bounded number of times', async () => {
    const person = await facilitator();
    const refusing = push.device();
    await subscribe(person.cookie, refusing);
    refusing.status = 403;
    await offer([person.id]);
    await drain();
    const status = await call('GET', '/api/push/status', staff);
    expect(status.json().keyProblem).toMatchObject({ status: 403 });
    // still queued, for later; tried at most five times in all
    for (let i = 0; i < 6; i++) {
      clock = new Date(clock.getTime() + 60 * 60_000);
      await drain();
    }
    expect(await t.ctx.db.select().from(pushOutbox)).toEqual([]);
    // a success clears it
    refusing.status = 201;
    await offer([person.id]);
    await drain();
    expect((await call('GET', '/api/push/status', staff)).json().keyProblem).toBeNull();
    const facilitatorAsks = await call('GET', '/api/push/status', person.cookie);
    expect(facilitatorAsks.statusCode).toBe(403);
  });

  it('refuses endpoints that are not https on a public address, and changes nothing', async () => {
    const person = await facilitator();
    const device = push.device();
    for (const endpoint of [
      'http://push.example.org/x',
      'https://127.0.0.1/push/x',
      'https://10.1.2.3/push/x',
      'https://[::1]/push/x',
      'https://169.254.169.254/latest/meta-data',
    ]) {
      const response = await call('POST', '/api/push/subscription', person.cookie, {
        ...device.subscription,
        endpoint,
      });
      expect(response.statusCode, endpoint).toBe(400);
      expect(response.json().fieldErrors.endpoint).toBeDefined();
    }
    const rows = await t.ctx.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, person.id));
    expect(rows).toEqual([]);
  });

  it('turns a push off per kind: none sends neither push nor email', async () => {
    const person = await facilitator();
    const phone = push.device();
    await subscribe(person.cookie, phone);
    const prefs = (await call('GET', '/api/notifications/preferences', person.cookie)).json();
    await call('PUT', '/api/notifications/preferences', person.cookie, {
      channels: { ...prefs.channels, 'offer-new': 'none' },
      quietHours: null,
    });
    const emailsBefore = smtp.messages.length;
    await offer([person.id]);
    await drain();
    expect(pushesTo(phone)).toHaveLength(0);
    expect(smtp.messages.filter((m) => m.to.includes(person.email)).length).toBe(
      smtp.messages.slice(0, emailsBefore).filter((m) => m.to.includes(person.email)).length,
    );
  });

  it('delivers each push once when two instances deliver from one database at the same time', async () => {
    const people = await Promise.all([facilitator(), facilitator(), facilitator()]);
    const devices = people.flatMap(() => [push.device(), push.device()]);
    for (const [i, person] of people.entries()) {
      await subscribe(person.cookie, devices[2 * i]!);
      await subscribe(person.cookie, devices[2 * i + 1]!);
    }
    for (let i = 0; i < 5; i++) await offer(people.map((p) => p.id));
    await Promise.all([drain(t), drain(second), drain(t), drain(second)]);
    for (const device of devices) {
      const got = pushesTo(device);
      expect(got, device.id).toHaveLength(5);
    }
    expect(await t.ctx.db.select().from(pushOutbox)).toEqual([]);
  });
});
