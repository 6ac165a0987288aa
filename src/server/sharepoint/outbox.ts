import type { Queryable } from '../db/client';
import { syncOutbox } from '../db/schema';

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
 * Who delivers queued days: the scheduler's drain loop registers itself here. One per app (the
 * SharePoint connector holds it), so two apps in one process wake only their own loop.
 */
export class OutboxWakeUp {
  private readonly wakers = new Set<() => void>();

  listen(wake: () => void): () => void {
    this.wakers.add(wake);
    return () => this.wakers.delete(wake);
  }

  /**
   * Call after the transaction that queued days has committed: the drain loop starts at once instead
   * of at its next idle poll, so a saved day reaches SharePoint within the round trip. Before the
   * commit the worker could not see the rows yet.
   */
  queued(): void {
    for (const wake of this.wakers) wake();
  }
}
