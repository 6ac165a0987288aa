import { sql } from 'drizzle-orm';
import type { Queryable } from './client';

export type VersionedList = 'availability' | 'bookings';

/**
 * The current version of a list as the triggers keep it (drizzle/0004_list_versions.sql): one
 * facilitator's availability, everyone's (the sum of every facilitator's counter, which only grows
 * because counters are never reset or removed), or the bookings as a whole.
 *
 * Read it *before* the rows it stands for: an answer built afterwards is then at least as new as the
 * version it is cached under, and a later write moves the version on, so nothing stale is served.
 */
export async function readListVersion(db: Queryable, list: VersionedList, userId?: number): Promise<string> {
  const where =
    list === 'availability' && userId !== undefined
      ? sql`list = ${list} and user_id = ${userId}`
      : sql`list = ${list}`;
  const result = (await db.execute(
    sql`select coalesce(sum(version), 0)::text as version from list_versions where ${where}`,
  )) as unknown as { rows: Array<{ version: string }> };
  return result.rows[0]?.version ?? '0';
}
