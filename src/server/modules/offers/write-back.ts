/**
 * The bookings outbox: new sessions and accepted offers on their way to the SharePoint Bookings list.
 * A new session becomes an open booking here as soon as SharePoint has created its item.
 * Rows are claimed with FOR UPDATE SKIP LOCKED and leased by pushing next_attempt_at ahead, as the
 * availability outbox does, so with several instances each write goes out once. An acceptance
 * SharePoint refuses (the item was filled, changed or deleted since the portal read it) is undone:
 * the offer is withdrawn, the booking freed here, and the facilitator and the staff member who made
 * the offer are told.
 */
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { bookingOutbox, bookings, offers, users } from '../../db/schema';
import { describeError } from '../../errors';
import { acceptanceUndoneStaffMessage, describeSession, offerEndedMessage } from '../../mail/offer-message';
import { assignFreelancer, createBookingItem } from '../../sharepoint/booking-writes';
import { isSharePointError } from '../../sharepoint/errors';
import { backoffDelay } from '../../sharepoint/retry';
import type { SharePointSession } from '../../sharepoint/session';
import { recordChanges } from '../history/record';
import { sendMail } from '../reminders/service';
import { END_REASON_TEXT } from './service';

type OutboxRow = typeof bookingOutbox.$inferSelect;

export interface BookingWriteOptions {
  batchSize: number;
  leaseMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
}

export const DEFAULT_BOOKING_WRITE_OPTIONS: BookingWriteOptions = {
  batchSize: 20,
  leaseMs: 5 * 60_000,
  retryBaseMs: 30_000,
  retryMaxMs: 15 * 60_000,
};

export interface BookingWritesResult {
  claimed: number;
  created: number;
  assigned: number;
  undone: number;
  failed: number;
  lastError?: string;
}

async function claim(ctx: AppContext, options: BookingWriteOptions): Promise<OutboxRow[]> {
  const now = ctx.now();
  const due = ctx.db
    .select({ id: bookingOutbox.id })
    .from(bookingOutbox)
    .where(lte(bookingOutbox.nextAttemptAt, now))
    .orderBy(asc(bookingOutbox.id))
    .limit(options.batchSize)
    .for('update', { skipLocked: true });
  return ctx.db
    .update(bookingOutbox)
    .set({ nextAttemptAt: new Date(now.getTime() + options.leaseMs) })
    .where(inArray(bookingOutbox.id, due))
    .returning();
}

/** One round. `session` null: SharePoint is not configured and the rows wait. */
export async function drainBookingWrites(
  ctx: AppContext,
  session: SharePointSession | null,
  partial: Partial<BookingWriteOptions> = {},
): Promise<BookingWritesResult> {
  const options = { ...DEFAULT_BOOKING_WRITE_OPTIONS, ...partial };
  const result: BookingWritesResult = { claimed: 0, created: 0, assigned: 0, undone: 0, failed: 0 };
  if (!session) return result;
  const rows = await claim(ctx, options);
  result.claimed = rows.length;
  for (const row of rows) {
    try {
      if (row.kind === 'create') {
        const booking = await createBookingItem(session, row.fields ?? {});
        await ctx.db.transaction(async (tx) => {
          // listed as open at once; the next refresh reads the same item and keeps this row
          if (booking)
            await tx
              .insert(bookings)
              .values({ ...booking, userId: null, updatedAt: ctx.now() })
              .onConflictDoNothing({ target: bookings.sharePointId });
          await tx.delete(bookingOutbox).where(eq(bookingOutbox.id, row.id));
        });
        result.created++;
      } else {
        const outcome = await deliverAssignment(ctx, session, row);
        if (outcome === 'assigned') result.assigned++;
        if (outcome === 'undone') result.undone++;
      }
    } catch (error) {
      result.failed++;
      result.lastError = describeError(error);
      const delay = backoffDelay(row.attempts + 1, {
        baseDelayMs: options.retryBaseMs,
        maxDelayMs: options.retryMaxMs,
        random: Math.random,
      });
      await ctx.db
        .update(bookingOutbox)
        .set({
          attempts: sql`${bookingOutbox.attempts} + 1`,
          nextAttemptAt: new Date(ctx.now().getTime() + delay),
          lastError: describeError(error).slice(0, 1000),
        })
        .where(eq(bookingOutbox.id, row.id));
      // SharePoint itself is failing: the rest would fail the same way; they keep their lease
      if (!isSharePointError(error) || error.retryable || error.kind !== 'http') break;
    }
  }
  return result;
}

