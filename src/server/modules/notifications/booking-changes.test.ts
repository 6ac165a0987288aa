/**
 * Booking changes from the SharePoint bookings refresh reach the facilitator: a push per device for a
 * booking added, moved or cancelled (the event and a link to that day, nothing else), an email where
 * they chose it, nothing on a list's first read, nothing for past sessions, nothing to anyone else and
 * nothing when they chose none. Against the Graph emulator, the push service stand-in and the test
 * SMTP server (PGlite here; PostgreSQL with TEST_DATABASE_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestSmtpServer,
  type TestSmtpServer,
  testMailSettings,
  testSmtpEnvironment,
} from '../../mail/test-smtp';
import { bookingChanges } from '../../sharepoint/bookings-refresh';
import { type ConnectorSetup, setupConnector } from '../../sharepoint/test-support';
import { startTestPushService, type TestDevice, type TestPushService } from '../../test/push-service';
import { saveReminderSettings } from '../reminders/service';
import { deliverPushes } from './delivery';

// The server's clock, pinned: Friday 20 November 2026, 10:00 in London.
const clock = new Date('2026-11-20T10:00:00Z');
let s: ConnectorSetup;
let push: TestPushService;
let smtp: TestSmtpServer;
let staff: string;
const list = () => s.portal.lists.bookings!;

interface Person {
  id: number;
  email: string;
  name: string;
  cookie: string;
  freelancerId: string;
  device: TestDevice;
}
let ada: Person;
let ben: Person;
let cal: Person;

beforeAll(async () => {
  push = await startTestPushService();
  smtp = await startTestSmtpServer();
  s = await setupConnector({
    seed: { seed: 'booking-changes', bookingCount: 0, facilitatorCount: 3 },
    env: {
      PUBLIC_URL: 'https://portal.example.org',
      PUSH_ALLOWED_ORIGINS: push.origin,
      ...testSmtpEnvironment(),
    },
    build: { now: () => clock },
  });
  await saveReminderSettings(s.t.ctx, testMailSettings(smtp), 1);
  staff = await s.t.loginStaff();
  const people: Person[] = [];
  for (const [i, f] of s.portal.facilitators.slice(0, 3).entries()) {
    const user = await s.t.createUser({
      username: `changes-${i}@example.org`,
      displayName: `Changes Person ${i}`,
      email: `changes-${i}@example.org`,
      freelancerId: f.freelancerId,
    });
    const cookie = await s.t.login(user.username, user.password);
    const device = push.device();
    const subscribed = await s.t.app.inject({
      method: 'POST',
      url: '/api/push/subscription',
      headers: { cookie },
      payload: device.subscription,
    });
    expect(subscribed.statusCode, subscribed.body).toBe(200);
    people.push({
      id: user.id,
      email: user.email!,
      name: `Changes Person ${i}`,
      cookie,
      freelancerId: f.freelancerId,
      device,
    });
  }
  [ada, ben, cal] = people as [Person, Person, Person];
});
afterAll(async () => {
  await s?.close();
  await push?.close();
  await smtp?.close();
});

function session(person: Person, date: string, extra: Record<string, unknown> = {}) {
  return s.emu.control.addItem(list(), {
    Title: 'Workshop',
    FreelancerID: person.freelancerId,
    SessionDate: date,
    StartTime: '09:30',
    EndTime: '12:00',
    SchoolID: 'SCH001',
    Status: 'Confirmed',
    ...extra,
  });
}

async function refresh() {
  const response = await s.t.app.inject({
    method: 'POST',
    url: '/api/staff/bookings/refresh',
    headers: { cookie: staff },
  });
  expect(response.statusCode, response.body).toBe(200);
  // deliver until nothing is due (what the scheduler's push loop does)
  while ((await deliverPushes(s.t.ctx)).claimed > 0);
  return response.json();
}

async function choose(person: Person, channel: 'push' | 'email' | 'both' | 'none') {
  const prefs = await s.t.app.inject({
    method: 'GET',
    url: '/api/notifications/preferences',
    headers: { cookie: person.cookie },
  });
  const current = prefs.json() as { channels: Record<string, string>; quietHours: unknown };
  const saved = await s.t.app.inject({
    method: 'PUT',
    url: '/api/notifications/preferences',
    headers: { cookie: person.cookie },
    payload: { ...current, channels: { ...current.channels, 'booking-changed': channel } },
  });
  expect(saved.statusCode, saved.body).toBe(200);
}

const pushesTo = (person: Person) =>
  push.received.filter((p) => p.deviceId === person.device.id).map((p) => JSON.parse(p.payload));
const mailTo = (person: Person) => smtp.messages.filter((m) => m.to.includes(person.email));

describe('booking changes from SharePoint', () => {
  let moving: string;
  let cancelling: string;
  let past: string;
  let bens: string;

  it('tells nobody of the bookings on the list’s first read', async () => {
    moving = session(ada, '2026-12-07').id;
    cancelling = session(ada, '2026-12-08').id;
    past = session(ada, '2026-11-10').id;
    bens = session(ben, '2026-12-07').id;
    session(cal, '2026-12-07');
    const result = await refresh();
    expect(result).toMatchObject({ added: 5 });
    expect(result).not.toHaveProperty('changes');
    for (const person of [ada, ben, cal]) expect(pushesTo(person)).toEqual([]);
    expect(smtp.messages).toHaveLength(0);
  });

  it('pushes one added, one moved and one cancelled to the facilitator’s device, and nothing to others', async () => {
    session(ada, '2026-12-04');
    s.emu.control.updateItem(list(), moving, { SessionDate: '2026-12-09' });
    s.emu.control.updateItem(list(), cancelling, { Status: 'Cancelled' });
    // a past session moved: no news
    s.emu.control.updateItem(list(), past, { StartTime: '13:00' });
    // a change that is neither a move nor a new owner: no news
    s.emu.control.updateItem(list(), bens, { Title: 'Renamed workshop' });
    await refresh();
    const got = pushesTo(ada);
    expect(got).toHaveLength(3);
    expect(got).toEqual(
      expect.arrayContaining([
        { kind: 'booking-added', link: '/?date=2026-12-04' },
        { kind: 'booking-moved', link: '/?date=2026-12-09' },
        { kind: 'booking-cancelled', link: '/?date=2026-12-08' },
      ]),
    );
    expect(pushesTo(ben)).toEqual([]);
    expect(pushesTo(cal)).toEqual([]);
    expect(push.rejected).toEqual([]);
    // push only is the default for this kind: no email
    expect(smtp.messages).toHaveLength(0);
  });

  it('tells both when a booking is given to someone else: cancelled for one, added for the other', async () => {
    s.emu.control.updateItem(list(), bens, { FreelancerID: cal.freelancerId });
    await refresh();
    expect(pushesTo(ben)).toEqual([{ kind: 'booking-cancelled', link: '/?date=2026-12-07' }]);
    expect(pushesTo(cal)).toEqual([{ kind: 'booking-added', link: '/?date=2026-12-07' }]);
  });

  it('sends nothing at all to someone who chose none', async () => {
    await choose(cal, 'none');
    const before = pushesTo(cal).length;
    session(cal, '2026-12-10');
    await refresh();
    expect(pushesTo(cal)).toHaveLength(before);
    expect(mailTo(cal)).toEqual([]);
  });

  it('emails a short note with the link to someone who chose email, and no push', async () => {
    await choose(ben, 'email');
    const before = pushesTo(ben).length;
    session(ben, '2026-12-11');
    await refresh();
    expect(pushesTo(ben)).toHaveLength(before);
    const mail = mailTo(ben);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe('A session on 11 December 2026 was added to your calendar');
    expect(mail[0]!.text).toContain('https://portal.example.org/?date=2026-12-11');
  });

  it('tells nothing of sessions before today', async () => {
    await choose(ada, 'both');
    const pushes = pushesTo(ada).length;
    session(ada, '2026-11-19');
    s.emu.control.updateItem(list(), past, { Status: 'Cancelled' });
    await refresh();
    expect(pushesTo(ada)).toHaveLength(pushes);
    expect(mailTo(ada)).toEqual([]);
  });
});

describe('bookingChanges', () => {
  const row = (
    userId: number | null,
    date: string,
    freelancerId = userId === null ? null : `F${userId}`,
  ) => ({
    sharePointId: '1',
    userId,
    freelancerId,
    date,
    startTime: '09:30',
    endTime: '12:00',
  });
  const today = '2026-11-20';

  it('finds a move to another time on the same day', () => {
    expect(
      bookingChanges([row(1, '2026-12-01')], [{ ...row(1, '2026-12-01'), endTime: '12:30' }], today),
    ).toEqual([{ userId: 1, change: 'moved', date: '2026-12-01', previousDate: '2026-12-01' }]);
  });

  it('tells of a session moved from the past into the future', () => {
    expect(bookingChanges([row(1, '2026-11-01')], [row(1, '2026-12-01')], today)).toHaveLength(1);
  });

  it('tells no one when a booking changed hands only because an account got the freelancer ID', () => {
    expect(bookingChanges([row(null, '2026-12-01', 'F1')], [row(1, '2026-12-01', 'F1')], today)).toEqual([]);
  });

  it('tells no one of unassigned bookings', () => {
    expect(bookingChanges([], [row(null, '2026-12-01')], today)).toEqual([]);
  });
});
