import { sql } from 'drizzle-orm';
import type { Queryable } from './client';

export type VersionedList = 'availability' | 'bookings' | 'users' | 'notes';

/**
 * The current versions of some lists as the triggers keep them (drizzle/0004_list_versions.sql,
 * drizzle/0018_users_list_version.sql and drizzle/0022_notes_list_version.sql), as one text: each
 * list's counter (availability: one facilitator's when `userId` is given, otherwise the sum of
 * everyone's, which only grows because counters are never reset or removed; the bookings and staff
 * notes as a whole), then the database's epoch.
 *
 * Read it *before* the rows it stands for: an answer built afterwards is then at least as new as the
 * version it is tagged with, and a later write moves the version on, so nothing stale is confirmed.
 *
 * The epoch (the list_versions table's object id and when the server started) changes when the
 * counters could have gone back: a restore recreates the table (a new object id) or the database
 * (PGlite: a new start time). So an ETag from before a restore never passes for one after it.
 */
export async function readListVersions(
  db: Queryable,
  lists: readonly VersionedList[],
  userId?: number,
): Promise<string> {
  const parts = lists.map((list) => {
    const own = list === 'availability' && userId !== undefined ? sql` and user_id = ${userId}` : sql``;
    return sql`(select coalesce(sum(version), 0)::text from list_versions where list = ${list}${own})`;
  });
  const result = (await db.execute(
    sql`select concat_ws('/', ${sql.join(parts, sql`, `)},
          'list_versions'::regclass::oid::text || '@' || pg_postmaster_start_time()::text) as at`,
  )) as unknown as { rows: Array<{ at: string }> };
  return result.rows[0]?.at ?? '';
}
