import { sql } from 'drizzle-orm';
import type { Queryable } from './client';

export type VersionedList = 'availability' | 'bookings' | 'users' | 'notes';

/**
 * The database's epoch as SQL (see readListVersion): the list_versions table's object id and when
 * the server started.
 */
export const LIST_EPOCH = sql`'list_versions'::regclass::oid::text || '@' || pg_postmaster_start_time()::text`;

/**
 * The current version of a list as the triggers keep it (drizzle/0004_list_versions.sql,
 * drizzle/0018_users_list_version.sql and drizzle/0022_notes_list_version.sql): one facilitator's
 * availability, everyone's availability or the accounts (the sum of the per-user counters, which
 * only grows because counters are never reset or removed), or the bookings or staff notes as a whole.
 *
 * Read it *before* the rows it stands for: an answer built afterwards is then at least as new as the
 * version it is cached under, and a later write moves the version on, so nothing stale is served.
 *
 * `epoch` changes when the counters could have gone back: a restore recreates the table (a new
 * object id) or the database (PGlite: a new start time). Versions are compared only within an epoch,
 * and ETags include it, so an answer from before a restore never passes for one after it.
 */
export async function readListVersion(
  db: Queryable,
  list: VersionedList,
  userId?: number,
): Promise<{ version: bigint; epoch: string }> {
  const where =
    list === 'availability' && userId !== undefined
      ? sql`list = ${list} and user_id = ${userId}`
      : sql`list = ${list}`;
  const result = (await db.execute(
    sql`select coalesce(sum(version), 0)::text as version, ${LIST_EPOCH} as epoch
        from list_versions where ${where}`,
  )) as unknown as { rows: Array<{ version: string; epoch: string }> };
  const row = result.rows[0];
  return { version: BigInt(row?.version ?? '0'), epoch: row?.epoch ?? '' };
}
