/**
 * Offers through the API: open sessions, creating a session, offering, every answer and state, who
 * may see and answer what, the history, and many acceptances of one session at once (exactly one
 * winner). Runs on PGlite, or on PostgreSQL with TEST_DATABASE_URL (scripts/with-postgres.sh), where
 * the acceptances really run side by side on separate connections.
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FreeResult } from '../../../shared/schemas/free';
import type { MyOffer, OpenSessionsResponse, StaffOffer } from '../../../shared/schemas/offers';
import { bookingOutbox, bookings, changeHistory, offers } from '../../db/schema';
import { insertBooking, insertDay, insertDays, insertDbsCheck } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { expireOffers, withdrawOffersSafeguardingNoLongerAllows } from './expiry';

let clock = new Date('2026-11-20T10:00:00Z');
const DAY = '2026-12-02';
const DAY_AFTER = '2026-12-03';
const REPLY_BY = '2026-11-25T17:00:00Z';

let t: TestApp;
let staff: string;
let seq = 0;

interface Person {
  id: number;
  cookie: string;
  name: string;
}

beforeAll(async () => {
  t = await createTestApp({}, { now: () => clock });
  staff = await t.loginStaff();
});
afterAll(() => t.close());

async function facilitator(
  options: { freelancerId?: string | null; name?: string; dbsIssued?: string | null } = {},
): Promise<Person> {
  seq += 1;
  const name = options.name ?? `Facilitator ${String(seq).padStart(3, '0')}`;
  const user = await t.createUser({
    username: `offers-${seq}@example.org`,
    displayName: name,
    email: `offers-${seq}@example.org`,
    freelancerId: options.freelancerId === undefined ? String(5000 + seq) : options.freelancerId,
  });
  // a DBS check valid for three years from its issue date (the default policy) unless a test says so
  const dbsIssued = options.dbsIssued === undefined ? '2026-01-05' : options.dbsIssued;
  if (dbsIssued) {
    await insertDbsCheck(t.ctx.db, { userId: user.id, dbsIssueDate: dbsIssued });
  }
  return { id: user.id, cookie: await t.login(user.username, user.password), name };
}

async function openSession(extra: Partial<typeof bookings.$inferInsert> = {}): Promise<number> {
  const row = await insertBooking(t.ctx.db, {
    date: DAY,
    startTime: '09:30',
    endTime: '12:00',
    schoolName: 'Oakfield Primary',
    program: 'Dance',
    ...extra,
  });
  return row.id;
}

const call = (method: 'GET' | 'POST', url: string, cookie?: string, payload?: object) =>
  t.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });

async function offer(
  sessionId: number,
  people: Person[],
  extra: Record<string, unknown> = {},
): Promise<StaffOffer[]> {
  const response = await call('POST', `/api/staff/sessions/${sessionId}/offers`, staff, {
    userIds: people.map((p) => p.id),
    replyBy: REPLY_BY,
    message: 'Can you do this one?',
    ...extra,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().offers;
}

async function offerRow(id: number) {
  const [row] = await t.ctx.db.select().from(offers).where(eq(offers.id, id));
  return row!;
}

describe('open sessions', () => {
  it('lists bookings without a facilitator, not those with one, with their live offers', async () => {
    const open = await openSession({ date: '2026-12-10' });
    await openSession({ date: '2026-12-10', freelancerId: '9999' });
    const someone = await facilitator();
    await openSession({ date: '2026-12-10', freelancerId: '5', userId: someone.id });
    const response = await call('GET', '/api/staff/sessions?from=2026-12-10&to=2026-12-10', staff);
    expect(response.statusCode).toBe(200);
    const body: OpenSessionsResponse = response.json();
    expect(body.sessions.map((s) => s.id)).toEqual([open]);
    // no SharePoint settings in this app: the page says so rather than that all sessions are filled
    expect(body.sharePointConfigured).toBe(false);
    expect(body.sessions[0]).toMatchObject({
      schoolName: 'Oakfield Primary',
      program: 'Dance',
      liveOffers: 0,
    });
    await offer(open, [await facilitator()]);
    const again: OpenSessionsResponse = (
      await call('GET', '/api/staff/sessions?from=2026-12-10&to=2026-12-10', staff)
    ).json();
    expect(again.sessions[0]!.liveOffers).toBe(1);
  });

  it("counts each session's own live offers, whatever the offers' ids", async () => {
    // sessions numbered ahead of offers, so a session's id is never one of its offers' ids here
    for (let i = 0; i < 10; i += 1) await openSession({ date: '2026-12-15' });
    const first = await openSession({ date: '2026-12-14' });
    const second = await openSession({ date: '2026-12-14' });
    const quiet = await openSession({ date: '2026-12-14' });
    const made = [
      ...(await offer(first, [await facilitator(), await facilitator()])),
      ...(await offer(second, [await facilitator()])),
    ];
    expect(made.map((o) => o.id)).not.toContain(first);
    expect(made.map((o) => o.id)).not.toContain(second);
    const body: OpenSessionsResponse = (
      await call('GET', '/api/staff/sessions?from=2026-12-14&to=2026-12-14', staff)
    ).json();
    const live = Object.fromEntries(body.sessions.map((s) => [s.id, s.liveOffers]));
    expect(live).toEqual({ [first]: 2, [second]: 1, [quiet]: 0 });
  });
  it('refuses a range that ends before it starts', async () => {
    const response = await call('GET', '/api/staff/sessions?from=2026-12-10&to=2026-12-01', staff);
    expect(response.statusCode).toBe(400);
  });

  it('creates a session through the outbox, recorded in the history, listed as pending', async () => {
    const response = await call('POST', '/api/staff/sessions', staff, {
      date: '2026-12-11',
      startTime: '13:00',
      endTime: '15:00',
      schoolName: 'Riverside Academy',
      program: 'Drama',
    });
    expect(response.statusCode, response.body).toBe(201);
    const { id } = response.json();
    const [row] = await t.ctx.db.select().from(bookingOutbox).where(eq(bookingOutbox.id, id));
    expect(row).toMatchObject({
      kind: 'create',
      fields: { date: '2026-12-11', schoolName: 'Riverside Academy' },
    });
    const list: OpenSessionsResponse = (await call('GET', '/api/staff/sessions', staff)).json();
    expect(list.pending.map((p) => p.id)).toContain(id);
    const history = await t.ctx.db.select().from(changeHistory).where(eq(changeHistory.entity, 'session'));
    expect(history.at(-1)).toMatchObject({ action: 'create', via: 'staff', date: '2026-12-11' });
  });

  it('refuses a session in the past', async () => {
    const response = await call('POST', '/api/staff/sessions', staff, {
      date: '2026-11-19',
      startTime: '13:00',
      endTime: '15:00',
      schoolName: 'Riverside Academy',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({ date: ['Choose today or a later day'] });
  });

  it('refuses a session more than a year ahead (2099), and a missing date in words, changing nothing', async () => {
    const before = await t.ctx.db.select().from(bookingOutbox);
    const session = { startTime: '13:00', endTime: '15:00', schoolName: 'Riverside Academy' };
    const far = await call('POST', '/api/staff/sessions', staff, { ...session, date: '2099-01-05' });
    expect(far.statusCode).toBe(400);
    // the clock says 20 November 2026: a year on is 21 November 2027
    expect(far.json().fieldErrors).toEqual({ date: ['Choose a day by 21 November 2027'] });
    const dayAfter = await call('POST', '/api/staff/sessions', staff, { ...session, date: '2027-11-22' });
    expect(dayAfter.statusCode).toBe(400);
    const none = await call('POST', '/api/staff/sessions', staff, { ...session, date: '' });
    expect(none.statusCode).toBe(400);
    expect(none.json().fieldErrors).toEqual({ date: ["Choose the session's date"] });
    expect(await t.ctx.db.select().from(bookingOutbox)).toEqual(before);
  });

  it('refuses a session whose end is not after its start, and a blank school', async () => {
    const before = await t.ctx.db.select().from(bookingOutbox);
    const response = await call('POST', '/api/staff/sessions', staff, {
      date: '2026-12-11',
      startTime: '15:00',
      endTime: '13:00',
      schoolName: '  ',
    });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().fieldErrors).sort()).toEqual(['endTime', 'schoolName']);
    expect(await t.ctx.db.select().from(bookingOutbox)).toEqual(before);
  });
});

describe('offering', () => {
  it('offers to several facilitators; each sees only their own offer', async () => {
    const session = await openSession();
    const [a, b] = [await facilitator(), await facilitator()];
    const made = await offer(session, [a, b]);
    expect(made.map((o) => [o.userId, o.state])).toEqual([
      [a.id, 'sent'],
      [b.id, 'sent'],
    ]);
    const mine: MyOffer[] = (await call('GET', '/api/offers', a.cookie)).json();
    expect(mine.map((o) => o.id)).toEqual([made[0]!.id]);
    expect(mine[0]).toMatchObject({
      message: 'Can you do this one?',
      schoolName: 'Oakfield Primary',
      date: DAY,
    });
    expect(mine[0]).not.toHaveProperty('userId');
    expect(mine[0]).not.toHaveProperty('name');
  });

  it('ranks who is free for the session (candidates)', async () => {
    const session = await openSession({ date: DAY_AFTER });
    const a = await facilitator();
    await insertDay(t.ctx.db, { userId: a.id, date: DAY_AFTER, status: 'available' });
    const response = await call('GET', `/api/staff/sessions/${session}/candidates`, staff);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ date: DAY_AFTER, from: '09:30', to: '12:00', include: 'all' });
    expect(body.facilitators[0].userId).toBe(a.id);
  });

  it('pages and searches the candidates: each once, in the ranking, people of the same name by id', async () => {
    const session = await openSession({ date: DAY_AFTER });
    const same = [];
    for (let i = 0; i < 5; i++) same.push(await facilitator({ name: i % 2 ? 'Zoë Twin' : 'ZOË TWIN' }));
    await insertDay(t.ctx.db, { userId: same[4]!.id, date: DAY_AFTER, status: 'available' });
    const url = `/api/staff/sessions/${session}/candidates`;
    const whole = (await call('GET', `${url}?search=ZOE%20TWIN`, staff)).json() as FreeResult;
    // the free one first, then the rest by name (the same, whatever the case) and id
    expect(whole.facilitators.map((f) => f.userId)).toEqual([
      same[4]!.id,
      ...same
        .slice(0, 4)
        .map((p) => p.id)
        .sort((a, b) => a - b),
    ]);
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await call(
        'GET',
        `${url}?search=zoe%20twin&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        staff,
      );
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json() as FreeResult;
      expect(page.facilitators.length).toBeLessThanOrEqual(2);
      expect(page).toMatchObject({ freeCount: 1, leftOutCount: 4 });
      seen.push(...page.facilitators.map((f) => f.userId));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(whole.facilitators.map((f) => f.userId));
    const none = (await call('GET', `${url}?search=nobody%20at%20all`, staff)).json() as FreeResult;
    expect(none).toMatchObject({ facilitators: [], nextCursor: null, freeCount: 0, leftOutCount: 0 });
    for (const bad of ['limit=0', 'cursor=not-a-cursor', `search=${'x'.repeat(201)}`]) {
      expect((await call('GET', `${url}?${bad}`, staff)).statusCode, bad).toBe(400);
    }
  });

  it('needs confirmation for the unavailable and the already booked, and records it', async () => {
    const session = await openSession();
    const away = await facilitator();
    const busy = await facilitator();
    await insertDay(t.ctx.db, { userId: away.id, date: DAY, status: 'unavailable' });
    await openSession({ userId: busy.id, freelancerId: 'x' });
    const before = await t.ctx.db.select().from(offers);
    const refused = await call('POST', `/api/staff/sessions/${session}/offers`, staff, {
      userIds: [away.id, busy.id],
      replyBy: REPLY_BY,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain(`${away.name} is marked unavailable that day`);
    expect(refused.json().message).toContain(`${busy.name} is already booked that day`);
    expect(refused.json().fieldErrors.confirmNotFree).toHaveLength(2);
    expect(await t.ctx.db.select().from(offers)).toEqual(before);

    const made = await offer(session, [away, busy], { confirmNotFree: true });
    expect(made.map((o) => o.override)).toEqual(['unavailable', 'booked']);
    const history = await t.ctx.db
      .select()
      .from(changeHistory)
      .where(and(eq(changeHistory.entity, 'offer'), eq(changeHistory.subjectUserId, away.id)));
    expect(history[0]).toMatchObject({
      action: 'create',
      via: 'staff',
      after: expect.objectContaining({ override: 'unavailable' }),
    });
  });

  it('needs a safeguarding override reason for those whose checks do not allow sending, and records it', async () => {
    const session = await openSession();
    const clear = await facilitator();
    const unchecked = await facilitator({ dbsIssued: null });
    const before = await t.ctx.db.select().from(offers);
    const historyBefore = await t.ctx.db.select().from(changeHistory);
    const refused = await call('POST', `/api/staff/sessions/${session}/offers`, staff, {
      userIds: [clear.id, unchecked.id],
      replyBy: REPLY_BY,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain(`${unchecked.name} (No DBS check recorded)`);
    expect(refused.json().message).not.toContain(clear.name);
    expect(refused.json().fieldErrors.safeguardingOverride).toEqual([
      `${unchecked.name} (No DBS check recorded)`,
    ]);
    expect(await t.ctx.db.select().from(offers)).toEqual(before);
    expect(await t.ctx.db.select().from(changeHistory)).toEqual(historyBefore);

    const blank = await call('POST', `/api/staff/sessions/${session}/offers`, staff, {
      userIds: [unchecked.id],
      replyBy: REPLY_BY,
      safeguardingOverride: { reason: '   ' },
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().fieldErrors['safeguardingOverride.reason']).toBeDefined();
    expect(await t.ctx.db.select().from(offers)).toEqual(before);

    const reason = 'DBS seen in person; certificate on its way';
    const made = await offer(session, [clear, unchecked], { safeguardingOverride: { reason } });
    expect(made.map((o) => [o.userId, o.safeguardingOverride])).toEqual([
      [clear.id, null],
      [unchecked.id, { state: 'missing', reason }],
    ]);
    expect(await offerRow(made[1]!.id)).toMatchObject({
      safeguardingState: 'missing',
      safeguardingOverrideReason: reason,
    });
    expect(await offerRow(made[0]!.id)).toMatchObject({
      safeguardingState: null,
      safeguardingOverrideReason: null,
    });
    const history = await t.ctx.db
      .select()
      .from(changeHistory)
      .where(and(eq(changeHistory.entity, 'offer'), eq(changeHistory.subjectUserId, unchecked.id)));
    expect(history[0]).toMatchObject({
      action: 'create',
      via: 'staff',
      after: expect.objectContaining({ safeguardingOverride: { state: 'missing', reason } }),
    });
  });

  it('a person whose checks are valid needs no override', async () => {
    const session = await openSession();
    const clear = await facilitator();
    const [made] = await offer(session, [clear]);
    expect(made!.safeguardingOverride).toBeNull();
  });

  it('judges the checks on the session date, not today', async () => {
    // issued 2023-12-10: counts until 2026-12-09 under the three-year default, so it is valid today
    // (2026-11-20) and expiring on DAY, but expired by a session on 2026-12-15
    const person = await facilitator({ dbsIssued: '2023-12-10' });
    const soon = await openSession();
    const [soonOffer] = await offer(soon, [person]);
    expect(soonOffer!.safeguardingOverride).toBeNull();

    const later = await openSession({ date: '2026-12-15' });
    const refused = await call('POST', `/api/staff/sessions/${later}/offers`, staff, {
      userIds: [person.id],
      replyBy: REPLY_BY,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('15 December 2026');
    expect(refused.json().message).toContain('DBS check expired: it counted until 9 December 2026');

    const candidates = (await call('GET', `/api/staff/sessions/${later}/candidates`, staff)).json();
    const listed = candidates.facilitators.find((f: { userId: number }) => f.userId === person.id);
    expect(listed.safeguarding).toEqual({
      state: 'expired',
      reasons: ['DBS check expired: it counted until 9 December 2026'],
    });
  });

  it('refuses people without a freelancer ID, staff, repeats, and bad reply-by times', async () => {
    const session = await openSession();
    const noId = await facilitator({ freelancerId: null });
    const a = await facilitator();
    const post = (payload: object) => call('POST', `/api/staff/sessions/${session}/offers`, staff, payload);
    const missing = await post({ userIds: [noId.id], replyBy: REPLY_BY });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fieldErrors.userIds[0]).toContain('has no freelancer ID');
    expect((await post({ userIds: [1], replyBy: REPLY_BY })).statusCode).toBe(400);
    const past = await post({ userIds: [a.id], replyBy: '2026-11-19T10:00:00Z' });
    expect(past.statusCode).toBe(400);
    expect(past.json().fieldErrors.replyBy).toEqual(['Must be in the future']);
    const late = await post({ userIds: [a.id], replyBy: '2026-12-02T10:00:00Z' });
    expect(late.json().fieldErrors.replyBy).toEqual(['Must be before the session starts']);
    await offer(session, [a]);
    const twice = await post({ userIds: [a.id], replyBy: REPLY_BY });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().fieldErrors.userIds[0]).toContain('already has a live offer');
    expect((await post({ userIds: [], replyBy: REPLY_BY })).statusCode).toBe(400);
  });

  it('404 for a session that does not exist; 409 for one that has a facilitator', async () => {
    const a = await facilitator();
    const taken = await openSession({ freelancerId: '77' });
    expect(
      (await call('POST', '/api/staff/sessions/999999/offers', staff, { userIds: [a.id], replyBy: REPLY_BY }))
        .statusCode,
    ).toBe(404);
    const refused = await call('POST', `/api/staff/sessions/${taken}/offers`, staff, {
      userIds: [a.id],
      replyBy: REPLY_BY,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This session already has a facilitator.');
  });
});

describe('answers', () => {
  it('seen, then accepted: others withdrawn, the day locked, the write-back queued, the history kept', async () => {
    const session = await openSession();
    const [a, b, c] = [await facilitator(), await facilitator(), await facilitator()];
    const [oa, ob, oc] = await offer(session, [a, b, c]);
    const seen = await call('POST', `/api/offers/${oa!.id}/seen`, a.cookie);
    expect(seen.json().state).toBe('seen');
    expect((await offerRow(oa!.id)).seenAt).not.toBeNull();
    await call('POST', `/api/offers/${oc!.id}/decline`, c.cookie, { reason: 'Too far' });

    const accepted = await call('POST', `/api/offers/${oa!.id}/accept`, a.cookie);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().state).toBe('accepted');
    expect(await offerRow(ob!.id)).toMatchObject({ state: 'withdrawn', endedReason: 'taken' });
    expect(await offerRow(oc!.id)).toMatchObject({ state: 'declined', declineReason: 'Too far' });
    expect(await offerRow(oa!.id)).toMatchObject({ writeBack: 'pending', linkNonce: null });
    const [booking] = await t.ctx.db.select().from(bookings).where(eq(bookings.id, session));
    expect(booking!.userId).toBe(a.id);
    const queued = await t.ctx.db.select().from(bookingOutbox).where(eq(bookingOutbox.offerId, oa!.id));
    expect(queued).toHaveLength(1);

    // the day is locked as for any booking
    const save = await call('POST', '/api/availability', a.cookie, { date: DAY, status: 'available' });
    expect(save.statusCode).toBe(409);

    // the session is no longer open, and nobody else can take it
    const list: OpenSessionsResponse = (
      await call('GET', `/api/staff/sessions?from=${DAY}&to=${DAY}`, staff)
    ).json();
    expect(list.sessions.map((s) => s.id)).not.toContain(session);
    const late = await call('POST', `/api/offers/${ob!.id}/accept`, b.cookie);
    expect(late.statusCode).toBe(409);

    const history = await t.ctx.db.select().from(changeHistory).where(eq(changeHistory.entity, 'offer'));
    const states = history
      .filter((h) => [oa!.id, ob!.id, oc!.id].includes((h.after as { offerId: number }).offerId))
      .map((h) => [(h.after as { offerId: number }).offerId, (h.after as { state: string }).state, h.via]);
    expect(states).toEqual(
      expect.arrayContaining([
        [oa!.id, 'sent', 'staff'],
        [oc!.id, 'declined', 'facilitator'],
        [oa!.id, 'accepted', 'facilitator'],
        [ob!.id, 'withdrawn', 'facilitator'],
      ]),
    );
  });

  it('an answer sent again (from a device that was offline) is the same answer: no second change, no refusal', async () => {
    const session = await openSession();
    const [a, b, c] = [await facilitator(), await facilitator(), await facilitator()];
    const [oa, ob, oc] = await offer(session, [a, b, c]);
    await call('POST', `/api/offers/${oc!.id}/decline`, c.cookie, { reason: 'Too far' });
    const declinedAgain = await call('POST', `/api/offers/${oc!.id}/decline`, c.cookie, {
      reason: 'Too far',
    });
    expect(declinedAgain.statusCode, declinedAgain.body).toBe(200);
    expect(declinedAgain.json().state).toBe('declined');

    expect((await call('POST', `/api/offers/${oa!.id}/accept`, a.cookie)).statusCode).toBe(200);
    const again = await call('POST', `/api/offers/${oa!.id}/accept`, a.cookie);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().state).toBe('accepted');
    const queued = await t.ctx.db.select().from(bookingOutbox).where(eq(bookingOutbox.offerId, oa!.id));
    expect(queued).toHaveLength(1);
    const history = await t.ctx.db.select().from(changeHistory).where(eq(changeHistory.entity, 'offer'));
    const answers = history
      .map((h) => h.after as { offerId: number; state: string })
      .filter((after) => [oa!.id, oc!.id].includes(after.offerId) && after.state !== 'sent');
    expect(answers.map((after) => after.state).sort()).toEqual(['accepted', 'declined']);
    // the one who lost still hears why
    const late = await call('POST', `/api/offers/${ob!.id}/accept`, b.cookie);
    expect(late.statusCode).toBe(409);
  });

  it('only their own offers: another facilitator gets 404 and changes nothing; staff cannot answer', async () => {
    const session = await openSession();
    const [a, b] = [await facilitator(), await facilitator()];
    const [oa] = await offer(session, [a]);
    for (const action of ['seen', 'accept', 'decline']) {
      const response = await call('POST', `/api/offers/${oa!.id}/${action}`, b.cookie, {});
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('Offer not found');
    }
    expect((await call('POST', `/api/offers/${oa!.id}/accept`, staff)).statusCode).toBe(404);
    expect(await offerRow(oa!.id)).toMatchObject({ state: 'sent', seenAt: null });
    expect((await call('GET', '/api/offers', b.cookie)).json()).toEqual([]);
  });

  it('staff withdraw a live offer; it can then not be answered, nor withdrawn again', async () => {
    const session = await openSession();
    const a = await facilitator();
    const [oa] = await offer(session, [a]);
    const withdrawn = await call('POST', `/api/staff/offers/${oa!.id}/withdraw`, staff);
    expect(withdrawn.statusCode).toBe(200);
    expect(withdrawn.json()).toMatchObject({ state: 'withdrawn', endedReason: 'staff' });
    expect((await call('POST', `/api/offers/${oa!.id}/accept`, a.cookie)).statusCode).toBe(409);
    expect((await call('POST', `/api/staff/offers/${oa!.id}/withdraw`, staff)).statusCode).toBe(409);
    const listed: StaffOffer[] = (await call('GET', `/api/staff/sessions/${session}/offers`, staff)).json();
    expect(listed.map((o) => o.state)).toEqual(['withdrawn']);
  });

  it('a decline with "offer the next" goes to the next ranked facilitator not yet asked', async () => {
    const date = '2026-12-04';
    const session = await openSession({ date });
    const [a, b] = [await facilitator(), await facilitator()];
    await insertDays(t.ctx.db, [
      { userId: a.id, date, status: 'available' },
      { userId: b.id, date, status: 'available', startTime: '09:00', endTime: '15:00' },
    ]);
    // b's times cover the session, so b ranks first; a is asked first by hand
    const [oa] = await offer(session, [a], { autoNext: true });
    await call('POST', `/api/offers/${oa!.id}/decline`, a.cookie, {});
    const listed: StaffOffer[] = (await call('GET', `/api/staff/sessions/${session}/offers`, staff)).json();
    expect(listed.map((o) => [o.userId, o.state, o.autoNext])).toEqual([
      [a.id, 'declined', true],
      [b.id, 'sent', true],
    ]);
  });
});

describe('time', () => {
  it('expires at the reply-by time (not before), then offers the next ranked when asked to', async () => {
    const date = '2026-12-07';
    const session = await openSession({ date });
    const [a, b] = [await facilitator(), await facilitator()];
    await insertDays(t.ctx.db, [
      { userId: a.id, date, status: 'available' },
      { userId: b.id, date, status: 'limited' },
    ]);
    const [oa] = await offer(session, [a], { autoNext: true, replyBy: '2026-11-21T10:00:00Z' });
    const start = clock;
    try {
      clock = new Date('2026-11-21T09:59:59Z');
      await expireOffers(t.ctx);
      expect((await offerRow(oa!.id)).state).toBe('sent');
      clock = new Date('2026-11-21T10:00:00Z');
      expect((await call('POST', `/api/offers/${oa!.id}/accept`, a.cookie)).statusCode).toBe(409);
      await expireOffers(t.ctx);
      expect((await offerRow(oa!.id)).state).toBe('expired');
      const listed: StaffOffer[] = (await call('GET', `/api/staff/sessions/${session}/offers`, staff)).json();
      expect(listed.map((o) => [o.userId, o.state])).toEqual([
        [a.id, 'expired'],
        [b.id, 'sent'],
      ]);
      // as long to answer as the first had (24 hours)
      expect(listed[1]!.replyBy).toBe('2026-11-22T10:00:00.000Z');
      const history = await t.ctx.db.select().from(changeHistory).where(eq(changeHistory.via, 'automatic'));
      expect(history.map((h) => (h.after as { state: string }).state)).toEqual(
        expect.arrayContaining(['expired', 'sent']),
      );
    } finally {
      clock = start;
    }
  });
});

describe('safeguarding at acceptance', () => {
  /** Staff record a DBS check through the API, on the version the form was opened on. */
  async function recordDbs(person: Person, dbs: Record<string, unknown>) {
    const current = await call('GET', `/api/staff/users/${person.id}/safeguarding`, staff);
    const response = await t.app.inject({
      method: 'PUT',
      url: `/api/staff/users/${person.id}/safeguarding`,
      headers: { cookie: staff },
      payload: {
        dbs: {
          certificateNumber: '001234567890',
          issueDate: '2026-01-05',
          enhancedWithBarredList: true,
          onUpdateService: false,
          statusCheckedOn: null,
          checkedBy: 'Office',
          ...dbs,
        },
        checks: [],
        version: current.json().version,
      },
    });
    expect(response.statusCode, response.body).toBe(200);
  }

  async function refusedWithReason(offerId: number, person: Person, sessionId: number, reason: RegExp) {
    const answer = await call('POST', `/api/offers/${offerId}/accept`, person.cookie);
    expect(answer.statusCode, answer.body).toBe(409);
    expect(answer.json().message).toMatch(/safeguarding checks on record do not cover/);
    expect(answer.json().message).toMatch(reason);
    expect((await offerRow(offerId)).state).toBe('sent');
    const [booking] = await t.ctx.db.select().from(bookings).where(eq(bookings.id, sessionId));
    expect(booking!.userId).toBeNull();
    expect(await t.ctx.db.select().from(bookingOutbox).where(eq(bookingOutbox.offerId, offerId))).toEqual([]);
  }

  it('refuses once staff record a check that no longer counts, with the reason', async () => {
    const session = await openSession({ date: '2026-12-14' });
    const a = await facilitator();
    const [made] = await offer(session, [a]);
    await recordDbs(a, { enhancedWithBarredList: false });
    await refusedWithReason(made!.id, a, session, /not an enhanced check with the barred list/);
  });

  it('refuses once the policy no longer lets the check count on the session day', async () => {
    const session = await openSession({ date: '2026-12-15' });
    const a = await facilitator({ dbsIssued: '2026-01-05' });
    const [made] = await offer(session, [a]);
    const policy = (dbsMonths: number) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/staff/safeguarding/policy',
        headers: { cookie: staff },
        payload: { dbsMonths, updateServiceMonths: 12, warningDays: 30, checkTypes: [] },
      });
    expect((await policy(6)).statusCode).toBe(200);
    try {
      await refusedWithReason(made!.id, a, session, /DBS check expired/);
    } finally {
      expect((await policy(36)).statusCode).toBe(200);
    }
  });

  it('refuses once SharePoint moves the session to a day the checks do not cover', async () => {
    const session = await openSession({ date: '2026-12-16' });
    // valid from its issue day for 36 months: until 4 January 2029
    const a = await facilitator({ dbsIssued: '2026-01-05' });
    const [made] = await offer(session, [a]);
    await t.ctx.db.update(bookings).set({ date: '2029-01-08' }).where(eq(bookings.id, session));
    await refusedWithReason(made!.id, a, session, /8 January 2029/);
  });

  it('accepts an offer made with a recorded safeguarding override', async () => {
    const session = await openSession({ date: '2026-12-17' });
    const a = await facilitator({ dbsIssued: null });
    const [made] = await offer(session, [a], { safeguardingOverride: { reason: 'Checked by phone' } });
    const answer = await call('POST', `/api/offers/${made!.id}/accept`, a.cookie);
    expect(answer.statusCode, answer.body).toBe(200);
  });

  it('withdraws live offers the checks no longer allow, tells the person, keeps overridden ones', async () => {
    const session = await openSession({ date: '2026-12-18' });
    const [a, b, c] = [await facilitator(), await facilitator(), await facilitator({ dbsIssued: null })];
    const [oa, ob] = await offer(session, [a, b]);
    const [oc] = await offer(session, [c], { safeguardingOverride: { reason: 'Checked by phone' } });
    await recordDbs(a, { enhancedWithBarredList: false });
    // (the offers the tests above left refused are withdrawn by the same run)
    expect(await withdrawOffersSafeguardingNoLongerAllows(t.ctx)).toBeGreaterThanOrEqual(1);
    expect(await offerRow(oa!.id)).toMatchObject({ state: 'withdrawn', endedReason: 'safeguarding' });
    expect((await offerRow(ob!.id)).state).toBe('sent');
    expect((await offerRow(oc!.id)).state).toBe('sent');
    const mine: MyOffer[] = (await call('GET', '/api/offers', a.cookie)).json();
    expect(mine.find((o) => o.id === oa!.id)).toMatchObject({
      state: 'withdrawn',
      endedReason: 'safeguarding',
    });
    const history = await t.ctx.db
      .select()
      .from(changeHistory)
      .where(and(eq(changeHistory.entity, 'offer'), eq(changeHistory.subjectUserId, a.id)))
      .orderBy(asc(changeHistory.id));
    expect(history.at(-1)).toMatchObject({
      via: 'automatic',
      after: { state: 'withdrawn', reason: 'safeguarding' },
    });
    expect(await withdrawOffersSafeguardingNoLongerAllows(t.ctx)).toBe(0);
  });
});

describe('first acceptance wins', () => {
  it('many simultaneous acceptances of one session: exactly one winner', async () => {
    const session = await openSession({ date: '2026-12-09' });
    const people: Person[] = [];
    for (let i = 0; i < 16; i++) people.push(await facilitator());
    const made = await offer(session, people);
    const answers = await Promise.all(
      made.map((o, i) => call('POST', `/api/offers/${o.id}/accept`, people[i]!.cookie)),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(made.length - 1);
    const rows = await t.ctx.db.select().from(offers).where(eq(offers.bookingId, session));
    expect(rows.filter((r) => r.state === 'accepted')).toHaveLength(1);
    expect(rows.filter((r) => r.state === 'withdrawn')).toHaveLength(made.length - 1);
    const winner = rows.find((r) => r.state === 'accepted')!;
    const [booking] = await t.ctx.db.select().from(bookings).where(eq(bookings.id, session));
    expect(booking!.userId).toBe(winner.userId);
    expect(
      await t.ctx.db.select().from(bookingOutbox).where(eq(bookingOutbox.offerId, winner.id)),
    ).toHaveLength(1);
  });
});
