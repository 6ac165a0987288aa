/**
 * Offers: staff offer an open session (a booking without a facilitator) to facilitators; the first
 * to accept gets it, and the freelancer id goes back to SharePoint through the SharePoint adapter's
 * Bookings outbox (write-back.ts is this feature's side of it). First acceptance wins in the database,
 * not in this process: the booking row is locked for the acceptance's transaction and a unique partial
 * index allows one accepted offer per booking, so any number of instances sharing PostgreSQL agree on
 * one winner. ADR 0088.
 *
 * This file holds what every part shares (the messages, reading offers); open sessions are in
 * sessions.ts, making offers and their emails in making.ts, the answers (in the portal and by email
 * link) in answers.ts, and expiry and withdrawals in expiry.ts.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { SafeguardingState } from '../../../shared/safeguarding';
import {
  LIVE_OFFER_STATES,
  type MyOffer,
  type OfferEndReason,
  type OfferOverride,
  type OfferState,
  type StaffOffer,
} from '../../../shared/schemas/offers';
import type { Queryable } from '../../db/client';
import { bookings, offers, users } from '../../db/schema';
import { notFound } from '../../errors';
import { instantAt } from '../../office-hours';
import type { SharePointConnector } from '../../sharepoint/connector';
import { findFree } from '../free/service';
import type { PushWakeUp } from '../notifications/notify';
import type { MailDeps } from '../reminders/service';

export type OfferRow = typeof offers.$inferSelect;
export type BookingRow = typeof bookings.$inferSelect;

export const SESSION_TAKEN = 'This session already has a facilitator.';
export const OFFER_NOT_OPEN = 'This offer can no longer be answered.';
export const OFFER_NOT_FOUND = 'Offer not found';
export const LINK_INVALID = 'This link is not valid. Open your offers in the portal instead.';
export const LINK_EXPIRED = 'This link has expired. Open your offers in the portal instead.';
export const LINK_CLOSED = 'This offer is no longer open. Open your offers in the portal to see why.';
export const LINK_USED = 'This link has already been used. Open your offers in the portal instead.';

export const isLive = (state: string) => (LIVE_OFFER_STATES as readonly string[]).includes(state);

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

/**
 * What the offers services use: email (offers and their endings are sent), the clock, and the
 * SharePoint connector, whose outbox takes new sessions and acceptances and is woken after their commit.
 */
export interface OffersDeps extends MailDeps {
  now: () => Date;
  sharePoint: SharePointConnector;
  /** wakes push delivery after an offer's pushes are queued (modules/notifications) */
  push: PushWakeUp;
}

/** A booking is open while it has no freelancer, in SharePoint and here. */
export const isOpenBooking = (b: Pick<BookingRow, 'freelancerId' | 'userId'>) =>
  (b.freelancerId ?? '').trim() === '' && b.userId === null;

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

export async function selectOffers(db: Queryable, where: ReturnType<typeof and>): Promise<JoinedOffer[]> {
  return (await db
    .select(offerColumns)
    .from(offers)
    .innerJoin(bookings, eq(bookings.id, offers.bookingId))
    .innerJoin(users, eq(users.id, offers.userId))
    .where(where)
    .orderBy(asc(bookings.date), asc(bookings.startTime), asc(offers.id))) as JoinedOffer[];
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toMyOffer(o: JoinedOffer): MyOffer {
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

export function toStaffOffer(o: JoinedOffer): StaffOffer {
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
  ctx: Pick<OffersDeps, 'db'>,
  userId: number,
  range: { from?: string | undefined; to?: string | undefined },
): Promise<MyOffer[]> {
  const conditions = [eq(offers.userId, userId)];
  if (range.from) conditions.push(sql`${bookings.date} >= ${range.from}`);
  if (range.to) conditions.push(sql`${bookings.date} <= ${range.to}`);
  return (await selectOffers(ctx.db, and(...conditions))).map(toMyOffer);
}

export async function listSessionOffers(
  ctx: Pick<OffersDeps, 'db'>,
  bookingId: number,
): Promise<StaffOffer[]> {
  await requireBooking(ctx.db, bookingId);
  return (await selectOffers(ctx.db, and(eq(offers.bookingId, bookingId)))).map(toStaffOffer);
}

export async function staffOfferById(db: Queryable, offerId: number): Promise<StaffOffer> {
  const [row] = await selectOffers(db, and(eq(offers.id, offerId)));
  if (!row) throw notFound(OFFER_NOT_FOUND);
  return toStaffOffer(row);
}

export async function requireBooking(db: Queryable, bookingId: number, lock = false): Promise<BookingRow> {
  const query = db.select().from(bookings).where(eq(bookings.id, bookingId));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound('Session not found');
  return row;
}

/** "Who is free" for the session's day and times, everyone listed, ranked; a page of them, searched. */
export async function sessionCandidates(
  ctx: Pick<OffersDeps, 'db'>,
  bookingId: number,
  page: { cursor?: string | undefined; limit?: number | undefined; search?: string | undefined } = {},
) {
  const booking = await requireBooking(ctx.db, bookingId);
  return findFree(ctx.db, {
    date: booking.date,
    ...sessionWindow(booking),
    areas: [],
    include: 'all',
    ...page,
  });
}

/** The free search's time window: both ends when both are known and in order, else none. */
export function sessionWindow(b: Pick<BookingRow, 'startTime' | 'endTime'>): { from?: string; to?: string } {
  const from = b.startTime?.trim();
  const to = b.endTime?.trim();
  return from && to && from < to ? { from, to } : {};
}

/** When the session starts (ORG_TIMEZONE), or the end of its day when it has no start time. */
export function sessionStartsAt(b: Pick<BookingRow, 'date' | 'startTime'>, timeZone: string): Date {
  const [year, month, day] = b.date.split('-').map(Number) as [number, number, number];
  const start = b.startTime?.match(/^(\d{2}):(\d{2})$/);
  const minute = start ? Number(start[1]) * 60 + Number(start[2]) : 24 * 60;
  return instantAt({ year, month, day }, minute, timeZone);
}
