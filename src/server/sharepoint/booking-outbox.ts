/**
 * Writes to the Bookings list, queued in booking_outbox: a session made in the portal (`create`) and
 * the freelancer of an accepted offer (`assign`). Rows are claimed, leased and retried exactly as the
 * availability outbox's (outbox-lease.ts), and drained by the same loop, which is woken when a row
 * commits (outbox.ts). A created session is listed here as open as soon as SharePoint has made its
 * item. What an acceptance means belongs to the offers feature, so the caller hands in a port,
 * `AcceptanceWriteBack`, for reading an acceptance and for recording what SharePoint answered.
 */
import { eq } from 'drizzle-orm';
import type { Db, Queryable } from '../db/client';
import { bookingOutbox, bookings } from '../db/schema';
import { assignFreelancer, createBookingItem } from './booking-writes';
import { describeError, isSharePointError } from './errors';
import { claimDue, type LeaseOptions, reschedule, retryDelay } from './outbox-lease';
import type { SharePointSession } from './session';

/** Rows claimed per round: each is a Graph request or two, made one after another. */
export const BOOKING_WRITES_BATCH = 20;

/** The offers feature's side of an acceptance's write-back (modules/offers/write-back.ts). */
export interface AcceptanceWriteBack {
  /** What to write for the offer, or null when nothing is to be written any more (withdrawn, done). */
  pending(
    db: Queryable,
    offerId: number,
  ): Promise<{ itemId: string; eTag: string | null; freelancerId: string } | null>;
  /** SharePoint holds the freelancer: record it, inside the transaction that drops the queued row. */
  written(tx: Queryable, offerId: number): Promise<void>;
  /**
   * SharePoint refused (the item was filled, changed or deleted since it was read): undo the
   * acceptance inside the transaction that drops the queued row. Answers what to do once that
   * transaction has committed (tell the people concerned).
   */
  refused(tx: Queryable, offerId: number): Promise<() => Promise<void>>;
}

export interface BookingWritesResult {
  claimed: number;
  created: number;
  assigned: number;
  undone: number;
  failed: number;
  lastError?: string;
}

/** One round. `session` null: SharePoint is not configured and the rows wait. */
export async function drainBookingWrites(
  db: Db,
  session: SharePointSession | null,
  now: () => Date,
  acceptances: AcceptanceWriteBack,
  options: LeaseOptions,
): Promise<BookingWritesResult> {
  const result: BookingWritesResult = { claimed: 0, created: 0, assigned: 0, undone: 0, failed: 0 };
  if (!session) return result;
  const rows = await claimDue(db, bookingOutbox, now(), { ...options, batchSize: BOOKING_WRITES_BATCH });
  result.claimed = rows.length;
  const drop = (tx: Queryable, id: number) => tx.delete(bookingOutbox).where(eq(bookingOutbox.id, id));
  for (const row of rows) {
    try {
      if (row.kind === 'create') {
        const booking = await createBookingItem(session, row.fields ?? {});
        await db.transaction(async (tx) => {
          // listed as open at once; the next refresh reads the same item and keeps this row
          if (booking)
            await tx
              .insert(bookings)
              .values({ ...booking, userId: null, updatedAt: now() })
              .onConflictDoNothing({ target: bookings.sharePointId });
          await drop(tx, row.id);
        });
        result.created++;
        continue;
      }
      const offerId = row.offerId ?? 0;
      const wanted = await acceptances.pending(db, offerId);
      if (!wanted) {
        await drop(db, row.id);
        continue;
      }
      const outcome = await assignFreelancer(session, wanted.itemId, wanted.eTag, wanted.freelancerId);
      if (outcome === 'assigned') {
        await db.transaction(async (tx) => {
          await acceptances.written(tx, offerId);
          await drop(tx, row.id);
        });
        result.assigned++;
      } else {
        const afterwards = await db.transaction(async (tx) => {
          const then = await acceptances.refused(tx, offerId);
          await drop(tx, row.id);
          return then;
        });
        await afterwards();
        result.undone++;
      }
    } catch (error) {
      result.failed++;
      result.lastError = describeError(error);
      const at = new Date(now().getTime() + retryDelay(row.attempts + 1, options));
      await reschedule(db, bookingOutbox, [row.id], at, describeError(error), true);
      // SharePoint itself is failing: the rest would fail the same way; they keep their lease
      if (!isSharePointError(error) || error.retryable || error.kind !== 'http') break;
    }
  }
  return result;
}
