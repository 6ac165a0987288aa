/**
 * Links that set a password, against a real SMTP server started here: a reset answers the same for
 * every username and before any work, is budgeted per address and per account, and its link works
 * once, until it expires, only for its own account and only while the password and email are unchanged.
 * Using it ends every session and the calendar feed, and the owner hears of it.
 */
import { createServer, type Socket } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../crypto';
import { changeHistory, passwordLinks, users } from '../../db/schema';
import {
  type ReceivedMail,
  startTestSmtpServer,
  type TestSmtpServer,
  testMailSettings,
  testSmtpEnvironment,
} from '../../mail/test-smtp';
import { createTestApp, type TestApp } from '../../test/harness';
import { saveReminderSettings } from '../reminders/service';
import {
  LINK_INVALID_MESSAGE,
  makePasswordLink,
  NO_EMAIL_FOR_INVITATION,
  RESET_REQUESTED_MESSAGE,
  RESETS_PER_ACCOUNT_PER_HOUR,
  requestPasswordReset,
} from './service';

const PORTAL = 'https://portal.example.org';
let clock = new Date('2026-11-20T10:00:00Z');
let t: TestApp;
let smtp: TestSmtpServer;
let seq = 0;
const waiting: Array<{ to: string; resolve: (mail: ReceivedMail) => void }> = [];

