/**
 * Offer emails against a real SMTP server started here, and the link in them: signed, good for its
 * one offer, usable once, dead after the reply-by time, and a GET that never answers anything.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, changeHistory, offers, safeguardingRecords } from '../../db/schema';
import {
  startTestSmtpServer,
  type TestSmtpServer,
  testMailSettings,
  testSmtpEnvironment,
} from '../../mail/test-smtp';
import { insertBooking, insertDbsCheck } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { saveReminderSettings } from '../reminders/service';
import { withdrawOffersSafeguardingNoLongerAllows } from './expiry';

const PORTAL = 'https://portal.example.org';
let clock = new Date('2026-11-20T10:00:00Z');
const REPLY_BY = '2026-11-25T17:00:00Z';
let t: TestApp;
let smtp: TestSmtpServer;
let staff: string;
let seq = 0;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  t = await createTestApp({ PUBLIC_URL: PORTAL, ...testSmtpEnvironment() }, { now: () => clock });
  await saveReminderSettings(t.ctx, testMailSettings(smtp), 1);
  staff = await t.loginStaff();
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

async function facilitator() {
  seq += 1;
  const user = await t.createUser({
    username: `mail-${seq}@example.org`,
    displayName: `Mail Person ${seq}`,
    email: `mail-${seq}@example.org`,
    freelancerId: String(7000 + seq),
  });
  // a DBS check valid for years, so safeguarding never stands in the way of these offers
  await insertDbsCheck(t.ctx.db, { userId: user.id });
  return {
    id: user.id,
    email: `mail-${seq}@example.org`,
    cookie: await t.login(user.username, user.password),
  };
}

async function session(): Promise<number> {
  const row = await insertBooking(t.ctx.db, {
    date: '2026-12-02',
    startTime: '09:30',
    endTime: '12:00',
    title: '',
    schoolName: 'Oakfield Primary',
    program: 'Dance',
  });
  return row.id;
}

const call = (method: 'GET' | 'POST', url: string, cookie?: string, payload?: object) =>
  t.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });

async function offerTo(sessionId: number, userIds: number[], replyBy = REPLY_BY) {
  const response = await call('POST', `/api/staff/sessions/${sessionId}/offers`, staff, {
    userIds,
    replyBy,
    message: 'Bring the big drum.',
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().offers as Array<{ id: number; emailedAt: string | null; emailError: string | null }>;
}

/** An answer through an email link: the token travels in the body. */
const link = (action: 'view' | 'accept' | 'decline', token: string, extra: object = {}) =>
  call('POST', `/api/offer-links/${action}`, undefined, { token, ...extra });