async function deliverAssignment(
  ctx: AppContext,
  session: SharePointSession,
  row: OutboxRow,
): Promise<'assigned' | 'undone' | 'dropped'> {
  const [found] = await ctx.db
    .select({ offer: offers, booking: bookings, freelancerId: users.freelancerId })
    .from(offers)
    .innerJoin(bookings, eq(bookings.id, offers.bookingId))
    .innerJoin(users, eq(users.id, offers.userId))
    .where(eq(offers.id, row.offerId ?? 0));
  if (found?.offer.state !== 'accepted' || found.offer.writeBack !== 'pending') {
    await ctx.db.delete(bookingOutbox).where(eq(bookingOutbox.id, row.id));
    return 'dropped';
  }
  const freelancerId = (found.booking.freelancerId ?? found.freelancerId ?? '').trim();
  const outcome = await assignFreelancer(
    session,
    found.booking.sharePointId,
    found.booking.eTag,
    freelancerId,
  );
  if (outcome === 'assigned') {
    await ctx.db.transaction(async (tx) => {
      await tx.update(offers).set({ writeBack: 'done' }).where(eq(offers.id, found.offer.id));
      await tx.delete(bookingOutbox).where(eq(bookingOutbox.id, row.id));
    });
    return 'assigned';
  }
  await undoAcceptance(ctx, row, found.offer, found.booking);
  return 'undone';
}

async function undoAcceptance(
  ctx: AppContext,
  row: OutboxRow,
  offer: typeof offers.$inferSelect,
  booking: typeof bookings.$inferSelect,
): Promise<void> {
  const session = describeSession(booking);
  await ctx.db.transaction(async (tx) => {
    // the booking before its offers, the lock order of every offer path (service.ts)
    await tx.select({ id: bookings.id }).from(bookings).where(eq(bookings.id, booking.id)).for('update');
    await tx
      .update(offers)
      .set({ state: 'withdrawn', endedReason: 'sharepoint', writeBack: 'undone' })
      .where(and(eq(offers.id, offer.id), eq(offers.state, 'accepted')));
    // free the day here too; the next refresh brings whatever SharePoint now holds
    await tx
      .update(bookings)
      .set({ userId: null, freelancerId: null, updatedAt: ctx.now() })
      .where(and(eq(bookings.id, booking.id), eq(bookings.userId, offer.userId)));
    await tx.delete(bookingOutbox).where(eq(bookingOutbox.id, row.id));
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
  });
  const people = await ctx.db
    .select({
      id: users.id,
      email: users.email,
      name: sql<string>`coalesce(nullif(${users.displayName}, ''), ${users.username})`,
    })
    .from(users)
    .where(inArray(users.id, [offer.userId, ...(offer.offeredBy ? [offer.offeredBy] : [])]));
  const facilitator = people.find((p) => p.id === offer.userId);
  const staff = people.find((p) => p.id === offer.offeredBy);
  await sendMail(ctx, [
    {
      key: 'facilitator',
      to: facilitator?.email ?? null,
      build: () =>
        offerEndedMessage({ name: facilitator?.name ?? '', session, why: END_REASON_TEXT.sharepoint }),
    },
    ...(staff
      ? [
          {
            key: 'staff',
            to: staff.email,
            build: () =>
              acceptanceUndoneStaffMessage({
                name: staff.name,
                facilitator: facilitator?.name ?? 'A facilitator',
                session,
              }),
          },
        ]
      : []),
  ]);
}
