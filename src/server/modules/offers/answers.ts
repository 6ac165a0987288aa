/** Offers: the facilitator's answers, in the portal and through the email link; staff withdrawing one. */
import { and, eq, inArray, ne } from 'drizzle-orm';
import { mayBeSent } from '../../../shared/safeguarding';
import {
  LIVE_OFFER_STATES,
  type MyOffer,
  type OfferLinkView,
  type StaffOffer,
} from '../../../shared/schemas/offers';
import type { Queryable, Tx } from '../../db/client';
import { bookings, offers, users } from '../../db/schema';
import { AppError, conflict, isUniqueViolation, notFound } from '../../errors';
import { describeSession } from '../../mail/offer-message';
import { enqueueAcceptance } from '../../sharepoint/outbox';
import { recordChanges } from '../history/record';
import { safeguardingStatuses } from '../safeguarding/service';
import { offerNextRanked } from './expiry';
import { readOfferLink } from './links';
import {
  emailOffers,
  endedNotice,
  type Notice,
  safeguardingRefusal,
  sendNotices,
  stateChange,
} from './making';
import {
  type BookingRow,
  isLive,
  isOpenBooking,
  LINK_CLOSED,
  LINK_EXPIRED,
  LINK_INVALID,
  LINK_USED,
  OFFER_NOT_FOUND,
  OFFER_NOT_OPEN,
  type OfferRow,
  type OffersDeps,
  SESSION_TAKEN,
  selectOffers,
  staffOfferById,
  toMyOffer,
} from './service';

// ---------------------------------------------------------------------------------------------------
// Answers

/** Mark seen (the facilitator opened it); answered and ended offers stay as they are. */
export async function markSeen(
  ctx: Pick<OffersDeps, 'db' | 'now'>,
  offerId: number,
  userId: number,
): Promise<MyOffer> {
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

/**
 * Accept: lock the booking (every acceptance of one session queues here, whatever the instance), check
 * the offer and the session are still open, mark it accepted (the unique index backs this up),
 * withdraw the others, give the facilitator the booking (their day locks as for any booking) and queue
 * the write-back, all in one transaction.
 */
export async function acceptOffer(
  ctx: OffersDeps,
  offerId: number,
  userId: number,
  via: 'facilitator' | 'email',
  linkNonce?: string,
): Promise<MyOffer> {
  const notices: Notice[] = [];
  let repeated = false;
  try {
    await ctx.db.transaction(async (tx) => {
      const { offer, booking } = await lockOfferAndSession(tx, offerId, { userId, linkNonce });
      const now = ctx.now();
      // the same acceptance again (a reply sent again after its answer was lost): it is already theirs
      if (offer.state === 'accepted') {
        repeated = true;
        return;
      }
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
  if (repeated) return myOfferById(ctx.db, offerId, userId);
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
  ctx: Pick<OffersDeps, 'appSecret' | 'config' | 'db' | 'mailer' | 'now' | 'push'>,
  offerId: number,
  userId: number,
  reason: string,
  via: 'facilitator' | 'email',
  linkNonce?: string,
): Promise<MyOffer> {
  const follow = await ctx.db.transaction(async (tx) => {
    const { offer, booking } = await lockOfferAndSession(tx, offerId, { userId, linkNonce });
    const now = ctx.now();
    // the same decline again (a reply sent again after its answer was lost): nothing more to do
    if (offer.state === 'declined') return [];
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

export async function withdrawOffer(
  ctx: Pick<OffersDeps, 'appSecret' | 'config' | 'db' | 'mailer' | 'now' | 'push'>,
  offerId: number,
  actorId: number,
): Promise<StaffOffer> {
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

// ---------------------------------------------------------------------------------------------------
// The email link

function linkFailure(why: 'invalid' | 'expired' | 'used'): AppError {
  if (why === 'invalid') return new AppError(404, LINK_INVALID);
  return new AppError(410, why === 'expired' ? LINK_EXPIRED : LINK_USED);
}

/** The offer behind a usable link. Never changes anything (GET). */
export async function readLink(
  ctx: Pick<OffersDeps, 'appSecret' | 'db' | 'now'>,
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
  ctx: OffersDeps,
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
