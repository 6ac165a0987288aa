import { asc, eq } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { bookingOutbox, syncOutbox } from '../db/schema';

export interface DayKey {
  userId: number;
  date: string;
}

/**
 * Queue days for delivery to SharePoint. Call it inside the transaction that changes them, so a
 * change and its delivery commit or roll back together: nothing is lost while SharePoint is away.
 * The worker (sharepoint/outbox-worker) reads the day's current row when it delivers, so queuing the
 * same day twice costs one extra look-up, never a duplicate item.
 */
export async function enqueueAvailabilitySync(db: Queryable, days: DayKey[]): Promise<void> {
  if (days.length === 0) return;
  const chunkSize = 5000;
  for (let i = 0; i < days.length; i += chunkSize) {
    await db
      .insert(syncOutbox)
      .values(days.slice(i, i + chunkSize).map(({ userId, date }) => ({ userId, date })));
  }
}

/**
 * Queue a new session for the Bookings list (booking-outbox.ts), inside the caller's transaction.
 * `fields`: the portal's names for its columns (title, date, times, school, programme, location).
 */
export async function enqueueSessionCreate(
  db: Queryable,
  fields: Record<string, string>,
  createdBy: number,
  now: Date,
): Promise<number> {
  const [row] = await db
    .insert(bookingOutbox)
    .values({ kind: 'create', fields, createdBy, createdAt: now, nextAttemptAt: now })
    .returning({ id: bookingOutbox.id });
  return row!.id;
}

/** Queue an accepted offer's freelancer for its Bookings item, inside the acceptance's transaction. */
export async function enqueueAcceptance(db: Queryable, offerId: number, now: Date): Promise<void> {
  await db.insert(bookingOutbox).values({ kind: 'assign', offerId, createdAt: now, nextAttemptAt: now });
}

/** Sessions queued for the Bookings list and not yet made there, oldest first. */
export async function queuedSessions(db: Queryable) {
  return db
    .select()
    .from(bookingOutbox)
    .where(eq(bookingOutbox.kind, 'create'))
    .orderBy(asc(bookingOutbox.id));
}

/**
 * Who delivers queued rows: the scheduler's drain loop registers itself here. One per app (the
 * SharePoint connector holds it), so two apps in one process wake only their own loop.
 */
export class OutboxWakeUp {
  private readonly wakers = new Set<() => void>();

  listen(wake: () => void): () => void {
    this.wakers.add(wake);
    return () => this.wakers.delete(wake);
  }

  /**
   * Call after the transaction that queued days or Bookings writes has committed: the drain loop
   * starts at once instead of at its next idle poll, so a saved day reaches SharePoint within the
   * round trip. Before the commit the worker could not see the rows yet.
   */
  queued(): void {
    for (const wake of this.wakers) wake();
  }
}
