/**
 * The offers feature's side of an acceptance's write-back to the SharePoint Bookings list. The
 * SharePoint adapter queues, claims and retries the write (sharepoint/booking-outbox.ts); this port
 * tells it what to write and records what SharePoint answered. An acceptance SharePoint refuses (the
 * item was filled, changed or deleted since the portal read it) is undone: the offer is withdrawn,
 * the booking freed here, and the facilitator and the staff member who made the offer are told.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { bookings, offers, users } from '../../db/schema';
import { acceptanceUndoneStaffMessage, describeSession, offerEndedMessage } from '../../mail/offer-message';
import type { AcceptanceWriteBack } from '../../sharepoint/booking-outbox';
import { recordChanges } from '../history/record';
import type { PushWakeUp } from '../notifications/notify';
import type { MailDeps } from '../reminders/service';
import { sendNotices } from './making';
import { END_REASON_TEXT } from './service';

/** `deps`: the clock, and what email needs (the undone acceptance is told by email). */
export function acceptanceWriteBack(
  deps: MailDeps & { now: () => Date; push: PushWakeUp },
): AcceptanceWriteBack {
  const accepted = async (db: Queryable, offerId: number) => {
    const [found] = await db
      .select({ offer: offers, booking: bookings, freelancerId: users.freelancerId })
      .from(offers)
      .innerJoin(bookings, eq(bookings.id, offers.bookingId))
      .innerJoin(users, eq(users.id, offers.userId))
      .where(eq(offers.id, offerId));
    return found?.offer.state === 'accepted' && found.offer.writeBack === 'pending' ? found : null;
  };
  return {
    async pending(db, offerId) {
      const found = await accepted(db, offerId);
      if (!found) return null;
      return {
        itemId: found.booking.sharePointId,
        eTag: found.booking.eTag,
        freelancerId: (found.booking.freelancerId ?? found.freelancerId ?? '').trim(),
      };
    },
    async written(tx, offerId) {
      await tx.update(offers).set({ writeBack: 'done' }).where(eq(offers.id, offerId));
    },
    async refused(tx, offerId) {
      const found = await accepted(tx, offerId);
      if (!found) return async () => {};
      const { offer, booking } = found;
      await undoAcceptance(tx, deps.now(), offer, booking);
      return () => tellUndone(deps, offer, booking);
    },
  };
}

async function undoAcceptance(
  tx: Queryable,
  now: Date,
  offer: typeof offers.$inferSelect,
  booking: typeof bookings.$inferSelect,
): Promise<void> {
  const session = describeSession(booking);
  // the booking before its offers, the lock order of every offer path (service.ts)
  await tx.select({ id: bookings.id }).from(bookings).where(eq(bookings.id, booking.id)).for('update');
  await tx
    .update(offers)
    .set({ state: 'withdrawn', endedReason: 'sharepoint', writeBack: 'undone' })
    .where(and(eq(offers.id, offer.id), eq(offers.state, 'accepted')));
  // free the day here too; the next refresh brings whatever SharePoint now holds
  await tx
    .update(bookings)
    .set({ userId: null, freelancerId: null, updatedAt: now })
    .where(and(eq(bookings.id, booking.id), eq(bookings.userId, offer.userId)));
  await recordChanges(tx, [
    {
      entity: 'offer',
      action: 'update',
      subjectUserId: offer.userId,
      date: booking.date,
      actorId: null,
      via: 'sharepoint',
      before: { offerId: offer.id, session, state: 'accepted' },
      after: { offerId: offer.id, session, state: 'withdrawn', reason: 'sharepoint' },
    },
  ]);
}

async function tellUndone(
  deps: MailDeps & { now: () => Date; push: PushWakeUp },
  offer: typeof offers.$inferSelect,
  booking: typeof bookings.$inferSelect,
): Promise<void> {
  const session = describeSession(booking);
  const [facilitator] = await deps.db
    .select({ name: sql<string>`coalesce(nullif(${users.displayName}, ''), ${users.username})` })
    .from(users)
    .where(eq(users.id, offer.userId));
  await sendNotices(deps, [
    {
      userId: offer.userId,
      event: 'offer-filled',
      message: (name) => offerEndedMessage({ name, session, why: END_REASON_TEXT.sharepoint }),
    },
    ...(offer.offeredBy
      ? [
          {
            userId: offer.offeredBy,
            message: (name: string) =>
              acceptanceUndoneStaffMessage({
                name,
                facilitator: facilitator?.name ?? 'A facilitator',
                session,
              }),
          },
        ]
      : []),
  ]);
}
