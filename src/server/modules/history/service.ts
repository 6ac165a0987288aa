import { and, between, desc, eq, inArray, lt, type SQL } from 'drizzle-orm';
import type { ChangeEntityName, HistoryEntry } from '../../../shared/schemas/history';
import type { Queryable } from '../../db/client';
import { changeHistory } from '../../db/schema';

type HistoryRow = typeof changeHistory.$inferSelect;

export function toHistoryEntry(row: HistoryRow): HistoryEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    entity: row.entity as HistoryEntry['entity'],
    action: row.action as HistoryEntry['action'],
    subjectUserId: row.subjectUserId,
    subjectName: row.subjectName,
    date: row.date,
    actorId: row.actorId,
    actorName: row.actorName,
    via: row.via as HistoryEntry['via'],
    before: (row.before as Record<string, unknown> | null) ?? null,
    after: (row.after as Record<string, unknown> | null) ?? null,
  };
}

export interface HistoryFilter {
  subjectUserId: number;
  entities?: ChangeEntityName[];
  /** one day */
  date?: string;
  /** days in an inclusive range */
  range?: { from: string; to: string };
}

export interface Page {
  limit: number;
  before?: number | undefined;
}

/** Entries about one person, newest first, one page at a time (keyset on id: stable while rows arrive). */
export async function readHistory(
  db: Queryable,
  filter: HistoryFilter,
  page: Page,
): Promise<{ entries: HistoryEntry[]; nextBefore: number | null }> {
  const h = changeHistory;
  const conditions: SQL[] = [eq(h.subjectUserId, filter.subjectUserId)];
  if (filter.entities) conditions.push(inArray(h.entity, filter.entities));
  if (filter.date) conditions.push(eq(h.date, filter.date));
  if (filter.range) conditions.push(between(h.date, filter.range.from, filter.range.to));
  if (page.before !== undefined) conditions.push(lt(h.id, page.before));
  const rows = await db
    .select()
    .from(h)
    .where(and(...conditions))
    .orderBy(desc(h.id))
    .limit(page.limit + 1);
  const more = rows.length > page.limit;
  const entries = rows.slice(0, page.limit).map(toHistoryEntry);
  return { entries, nextBefore: more ? (entries.at(-1)?.id ?? null) : null };
}
