/**
 * Offers: staff offer an open session (a booking without a facilitator) to facilitators; the first
 * to accept gets it, and the freelancer id goes back to SharePoint through the bookings outbox
 * (write-back.ts). First acceptance wins in the database, not in this process: the booking row is
 * locked for the acceptance's transaction and a unique partial index allows one accepted offer per
 * booking, so any number of instances sharing PostgreSQL agree on one winner. ADR 0019.
 */
import { randomBytes } from 'node:crypto';
import { and, asc, between, eq, inArray, isNull, lte, ne, sql } from 'drizzle-orm';
import { addDays, todayIn } from '../../../shared/calendar';
import { dayLabel, mayBeSent, type SafeguardingState } from '../../../shared/safeguarding';
import {
  type CreateOffersInput,
  type CreateSessionInput,
  LIVE_OFFER_STATES,
  type MyOffer,
  type OfferEndReason,
  type OfferLinkView,
  type OfferOverride,
  type OfferState,
  type OpenSessionsResponse,
  SESSION_DAYS_AHEAD,
  type StaffOffer,
} from '../../../shared/schemas/offers';
import type { AppContext } from '../../context';
import type { Queryable, Tx } from '../../db/client';
import { bookings, offers, users } from '../../db/schema';
import { AppError, badRequest, conflict, isUniqueViolation, notFound } from '../../errors';
import {
  describeSession,
  type OutgoingMessage,
  offerEndedMessage,
  offerMessage,
} from '../../mail/offer-message';
import { instantAt } from '../../office-hours';
import { enqueueAcceptance, enqueueSessionCreate, queuedSessions } from '../../sharepoint/outbox';
import { findFree } from '../free/service';
import type { ChangeBy } from '../history/record';
import { recordChanges } from '../history/record';
import { sendMail } from '../reminders/service';
import { safeguardingStatuses } from '../safeguarding/service';
import { STAFF_ROLE } from '../users/service';
import { readOfferLink, signOfferLink } from './links';

type OfferRow = typeof offers.$inferSelect;
type BookingRow = typeof bookings.$inferSelect;

export const SESSION_TAKEN = 'This session already has a facilitator.';
export const OFFER_NOT_OPEN = 'This offer can no longer be answered.';
export const OFFER_NOT_FOUND = 'Offer not found';
export const LINK_INVALID = 'This link is not valid. Open your offers in the portal instead.';
export const LINK_EXPIRED = 'This link has expired. Open your offers in the portal instead.';
export const LINK_CLOSED = 'This offer is no longer open. Open your offers in the portal to see why.';
export const LINK_USED = 'This link has already been used. Open your offers in the portal instead.';

const isLive = (state: string) => (LIVE_OFFER_STATES as readonly string[]).includes(state);

/** What the people told about an ended offer read about why. */
export const END_REASON_TEXT: Record<OfferEndReason, string> = {
  staff: 'The team withdrew the offer.',
  taken: 'Another facilitator accepted it first.',
  sharepoint:
    'SharePoint showed the session filled or changed before your acceptance could be recorded, so it was undone.',
  'session-gone': 'The session was cancelled or given to someone else in SharePoint.',
  safeguarding:
    "The safeguarding checks the team has on record no longer cover the session's day, so the offer was withdrawn. Please contact the team if you think this is wrong.",
};

// ---------------------------------------------------------------------------------------------------
// Open sessions

/** A booking is open while it has no freelancer, in SharePoint and here. */
const isOpenBooking = (b: Pick<BookingRow, 'freelancerId' | 'userId'>) =>
  (b.freelancerId ?? '').trim() === '' && b.userId === null;

export async function listOpenSessions(
  ctx: AppContext,
  range: { from?: string | undefined; to?: string | undefined },
): Promise<OpenSessionsResponse> {
  const from = range.from ?? todayIn(ctx.config.ORG_TIMEZONE, ctx.now());
  const to = range.to ?? addDays(from, SESSION_DAYS_AHEAD);
  if (to < from) throw badRequest('"to" must not be before "from"', { to: ['Must not be before "from"'] });
  if (to > addDays(from, 366))
    throw badRequest('Ask for at most a year at a time', { to: ['At most a year'] });
  // Drizzle writes a column of a query over one table without its table's name ("id"), which inside
  // these subqueries would be the offer's own id: the booking's id is named in full.
  const bookingId = sql`${bookings}.${sql.identifier(bookings.id.name)}`;
  const live = sql<number>`(select count(*)::int from ${offers} o where o.booking_id = ${bookingId} and o.state in ('sent', 'seen'))`;
  const pendingAcceptance = sql<boolean>`exists (select 1 from ${offers} o where o.booking_id = ${bookingId} and o.state = 'accepted' and o.write_back = 'pending')`;
  const rows = await ctx.db
    .select({
      id: bookings.id,
      sharePointId: bookings.sharePointId,
      title: bookings.title,
      date: bookings.date,
      startTime: bookings.startTime,
      endTime: bookings.endTime,
      schoolName: bookings.schoolName,
      program: bookings.program,
      location: bookings.location,
      liveOffers: live,
      pendingAcceptance,
    })
    .from(bookings)
    .where(
      and(
        between(bookings.date, from, to),
        isNull(bookings.userId),
        sql`coalesce(trim(${bookings.freelancerId}), '') = ''`,
      ),
    )
    .orderBy(asc(bookings.date), asc(bookings.startTime), asc(bookings.id));
  const pending = await queuedSessions(ctx.db);
  return {
    sessions: rows,
    sharePointConfigured: 'session' in (await ctx.sharePoint.sessionOrReason()),
    pending: pending.map((row) => {
      const f = row.fields ?? {};
      return {
        id: row.id,
        title: f.title ?? '',
        date: f.date ?? '',
        startTime: f.startTime ?? '',
        endTime: f.endTime ?? '',
        schoolName: f.schoolName ?? '',
        program: f.program ?? '',
        lastError: row.lastError,
      };
    }),
  };
}

