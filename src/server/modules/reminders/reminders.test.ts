import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { monthWeekdays } from '../../../shared/calendar';
import type { ReminderSettingsResponse, SendRemindersResponse } from '../../../shared/schemas/reminders';
import { decryptSecret, deriveKey, encryptSecret } from '../../crypto';
import { reminderSends, reminderSettings } from '../../db/schema';
import { Scheduler } from '../../jobs/scheduler';
import {
  startTestSmtpServer,
  TEST_SMTP_CERT,
  type TestSmtpServer,
  testSmtpCaFile,
} from '../../mail/test-smtp';
import { MAIL_ERRORS } from '../../mail/transport';
import { insertDays } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { smtpDestination } from './service';

/*
 * Every message goes to a real SMTP server started here (smtp-server on 127.0.0.1) and is read back
 * from what that server received. The app's clock is pinned, so "today" and the scheduler's day are
 * the test's to choose.
 */

const SMTP_USER = 'portal-mailer';
const SMTP_PASS = 'smtp-Secret-p4ss';
const PORTAL = 'https://portal.example.org';
const DECEMBER = monthWeekdays('2026-12-01');

let clock = new Date('2026-11-23T10:00:00Z');

let t: TestApp;
let staffCookie: string;
let facilitatorCookie: string;
const people: Record<string, { id: number; email: string | null }> = {};
const servers: TestSmtpServer[] = [];

async function smtp(options: Parameters<typeof startTestSmtpServer>[0] = {}) {
  const server = await startTestSmtpServer(options);
  servers.push(server);
  return server;
}

const settingsFor = (server: TestSmtpServer, overrides: Record<string, unknown> = {}) => ({
  host: server.host,
  port: server.port,
  security: 'none',
  username: SMTP_USER,
  password: SMTP_PASS,
  fromAddress: 'portal@example.org',
  autoEnabled: false,
  autoDay: 25,
  autoMonth: 'next',
  ...overrides,
});

/** Move the app's clock; sessions keep time by it, so staff signs in again. */
async function setClock(iso: string) {
  clock = new Date(iso);
  staffCookie = await t.loginStaff();
}

