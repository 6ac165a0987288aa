/**
 * Change notifications for the Bookings list (ADR 0016): the portal listens on 127.0.0.1 and the
 * emulator delivers to it (http allowed by the explicit test switch on both sides). Subscribing
 * goes through the validation handshake; a notification with the right clientState brings a new
 * booking in within seconds; a forged one is refused; a lost subscription is replaced and an
 * expiring one renewed; the staff status line says which mode is active.
 */
import { createServer } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config';
import { bookings } from '../db/schema';
import { Scheduler } from '../jobs/scheduler';
import { notificationUrl } from './notifications';
import { type ConnectorSetup, setupConnector } from './test-support';

let s: ConnectorSetup;
let staff: string;
let port: number;
let offset = 0;
const HOUR = 3600_000;
const list = () => s.portal.lists.bookings!;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: free } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return free;
}

/** Both clocks move together: the portal's `now` and the emulator's. */
function advance(ms: number) {
  offset += ms;
  s.emu.control.advanceClock(ms);
}

beforeAll(async () => {
  port = await freePort();
  s = await setupConnector({
    seed: { seed: 'notify', bookingCount: 6, facilitatorCount: 2 },
    emulator: { allowHttpNotificationUrls: true },
    env: { PUBLIC_URL: `http://127.0.0.1:${port}`, SHAREPOINT_NOTIFICATIONS_ALLOW_HTTP: 'true' },
    build: { now: () => new Date(Date.now() + offset) },
  });
  await s.t.app.listen({ host: '127.0.0.1', port });
  staff = await s.t.loginStaff();
  for (const f of s.portal.facilitators) {
    await s.t.createUser({ username: f.email, displayName: f.name, freelancerId: f.freelancerId });
  }
});
afterAll(() => s.close());

const status = async () =>
  (
    await s.t.app.inject({ method: 'GET', url: '/api/admin/scheduler/status', headers: { cookie: staff } })
  ).json();
const deltaCalls = () => s.emu.control.requestCount({ path: /\/items\/delta$/ });