/** A new session goes to SharePoint through the outbox; the next refresh brings it back as open. */
export async function createSession(
  ctx: AppContext,
  input: Required<Omit<CreateSessionInput, 'title' | 'program' | 'location'>> & {
    title: string;
    program: string;
    location: string;
  },
  actorId: number,
): Promise<number> {
  const today = todayIn(ctx.config.ORG_TIMEZONE, ctx.now());
  if (input.date < today)
    throw badRequest('A new session cannot be in the past', { date: ['Choose today or a later day'] });
  if (input.date > addDays(today, SESSION_DAYS_AHEAD))
    throw badRequest('A new session can be at most a year ahead', {
      date: [`Choose a day by ${dayLabel(addDays(today, SESSION_DAYS_AHEAD))}`],
    });
  const fields: Record<string, string> = {
    title: input.title || `${input.schoolName}${input.program ? ` – ${input.program}` : ''}`,
    date: input.date,
    startTime: input.startTime,
    endTime: input.endTime,
    schoolName: input.schoolName,
    program: input.program,
    location: input.location,
  };
  const id = await ctx.db.transaction(async (tx) => {
    const queued = await enqueueSessionCreate(tx, fields, actorId, ctx.now());
    await recordChanges(tx, [
      {
        entity: 'session',
        action: 'create',
        subjectUserId: null,
        date: input.date,
        actorId,
        via: 'staff',
        before: null,
        after: fields,
      },
    ]);
    return queued;
  });
  ctx.sharePoint.outboxWakeUp.queued();
  return id;
}

// ---------------------------------------------------------------------------------------------------
// Reading offers

const offerColumns = {
  id: offers.id,
  bookingId: offers.bookingId,
  userId: offers.userId,
  state: offers.state,
  message: offers.message,
  replyBy: offers.replyBy,
  createdAt: offers.createdAt,
  respondedAt: offers.respondedAt,
  declineReason: offers.declineReason,
  endedReason: offers.endedReason,
  override: offers.override,
  safeguardingState: offers.safeguardingState,
  safeguardingOverrideReason: offers.safeguardingOverrideReason,
  autoNext: offers.autoNext,
  seenAt: offers.seenAt,
  emailedAt: offers.emailedAt,
  emailError: offers.emailError,
  writeBack: offers.writeBack,
  date: bookings.date,
  startTime: bookings.startTime,
  endTime: bookings.endTime,
  title: bookings.title,
  schoolName: bookings.schoolName,
  program: bookings.program,
  location: bookings.location,
  name: sql<string>`coalesce(nullif(${users.displayName}, ''), ${users.username})`,
};

type JoinedOffer = {
  [K in keyof typeof offerColumns]: (typeof offerColumns)[K] extends { _: { data: infer D } } ? D : never;
};

