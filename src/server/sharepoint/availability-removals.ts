/**
 * Availability items to remove from SharePoint: the days of a person erased, or anonymised by the
 * retention schedule. Queued inside the erasure's or the retention run's transaction
 * (`enqueueRemovalsOfPerson`), before their availability rows go; delivered by the same drain loop as the availability
 * outbox (`drainAvailabilityRemovals`), each row deleted once SharePoint has removed its item (or the
 * item was already gone). A failed removal waits longer at each attempt, like the outbox.
 */
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../db/client';
import { availability, availabilityRemovals, sharepointAvailabilityItems } from '../db/schema';
import { availabilityItems } from './availability-items';
import type { SharePointSession } from './session';

const BATCH = 50;
const MAX_WAIT_MS = 60 * 60 * 1000;

/**
 * Queue the removal of every item of the Availability list this freelancer ID keys, and forget them
 * in the index: the item ids the index knows go with the rows, so delivery needs no look-up for them.
 * `days`: the days the portal held for the person, with the item id it remembers for each (the
 * index may not know an item the portal made itself yet).
 */
export async function enqueueAvailabilityRemovals(
  db: Queryable,
  freelancerId: string,
  days: ReadonlyArray<{ date: string; itemId: string | null }>,
  now: Date,
): Promise<number> {
  const prefix = `${freelancerId}|`;
  const known = await db
    .delete(sharepointAvailabilityItems)
    .where(sql`left(${sharepointAvailabilityItems.key}, ${prefix.length}) = ${prefix}`)
    .returning({ key: sharepointAvailabilityItems.key, itemId: sharepointAvailabilityItems.itemId });
  const byKey = new Map<string, string | null>(known.map((row) => [row.key, row.itemId]));
  for (const day of days) {
    const key = `${prefix}${day.date}`;
    if (!byKey.get(key)) byKey.set(key, day.itemId);
  }
  const rows = [...byKey].map(([key, itemId]) => ({ key, itemId, createdAt: now, nextAttemptAt: now }));
  for (let i = 0; i < rows.length; i += 1000) {
    await db.insert(availabilityRemovals).values(rows.slice(i, i + 1000));
  }
  return rows.length;
}

/**
 * Queue the removal of every SharePoint availability item of one person (keyed by their freelancer
 * ID; none without one), from the days the portal holds for them: called before those days are
 * deleted. Returns how many items were queued.
 */
export async function enqueueRemovalsOfPerson(
  db: Queryable,
  person: { id: number; freelancerId: string | null },
  now: Date,
): Promise<number> {
  if (!person.freelancerId) return 0;
  const days = await db
    .select({ date: availability.date, itemId: availability.sharePointItemId })
    .from(availability)
    .where(eq(availability.userId, person.id));
  return enqueueAvailabilityRemovals(db, person.freelancerId, days, now);
}

export interface RemovalsResult {
  removed: number;
  failed: number;
}

/** One round: remove the due items. Never throws for one item; a failed one is tried again later. */
export async function drainAvailabilityRemovals(
  db: Db,
  session: SharePointSession | null,
  now: () => Date,
): Promise<RemovalsResult> {
  const result: RemovalsResult = { removed: 0, failed: 0 };
  if (!session) return result;
  const due = await db
    .select()
    .from(availabilityRemovals)
    .where(lte(availabilityRemovals.nextAttemptAt, now()))
    .orderBy(asc(availabilityRemovals.id))
    .limit(BATCH);
  if (due.length === 0) return result;
  const siteId = await session.siteId();
  const listId = await session.listId(session.settings.availabilityListName);
  const columns = (await session.columns('availability')) as { key: string };
  const items = availabilityItems(db, session, { siteId, listId, keyColumn: columns.key });
  const unknown = due.filter((row) => !row.itemId).map((row) => row.key);
  if (unknown.length > 0) await items.refresh();
  const found = unknown.length > 0 ? await items.idsOf(unknown) : new Map<string, string>();
  for (const row of due) {
    try {
      const itemId = row.itemId ?? found.get(row.key);
      if (itemId) await session.client.deleteItem(siteId, listId, itemId);
      await db.transaction(async (tx) => {
        await tx
          .delete(sharepointAvailabilityItems)
          .where(
            and(eq(sharepointAvailabilityItems.listId, listId), eq(sharepointAvailabilityItems.key, row.key)),
          );
        await tx.delete(availabilityRemovals).where(eq(availabilityRemovals.id, row.id));
      });
      result.removed++;
    } catch (error) {
      result.failed++;
      const wait = Math.min(MAX_WAIT_MS, 30_000 * 2 ** Math.min(row.attempts, 10));
      await db
        .update(availabilityRemovals)
        .set({
          attempts: row.attempts + 1,
          nextAttemptAt: new Date(now().getTime() + wait),
          lastError: error instanceof Error ? error.message.slice(0, 500) : 'failed',
        })
        .where(inArray(availabilityRemovals.id, [row.id]));
    }
  }
  return result;
}