beforeAll(async () => {
  smtp = await startTestSmtpServer({
    onMessage: (mail) => {
      for (const w of waiting.splice(0)) {
        if (mail.to.includes(w.to)) w.resolve(mail);
        else waiting.push(w);
      }
    },
  });
  t = await createTestApp(
    { PUBLIC_URL: PORTAL, ...testSmtpEnvironment(), REQUEST_BUDGETS: 'passwordReset=40' },
    { now: () => clock },
  );
  await saveReminderSettings(t.ctx, testMailSettings(smtp), 1);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** The next email to this address (from the messages seen so far when `after` is given). */
function nextMail(to: string, after = smtp.messages.length): Promise<ReceivedMail> {
  const seen = smtp.messages.slice(after).find((m) => m.to.includes(to));
  if (seen) return Promise.resolve(seen);
  return new Promise((resolve) => waiting.push({ to, resolve }));
}

function tokenIn(mail: ReceivedMail): string {
  const match = mail.text.match(/https:\/\/portal\.example\.org\/set-password#([A-Za-z0-9_-]+)/);
  if (!match) throw new Error(`no link in: ${mail.text}`);
  return match[1]!;
}

async function person() {
  seq += 1;
  const email = `reset-${seq}@example.org`;
  const user = await t.createUser({ username: `reset-${seq}`, displayName: `Reset ${seq}`, email });
  return { ...user, email, cookie: await t.login(user.username, user.password) };
}

const post = (url: string, payload: object, cookie?: string) =>
  t.app.inject({ method: 'POST', url, payload, headers: cookie ? { cookie } : {} });
const whoAmI = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/user', headers: { cookie } });
const cookieOf = (response: { cookies: Array<{ name: string; value: string }> }) =>
  response.cookies
    .filter((c) => c.name === 'afp_session' || c.name === '__Host-afp_session')
    .map((c) => `${c.name}=${c.value}`)
    .join('');

/** Ask for a reset through the route, and the link it emails. */
async function resetLink(email: string, username: string): Promise<string> {
  const before = smtp.messages.length;
  const response = await post('/api/password-reset', { username });
  expect(response.statusCode).toBe(202);
  return tokenIn(await nextMail(email, before));
}

describe('asking for a reset', () => {
  it('answers the same for a known account, an unknown one and one without an email', async () => {
    const known = await person();
    const noEmail = await t.createUser({ username: `reset-no-email-${seq}` });
    const answers = [];
    for (const username of [known.username, 'nobody-at-all', noEmail.username]) {
      const response = await post('/api/password-reset', { username });
      answers.push({
        status: response.statusCode,
        body: response.json(),
        type: response.headers['content-type'],
      });
    }
    expect(answers[0]).toEqual({
      status: 202,
      body: { message: RESET_REQUESTED_MESSAGE },
      type: 'application/json; charset=utf-8',
    });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    const mail = await nextMail(known.email, 0);
    expect(mail.subject).toBe('Set a new password for the portal');
    expect(mail.text).toContain('it works once, for 1 hour');
    // only the hash of the token is kept
    const token = tokenIn(mail);
    const rows = await t.ctx.db.select().from(passwordLinks).where(eq(passwordLinks.userId, known.id));
    expect(rows.map((r) => r.tokenHash)).toEqual([sha256(token)]);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('sends nothing for an unknown account or one without an email', async () => {
    const noEmail = await t.createUser({ username: 'reset-silent' });
    const before = smtp.messages.length;
    await requestPasswordReset(t.ctx, 'nobody-at-all');
    await requestPasswordReset(t.ctx, noEmail.username);
    expect(smtp.messages.length).toBe(before);
    expect(await t.ctx.db.select().from(passwordLinks).where(eq(passwordLinks.userId, noEmail.id))).toEqual(
      [],
    );
  });

  it('answers before any work: the answer is back while the mail server still holds the email', async () => {
    // a mail server that takes the connection and never greets: a reset that waited for it would hang
    const held: Socket[] = [];
    let connected: () => void = () => {};
    const arrived = new Promise<void>((resolve) => {
      connected = resolve;
    });
    const silent = createServer((socket) => {
      held.push(socket);
      connected();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    await saveReminderSettings(t.ctx, { ...testMailSettings(smtp), port, security: 'none' }, 1);
    try {
      const known = await person();
      const response = await post('/api/password-reset', { username: known.username });
      expect(response.statusCode).toBe(202);
      expect(response.json()).toEqual({ message: RESET_REQUESTED_MESSAGE });
      await arrived;
      // the link was made, and its email is still on its way
      expect(
        await t.ctx.db.select().from(passwordLinks).where(eq(passwordLinks.userId, known.id)),
      ).toHaveLength(1);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
      await saveReminderSettings(t.ctx, testMailSettings(smtp), 1);
    }
  });

  it(`sends one account at most ${RESETS_PER_ACCOUNT_PER_HOUR} links an hour, and only the newest works`, async () => {
    const known = await person();
    const before = smtp.messages.length;
    for (let i = 0; i <= RESETS_PER_ACCOUNT_PER_HOUR; i += 1)
      await requestPasswordReset(t.ctx, known.username);
    const sent = smtp.messages.slice(before).filter((m) => m.to.includes(known.email));
    expect(sent).toHaveLength(RESETS_PER_ACCOUNT_PER_HOUR);
    const [older, , newest] = sent.map(tokenIn);
    expect((await post('/api/password-links/view', { token: older! })).statusCode).toBe(404);
    expect((await post('/api/password-links/view', { token: newest! })).json()).toEqual({
      purpose: 'reset',
      username: known.username,
    });
    // an hour later the account may be sent links again
    clock = new Date(clock.getTime() + 61 * 60 * 1000);
    await requestPasswordReset(t.ctx, known.username);
    expect(smtp.messages.slice(before).filter((m) => m.to.includes(known.email))).toHaveLength(
      RESETS_PER_ACCOUNT_PER_HOUR + 1,
    );
    // links dead for over a day are cleared away when the account is next sent one
    const rows = () => t.ctx.db.select().from(passwordLinks).where(eq(passwordLinks.userId, known.id));
    expect(await rows()).toHaveLength(RESETS_PER_ACCOUNT_PER_HOUR + 1);
    clock = new Date(clock.getTime() + 26 * 60 * 60 * 1000);
    await requestPasswordReset(t.ctx, known.username);
    expect(await rows()).toHaveLength(1);
  });

  it('budgets the requests of one address, known accounts and unknown alike', async () => {
    const app = await createTestApp({ REQUEST_BUDGETS: 'passwordReset=2' });
    try {
      const ask = (username: string) =>
        app.app.inject({ method: 'POST', url: '/api/password-reset', payload: { username } });
      expect((await ask('someone')).statusCode).toBe(202);
      expect((await ask('someone-else')).statusCode).toBe(202);
      const third = await ask('a-third');
      expect(third.statusCode).toBe(429);
      expect(third.headers['retry-after']).toBeDefined();
    } finally {
      await app.close();
    }
  });
});

describe('using a link', () => {
  it('sets the password once, ends every session and the calendar feed, and tells the owner', async () => {
    const owner = await person();
    const otherBrowser = await t.login(owner.username, owner.password);
    const feed = await t.app.inject({
      method: 'POST',
      url: '/api/calendar-feed',
      headers: { cookie: owner.cookie },
    });
    const feedPath = feed.json().path as string;
    expect((await t.app.inject({ method: 'GET', url: feedPath })).statusCode).toBe(200);

    const token = await resetLink(owner.email, owner.username);
    expect((await post('/api/password-links/view', { token })).json()).toEqual({
      purpose: 'reset',
      username: owner.username,
    });
    const before = smtp.messages.length;
    const used = await post('/api/password-links/use', { token, newPassword: 'brand-new-pass' });
    expect(used.statusCode, used.body).toBe(200);
    expect(used.json().username).toBe(owner.username);
    const fresh = cookieOf(used);
    expect((await whoAmI(fresh)).statusCode).toBe(200);
    // every other session, and the feed, are gone
    expect((await whoAmI(owner.cookie)).statusCode).toBe(401);
    expect((await whoAmI(otherBrowser)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: feedPath })).statusCode).toBe(404);
    // the new password signs in, the old one does not
    await expect(t.login(owner.username, 'brand-new-pass')).resolves.toContain('afp_session=');
    expect(
      (await post('/api/login', { username: owner.username, password: owner.password })).statusCode,
    ).toBe(401);
    // the owner is told
    const notice = await nextMail(owner.email, before);
    expect(notice.subject).toBe('Your portal password was changed');
    expect(notice.text).toContain(`${PORTAL}/auth`);
    // the history has it
    const [entry] = await t.ctx.db
      .select()
      .from(changeHistory)
      .where(eq(changeHistory.subjectUserId, owner.id));
    expect(entry?.after).toMatchObject({ password: 'changed', section: 'password-link', event: 'reset' });
    // and the link is spent
    const again = await post('/api/password-links/use', { token, newPassword: 'another-pass-1' });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(LINK_INVALID_MESSAGE);
    expect((await post('/api/password-links/view', { token })).statusCode).toBe(404);
  });

  it('sets only its own account, whoever is signed in where it is opened', async () => {
    const owner = await person();
    const other = await person();
    const token = await resetLink(owner.email, owner.username);
    const used = await post(
      '/api/password-links/use',
      { token, newPassword: 'owners-new-pass' },
      other.cookie,
    );
    expect(used.statusCode).toBe(200);
    expect(used.json().username).toBe(owner.username);
    // the other account keeps its password; the browser's session of it was ended and replaced
    await expect(t.login(other.username, other.password)).resolves.toContain('afp_session=');
    expect((await whoAmI(other.cookie)).statusCode).toBe(401);
  });

  it('is refused once the password or the email changed, or the link expired', async () => {
    const owner = await person();
    const token = await resetLink(owner.email, owner.username);
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/api/user/password',
      headers: { cookie: owner.cookie },
      payload: { currentPassword: owner.password, newPassword: 'changed-by-hand' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await post('/api/password-links/use', { token, newPassword: 'by-old-link' })).statusCode).toBe(
      404,
    );

    const moved = await person();
    const movedToken = await resetLink(moved.email, moved.username);
    await t.ctx.db.update(users).set({ email: 'elsewhere@example.org' }).where(eq(users.id, moved.id));
    expect((await post('/api/password-links/view', { token: movedToken })).statusCode).toBe(404);

    const late = await person();
    const lateToken = await makePasswordLink(t.ctx.db, late, 'reset', clock);
    clock = new Date(clock.getTime() + 60 * 60 * 1000 + 1000);
    expect(
      (await post('/api/password-links/use', { token: lateToken, newPassword: 'too-late-1' })).statusCode,
    ).toBe(404);
  });

  it('of two uses at once, exactly one sets the password', async () => {
    const owner = await person();
    const token = await makePasswordLink(t.ctx.db, owner, 'reset', clock);
    const answers = await Promise.all(
      ['first-racer-1', 'second-racer-2'].map((newPassword) =>
        post('/api/password-links/use', { token, newPassword }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 404]);
  });

  it('keeps the new password to the change-password rules', async () => {
    const owner = await person();
    const token = await makePasswordLink(t.ctx.db, owner, 'reset', clock);
    const short = await post('/api/password-links/use', { token, newPassword: '12345' });
    expect(short.statusCode).toBe(400);
    expect(short.json().fieldErrors.newPassword).toEqual(['New password must be at least 6 characters']);
  });
});

describe('invitations from staff', () => {
  it('an account without a password is invited, joins once through the link, and staff see it', async () => {
    const staff = await t.loginStaff();
    seq += 1;
    const email = `invited-${seq}@example.org`;
    const invited = await t.createUser({ username: `invited-${seq}`, displayName: 'Invited Person', email });
    // as an account from the SharePoint facilitator list: no usable password
    await t.ctx.db.update(users).set({ passwordHash: null }).where(eq(users.id, invited.id));
    const statusUrl = `/api/staff/users/${invited.id}/password-invitation`;
    const status = () => t.app.inject({ method: 'GET', url: statusUrl, headers: { cookie: staff } });
    expect((await status()).json()).toMatchObject({
      email,
      hasPassword: false,
      invitedAt: null,
      joinedAt: null,
    });

    const before = smtp.messages.length;
    const sent = await t.app.inject({ method: 'POST', url: statusUrl, headers: { cookie: staff } });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ emailError: null, invitedAt: clock.toISOString(), joinedAt: null });
    const first = tokenIn(await nextMail(email, before));
    // sent again: only the newest link works
    const again = await t.app.inject({ method: 'POST', url: statusUrl, headers: { cookie: staff } });
    expect(again.statusCode).toBe(200);
    const mail = await nextMail(email, before + 1);
    expect(mail.subject).toBe('You are invited to the Arts Facilitator Portal');
    expect(mail.text).toContain(`Your username is ${invited.username}`);
    expect(mail.text).toContain('it works once, for 7 days');
    const token = tokenIn(mail);
    expect((await post('/api/password-links/view', { token: first })).statusCode).toBe(404);
    expect((await post('/api/password-links/view', { token })).json()).toEqual({
      purpose: 'invitation',
      username: invited.username,
    });

    const used = await post('/api/password-links/use', { token, newPassword: 'my-own-choice' });
    expect(used.statusCode).toBe(200);
    await expect(t.login(invited.username, 'my-own-choice')).resolves.toContain('afp_session=');
    expect((await post('/api/password-links/use', { token, newPassword: 'twice-over-1' })).statusCode).toBe(
      404,
    );
    expect((await status()).json()).toMatchObject({
      hasPassword: true,
      invitedBy: 'Staff Administrator',
      joinedAt: clock.toISOString(),
    });
    const events = await t.ctx.db
      .select({ after: changeHistory.after })
      .from(changeHistory)
      .where(eq(changeHistory.subjectUserId, invited.id));
    expect(events.map((e) => (e.after as { event?: string }).event)).toEqual([
      'invited',
      'invited',
      'invitation',
    ]);
  });

  it('needs an email address, and an account that exists', async () => {
    const staff = await t.loginStaff();
    const noEmail = await t.createUser({ username: `invite-no-email-${seq}` });
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/staff/users/${noEmail.id}/password-invitation`,
      headers: { cookie: staff },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(NO_EMAIL_FOR_INVITATION);
    const nobody = await t.app.inject({
      method: 'POST',
      url: '/api/staff/users/999999/password-invitation',
      headers: { cookie: staff },
    });
    expect(nobody.statusCode).toBe(404);
  });

  it('creates an account with an invitation instead of a password, and the users table sees it through', async () => {
    const staff = await t.loginStaff();
    seq += 1;
    const email = `created-invited-${seq}@example.org`;
    const username = `created-invited-${seq}`;
    const before = smtp.messages.length;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/staff/users',
      headers: { cookie: staff },
      payload: { username, email, displayName: 'Created Invited', sendInvitation: true },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ username, invitationEmailError: null });
    const id = created.json().id as number;
    const [row] = await t.ctx.db.select().from(users).where(eq(users.id, id));
    expect(row!.passwordHash).toBeNull();
    const list = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/staff/password-invitations',
          headers: { cookie: staff },
        })
      ).json() as Array<{ userId: number }>;
    expect((await list()).find((s) => s.userId === id)).toEqual({
      userId: id,
      hasPassword: false,
      invitedAt: clock.toISOString(),
      expiresAt: new Date(clock.getTime() + 7 * 86_400_000).toISOString(),
      joinedAt: null,
    });
    const token = tokenIn(await nextMail(email, before));
    // no password to guess in the meantime
    expect((await post('/api/login', { username, password: '' })).statusCode).toBe(400);
    expect((await post('/api/password-links/use', { token, newPassword: 'chosen-by-me-1' })).statusCode).toBe(
      200,
    );
    expect((await list()).find((s) => s.userId === id)).toMatchObject({
      hasPassword: true,
      joinedAt: clock.toISOString(),
    });
    const events = await t.ctx.db
      .select({ action: changeHistory.action, after: changeHistory.after })
      .from(changeHistory)
      .where(eq(changeHistory.subjectUserId, id));
    expect(events.map((e) => (e.after as { event?: string }).event ?? e.action)).toEqual([
      'create',
      'invited',
      'invitation',
    ]);
  });

  it('refuses an invitation without an email, or with a password as well, and creates nothing', async () => {
    const staff = await t.loginStaff();
    seq += 1;
    const username = `not-created-${seq}`;
    for (const payload of [
      { username, sendInvitation: true },
      { username, sendInvitation: true, email: `${username}@example.org`, password: 'both-at-once' },
      { username },
    ]) {
      const refused = await t.app.inject({
        method: 'POST',
        url: '/api/staff/users',
        headers: { cookie: staff },
        payload,
      });
      expect(refused.statusCode).toBe(400);
      expect(Object.keys(refused.json().fieldErrors ?? {})).toEqual([
        payload.sendInvitation && !('email' in payload) ? 'email' : 'password',
      ]);
    }
    const found = await t.ctx.db.select().from(users).where(eq(users.username, username));
    expect(found).toEqual([]);
  });
});
