import { sql } from 'drizzle-orm';
import type { Queryable } from './client';

export type VersionedList = 'availability' | 'bookings' | 'users' | 'notes' | 'safeguarding';

/**
 * The current versions of some lists as the triggers keep them (drizzle/0004_list_versions.sql,
 * 0018_users_list_version.sql, 0022_notes_list_version.sql and 0033_list_totals.sql), as one text:
 * each list's counter, then the database's epoch. A list's counter is its row for user 0, the whole
 * list's (availability and the accounts keep one per facilitator as well, and the triggers bump the
 * whole list's with them; the bookings, the notes and the safeguarding records have only the whole
 * list's); with `userId`, availability's is that facilitator's own. Each is one row read by its key,
 * however many facilitators there are.
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
    const whose = list === 'availability' && userId !== undefined ? userId : 0;
    return sql`(select coalesce(max(version), 0)::text from list_versions where list = ${list} and user_id = ${whose})`;
  });
  const result = (await db.execute(
    sql`select concat_ws('/', ${sql.join(parts, sql`, `)},
          'list_versions'::regclass::oid::text || '@' || pg_postmaster_start_time()::text) as at`,
  )) as unknown as { rows: Array<{ at: string }> };
  return result.rows[0]?.at ?? '';
}
