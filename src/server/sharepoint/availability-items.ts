/**
 * The Availability list's items by key (`{FreelancerID}|{yyyy-MM-dd}`), kept in the database and
 * learned from the list's change feed: the first read pages through every item, each later one asks
 * only for the changes since (one request when nothing changed). Delivery finds a day's item here.
 *
 * A filtered look-up (`$filter=fields/Title eq '…'`) needs the key column indexed once the list passes
 * 5,000 items, which SharePoint refuses otherwise whatever the client sends; fifty facilitators marking
 * a hundred days a year fill 5,000 items in the first year. The change feed takes no filter, so it
 * works on any list, indexed or not.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sharepointAvailabilityItems, sharepointSettings } from '../db/schema';
import { hasStatus } from './errors';
import { fieldText } from './fields';
import type { DeltaEntry } from './graph-client';
import type { SharePointSession } from './session';

/** Where the feed's position is kept among the settings' delta links. */
const linkKey = (listId: string) => `availability-items#${listId}`;

/** Rows per statement when the index is written. */
const CHUNK = 1000;

export interface AvailabilityItems {
  /**
   * Read what changed in the list since the last read (every item the first time, or after the feed's
   * position expired) into the index. Reads started while one runs share it.
   */
  refresh(): Promise<void>;
  /** The item id of each of these keys that the index knows. */
  idsOf(keys: readonly string[]): Promise<Map<string, string>>;
}

/** Item ids compared as SharePoint numbers them (digit strings): of two items with one key, the lower. */
const lowerId = (a: string, b: string) => ((a.length !== b.length ? a.length < b.length : a < b) ? a : b);

export function availabilityItems(
  db: Db,
  session: SharePointSession,
  list: { siteId: string; listId: string; keyColumn: string },
): AvailabilityItems {
  let running: Promise<void> | undefined;

  async function read(): Promise<void> {
    const [settings] = await db
      .select({ deltaLinks: sharepointSettings.deltaLinks })
      .from(sharepointSettings)
      .where(eq(sharepointSettings.id, 1));
    const stored = settings?.deltaLinks[linkKey(list.listId)];
    let whole = !stored;
    let changes: { entries: DeltaEntry[]; deltaLink: string };
    try {
      changes = await session.client.delta(list.siteId, list.listId, stored, session.pageSize);
    } catch (error) {
      // 410: the feed's position expired; read every item again
      if (!stored || !hasStatus(error, 410)) throw error;
      whole = true;
      changes = await session.client.delta(list.siteId, list.listId, undefined, session.pageSize);
    }
    await apply(changes.entries, whole, changes.deltaLink);
  }

  /**
   * One transaction: the entries and the feed's new position together, so a read that fails halfway
   * is read again from the same place. An item whose entry carries no fields keeps what was known of it.
   */
  async function apply(entries: DeltaEntry[], whole: boolean, deltaLink: string): Promise<void> {
    const touched: string[] = [];
    const byKey = new Map<string, string>();
    for (const entry of entries) {
      if (!entry.deleted && !entry.item.fields) continue;
      touched.push(entry.id);
      const key = entry.deleted ? null : fieldText(entry.item.fields, list.keyColumn);
      if (key) byKey.set(key, byKey.has(key) ? lowerId(byKey.get(key)!, entry.id) : entry.id);
    }
    await db.transaction(async (tx) => {
      const ofList = eq(sharepointAvailabilityItems.listId, list.listId);
      // one list at a time: a whole read starts afresh, and forgets any list read before
      if (whole) await tx.delete(sharepointAvailabilityItems);
      else
        for (let i = 0; i < touched.length; i += CHUNK) {
          await tx
            .delete(sharepointAvailabilityItems)
            .where(and(ofList, inArray(sharepointAvailabilityItems.itemId, touched.slice(i, i + CHUNK))));
        }
      const rows = [...byKey].map(([key, itemId]) => ({ listId: list.listId, key, itemId }));
      for (let i = 0; i < rows.length; i += CHUNK) {
        // another item already holds the key: the lower id is the one delivery writes to
        await tx
          .insert(sharepointAvailabilityItems)
          .values(rows.slice(i, i + CHUNK))
          .onConflictDoUpdate({
            target: [sharepointAvailabilityItems.listId, sharepointAvailabilityItems.key],
            set: {
              itemId: sql`case when length(excluded.item_id) < length(${sharepointAvailabilityItems.itemId})
                or (length(excluded.item_id) = length(${sharepointAvailabilityItems.itemId})
                    and excluded.item_id < ${sharepointAvailabilityItems.itemId})
                then excluded.item_id else ${sharepointAvailabilityItems.itemId} end`,
            },
          });
      }
      await tx
        .update(sharepointSettings)
        .set({
          deltaLinks: sql`${sharepointSettings.deltaLinks} || ${JSON.stringify({ [linkKey(list.listId)]: deltaLink })}::jsonb`,
        })
        .where(eq(sharepointSettings.id, 1));
    });
  }

  return {
    refresh() {
      running ??= read().finally(() => {
        running = undefined;
      });
      return running;
    },
    async idsOf(keys) {
      const found = new Map<string, string>();
      for (let i = 0; i < keys.length; i += CHUNK) {
        const rows = await db
          .select({ key: sharepointAvailabilityItems.key, itemId: sharepointAvailabilityItems.itemId })
          .from(sharepointAvailabilityItems)
          .where(
            and(
              eq(sharepointAvailabilityItems.listId, list.listId),
              inArray(sharepointAvailabilityItems.key, keys.slice(i, i + CHUNK)),
            ),
          );
        for (const row of rows) found.set(row.key, row.itemId);
      }
      return found;
    },
  };
}
