/**
 * The queue mechanics the portal's outboxes share: availability days (sync_outbox) and writes to the
 * Bookings list (booking_outbox) for SharePoint, and web pushes (push_outbox, modules/notifications). Due rows are claimed with `FOR UPDATE SKIP LOCKED` and leased by
 * pushing `next_attempt_at` ahead, so several workers never take the same rows and a crashed worker's
 * rows come back by themselves; a failed row waits longer after each attempt (retry.ts's backoff).
 */
import { asc, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { bookingOutbox, pushOutbox, syncOutbox } from '../db/schema';
import { backoffDelay } from './retry';

export type OutboxTable = typeof syncOutbox | typeof bookingOutbox | typeof pushOutbox;

export interface LeaseOptions {
  /** rows claimed per round */
  batchSize: number;
  /** how long claimed rows stay invisible to other workers */
  leaseMs: number;
  /** first retry delay of a failed row, doubled per attempt up to retryMaxMs (with jitter) */
  retryBaseMs: number;
  retryMaxMs: number;
  random: () => number;
}

/** Claim due rows: a short transaction, so saving is never held up by delivery. */
export async function claimDue<T extends OutboxTable>(
  db: Db,
  table: T,
  now: Date,
  options: Pick<LeaseOptions, 'batchSize' | 'leaseMs'>,
): Promise<T['$inferSelect'][]> {
  const outbox = table as OutboxTable;
  const due = db
    .select({ id: outbox.id })
    .from(outbox)
    .where(lte(outbox.nextAttemptAt, now))
    .orderBy(asc(outbox.id))
    .limit(options.batchSize)
    .for('update', { skipLocked: true });
  const claimed = await db
    .update(outbox)
    .set({ nextAttemptAt: new Date(now.getTime() + options.leaseMs) })
    .where(inArray(outbox.id, due))
    .returning();
  return claimed as T['$inferSelect'][];
}

/** How long a row waits after its `attempts`-th failure. */
export function retryDelay(attempts: number, options: LeaseOptions): number {
  return backoffDelay(attempts, {
    baseDelayMs: options.retryBaseMs,
    maxDelayMs: options.retryMaxMs,
    random: options.random,
  });
}

/**
 * Put rows back in the queue for `at`. `error`: kept as the rows' last error (null leaves it);
 * `countAttempt`: the rows were tried and failed, so their next wait grows.
 */
export async function reschedule(
  db: Db,
  table: OutboxTable,
  ids: number[],
  at: Date,
  error: string | null,
  countAttempt: boolean,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(table)
    .set({
      nextAttemptAt: at,
      ...(countAttempt ? { attempts: sql`${table.attempts} + 1` } : {}),
      ...(error !== null ? { lastError: error.slice(0, 1000) } : {}),
    })
    .where(inArray(table.id, ids));
}
