/** Offers: expiry, offering the next ranked facilitator, and withdrawals the offers tick makes. */
import { and, asc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { mayBeSent } from '../../../shared/safeguarding';
import { LIVE_OFFER_STATES, type OfferEndReason } from '../../../shared/schemas/offers';
import type { Queryable, Tx } from '../../db/client';
import { bookings, offers, users } from '../../db/schema';
import { describeSession } from '../../mail/offer-message';
import { findFree } from '../free/service';
import type { ChangeBy } from '../history/record';
import { recordChanges } from '../history/record';
import { notify } from '../notifications/notify';
import { safeguardingStatuses } from '../safeguarding/service';
import {
  emailOffers,
  endedNotice,
  insertOffers,
  type Notice,
  OFFERS_LINK,
  sendNotices,
  stateChange,
} from './making';
import {
  type BookingRow,
  isOpenBooking,
  type OfferRow,
  type OffersDeps,
  sessionStartsAt,
  sessionWindow,
} from './service';

// ---------------------------------------------------------------------------------------------------
// Time: expiry and "offer the next ranked facilitator"

/**
 * The next facilitator the ranking would suggest who has had no offer of this session yet: free that
 * day (not unavailable, not booked, times fitting) and with a freelancer id. The new offer gets as
 * long to answer as the one it follows had, but never past the session's start.
 */
export async function offerNextRanked(
  ctx: Pick<OffersDeps, 'config' | 'now'>,
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
export async function expireOffers(
  ctx: Pick<OffersDeps, 'appSecret' | 'config' | 'db' | 'mailer' | 'now' | 'push'>,
): Promise<number> {
  const now = ctx.now();
  let follow: number[] = [];
  let expiredFor: number[] = [];
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
    expiredFor = due.map((o) => o.userId);
    const followed = new Set<number>();
    for (const o of due) {
      if (!o.autoNext || followed.has(o.bookingId)) continue;
      followed.add(o.bookingId);
      follow = follow.concat(await offerNextRanked(ctx, tx, o, byId.get(o.bookingId)!));
    }
    return due.length;
  });
  // no email was ever sent for an offer running out; a push, where the person chose one
  for (const userId of expiredFor) await notify(ctx, userId, 'offer-expired', OFFERS_LINK);
  await emailOffers(ctx, follow);
  return expired;
}

/**
 * Live offers of sessions that are no longer open (the refresh found a facilitator or a cancellation
 * in SharePoint): withdrawn, and their facilitators told. Run after each bookings refresh.
 */
export async function withdrawOffersOfFilledSessions(
  ctx: Pick<OffersDeps, 'appSecret' | 'config' | 'db' | 'mailer' | 'now' | 'push'>,
): Promise<number> {
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
export async function withdrawOffersSafeguardingNoLongerAllows(
  ctx: Pick<OffersDeps, 'appSecret' | 'config' | 'db' | 'mailer' | 'now' | 'push'>,
): Promise<number> {
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
  ctx: Pick<OffersDeps, 'now'>,
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