/** The token of the newest offer email to this address. */
function linkFor(email: string): string {
  const mail = smtp.messages.filter((m) => m.to.includes(email)).at(-1);
  if (!mail) throw new Error(`no email to ${email}`);
  const match = mail.text.match(/https:\/\/portal\.example\.org\/offer-link#([A-Za-z0-9_.-]+)/);
  if (!match) throw new Error(`no link in: ${mail.text}`);
  return match[1]!;
}

const state = async (id: number) => (await t.ctx.db.select().from(offers).where(eq(offers.id, id)))[0]!;

describe('offer email', () => {
  it('goes to each facilitator with the session, the message, the reply-by time and a link', async () => {
    const a = await facilitator();
    const [made] = await offerTo(await session(), [a.id]);
    expect(made!.emailedAt).not.toBeNull();
    expect(made!.emailError).toBeNull();
    const mail = smtp.messages.at(-1)!;
    expect(mail.to).toEqual([a.email]);
    expect(mail.subject).toBe(
      'Session offered to you: Wednesday 2 December 2026, 9:30 AM – 12:00 PM, Oakfield Primary (Dance)',
    );
    expect(mail.text).toContain('Bring the big drum.');
    expect(mail.text).toContain('Please reply by Wednesday 25 November 2026 at 5:00 PM.');
    expect(mail.html).toContain(`href="${PORTAL}/offer-link#`);
  });

  it('the link shows the offer (GET changes nothing), then accepts once; a second use is refused', async () => {
    const a = await facilitator();
    const [made] = await offerTo(await session(), [a.id]);
    const token = linkFor(a.email);
    for (let i = 0; i < 2; i++) {
      const view = await link('view', token);
      expect(view.statusCode).toBe(200);
      expect(view.json()).toMatchObject({
        name: expect.stringContaining('Mail Person'),
        offer: { id: made!.id, state: 'sent' },
      });
    }
    expect((await state(made!.id)).state).toBe('sent');
    const accepted = await link('accept', token);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().state).toBe('accepted');
    const history = await t.ctx.db.select().from(changeHistory).where(eq(changeHistory.via, 'email'));
    expect(history.map((h) => (h.after as { state: string }).state)).toContain('accepted');

    for (const action of ['view', 'accept', 'decline'] as const) {
      const again = await link(action, token);
      expect(again.statusCode).toBe(410);
      expect(again.json().message).toBe(
        'This link has already been used. Open your offers in the portal instead.',
      );
    }
  });

  it('declines by link with a reason; answering in the portal uses the link up too', async () => {
    const [a, b] = [await facilitator(), await facilitator()];
    const [oa, ob] = await offerTo(await session(), [a.id, b.id]);
    const declined = await link('decline', linkFor(a.email), { reason: 'Away' });
    expect(declined.json()).toMatchObject({ state: 'declined', declineReason: 'Away' });
    expect((await state(oa!.id)).state).toBe('declined');

    const tokenB = linkFor(b.email);
    expect((await call('POST', `/api/offers/${ob!.id}/decline`, b.cookie, {})).statusCode).toBe(200);
    expect((await link('accept', tokenB)).statusCode).toBe(410);
    expect((await state(ob!.id)).state).toBe('declined');
  });

  it('a tampered or foreign link is refused and changes nothing', async () => {
    const [a, b] = [await facilitator(), await facilitator()];
    const sessionId = await session();
    const [oa] = await offerTo(sessionId, [a.id, b.id]);
    const token = linkFor(a.email);
    const [payload, signature] = token.split('.') as [string, string];
    // the payload names another offer: the signature no longer matches
    const other = Buffer.from(JSON.stringify([oa!.id + 1, 'x', Date.now() + 1e9])).toString('base64url');
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [`${other}.${signature}`, `${payload}.${flipped}`, 'abc.def', `${payload}`]) {
      const response = await link('accept', bad);
      expect([400, 404]).toContain(response.statusCode);
    }
    expect((await state(oa!.id)).state).toBe('sent');
    const [booking] = await t.ctx.db.select().from(bookings).where(eq(bookings.id, sessionId));
    expect(booking!.userId).toBeNull();
  });

  it('expires at the reply-by time', async () => {
    const a = await facilitator();
    const [made] = await offerTo(await session(), [a.id], '2026-11-21T12:00:00Z');
    const token = linkFor(a.email);
    const start = clock;
    try {
      clock = new Date('2026-11-21T12:00:00Z');
      const view = await link('view', token);
      expect(view.statusCode).toBe(410);
      expect(view.json().message).toBe('This link has expired. Open your offers in the portal instead.');
      expect((await link('accept', token)).statusCode).toBe(410);
      expect((await state(made!.id)).state).toBe('sent');
    } finally {
      clock = start;
    }
  });

  it('tells the facilitator when their checks stop covering the session and the offer is withdrawn', async () => {
    const a = await facilitator();
    const [made] = await offerTo(await session(), [a.id]);
    const token = linkFor(a.email);
    // staff record that the certificate is not an enhanced one with the barred list: it no longer counts
    await t.ctx.db
      .update(safeguardingRecords)
      .set({ dbsEnhancedWithBarredList: false })
      .where(eq(safeguardingRecords.userId, a.id));
    expect(await withdrawOffersSafeguardingNoLongerAllows(t.ctx)).toBe(1);
    expect((await state(made!.id)).state).toBe('withdrawn');
    const toA = smtp.messages.filter((m) => m.to.includes(a.email)).at(-1)!;
    expect(toA.subject).toMatch(/^Offer withdrawn: /);
    expect(toA.text).toContain("no longer cover the session's day");
    expect((await link('accept', token)).statusCode).toBe(410);
  });

  it('tells the others when someone accepts first; their links then say the offer is closed', async () => {
    const [a, b] = [await facilitator(), await facilitator()];
    const [oa] = await offerTo(await session(), [a.id, b.id]);
    const tokenB = linkFor(b.email);
    expect((await call('POST', `/api/offers/${oa!.id}/accept`, a.cookie)).statusCode).toBe(200);
    const toB = smtp.messages.filter((m) => m.to.includes(b.email)).at(-1)!;
    expect(toB.subject).toMatch(/^Offer withdrawn: /);
    expect(toB.text).toContain('Another facilitator accepted it first.');
    const closed = await link('accept', tokenB);
    expect(closed.statusCode).toBe(410);
    expect(closed.json().message).toBe(
      'This offer is no longer open. Open your offers in the portal to see why.',
    );
  });
});