type Method = 'GET' | 'PUT' | 'POST';
const call = (method: Method, url: string, cookie?: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: cookie ? { cookie } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function saveSettings(body: Record<string, unknown>) {
  const response = await call('PUT', '/api/staff/reminders/settings', staffCookie, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as ReminderSettingsResponse;
}

async function send(month: string, userIds?: number[]) {
  const response = await call('POST', '/api/staff/reminders/send', staffCookie, {
    month,
    ...(userIds ? { userIds } : {}),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as SendRemindersResponse;
}

const outcomeOf = (result: SendRemindersResponse, name: string) =>
  result.results.find((r) => r.name === name);
const sendsCount = async () => (await t.ctx.db.select().from(reminderSends)).length;
const tableText = async () =>
  JSON.stringify(
    (await t.ctx.db.execute(sql`select (select json_agg(s) from reminder_settings s) as a,
      (select json_agg(r) from reminder_sends r) as b`)) as unknown,
  );

// This file sends reminders many times over, one transport case each, on a clock that stands still;
// the send budget itself is tested in http/request-limits.test.ts.
beforeAll(async () => {
  // the test SMTP servers listen on 127.0.0.1, which the portal refuses unless the operator allows it
  t = await createTestApp(
    {
      PUBLIC_URL: PORTAL,
      SMTP_ALLOWED_NETWORKS: '127.0.0.1/32',
      SMTP_CA_FILE: testSmtpCaFile(),
      SMTP_TIMEOUT_SECONDS: '5',
      REQUEST_BUDGETS: 'remindersSend=10000',
    },
    { now: () => clock },
  );
  const make = async (name: string, username: string, email: string | null, area = 'North') => {
    const row = await t.createUser({ username, displayName: name, email, area, password: 'pass-word-1' });
    people[name] = { id: row.id, email };
  };
  await make('Fran', 'fran@example.org', 'fran@example.org');
  await make('Dan', 'dan@example.org', 'dan@example.org');
  await make('Sam', 'sam', null);
  await make('Cara', 'cara@example.org', 'cara@example.org', 'South');
  staffCookie = await t.loginStaff();
  facilitatorCookie = await t.login('fran@example.org', 'pass-word-1');
  // December: Cara complete, Fran 5 of 23 weekdays, Dan and Sam nothing
  await insertDays(t.ctx.db, [
    ...DECEMBER.map((date) => ({ userId: people.Cara!.id, date, status: 'available' })),
    ...DECEMBER.slice(0, 5).map((date) => ({ userId: people.Fran!.id, date, status: 'limited' })),
  ]);
});

afterEach(async () => {
  await setClock('2026-11-23T10:00:00Z');
  t.ctx.mailer.configure({ extraCa: TEST_SMTP_CERT, connectionTimeoutMs: 5000 });
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await t.close();
});

describe('authorisation', () => {
  const endpoints: [Method, string, unknown?][] = [
    ['GET', '/api/staff/reminders/settings'],
    [
      'PUT',
      '/api/staff/reminders/settings',
      {
        host: '127.0.0.1',
        port: 25,
        security: 'none',
        fromAddress: 'a@example.org',
        autoEnabled: false,
        autoDay: 1,
        autoMonth: 'next',
      },
    ],
    ['POST', '/api/staff/reminders/send', { month: '2026-12' }],
  ];
  it.each(endpoints)('%s %s: anonymous 401, facilitator 403, nothing changed', async (method, url, body) => {
    const before = await tableText();
    const anonymous = await call(method, url, undefined, body);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().message).toBe('Please sign in to continue');
    const facilitator = await call(method, url, facilitatorCookie, body);
    expect(facilitator.statusCode).toBe(403);
    expect(facilitator.json().message).toBe('This is for staff only');
    expect(await tableText()).toBe(before);
  });
});

describe('email settings', () => {
  it('start empty: not configured, no password', async () => {
    const response = await call('GET', '/api/staff/reminders/settings', staffCookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      host: '',
      configured: false,
      hasPassword: false,
      autoEnabled: false,
      nextAutomatic: null,
    });
  });

  it('sending before email is set up: 409 with a clear message, nothing recorded', async () => {
    const response = await call('POST', '/api/staff/reminders/send', staffCookie, { month: '2026-12' });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toMatch(/Email is not set up/);
    expect(await sendsCount()).toBe(0);
  });

  const valid = {
    host: 'smtp.example.org',
    port: 587,
    security: 'starttls',
    username: SMTP_USER,
    password: SMTP_PASS,
    fromAddress: 'portal@example.org',
    autoEnabled: false,
    autoDay: 25,
    autoMonth: 'next',
  };
  it.each([
    ['a host with spaces', { host: 'smtp example.org' }, 'host'],
    ['port 0', { port: 0 }, 'port'],
    ['port 70000', { port: 70000 }, 'port'],
    ['a fractional port', { port: 25.5 }, 'port'],
    ['an unknown security mode', { security: 'ssl' }, 'security'],
    ['a sender that is no address', { fromAddress: 'portal' }, 'fromAddress'],
    ['a sender with a display name', { fromAddress: 'Portal <portal@example.org>' }, 'fromAddress'],
    ['day 29', { autoDay: 29 }, 'autoDay'],
    ['day 0', { autoDay: 0 }, 'autoDay'],
    ['the day as text', { autoDay: '5' }, 'autoDay'],
    ['autoEnabled as text', { autoEnabled: 'true' }, 'autoEnabled'],
    ['an unknown month choice', { autoMonth: 'previous' }, 'autoMonth'],
    ['a host without a sender', { fromAddress: '' }, 'fromAddress'],
    ['automatic reminders without a server', { host: '', autoEnabled: true }, 'autoEnabled'],
  ])('refuses %s: 400 naming the field, nothing saved', async (_name, change, field) => {
    const before = await tableText();
    const response = await call('PUT', '/api/staff/reminders/settings', staffCookie, { ...valid, ...change });
    expect(response.statusCode).toBe(400);
    const body = response.json() as { message: string; fieldErrors?: Record<string, string[]> };
    expect(body.message).toBeTruthy();
    expect(Object.keys(body.fieldErrors ?? {})).toContain(field);
    expect(await tableText()).toBe(before);
  });

  it('keeps the password write-only and encrypted; blank keeps it; history records the change without it', async () => {
    const saved = await saveSettings(valid);
    expect(saved).toMatchObject({ host: 'smtp.example.org', hasPassword: true, configured: true });
    expect(JSON.stringify(saved)).not.toContain(SMTP_PASS);
    const read = await call('GET', '/api/staff/reminders/settings', staffCookie);
    expect(read.body).not.toContain(SMTP_PASS);
    expect(read.json()).toEqual(saved);

    const [row] = await t.ctx.db.select().from(reminderSettings);
    expect(row!.smtpPasswordEncrypted).not.toContain(SMTP_PASS);
    const key = deriveKey(t.ctx.appSecret, 'reminder-settings');
    expect(decryptSecret(key, row!.smtpPasswordEncrypted!, smtpDestination(valid))).toBe(SMTP_PASS);
    // sealed for its server: it does not open for another one, nor without one
    expect(() =>
      decryptSecret(key, row!.smtpPasswordEncrypted!, smtpDestination({ ...valid, host: 'evil.example' })),
    ).toThrow();
    expect(() => decryptSecret(key, row!.smtpPasswordEncrypted!)).toThrow();

    // blank, same server: the stored one stays
    const again = await saveSettings({ ...valid, password: '', fromAddress: 'mailer@example.org' });
    expect(again).toMatchObject({ hasPassword: true, passwordCleared: false });
    const [kept] = await t.ctx.db.select().from(reminderSettings);
    expect(kept!.smtpPasswordEncrypted).toBe(row!.smtpPasswordEncrypted);

    // no username: no password either
    const anonymous = await saveSettings({ ...valid, username: '', password: '' });
    expect(anonymous.hasPassword).toBe(false);

    const history = await t.ctx.db.execute(
      sql`select action, before, after from change_history where entity = 'settings' order by id`,
    );
    const rows = (history as unknown as { rows: { action: string; before: unknown; after: unknown }[] }).rows;
    expect(rows.map((r) => r.action)).toEqual(['create', 'update', 'update']);
    expect(rows[2]!.after).toMatchObject({ password: 'cleared', hasPassword: false });
    expect(rows[0]!.after).toMatchObject({ section: 'email', host: 'smtp.example.org', password: 'changed' });
    expect(rows[1]!.after).not.toHaveProperty('password');
    expect(JSON.stringify(rows)).not.toContain(SMTP_PASS);
  });
});

describe('sending reminders', () => {
  it('emails the partial and missing: sent, skipped (no address), failed (recipient refused), nothing else', async () => {
    const server = await smtp({ auth: { user: SMTP_USER, pass: SMTP_PASS }, refuse: ['dan@example.org'] });
    await saveSettings(settingsFor(server));
    const result = await send('2026-12');
    expect(result).toMatchObject({
      month: '2026-12',
      label: 'December 2026',
      sent: 1,
      skipped: 1,
      failed: 1,
    });
    expect(outcomeOf(result, 'Fran')).toMatchObject({
      outcome: 'sent',
      reason: null,
      email: 'fran@example.org',
    });
    expect(outcomeOf(result, 'Sam')).toMatchObject({ outcome: 'skipped', reason: 'No email address' });
    // the category only: never the server's own words
    expect(outcomeOf(result, 'Dan')).toMatchObject({ outcome: 'failed', reason: MAIL_ERRORS.recipient });
    // complete: not a candidate at all
    expect(outcomeOf(result, 'Cara')).toBeUndefined();

    expect(server.messages).toHaveLength(1);
    const [message] = server.messages;
    expect(message!.to).toEqual(['fran@example.org']);
    expect(message!.from).toBe('portal@example.org');
    expect(message!.subject).toBe('Please add your availability for December 2026');
    expect(message!.text).toContain('Hello Fran,');
    expect(message!.text).toContain('5 of 23 weekdays of December 2026');
    expect(message!.text).toContain(`${PORTAL}/`);
    expect(message!.html).toContain(`<a href="${PORTAL}/">${PORTAL}/</a>`);
    expect(message!.html).toContain('Hello Fran,');
    expect(message!.raw).not.toContain(SMTP_PASS);

    // only what the server accepted is recorded
    const rows = await t.ctx.db.select().from(reminderSends);
    expect(rows).toEqual([
      expect.objectContaining({
        userId: people.Fran!.id,
        month: '2026-12',
        sentOn: '2026-11-23',
        trigger: 'staff',
        email: 'fran@example.org',
      }),
    ]);

    // the same day again: Fran is skipped, Dan tried again, nobody gets a second message
    const again = await send('2026-12');
    expect(outcomeOf(again, 'Fran')).toMatchObject({ outcome: 'skipped', reason: 'Already reminded today' });
    expect(outcomeOf(again, 'Dan')!.outcome).toBe('failed');
    expect(server.messages).toHaveLength(1);

    // the next day Fran may be reminded again
    await setClock('2026-11-24T10:00:00Z');
    const tomorrow = await send('2026-12');
    expect(outcomeOf(tomorrow, 'Fran')!.outcome).toBe('sent');
    expect(server.messages).toHaveLength(2);
    // another month is no reason for a second message the same day
    const sameDay = await send('2027-01', [people.Fran!.id]);
    expect(outcomeOf(sameDay, 'Fran')).toMatchObject({
      outcome: 'skipped',
      reason: 'Already reminded today',
    });
    expect(server.messages).toHaveLength(2);
    await setClock('2026-12-02T10:00:00Z');
    const january = await send('2027-01', [people.Fran!.id]);
    expect(january.sent).toBe(1);
    expect(server.messages[2]!.subject).toBe('Please add your availability for January 2027');
    expect(server.messages[2]!.text).toContain('No weekdays of January 2027 have availability yet.');
  });

  it('two clicks at once: each person gets one message', async () => {
    const server = await smtp({ auth: { user: SMTP_USER, pass: SMTP_PASS } });
    await saveSettings(settingsFor(server));
    await setClock('2026-11-25T10:00:00Z');
    const [a, b] = await Promise.all([send('2027-02'), send('2027-02')]);
    // Fran, Dan and Cara have addresses and nothing in February; Sam has none
    expect(a.sent + b.sent).toBe(3);
    expect(server.messages.map((m) => m.to[0]).sort()).toEqual([
      'cara@example.org',
      'dan@example.org',
      'fran@example.org',
    ]);
    const second = a.sent === 3 ? b : a;
    expect(
      second.results.filter((r) => r.outcome === 'skipped' && /Already reminded/.test(r.reason ?? '')),
    ).toHaveLength(3);
  });

  it('only the chosen facilitators; a complete one is skipped; a non-facilitator is refused (400, nothing sent)', async () => {
    const server = await smtp({ auth: { user: SMTP_USER, pass: SMTP_PASS } });
    await saveSettings(settingsFor(server));
    await setClock('2026-11-26T10:00:00Z');
    const result = await send('2026-12', [people.Cara!.id, people.Dan!.id]);
    expect(outcomeOf(result, 'Cara')).toMatchObject({
      outcome: 'skipped',
      reason: 'Availability for December 2026 is complete',
    });
    expect(outcomeOf(result, 'Fran')).toBeUndefined();
    expect(server.messages.map((m) => m.to[0])).toEqual(['dan@example.org']);

    const staff = await call('GET', '/api/user', staffCookie);
    const before = await sendsCount();
    for (const body of [
      { month: '2026-12', userIds: [staff.json().id] },
      { month: '2026-12', userIds: [999_999] },
      { month: '2026-12', userIds: [] },
      { month: '2026-12', userIds: [true] },
      { month: '2026-13' },
      { month: 'December' },
      {},
    ]) {
      const response = await call('POST', '/api/staff/reminders/send', staffCookie, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message).toBeTruthy();
    }
    expect(await sendsCount()).toBe(before);
    expect(server.messages).toHaveLength(1);
  });

  it('a wrong SMTP password: every message failed with the reason, nothing recorded, the password never shown', async () => {
    const server = await smtp({ auth: { user: SMTP_USER, pass: 'the-real-one' } });
    await saveSettings(settingsFor(server, { password: SMTP_PASS }));
    await setClock('2026-11-27T10:00:00Z');
    const before = await sendsCount();
    const result = await send('2026-12');
    expect(result).toMatchObject({ sent: 0, failed: 2, skipped: 1 });
    for (const name of ['Fran', 'Dan']) {
      expect(outcomeOf(result, name)!.reason).toBe(MAIL_ERRORS.auth);
    }
    expect(JSON.stringify(result)).not.toContain(SMTP_PASS);
    expect(JSON.stringify(result)).not.toMatch(/Invalid username/);
    expect(server.messages).toHaveLength(0);
    // one connection and one sign-in attempt, not one per person
    expect(server.logins).toBe(1);
    expect(await sendsCount()).toBe(before);
  });

  it('TLS and STARTTLS: sent when the certificate is trusted; refused when not, or when the server cannot encrypt', async () => {
    await setClock('2026-11-30T10:00:00Z');
    const tls = await smtp({ security: 'tls', auth: { user: SMTP_USER, pass: SMTP_PASS } });
    await saveSettings(settingsFor(tls, { security: 'tls' }));
    expect((await send('2027-03', [people.Fran!.id])).sent).toBe(1);
    expect(tls.messages).toHaveLength(1);

    const starttls = await smtp({ security: 'starttls', auth: { user: SMTP_USER, pass: SMTP_PASS } });
    await saveSettings(settingsFor(starttls, { security: 'starttls' }));
    expect((await send('2027-03', [people.Dan!.id])).sent).toBe(1);
    expect(starttls.messages).toHaveLength(1);

    // STARTTLS required, but the server offers no STARTTLS: nothing goes out unencrypted
    const plain = await smtp({ security: 'none', auth: { user: SMTP_USER, pass: SMTP_PASS } });
    await saveSettings(settingsFor(plain, { security: 'starttls' }));
    // (Cara: Fran and Dan had their one message of the day)
    const refused = await send('2027-04', [people.Cara!.id]);
    expect(refused).toMatchObject({ sent: 0, failed: 1 });
    expect(plain.messages).toHaveLength(0);

    // TLS to a server that speaks plain SMTP
    await saveSettings(settingsFor(plain, { security: 'tls' }));
    const mismatch = await send('2027-04', [people.Cara!.id]);
    expect(mismatch.failed).toBe(1);

    // an untrusted certificate
    t.ctx.mailer.configure({ connectionTimeoutMs: 5000 });
    await saveSettings(settingsFor(tls, { security: 'tls' }));
    const untrusted = await send('2027-04', [people.Cara!.id]);
    expect(untrusted.failed).toBe(1);
    expect(outcomeOf(untrusted, 'Cara')!.reason).toBe(MAIL_ERRORS.tls);
    expect(tls.messages).toHaveLength(1);
    expect(await t.ctx.db.select().from(reminderSends).where(eq(reminderSends.month, '2027-04'))).toEqual([]);
  });

  it('a server that is not there: failed with a reason, no crash', async () => {
    const gone = await smtp();
    await gone.close();
    await saveSettings(settingsFor(gone, { username: '', password: '' }));
    await setClock('2026-12-01T10:00:00Z');
    const result = await send('2027-05', [people.Fran!.id]);
    expect(result.failed).toBe(1);
    expect(outcomeOf(result, 'Fran')!.reason).toBe(MAIL_ERRORS.connect);
  });
});

describe('a stored password follows its server', () => {
  it.each([
    ['host', (other: TestSmtpServer) => ({ host: 'localhost', port: other.port })],
    ['port', (other: TestSmtpServer) => ({ port: other.port })],
    ['security', () => ({ security: 'starttls' })],
    ['username', () => ({ username: 'someone-else' })],
  ])(
    'changing the %s without the password clears it, says so, and the new server never sees it',
    async (_what, change) => {
      const first = await smtp({ auth: { user: SMTP_USER, pass: SMTP_PASS } });
      // the new destination would accept the old password: it must not get the chance
      const other = await smtp({ security: 'none', auth: { user: SMTP_USER, pass: SMTP_PASS } });
      await saveSettings(settingsFor(first));
      const moved = await saveSettings(settingsFor(first, { password: '', ...change(other) }));
      expect(moved).toMatchObject({ hasPassword: false, passwordCleared: true });
      const [row] = await t.ctx.db.select().from(reminderSettings);
      expect(row!.smtpPasswordEncrypted).toBeNull();
      await setClock('2026-12-03T10:00:00Z');
      const result = await send('2027-06', [people.Fran!.id]);
      expect(result.sent).toBe(0);
      expect(first.logins + other.logins).toBe(0);
      expect(first.messages.length + other.messages.length).toBe(0);
      // the answer to reading the settings does not repeat the note
      const read = await call('GET', '/api/staff/reminders/settings', staffCookie);
      expect(read.json()).toMatchObject({ hasPassword: false, passwordCleared: false });
    },
  );

  it('a password typed with the new server is kept for it; the sender or schedule may change freely', async () => {
    const server = await smtp({ auth: { user: SMTP_USER, pass: SMTP_PASS } });
    await saveSettings(settingsFor(server, { host: 'smtp.example.org' }));
    const moved = await saveSettings(settingsFor(server));
    expect(moved).toMatchObject({ hasPassword: true, passwordCleared: false });
    const kept = await saveSettings(
      settingsFor(server, { password: '', fromAddress: 'other@example.org', autoDay: 3 }),
    );
    expect(kept).toMatchObject({ hasPassword: true, passwordCleared: false });
    await setClock('2026-12-04T10:00:00Z');
    expect((await send('2027-06', [people.Fran!.id])).sent).toBe(1);
    expect(server.messages).toHaveLength(1);
  });

  it('a password stored before binding is sealed for its server at the next save with the same server', async () => {
    const server = await smtp({ auth: { user: SMTP_USER, pass: SMTP_PASS } });
    await saveSettings(settingsFor(server));
    const key = deriveKey(t.ctx.appSecret, 'reminder-settings');
    await t.ctx.db.update(reminderSettings).set({ smtpPasswordEncrypted: encryptSecret(key, SMTP_PASS) });
    const kept = await saveSettings(settingsFor(server, { password: '' }));
    expect(kept).toMatchObject({ hasPassword: true, passwordCleared: false });
    const [row] = await t.ctx.db.select().from(reminderSettings);
    expect(row!.smtpPasswordEncrypted).toMatch(/^v2\./);
    const destination = smtpDestination({
      host: server.host,
      port: server.port,
      security: 'none',
      username: SMTP_USER,
    });
    expect(decryptSecret(key, row!.smtpPasswordEncrypted!, destination)).toBe(SMTP_PASS);
  });

  it('sealed to its server: a row pointed elsewhere behind the service’s back does not give the password away', async () => {
    const first = await smtp({ auth: { user: SMTP_USER, pass: SMTP_PASS } });
    const other = await smtp({ auth: { user: SMTP_USER, pass: SMTP_PASS } });
    await saveSettings(settingsFor(first));
    // as a bug or a hand edit would: the server changes, the sealed password stays
    await t.ctx.db.update(reminderSettings).set({ smtpPort: other.port });
    await setClock('2026-12-05T10:00:00Z');
    const response = await call('POST', '/api/staff/reminders/send', staffCookie, {
      month: '2027-06',
      userIds: [people.Fran!.id],
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toMatch(/could not be read/);
    expect(other.logins).toBe(0);
    expect(other.messages).toHaveLength(0);
  });
});

describe('what a reminder may be about and where it links', () => {
  it.each([['1900-01'], ['2200-12'], ['2025-11'], ['2028-01']])(
    'refuses the month %s (more than 12 months from this one): 400 naming month, nothing sent',
    async (month) => {
      const server = await smtp({ auth: { user: SMTP_USER, pass: SMTP_PASS } });
      await saveSettings(settingsFor(server));
      await setClock('2026-12-06T10:00:00Z');
      const before = await sendsCount();
      const response = await call('POST', '/api/staff/reminders/send', staffCookie, { month });
      expect(response.statusCode).toBe(400);
      expect(response.json().fieldErrors.month[0]).toBe('Choose a month from December 2025 to December 2027');
      expect(server.messages).toHaveLength(0);
      expect(await sendsCount()).toBe(before);
    },
  );

  it('accepts the edges of the window: 12 months back and 12 ahead', async () => {
    const server = await smtp({ auth: { user: SMTP_USER, pass: SMTP_PASS } });
    await saveSettings(settingsFor(server));
    await setClock('2026-12-07T10:00:00Z');
    expect((await send('2025-12', [people.Fran!.id])).sent).toBe(1);
    await setClock('2026-12-08T10:00:00Z');
    expect((await send('2027-12', [people.Fran!.id])).sent).toBe(1);
  });

  it('the link is PUBLIC_URL, whatever portal address a request carries', async () => {
    const server = await smtp({ auth: { user: SMTP_USER, pass: SMTP_PASS } });
    const saved = await saveSettings({ ...settingsFor(server), portalUrl: 'https://evil.example' });
    expect(saved.portalUrl).toBe(PORTAL);
    await setClock('2026-12-09T10:00:00Z');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/staff/reminders/send',
      headers: { cookie: staffCookie, host: 'evil.example', 'x-forwarded-host': 'evil.example' },
      payload: { month: '2027-01', userIds: [people.Fran!.id], portalUrl: 'https://evil.example' },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(server.messages[0]!.text).toContain(`${PORTAL}/`);
    expect(server.messages[0]!.raw).not.toContain('evil.example');
  });
});

describe('automatic reminder (scheduler)', () => {
  it('runs on its day of the month from 09:00 in ORG_TIMEZONE, about the next month, once', async () => {
    const server = await smtp({ auth: { user: SMTP_USER, pass: SMTP_PASS } });
    const saved = await saveSettings(
      settingsFor(server, { autoEnabled: true, autoDay: 14, autoMonth: 'next' }),
    );
    // saved on 23 November: the 14th has passed, so the next one is in December, about January
    expect(saved.nextAutomatic).toEqual({ date: '2026-12-14', month: '2027-01', label: 'January 2027' });
    const scheduler = new Scheduler(t.ctx);

    await setClock('2027-01-13T12:00:00Z');
    expect(await scheduler.reminderTick()).toBe('not-today');
    const ahead = (await call('GET', '/api/staff/reminders/settings', staffCookie)).json();
    expect(ahead.nextAutomatic).toEqual({ date: '2027-01-14', month: '2027-02', label: 'February 2027' });

    // 08:59 London (GMT in January) is too early
    await setClock('2027-01-14T08:59:00Z');
    expect(await scheduler.reminderTick()).toBe('not-yet');
    expect(server.messages).toHaveLength(0);

    await setClock('2027-01-14T09:01:00Z');
    expect(await scheduler.reminderTick()).toBe('sent');
    // everyone with an address is missing February 2027
    expect(server.messages.map((m) => m.to[0]).sort()).toEqual([
      'cara@example.org',
      'dan@example.org',
      'fran@example.org',
    ]);
    expect(server.messages.every((m) => m.subject === 'Please add your availability for February 2027')).toBe(
      true,
    );
    const rows = await t.ctx.db.select().from(reminderSends).where(eq(reminderSends.month, '2027-02'));
    const automatic = rows.filter((r) => r.sentOn === '2027-01-14');
    expect(automatic).toHaveLength(3);
    expect(automatic.every((r) => r.trigger === 'automatic' && r.sentBy === null)).toBe(true);

    // later that day: already done; a staff click is skipped by the once-a-day rule too
    await setClock('2027-01-14T15:00:00Z');
    expect(await scheduler.reminderTick()).toBe('done');
    const click = await send('2027-02');
    expect(click.sent).toBe(0);
    expect(server.messages).toHaveLength(3);
    const after = (await call('GET', '/api/staff/reminders/settings', staffCookie)).json();
    expect(after.nextAutomatic).toEqual({ date: '2027-02-14', month: '2027-03', label: 'March 2027' });

    // summer time: 09:00 in London is 08:00 UTC; "current" month reminds about the month itself
    await saveSettings(settingsFor(server, { autoEnabled: true, autoDay: 3, autoMonth: 'current' }));
    await setClock('2027-06-03T07:59:00Z');
    expect(await scheduler.reminderTick()).toBe('not-yet');
    await setClock('2027-06-03T08:01:00Z');
    expect(await scheduler.reminderTick()).toBe('sent');
    expect(server.messages.at(-1)!.subject).toBe('Please add your availability for June 2027');

    // off: nothing, whatever the day
    await saveSettings(settingsFor(server, { autoEnabled: false, autoDay: 4 }));
    await setClock('2027-06-04T10:00:00Z');
    expect(await scheduler.reminderTick()).toBe('off');
    await scheduler.stop();
  });

  it('an email server that is down: the run fails, is retried an hour later, and then reaches people', async () => {
    const server = await smtp({ auth: { user: SMTP_USER, pass: SMTP_PASS } });
    await server.close();
    await saveSettings(settingsFor(server, { autoEnabled: true, autoDay: 10, autoMonth: 'next' }));
    const scheduler = new Scheduler(t.ctx);
    await setClock('2027-08-10T09:30:00Z');
    expect(await scheduler.reminderTick()).toBe('failed');
    await setClock('2027-08-10T10:00:00Z');
    expect(await scheduler.reminderTick()).toBe('done');
    const back = await smtp({ auth: { user: SMTP_USER, pass: SMTP_PASS } });
    await saveSettings(settingsFor(back, { autoEnabled: true, autoDay: 10, autoMonth: 'next' }));
    await setClock('2027-08-10T10:31:00Z');
    expect(await scheduler.reminderTick()).toBe('sent');
    expect(back.messages.length).toBe(3);
  });
});

describe('a deactivated facilitator', () => {
  it('is skipped by staff sends and left out of the automatic run, until reactivated', async () => {
    const server = await smtp({ auth: { user: SMTP_USER, pass: SMTP_PASS } });
    await saveSettings(settingsFor(server, { autoEnabled: true, autoDay: 15, autoMonth: 'next' }));
    await setClock('2027-09-01T10:00:00Z');
    const dan = people.Dan!.id;
    const deactivated = await call('POST', `/api/staff/users/${dan}/deactivate`, staffCookie);
    expect(deactivated.statusCode, deactivated.body).toBe(200);

    // everyone missing November, and Dan chosen by name: skipped with the reason, no message
    const all = await send('2027-11');
    expect(outcomeOf(all, 'Dan')).toMatchObject({ outcome: 'skipped', reason: 'The account is deactivated' });
    const chosen = await send('2027-11', [dan]);
    expect(outcomeOf(chosen, 'Dan')).toMatchObject({
      outcome: 'skipped',
      reason: 'The account is deactivated',
    });
    expect(server.messages.map((m) => m.to[0]).sort()).toEqual(['cara@example.org', 'fran@example.org']);

    // the scheduler's run on its day (10:30 in London, summer time) reaches the others only
    const scheduler = new Scheduler(t.ctx);
    await setClock('2027-09-15T09:30:00Z');
    expect(await scheduler.reminderTick()).toBe('sent');
    await scheduler.stop();
    const october = server.messages.filter((m) => m.subject.endsWith('October 2027'));
    expect(october.map((m) => m.to[0]).sort()).toEqual(['cara@example.org', 'fran@example.org']);
    expect(server.messages.some((m) => m.to.includes('dan@example.org'))).toBe(false);
    const dansSends = await t.ctx.db.select().from(reminderSends).where(eq(reminderSends.userId, dan));
    expect(dansSends.filter((row) => row.sentOn >= '2027-09-01')).toEqual([]);

    // reactivated: reminded again
    await setClock('2027-09-16T10:00:00Z');
    const back = await call('POST', `/api/staff/users/${dan}/reactivate`, staffCookie);
    expect(back.statusCode, back.body).toBe(200);
    await saveSettings(settingsFor(server, { autoEnabled: false }));
    const again = await send('2027-11', [dan]);
    expect(outcomeOf(again, 'Dan')!.outcome).toBe('sent');
    expect(server.messages.at(-1)!.to).toEqual(['dan@example.org']);
  });
});