async function selectOffers(db: Queryable, where: ReturnType<typeof and>): Promise<JoinedOffer[]> {
  return (await db
    .select(offerColumns)
    .from(offers)
    .innerJoin(bookings, eq(bookings.id, offers.bookingId))
    .innerJoin(users, eq(users.id, offers.userId))
    .where(where)
    .orderBy(asc(bookings.date), asc(bookings.startTime), asc(offers.id))) as JoinedOffer[];
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toMyOffer(o: JoinedOffer): MyOffer {
  return {
    id: o.id,
    bookingId: o.bookingId,
    state: o.state as OfferState,
    message: o.message,
    replyBy: o.replyBy.toISOString(),
    createdAt: o.createdAt.toISOString(),
    respondedAt: iso(o.respondedAt),
    declineReason: o.declineReason,
    endedReason: o.endedReason as OfferEndReason | null,
    date: o.date,
    startTime: o.startTime,
    endTime: o.endTime,
    title: o.title,
    schoolName: o.schoolName,
    program: o.program,
    location: o.location,
  };
}

function toStaffOffer(o: JoinedOffer): StaffOffer {
  return {
    ...toMyOffer(o),
    userId: o.userId,
    name: o.name,
    override: o.override as OfferOverride | null,
    safeguardingOverride:
      o.safeguardingState && o.safeguardingOverrideReason !== null
        ? { state: o.safeguardingState as SafeguardingState, reason: o.safeguardingOverrideReason }
        : null,
    autoNext: o.autoNext,
    seenAt: iso(o.seenAt),
    emailedAt: iso(o.emailedAt),
    emailError: o.emailError,
    writeBack: o.writeBack as StaffOffer['writeBack'],
  };
}

export async function listMyOffers(
  ctx: AppContext,
  userId: number,
  range: { from?: string | undefined; to?: string | undefined },
): Promise<MyOffer[]> {
  const conditions = [eq(offers.userId, userId)];
  if (range.from) conditions.push(sql`${bookings.date} >= ${range.from}`);
  if (range.to) conditions.push(sql`${bookings.date} <= ${range.to}`);
  return (await selectOffers(ctx.db, and(...conditions))).map(toMyOffer);
}

export async function listSessionOffers(ctx: AppContext, bookingId: number): Promise<StaffOffer[]> {
  await requireBooking(ctx.db, bookingId);
  return (await selectOffers(ctx.db, and(eq(offers.bookingId, bookingId)))).map(toStaffOffer);
}

async function staffOfferById(db: Queryable, offerId: number): Promise<StaffOffer> {
  const [row] = await selectOffers(db, and(eq(offers.id, offerId)));
  if (!row) throw notFound(OFFER_NOT_FOUND);
  return toStaffOffer(row);
}

async function requireBooking(db: Queryable, bookingId: number, lock = false): Promise<BookingRow> {
  const query = db.select().from(bookings).where(eq(bookings.id, bookingId));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('Session not found');
  return row;
}

/** "Who is free" for the session's day and times, everyone listed, ranked. */
export async function sessionCandidates(ctx: AppContext, bookingId: number) {
  const booking = await requireBooking(ctx.db, bookingId);
  return findFree(ctx.db, { date: booking.date, ...sessionWindow(booking), areas: [], include: 'all' });
}

/** The free search's time window: both ends when both are known and in order, else none. */
function sessionWindow(b: Pick<BookingRow, 'startTime' | 'endTime'>): { from?: string; to?: string } {
  const from = b.startTime?.trim();
  const to = b.endTime?.trim();
  return from && to && from < to ? { from, to } : {};
}

/** When the session starts (ORG_TIMEZONE), or the end of its day when it has no start time. */
function sessionStartsAt(b: Pick<BookingRow, 'date' | 'startTime'>, timeZone: string): Date {
  const [year, month, day] = b.date.split('-').map(Number) as [number, number, number];
  const start = b.startTime?.match(/^(\d{2}):(\d{2})$/);
  const minute = start ? Number(start[1]) * 60 + Number(start[2]) : 24 * 60;
  return instantAt({ year, month, day }, minute, timeZone);
}

// ---------------------------------------------------------------------------------------------------
// Making offers

interface Recipient {
  userId: number;
  override: OfferOverride | null;
  /** the checks did not allow sending on the session's date; staff gave this reason */
  safeguarding: { state: SafeguardingState; reason: string } | null;
}

export const SAFEGUARDING_OVERRIDE_NEEDED =
  'Give a reason for offering despite safeguarding checks, or leave these people out.';

/** Why an acceptance is refused: the facilitator's own checks, which they may read on their settings page. */
function safeguardingRefusal(date: string, reasons: string[]): string {
  return `Your safeguarding checks on record do not cover ${dayLabel(date)} (${reasons.join('; ')}), so this session cannot be accepted. Please contact the team.`;
}

/**
 * Check each chosen person: a facilitator with a freelancer id (SharePoint records the booking by
 * it) and no live offer of this session. Those whose safeguarding checks do not allow sending on the
 * session's date (not today: a session next month needs checks that last until then) need a
 * safeguarding override reason; those marked unavailable or already booked that day need
 * `confirmNotFree`. The offer records both.
 */
async function checkRecipients(
  tx: Tx,
  booking: BookingRow,
  userIds: number[],
  confirm: { notFree: boolean; safeguardingReason: string | null },
): Promise<Recipient[]> {
  const people = await tx
    .select({
      id: users.id,
      role: users.role,
      freelancerId: users.freelancerId,
      name: sql<string>`coalesce(nullif(${users.displayName}, ''), ${users.username})`,
    })
    .from(users)
    .where(inArray(users.id, userIds));
  const byId = new Map(people.map((p) => [p.id, p]));
  const problems: string[] = [];
  for (const id of userIds) {
    const person = byId.get(id);
    if (!person || person.role === STAFF_ROLE) problems.push(`Not a facilitator: ${id}`);
    else if (!(person.freelancerId ?? '').trim())
      problems.push(`${person.name} has no freelancer ID, so SharePoint could not record the booking`);
  }
  if (problems.length > 0)
    throw badRequest('Some of the chosen people cannot be offered this session', { userIds: problems });

  const already = await tx
    .select({ userId: offers.userId })
    .from(offers)
    .where(
      and(
        eq(offers.bookingId, booking.id),
        inArray(offers.state, [...LIVE_OFFER_STATES]),
        inArray(offers.userId, userIds),
      ),
    );
  if (already.length > 0) {
    throw badRequest('Some of the chosen people already have this offer', {
      userIds: already.map(
        (a) => `${byId.get(a.userId)?.name ?? a.userId} already has a live offer of this session`,
      ),
    });
  }

  const checks = await safeguardingStatuses(tx, userIds, booking.date);
  const notClear: string[] = [];
  for (const id of userIds) {
    const check = checks.get(id)!;
    if (!mayBeSent(check.state)) notClear.push(`${byId.get(id)!.name} (${check.reasons.join('; ')})`);
  }
  if (notClear.length > 0 && confirm.safeguardingReason === null) {
    throw new AppError(
      409,
      `Safeguarding checks on ${dayLabel(booking.date)} do not allow sending: ${notClear.join('; ')}. ${SAFEGUARDING_OVERRIDE_NEEDED}`,
      { safeguardingOverride: notClear },
    );
  }

  const free = await findFree(tx, {
    date: booking.date,
    ...sessionWindow(booking),
    areas: [],
    include: 'all',
  });
  const status = new Map(free.facilitators.map((f) => [f.userId, f]));
  const recipients: Recipient[] = [];
  const warnings: string[] = [];
  for (const id of userIds) {
    const f = status.get(id);
    const override: OfferOverride | null =
      f && f.bookingsCount > 0 ? 'booked' : f?.status === 'unavailable' ? 'unavailable' : null;
    if (override) {
      const name = byId.get(id)!.name;
      warnings.push(
        override === 'booked'
          ? `${name} is already booked that day`
          : `${name} is marked unavailable that day`,
      );
    }
    const check = checks.get(id)!;
    recipients.push({
      userId: id,
      override,
      safeguarding:
        mayBeSent(check.state) || confirm.safeguardingReason === null
          ? null
          : { state: check.state, reason: confirm.safeguardingReason },
    });
  }
  if (warnings.length > 0 && !confirm.notFree) {
    throw new AppError(409, `${warnings.join('; ')}. Confirm to offer the session anyway.`, {
      confirmNotFree: warnings,
    });
  }
  return recipients;
}

const newNonce = () => randomBytes(16).toString('base64url');

async function insertOffers(
  tx: Tx,
  booking: BookingRow,
  recipients: Recipient[],
  details: { message: string; replyBy: Date; autoNext: boolean; now: Date },
  by: ChangeBy,
): Promise<number[]> {
  const inserted = await tx
    .insert(offers)
    .values(
      recipients.map((r) => ({
        bookingId: booking.id,
        userId: r.userId,
        message: details.message,
        replyBy: details.replyBy,
        override: r.override,
        safeguardingState: r.safeguarding?.state ?? null,
        safeguardingOverrideReason: r.safeguarding?.reason ?? null,
        autoNext: details.autoNext,
        offeredBy: by.actorId,
        createdAt: details.now,
        linkNonce: newNonce(),
      })),
    )
    .returning({
      id: offers.id,
      userId: offers.userId,
      override: offers.override,
      safeguardingState: offers.safeguardingState,
      safeguardingOverrideReason: offers.safeguardingOverrideReason,
    });
  await recordChanges(
    tx,
    inserted.map((o) => ({
      entity: 'offer' as const,
      action: 'create' as const,
      subjectUserId: o.userId,
      date: booking.date,
      actorId: by.actorId,
      via: by.via,
      before: null,
      after: {
        offerId: o.id,
        session: describeSession(booking),
        state: 'sent',
        replyBy: details.replyBy.toISOString(),
        ...(o.override ? { override: o.override } : {}),
        ...(o.safeguardingState
          ? {
              safeguardingOverride: {
                state: o.safeguardingState,
                reason: o.safeguardingOverrideReason,
              },
            }
          : {}),
        ...(details.autoNext ? { autoNext: true } : {}),
      },
    })),
  );
  return inserted.map((o) => o.id);
}

export async function createOffers(
  ctx: AppContext,
  bookingId: number,
  input: Required<Omit<CreateOffersInput, 'safeguardingOverride'>> &
    Pick<CreateOffersInput, 'safeguardingOverride'>,
  actorId: number,
): Promise<StaffOffer[]> {
  const replyBy = new Date(input.replyBy);
  const userIds = [...new Set(input.userIds.map(Number))];
  const ids = await ctx.db.transaction(async (tx) => {
    const booking = await requireBooking(tx, bookingId, true);
    if (!isOpenBooking(booking)) throw conflict(SESSION_TAKEN);
    if (replyBy.getTime() <= ctx.now().getTime())
      throw badRequest('The reply-by time must be in the future', { replyBy: ['Must be in the future'] });
    if (replyBy.getTime() > sessionStartsAt(booking, ctx.config.ORG_TIMEZONE).getTime())
      throw badRequest('The reply-by time must be before the session starts', {
        replyBy: ['Must be before the session starts'],
      });
    const recipients = await checkRecipients(tx, booking, userIds, {
      notFree: input.confirmNotFree,
      safeguardingReason: input.safeguardingOverride?.reason ?? null,
    });
    return insertOffers(
      tx,
      booking,
      recipients,
      { message: input.message, replyBy, autoNext: input.autoNext, now: ctx.now() },
      { actorId, via: 'staff' },
    );
  });
  await emailOffers(ctx, ids);
  return (await selectOffers(ctx.db, and(inArray(offers.id, ids)))).map(toStaffOffer);
}

// ---------------------------------------------------------------------------------------------------
// Answers

/** Mark seen (the facilitator opened it); answered and ended offers stay as they are. */
export async function markSeen(ctx: AppContext, offerId: number, userId: number): Promise<MyOffer> {
  await ctx.db
    .update(offers)
    .set({ state: 'seen', seenAt: ctx.now() })
    .where(and(eq(offers.id, offerId), eq(offers.userId, userId), eq(offers.state, 'sent')));
  return myOfferById(ctx.db, offerId, userId);
}

async function myOfferById(db: Queryable, offerId: number, userId: number): Promise<MyOffer> {
  const [row] = await selectOffers(db, and(eq(offers.id, offerId), eq(offers.userId, userId)));
  // someone else's offer is "not found": its existence is nobody else's business
  if (!row) throw notFound(OFFER_NOT_FOUND);
  return toMyOffer(row);
}

interface Notice {
  userId: number;
  message: (name: string) => OutgoingMessage;
}

/**
 * Accept: lock the booking (every acceptance of one session queues here, whatever the instance), check
 * the offer and the session are still open, mark it accepted (the unique index backs this up),
 * withdraw the others, give the facilitator the booking (their day locks as for any booking) and queue
 * the write-back, all in one transaction.
 */
export async function acceptOffer(
  ctx: AppContext,
  offerId: number,
  userId: number,
  via: 'facilitator' | 'email',
  linkNonce?: string,
): Promise<MyOffer> {
  const notices: Notice[] = [];
  try {
    await ctx.db.transaction(async (tx) => {
      const { offer, booking } = await lockOfferAndSession(tx, offerId, { userId, linkNonce });
      const now = ctx.now();
      if (!isLive(offer.state) || offer.replyBy.getTime() <= now.getTime()) throw conflict(OFFER_NOT_OPEN);
      if (!isOpenBooking(booking)) throw conflict(SESSION_TAKEN);
      const [person] = await tx
        .select({ freelancerId: users.freelancerId })
        .from(users)
        .where(eq(users.id, userId));
      const freelancerId = (person?.freelancerId ?? '').trim();
      if (!freelancerId)
        throw conflict(
          'Your account has no freelancer ID yet, so the booking cannot be recorded. Please contact the team.',
        );
      // The checks as they are now, on the session's day as it is now: a check recorded since the
      // offer, a changed policy or a session moved in SharePoint may no longer allow it, unless staff
      // recorded a reason for offering despite the checks.
      if (offer.safeguardingOverrideReason === null) {
        const checks = (await safeguardingStatuses(tx, [userId], booking.date)).get(userId);
        if (checks && !mayBeSent(checks.state))
          throw conflict(safeguardingRefusal(booking.date, checks.reasons));
      }

      await tx
        .update(offers)
        .set({ state: 'accepted', respondedAt: now, writeBack: 'pending', linkNonce: null })
        .where(eq(offers.id, offerId));
      const others = await tx
        .update(offers)
        .set({ state: 'withdrawn', endedReason: 'taken', respondedAt: now, linkNonce: null })
        .where(
          and(
            eq(offers.bookingId, booking.id),
            ne(offers.id, offerId),
            inArray(offers.state, [...LIVE_OFFER_STATES]),
          ),
        )
        .returning({ id: offers.id, userId: offers.userId, state: offers.state });
      await tx
        .update(bookings)
        .set({ userId, freelancerId, updatedAt: now })
        .where(eq(bookings.id, booking.id));
      await enqueueAcceptance(tx, offerId, now);
      const session = describeSession(booking);
      await recordChanges(tx, [
        stateChange(offer, booking, session, 'accepted', { actorId: userId, via }),
        ...others.map((o) =>
          stateChange(
            { ...offer, id: o.id, userId: o.userId },
            booking,
            session,
            'withdrawn',
            { actorId: userId, via },
            'taken',
          ),
        ),
      ]);
      for (const o of others) notices.push(endedNotice(o.userId, session, 'taken'));
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(SESSION_TAKEN);
    throw error;
  }
  ctx.sharePoint.outboxWakeUp.queued();
  await sendNotices(ctx, notices);
  return myOfferById(ctx.db, offerId, userId);
}

/**
 * An offer and its session, locked in the one order every offer path takes: the session's booking row
 * first, then offers. Acceptance holds the booking while it withdraws the other offers; a decline or
 * an expiry that offered the next ranked facilitator while holding an offer would wait for the booking
 * (the new offer's foreign key) in the opposite order, and PostgreSQL would abort one of them as a
 * deadlock. `userId`: only that facilitator's offer; `linkNonce`: only while that link is the usable one.
 */
async function lockOfferAndSession(
  tx: Tx,
  offerId: number,
  owner: { userId?: number; linkNonce?: string } = {},
): Promise<{ offer: OfferRow; booking: BookingRow }> {
  const which =
    owner.userId === undefined
      ? eq(offers.id, offerId)
      : and(eq(offers.id, offerId), eq(offers.userId, owner.userId));
  // an offer's session never changes, so the unlocked read names the booking to lock
  const [peek] = await tx.select({ bookingId: offers.bookingId }).from(offers).where(which);
  if (!peek) throw notFound(OFFER_NOT_FOUND);
  const [booking] = await tx.select().from(bookings).where(eq(bookings.id, peek.bookingId)).for('update');
  const [offer] = booking ? await tx.select().from(offers).where(which).for('update') : [];
  // a session deleted meanwhile (cancelled in SharePoint) took its offers with it
  if (!booking || !offer) throw notFound(OFFER_NOT_FOUND);
  if (owner.linkNonce !== undefined && offer.linkNonce !== owner.linkNonce)
    throw new AppError(410, LINK_USED);
  return { offer, booking };
}

export async function declineOffer(
  ctx: AppContext,
  offerId: number,
  userId: number,
  reason: string,
  via: 'facilitator' | 'email',
  linkNonce?: string,
): Promise<MyOffer> {
  const follow = await ctx.db.transaction(async (tx) => {
    const { offer, booking } = await lockOfferAndSession(tx, offerId, { userId, linkNonce });
    const now = ctx.now();
    if (!isLive(offer.state) || offer.replyBy.getTime() <= now.getTime()) throw conflict(OFFER_NOT_OPEN);
    await tx
      .update(offers)
      .set({ state: 'declined', respondedAt: now, declineReason: reason, linkNonce: null })
      .where(eq(offers.id, offerId));
    await recordChanges(tx, [
      stateChange(
        offer,
        booking,
        describeSession(booking),
        'declined',
        { actorId: userId, via },
        undefined,
        reason,
      ),
    ]);
    return offer.autoNext ? await offerNextRanked(ctx, tx, offer, booking) : [];
  });
  await emailOffers(ctx, follow);
  return myOfferById(ctx.db, offerId, userId);
}

export async function withdrawOffer(ctx: AppContext, offerId: number, actorId: number): Promise<StaffOffer> {
  const notices: Notice[] = [];
  await ctx.db.transaction(async (tx) => {
    const { offer, booking } = await lockOfferAndSession(tx, offerId);
    if (!isLive(offer.state)) throw conflict('Only an offer still waiting for an answer can be withdrawn.');
    await tx
      .update(offers)
      .set({ state: 'withdrawn', endedReason: 'staff', respondedAt: ctx.now(), linkNonce: null })
      .where(eq(offers.id, offerId));
    const session = describeSession(booking);
    await recordChanges(tx, [
      stateChange(offer, booking, session, 'withdrawn', { actorId, via: 'staff' }, 'staff'),
    ]);
    notices.push(endedNotice(offer.userId, session, 'staff'));
  });
  await sendNotices(ctx, notices);
  return staffOfferById(ctx.db, offerId);
}

function stateChange(
  offer: Pick<OfferRow, 'id' | 'userId' | 'state'>,
  booking: BookingRow,
  session: string,
  state: OfferState,
  by: ChangeBy,
  endedReason?: OfferEndReason,
  declineReason?: string,
) {
  return {
    entity: 'offer' as const,
    action: 'update' as const,
    subjectUserId: offer.userId,
    date: booking.date,
    actorId: by.actorId,
    via: by.via,
    before: { offerId: offer.id, session, state: offer.state },
    after: {
      offerId: offer.id,
      session,
      state,
      ...(endedReason ? { reason: endedReason } : {}),
      ...(declineReason ? { declineReason } : {}),
    },
  };
}

function endedNotice(userId: number, session: string, reason: OfferEndReason): Notice {
  return { userId, message: (name) => offerEndedMessage({ name, session, why: END_REASON_TEXT[reason] }) };
}

// ---------------------------------------------------------------------------------------------------
// Time: expiry and "offer the next ranked facilitator"

/**
 * The next facilitator the ranking would suggest who has had no offer of this session yet: free that
 * day (not unavailable, not booked, times fitting) and with a freelancer id. The new offer gets as
 * long to answer as the one it follows had, but never past the session's start.
 */
async function offerNextRanked(
  ctx: AppContext,
  tx: Tx,
  after: OfferRow,
  booking: BookingRow,
): Promise<number[]> {
  if (!isOpenBooking(booking)) return [];
  const now = ctx.now();
  const starts = sessionStartsAt(booking, ctx.config.ORG_TIMEZONE).getTime();
  const span = Math.max(after.replyBy.getTime() - after.createdAt.getTime(), 60 * 60_000);
  const replyBy = new Date(Math.min(now.getTime() + span, starts));
  if (replyBy.getTime() <= now.getTime()) return [];
  const asked = new Set(
    (await tx.select({ userId: offers.userId }).from(offers).where(eq(offers.bookingId, booking.id))).map(
      (r) => r.userId,
    ),
  );
  const free = await findFree(tx, {
    date: booking.date,
    ...sessionWindow(booking),
    areas: [],
    include: 'free',
  });
  const candidates = free.facilitators.filter((f) => f.free && !asked.has(f.userId)).map((f) => f.userId);
  if (candidates.length === 0) return [];
  const withIds = await tx
    .select({ id: users.id, freelancerId: users.freelancerId })
    .from(users)
    .where(inArray(users.id, candidates));
  const usable = new Set(withIds.filter((u) => (u.freelancerId ?? '').trim()).map((u) => u.id));
  const next = candidates.find((id) => usable.has(id));
  if (next === undefined) return [];
  return insertOffers(
    tx,
    booking,
    [{ userId: next, override: null, safeguarding: null }],
    { message: after.message, replyBy, autoNext: true, now },
    { actorId: null, via: 'automatic' },
  );
}

/**
 * Expire offers whose reply-by time has passed. Run by the scheduler on every instance: rows are
 * claimed with SKIP LOCKED, so each offer expires once. Returns how many expired.
 */
export async function expireOffers(ctx: AppContext): Promise<number> {
  const now = ctx.now();
  let follow: number[] = [];
  const expired = await ctx.db.transaction(async (tx) => {
    const isDue = and(inArray(offers.state, [...LIVE_OFFER_STATES]), lte(offers.replyBy, now));
    // The sessions first, then their offers: the lock order of every offer path. A session another
    // instance is expiring, or someone is accepting, is skipped; its offers are looked at next time.
    const sessions = await tx
      .select()
      .from(bookings)
      .where(inArray(bookings.id, tx.select({ id: offers.bookingId }).from(offers).where(isDue)))
      .orderBy(asc(bookings.id))
      .limit(200)
      .for('update', { skipLocked: true });
    if (sessions.length === 0) return 0;
    const due = await tx
      .select()
      .from(offers)
      .where(
        and(
          isDue,
          inArray(
            offers.bookingId,
            sessions.map((b) => b.id),
          ),
        ),
      )
      .orderBy(asc(offers.id))
      .for('update');
    if (due.length === 0) return 0;
    await tx
      .update(offers)
      .set({ state: 'expired', linkNonce: null })
      .where(
        inArray(
          offers.id,
          due.map((o) => o.id),
        ),
      );
    const byId = new Map(sessions.map((b) => [b.id, b]));
    await recordChanges(
      tx,
      due.map((o) => {
        const b = byId.get(o.bookingId)!;
        return stateChange(o, b, describeSession(b), 'expired', { actorId: null, via: 'automatic' });
      }),
    );
    const followed = new Set<number>();
    for (const o of due) {
      if (!o.autoNext || followed.has(o.bookingId)) continue;
      followed.add(o.bookingId);
      follow = follow.concat(await offerNextRanked(ctx, tx, o, byId.get(o.bookingId)!));
    }
    return due.length;
  });
  await emailOffers(ctx, follow);
  return expired;
}

/**
 * Live offers of sessions that are no longer open (the refresh found a facilitator or a cancellation
 * in SharePoint): withdrawn, and their facilitators told. Run after each bookings refresh.
 */
export async function withdrawOffersOfFilledSessions(ctx: AppContext): Promise<number> {
  const notices: Notice[] = [];
  const count = await ctx.db.transaction(async (tx) => {
    const live = inArray(offers.state, [...LIVE_OFFER_STATES]);
    // sessions first, then offers, as every offer path locks them
    const filled = await tx
      .select({ id: bookings.id })
      .from(bookings)
      .where(
        and(
          sql`(${bookings.userId} is not null or coalesce(trim(${bookings.freelancerId}), '') <> '')`,
          inArray(bookings.id, tx.select({ id: offers.bookingId }).from(offers).where(live)),
        ),
      )
      .orderBy(asc(bookings.id))
      .for('update', { skipLocked: true });
    if (filled.length === 0) return 0;
    const stale = await tx
      .select({ offer: offers, booking: bookings })
      .from(offers)
      .innerJoin(bookings, eq(bookings.id, offers.bookingId))
      .where(
        and(
          live,
          inArray(
            offers.bookingId,
            filled.map((b) => b.id),
          ),
        ),
      )
      .orderBy(asc(offers.id))
      .for('update', { of: offers });
    notices.push(
      ...(await withdrawLocked(ctx, tx, stale, 'session-gone', { actorId: null, via: 'sharepoint' })),
    );
    return stale.length;
  });
  await sendNotices(ctx, notices);
  return count;
}

/**
 * Live offers made without a recorded safeguarding override whose facilitator's checks no longer
 * allow sending on the session's day: a check recorded since (one that no longer counts), a changed
 * policy, a session SharePoint moved to a day the checks do not cover, or time passing. Withdrawn, and
 * the facilitator told; run with the expiry at every scheduler tick. Acceptance checks the same at the
 * moment it happens, so an offer this has not reached yet cannot be accepted either.
 */
export async function withdrawOffersSafeguardingNoLongerAllows(ctx: AppContext): Promise<number> {
  const notices: Notice[] = [];
  const count = await ctx.db.transaction(async (tx) => {
    const open = and(
      inArray(offers.state, [...LIVE_OFFER_STATES]),
      isNull(offers.safeguardingOverrideReason),
    );
    const live = await tx
      .select({ id: offers.id, userId: offers.userId, bookingId: offers.bookingId, date: bookings.date })
      .from(offers)
      .innerJoin(bookings, eq(bookings.id, offers.bookingId))
      .where(open);
    const candidates = await notAllowedBySafeguarding(tx, live);
    if (candidates.length === 0) return 0;
    // sessions first, then offers (ADR 71); a session being answered right now waits for the next run
    const sessions = await tx
      .select()
      .from(bookings)
      .where(inArray(bookings.id, [...new Set(candidates.map((c) => c.bookingId))]))
      .orderBy(asc(bookings.id))
      .for('update', { skipLocked: true });
    const byId = new Map(sessions.map((b) => [b.id, b]));
    const locked = await tx
      .select()
      .from(offers)
      .where(
        and(
          open,
          inArray(
            offers.id,
            candidates.filter((c) => byId.has(c.bookingId)).map((c) => c.id),
          ),
        ),
      )
      .orderBy(asc(offers.id))
      .for('update');
    // judged again under the locks, on the session's day as it now is
    const ending = await notAllowedBySafeguarding(
      tx,
      locked.map((o) => ({ ...o, date: byId.get(o.bookingId)!.date })),
    );
    const withdrawn = ending.map((offer) => ({ offer, booking: byId.get(offer.bookingId)! }));
    notices.push(
      ...(await withdrawLocked(ctx, tx, withdrawn, 'safeguarding', { actorId: null, via: 'automatic' })),
    );
    return ending.length;
  });
  await sendNotices(ctx, notices);
  return count;
}

/**
 * Withdraw live offers the caller has locked (their sessions first), for one reason: recorded in the
 * history, and the notices that tell each facilitator why, to send after the commit.
 */
async function withdrawLocked(
  ctx: AppContext,
  tx: Tx,
  ending: Array<{ offer: OfferRow; booking: BookingRow }>,
  reason: OfferEndReason,
  by: ChangeBy,
): Promise<Notice[]> {
  if (ending.length === 0) return [];
  await tx
    .update(offers)
    .set({ state: 'withdrawn', endedReason: reason, respondedAt: ctx.now(), linkNonce: null })
    .where(
      inArray(
        offers.id,
        ending.map((e) => e.offer.id),
      ),
    );
  await recordChanges(
    tx,
    ending.map(({ offer, booking }) =>
      stateChange(offer, booking, describeSession(booking), 'withdrawn', by, reason),
    ),
  );
  return ending.map(({ offer, booking }) => endedNotice(offer.userId, describeSession(booking), reason));
}

/** Those of these offers whose facilitator's checks do not allow sending on the offer's day. */
async function notAllowedBySafeguarding<T extends { userId: number; date: string }>(
  db: Queryable,
  items: T[],
): Promise<T[]> {
  const byDate = new Map<string, T[]>();
  for (const item of items) byDate.set(item.date, [...(byDate.get(item.date) ?? []), item]);
  const refused: T[] = [];
  for (const [date, onDay] of byDate) {
    const checks = await safeguardingStatuses(
      db,
      onDay.map((i) => i.userId),
      date,
    );
    for (const item of onDay) {
      const check = checks.get(item.userId);
      if (check && !mayBeSent(check.state)) refused.push(item);
    }
  }
  return refused;
}

// ---------------------------------------------------------------------------------------------------
// The email link

function linkFailure(why: 'invalid' | 'expired' | 'used'): AppError {
  if (why === 'invalid') return new AppError(404, LINK_INVALID);
  return new AppError(410, why === 'expired' ? LINK_EXPIRED : LINK_USED);
}

/** The offer behind a usable link. Never changes anything (GET). */
export async function readLink(
  ctx: AppContext,
  token: string,
): Promise<{ view: OfferLinkView; userId: number; nonce: string }> {
  const checked = readOfferLink(ctx.appSecret, token, ctx.now());
  if (!checked.ok) throw linkFailure(checked.why);
  const [row] = await ctx.db
    .select({ userId: offers.userId, linkNonce: offers.linkNonce, state: offers.state })
    .from(offers)
    .where(eq(offers.id, checked.link.offerId));
  if (!row) throw linkFailure('invalid');
  if (row.linkNonce !== checked.link.nonce) {
    // ended without an answer through the portal or this link: say so rather than "used"
    if (row.state === 'withdrawn' || row.state === 'expired') throw new AppError(410, LINK_CLOSED);
    throw linkFailure('used');
  }
  const [joined] = await selectOffers(ctx.db, and(eq(offers.id, checked.link.offerId)));
  return {
    view: { offer: toMyOffer(joined!), name: joined!.name },
    userId: row.userId,
    nonce: checked.link.nonce,
  };
}

export async function answerByLink(
  ctx: AppContext,
  token: string,
  answer: { accept: true } | { accept: false; reason: string },
): Promise<MyOffer> {
  const { view, userId, nonce } = await readLink(ctx, token);
  try {
    return answer.accept
      ? await acceptOffer(ctx, view.offer.id, userId, 'email', nonce)
      : await declineOffer(ctx, view.offer.id, userId, answer.reason, 'email', nonce);
  } catch (error) {
    if (error instanceof AppError && error.message === LINK_USED) throw linkFailure('used');
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------------
// Email

/** The offer emails, each with its own link; failures are recorded on the offer for staff to see. */
export async function emailOffers(ctx: AppContext, offerIds: number[]): Promise<void> {
  if (offerIds.length === 0) return;
  const rows = await ctx.db
    .select({
      id: offers.id,
      linkNonce: offers.linkNonce,
      replyBy: offers.replyBy,
      message: offers.message,
      email: users.email,
      name: sql<string>`coalesce(nullif(${users.displayName}, ''), ${users.username})`,
      booking: bookings,
    })
    .from(offers)
    .innerJoin(users, eq(users.id, offers.userId))
    .innerJoin(bookings, eq(bookings.id, offers.bookingId))
    .where(inArray(offers.id, offerIds));
  const outcome = await sendMail(
    ctx,
    rows.map((row) => ({
      key: row.id,
      to: row.email,
      build: (portalUrl: string) =>
        offerMessage({
          name: row.name,
          session: describeSession(row.booking),
          message: row.message,
          replyBy: formatInstant(row.replyBy, ctx.config.ORG_TIMEZONE),
          link: `${portalUrl}/offer-link#${signOfferLink(ctx.appSecret, {
            offerId: row.id,
            nonce: row.linkNonce ?? '',
            expiresAt: row.replyBy.getTime(),
          })}`,
        }),
    })),
  );
  for (const [id, result] of outcome) {
    await ctx.db
      .update(offers)
      .set(result === null ? { emailedAt: ctx.now(), emailError: null } : { emailError: result })
      .where(eq(offers.id, id));
  }
}

async function sendNotices(ctx: AppContext, notices: Notice[]): Promise<void> {
  if (notices.length === 0) return;
  const people = await ctx.db
    .select({
      id: users.id,
      email: users.email,
      name: sql<string>`coalesce(nullif(${users.displayName}, ''), ${users.username})`,
    })
    .from(users)
    .where(inArray(users.id, [...new Set(notices.map((n) => n.userId))]));
  const byId = new Map(people.map((p) => [p.id, p]));
  await sendMail(
    ctx,
    notices.map((n, i) => ({
      key: i,
      to: byId.get(n.userId)?.email ?? null,
      build: () => n.message(byId.get(n.userId)?.name ?? ''),
    })),
  );
}

/** "Tuesday 3 March 2026 at 4:00 PM" in the organisation's time zone. */
export function formatInstant(instant: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
  }).formatToParts(instant);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('weekday')} ${part('day')} ${part('month')} ${part('year')} at ${part('hour')}:${part('minute')} ${part('dayPeriod').toUpperCase()}`;
}
