import { and, eq, inArray } from 'drizzle-orm';
import { LIVE_OFFER_STATES } from '../../../shared/schemas/offers';
import type { Db } from '../../db/client';
import { bookings, offers, pushSubscriptions, sessions, users } from '../../db/schema';
import { AppError, conflict, notFound } from '../../errors';
import { type ChangeBy, recordChanges } from '../history/record';
import { assertAnotherActiveStaffRemains, STAFF_ROLE, type UserRow } from './service';

export const ALREADY_DEACTIVATED = 'This account is already deactivated';
export const NOT_DEACTIVATED = 'This account is active';
export const ANONYMISED = 'This account was anonymised by the retention schedule and cannot be reactivated';

/**
 * Deactivate an account: a leaver. At once, in one transaction: every session ends (and the session
 * check refuses the account from now on, however it signs in), live offers are withdrawn, and the
 * calendar feed, offers and reminders stop asking for it. The account and its records stay; the
 * retention schedule counts its periods from `deactivated_at`.
 */
export async function deactivateUser(db: Db, id: number, by: ChangeBy & { actorId: number }, now: Date) {
  if (id === by.actorId) throw new AppError(400, 'You cannot deactivate your own account');
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.role, STAFF_ROLE)).for('update');
    const [existing] = await tx.select().from(users).where(eq(users.id, id)).for('update');
    if (!existing) throw notFound('User not found');
    if (existing.deactivatedAt) throw conflict(ALREADY_DEACTIVATED);
    if (existing.role === STAFF_ROLE) {
      await assertAnotherActiveStaffRemains(tx, id, 'The last active staff account cannot be deactivated');
    }
    const [row] = await tx
      .update(users)
      .set({ deactivatedAt: now, updatedAt: now, version: existing.version + 1 })
      .where(eq(users.id, id))
      .returning();
    await tx.delete(sessions).where(eq(sessions.userId, id));
    // nothing is pushed to a leaver's devices; what was queued for them goes with the subscriptions
    await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, id));
    const live = await tx
      .select({ id: offers.id, state: offers.state, date: bookings.date })
      .from(offers)
      .innerJoin(bookings, eq(bookings.id, offers.bookingId))
      .where(and(eq(offers.userId, id), inArray(offers.state, [...LIVE_OFFER_STATES])))
      .for('update', { of: offers });
    if (live.length > 0) {
      await tx
        .update(offers)
        .set({ state: 'withdrawn', endedReason: 'staff', respondedAt: now, linkNonce: null })
        .where(
          inArray(
            offers.id,
            live.map((offer) => offer.id),
          ),
        );
    }
    await recordChanges(tx, [
      {
        entity: 'account',
        action: 'update',
        subjectUserId: id,
        actorId: by.actorId,
        via: by.via,
        before: { active: true },
        after: { active: false, offersWithdrawn: live.length },
      },
      ...live.map((offer) => ({
        entity: 'offer' as const,
        action: 'update' as const,
        subjectUserId: id,
        date: offer.date,
        actorId: by.actorId,
        via: by.via,
        before: { offerId: offer.id, state: offer.state },
        after: { offerId: offer.id, state: 'withdrawn', reason: 'staff' },
      })),
    ]);
    return row!;
  });
}

/** Undo a deactivation, until the retention schedule has anonymised the account. */
export async function reactivateUser(
  db: Db,
  id: number,
  by: ChangeBy & { actorId: number },
  now: Date,
): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const [existing] = await tx.select().from(users).where(eq(users.id, id)).for('update');
    if (!existing) throw notFound('User not found');
    if (existing.anonymisedAt) throw conflict(ANONYMISED);
    if (!existing.deactivatedAt) throw conflict(NOT_DEACTIVATED);
    const [row] = await tx
      .update(users)
      .set({ deactivatedAt: null, updatedAt: now, version: existing.version + 1 })
      .where(eq(users.id, id))
      .returning();
    await recordChanges(tx, [
      {
        entity: 'account',
        action: 'update',
        subjectUserId: id,
        actorId: by.actorId,
        via: by.via,
        before: { active: false },
        after: { active: true },
      },
    ]);
    return row!;
  });
}