describe('change notifications', () => {
  it('echoes the validation token as text/plain', async () => {
    const response = await s.t.app.inject({
      method: 'POST',
      url: '/api/sharepoint/notifications?validationToken=Validation%3A%20abc%20%3Cb%3E',
      headers: { 'content-type': 'text/plain' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.body).toBe('Validation: abc <b>');
  });

  it('subscribes through the handshake; the status line says notifications are active', async () => {
    expect((await status()).changeMode).toBe('polling');
    const scheduler = new Scheduler(s.t.ctx);
    expect(await scheduler.subscriptionTick()).toBe('created');
    const [sub] = s.emu.control.subscriptions();
    expect(sub).toMatchObject({
      notificationUrl: `http://127.0.0.1:${port}/api/sharepoint/notifications`,
      resource: `sites/${s.portal.site.id}/lists/${s.emu.control.getList(list()).id}`,
    });
    expect(sub!.clientState).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await status()).changeMode).toBe('notifications');
    expect(await scheduler.subscriptionTick()).toBe('kept');
    expect(s.emu.control.subscriptions()).toHaveLength(1);
  });

  it('a change in SharePoint arrives within seconds, without waiting for the schedule', async () => {
    expect(
      (
        await s.t.app.inject({
          method: 'POST',
          url: '/api/staff/bookings/refresh',
          headers: { cookie: staff },
        })
      ).statusCode,
    ).toBe(200);
    const added = s.emu.control.addItem(list(), {
      Title: 'Notified session',
      FreelancerID: s.portal.facilitators[0]!.freelancerId,
      SessionDate: '2026-06-10',
      Status: 'Confirmed',
    });
    await s.emu.control.notificationsSettled();
    expect(s.emu.control.deliveredNotifications().at(-1)?.status).toBe(202);
    await vi.waitFor(
      async () => {
        const [row] = await s.t.ctx.db.select().from(bookings).where(eq(bookings.sharePointId, added.id));
        expect(row?.title).toBe('Notified session');
      },
      { timeout: 10_000, interval: 50 },
    );
  });

  it('refuses a notification with another clientState or subscription, and refreshes nothing', async () => {
    const [sub] = s.emu.control.subscriptions();
    const before = deltaCalls();
    await s.emu.control.sendNotification(sub!.id, {
      value: [{ subscriptionId: sub!.id, clientState: 'forged' }],
    });
    await s.emu.control.sendNotification(sub!.id, {
      value: [{ subscriptionId: 'another', clientState: sub!.clientState }],
    });
    await s.emu.control.sendNotification(sub!.id, { value: 'nonsense' });
    expect(
      s.emu.control
        .deliveredNotifications()
        .slice(-3)
        .map((d) => d.status),
    ).toEqual([403, 403, 400]);
    expect(deltaCalls()).toBe(before);
  });

  it('replaces a subscription SharePoint lost, and renews one before it expires', async () => {
    const scheduler = new Scheduler(s.t.ctx);
    const [lost] = s.emu.control.subscriptions();
    s.emu.control.dropSubscription(lost!.id);
    advance(2 * HOUR);
    expect(await scheduler.subscriptionTick()).toBe('created');
    const [replaced] = s.emu.control.subscriptions();
    expect(replaced!.id).not.toBe(lost!.id);
    const expiredAt = Date.parse(replaced!.expirationDateTime);

    advance(16 * 24 * HOUR);
    expect(await scheduler.subscriptionTick()).toBe('renewed');
    const [renewed] = s.emu.control.subscriptions();
    expect(renewed!.id).toBe(replaced!.id);
    expect(Date.parse(renewed!.expirationDateTime)).toBeGreaterThan(expiredAt);
  });

  it('falls back to polling when SharePoint refuses the subscription', async () => {
    const scheduler = new Scheduler(s.t.ctx);
    s.emu.control.allowHttpNotificationUrls(false);
    const [current] = s.emu.control.subscriptions();
    s.emu.control.dropSubscription(current!.id);
    advance(2 * HOUR);
    // the clock has moved on by weeks: sign in again
    staff = await s.t.loginStaff();
    expect(await scheduler.subscriptionTick()).toBe('failed');
    expect((await status()).changeMode).toBe('polling');
    s.emu.control.allowHttpNotificationUrls(true);
    expect(await scheduler.subscriptionTick()).toBe('created');
    expect((await status()).changeMode).toBe('notifications');
  });

  it('only an https PUBLIC_URL turns notifications on, unless the explicit switch allows http', () => {
    const env = (extra: Record<string, string>) => loadConfig({ ...extra });
    expect(notificationUrl(env({}))).toBeNull();
    expect(notificationUrl(env({ PUBLIC_URL: 'http://portal.example.org' }))).toBeNull();
    expect(notificationUrl(env({ PUBLIC_URL: 'https://portal.example.org' }))).toBe(
      'https://portal.example.org/api/sharepoint/notifications',
    );
    expect(
      notificationUrl(env({ PUBLIC_URL: 'http://127.0.0.1:9', SHAREPOINT_NOTIFICATIONS_ALLOW_HTTP: 'true' })),
    ).toBe('http://127.0.0.1:9/api/sharepoint/notifications');
  });

  it('is rate-limited per address', async () => {
    const answers: number[] = [];
    for (let i = 0; i < 130; i++) {
      const response = await s.t.app.inject({
        method: 'POST',
        url: '/api/sharepoint/notifications',
        payload: { value: [{ subscriptionId: 'x', clientState: 'y' }] },
        remoteAddress: '203.0.113.9',
      });
      answers.push(response.statusCode);
    }
    expect(answers.slice(0, 120).every((code) => code === 403)).toBe(true);
    expect(answers.slice(120).every((code) => code === 429)).toBe(true);
  });
});
