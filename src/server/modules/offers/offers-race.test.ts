/**
 * Offers under races, as a busy organisation makes them: acceptances at the same moment as declines
 * and expiries that offer the next ranked facilitator, and as staff withdrawing other offers of the
 * session, spread over two instances sharing one database. Every path locks a session's booking before
 * its offers, so PostgreSQL never has to abort one of them as a deadlock: each acceptance wins its
 * session and nothing answers 500. On PGlite the requests take turns; on PostgreSQL
 * (scripts/with-postgres.sh) they run side by side on separate connections, where a decline or an
 * expiry taking the locks the other way round lost acceptances.
 */
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../../shared/calendar';
import { type BuiltApp, buildApp } from '../../app';
import { bookings, offers } from '../../db/schema';
import { insertDays, insertDbsCheck, insertOffer, insertOpenSession } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { expireOffers } from './expiry';

const START = new Date('2026-11-20T10:00:00Z');
const HOUR = 3_600_000;
let clock = START;
const now = () => clock;

let t: TestApp;
/** a second portal process on the same database */
let second: BuiltApp;
let staff: string;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp({}, { now });
  second = await buildApp(t.config, { database: t.ctx.database, now });
  staff = await t.loginStaff();
});
afterAll(async () => {
  await second?.close();
  await t?.close();
});

/** A facilitator who may be offered sessions (freelancer id, DBS on record) and their session cookie. */
async function facilitator(): Promise<{ id: number; cookie: string }> {
  seq += 1;
  const user = await t.createUser({ username: `race-${seq}@example.org`, freelancerId: String(7000 + seq) });
  await insertDbsCheck(t.ctx.db, { userId: user.id });
  const { token } = await t.ctx.sessions.create(user.id);
  return { id: user.id, cookie: `afp_session=${token}` };
}

type Kind = 'decline' | 'expiry' | 'withdrawal';

interface Pair {
  kind: Kind;
  sessionId: number;
  acceptor: { id: number; cookie: string };
  acceptOfferId: number;
  other: { id: number; cookie: string };
  otherOfferId: number;
}

/**
 * A session offered to two facilitators with "offer the next ranked" on, and a third free that day
 * for the next offer to go to. For an expiry the other offer's reply-by time is an hour away (it has
 * passed when the race runs), the acceptor's two days.
 */
async function pair(kind: Kind, date: string): Promise<Pair> {
  const session = await insertOpenSession(t.ctx.db, { date });
  const [acceptor, other, spare] = [await facilitator(), await facilitator(), await facilitator()];
  await insertDays(t.ctx.db, [{ userId: spare.id, date, status: 'available' }]);
  const offer = (userId: number, replyBy: Date) =>
    insertOffer(t.ctx.db, {
      bookingId: session.id,
      userId,
      replyBy,
      createdAt: START,
      autoNext: true,
      linkNonce: `nonce-${userId}`,
    });
  const accepted = await offer(acceptor.id, new Date(START.getTime() + 48 * HOUR));
  const raced = await offer(other.id, new Date(START.getTime() + (kind === 'expiry' ? 1 : 48) * HOUR));
  return { kind, sessionId: session.id, acceptor, acceptOfferId: accepted.id, other, otherOfferId: raced.id };
}

describe('acceptances racing declines, expiries and withdrawals', () => {
  it('every acceptance wins its session, on two instances, and nothing answers 500', async () => {
    const kinds: Kind[] = ['decline', 'expiry', 'withdrawal'];
    const pairs: Pair[] = [];
    for (let i = 0; i < 24; i++) pairs.push(await pair(kinds[i % 3]!, addDays('2026-12-01', i)));
    // the expiring offers' reply-by time has passed; the acceptors' has not
    clock = new Date(START.getTime() + 2 * HOUR);

    const inject = (app: BuiltApp['app'], url: string, cookie: string, payload?: object) =>
      app.inject({ method: 'POST', url, headers: { cookie }, ...(payload ? { payload } : {}) });
    const accepts = pairs.map((p, i) =>
      inject(i % 2 ? second.app : t.app, `/api/offers/${p.acceptOfferId}/accept`, p.acceptor.cookie),
    );
    const rivals = pairs
      .filter((p) => p.kind !== 'expiry')
      .map((p, i) =>
        p.kind === 'decline'
          ? inject(i % 2 ? t.app : second.app, `/api/offers/${p.otherOfferId}/decline`, p.other.cookie, {})
          : inject(i % 2 ? t.app : second.app, `/api/staff/offers/${p.otherOfferId}/withdraw`, staff),
      );
    const expiries = [expireOffers(second.ctx), expireOffers(t.ctx)];
    const [accepted, raced] = await Promise.all([Promise.all(accepts), Promise.all(rivals), ...expiries]);

    for (const answer of accepted) expect(answer.statusCode, answer.body).toBe(200);
    // a rival that came second finds the offer already ended by the acceptance: 409, never 500
    for (const answer of raced) expect([200, 409], answer.body).toContain(answer.statusCode);

    // whatever an expiry skipped because the session was being accepted: expired, or ended
    while ((await expireOffers(t.ctx)) > 0);
    const sessions = await t.ctx.db
      .select()
      .from(bookings)
      .where(
        inArray(
          bookings.id,
          pairs.map((p) => p.sessionId),
        ),
      );
    for (const p of pairs) {
      const rows = await t.ctx.db.select().from(offers).where(eq(offers.bookingId, p.sessionId));
      const label = `${p.kind} pair of session ${p.sessionId}`;
      expect(
        rows.filter((r) => r.state === 'accepted').map((r) => r.userId),
        label,
      ).toEqual([p.acceptor.id]);
      expect(
        rows.filter((r) => r.state === 'sent' || r.state === 'seen'),
        label,
      ).toEqual([]);
      expect(sessions.find((s) => s.id === p.sessionId)!.userId, label).toBe(p.acceptor.id);
    }
  });
});
