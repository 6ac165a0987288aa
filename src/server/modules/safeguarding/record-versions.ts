import { and, asc, count, eq, inArray, lte, sql } from 'drizzle-orm';
import { maskCertificate, type SafeguardingRecords } from '../../../shared/safeguarding';
import type { Queryable } from '../../db/client';
import { safeguardingRecordVersions } from '../../db/schema';

type VersionRow = typeof safeguardingRecordVersions.$inferSelect;

/**
 * Keep the state a facilitator's records were just saved in, for reading them as they stood on a
 * later day. Called in the transaction of the save. Only the certificate's last four digits are kept.
 */
export async function addRecordVersion(
  db: Queryable,
  userId: number,
  records: SafeguardingRecords,
  recordedOn: string,
): Promise<void> {
  const dbs = records.dbs;
  await db.insert(safeguardingRecordVersions).values({
    userId,
    recordedOn,
    dbsCertificateLast4: dbs ? dbs.certificateNumber.replace(/\s/g, '').slice(-4) : null,
    dbsIssueDate: dbs?.issueDate ?? null,
    dbsEnhancedWithBarredList: dbs?.enhancedWithBarredList ?? false,
    dbsOnUpdateService: dbs?.onUpdateService ?? false,
    dbsStatusCheckedOn: dbs?.statusCheckedOn ?? null,
    dbsCheckedBy: dbs?.checkedBy ?? null,
    otherChecks: records.checks,
  });
}

/** A person's records as they stood on a day: `recordedOn` null when none had been saved by then. */
export interface RecordsAsOf {
  recordedOn: string | null;
  /** the certificate number is masked to its last four digits */
  records: SafeguardingRecords;
}

const NONE: RecordsAsOf = { recordedOn: null, records: { dbs: null, checks: [] } };

function recordsOfVersion(row: VersionRow): SafeguardingRecords {
  const dbs =
    row.dbsCertificateLast4 && row.dbsIssueDate
      ? {
          certificateNumber: maskCertificate(`00000000${row.dbsCertificateLast4}`),
          issueDate: row.dbsIssueDate,
          enhancedWithBarredList: row.dbsEnhancedWithBarredList,
          onUpdateService: row.dbsOnUpdateService,
          statusCheckedOn: row.dbsStatusCheckedOn,
          checkedBy: row.dbsCheckedBy ?? '',
        }
      : null;
  return { dbs, checks: row.otherChecks };
}

/**
 * The records of each person as they stood at the end of each day asked about: the last state saved
 * on or before that day (a day in ORG_TIMEZONE). A certificate renewed after a session does not
 * change what the session's day shows. One query whatever the number of people and days.
 */
export async function recordsOnDays(
  db: Queryable,
  wanted: readonly { userId: number; date: string }[],
): Promise<(userId: number, date: string) => RecordsAsOf> {
  if (wanted.length === 0) return () => NONE;
  const ids = [...new Set(wanted.map((w) => w.userId))];
  const last = wanted
    .map((w) => w.date)
    .sort()
    .at(-1)!;
  const rows = await db
    .select()
    .from(safeguardingRecordVersions)
    .where(
      and(inArray(safeguardingRecordVersions.userId, ids), lte(safeguardingRecordVersions.recordedOn, last)),
    )
    .orderBy(
      asc(safeguardingRecordVersions.userId),
      asc(safeguardingRecordVersions.recordedOn),
      asc(safeguardingRecordVersions.id),
    );
  const byUser = new Map<number, VersionRow[]>();
  for (const row of rows) {
    const list = byUser.get(row.userId) ?? [];
    list.push(row);
    byUser.set(row.userId, list);
  }
  return (userId, date) => {
    const versions = byUser.get(userId) ?? [];
    let found: VersionRow | undefined;
    for (const version of versions) {
      if (version.recordedOn > date) break;
      found = version;
    }
    return found ? { recordedOn: found.recordedOn, records: recordsOfVersion(found) } : NONE;
  };
}

/** Every state a person's records have been in, oldest first (for their subject access archive). */
export async function recordVersionsOf(db: Queryable, userId: number) {
  const rows = await db
    .select()
    .from(safeguardingRecordVersions)
    .where(eq(safeguardingRecordVersions.userId, userId))
    .orderBy(asc(safeguardingRecordVersions.recordedOn), asc(safeguardingRecordVersions.id));
  return rows.map((row) => ({
    recordedAt: row.recordedAt.toISOString(),
    recordedOn: row.recordedOn,
    dbsCertificateLast4: row.dbsCertificateLast4,
    dbsIssueDate: row.dbsIssueDate,
    dbsEnhancedWithBarredList: row.dbsEnhancedWithBarredList,
    dbsOnUpdateService: row.dbsOnUpdateService,
    dbsStatusCheckedOn: row.dbsStatusCheckedOn,
    dbsCheckedBy: row.dbsCheckedBy,
    otherChecks: row.otherChecks,
  }));
}

/** Erasure: every past state of one person's records. Returns how many were removed. */
export async function eraseRecordVersions(db: Queryable, userId: number): Promise<number> {
  const removed = await db
    .delete(safeguardingRecordVersions)
    .where(eq(safeguardingRecordVersions.userId, userId))
    .returning({ id: safeguardingRecordVersions.id });
  return removed.length;
}

/** The states no longer in force on `cutoff`: a later state was saved on or before it. */
const supersededBefore = (cutoff: string) => {
  const v = safeguardingRecordVersions;
  return sql`exists (select 1 from ${v} later where later.user_id = ${v.userId}
    and (later.recorded_on, later.id) > (${v.recordedOn}, ${v.id}) and later.recorded_on <= ${cutoff})`;
};

/** Retention's preview: how many states `applyRecordVersionRetention` would remove. */
export async function countRecordVersionRetention(db: Queryable, cutoff: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(safeguardingRecordVersions)
    .where(supersededBefore(cutoff));
  return row?.n ?? 0;
}

/**
 * Retention: remove the states that stopped being in force before `cutoff` (a day): those followed by
 * a later state saved on or before it. The state in force on `cutoff` and every later one stay, so
 * sessions from `cutoff` on still show their checks. Returns how many were removed.
 */
export async function applyRecordVersionRetention(db: Queryable, cutoff: string): Promise<number> {
  const removed = await db
    .delete(safeguardingRecordVersions)
    .where(supersededBefore(cutoff))
    .returning({ id: safeguardingRecordVersions.id });
  return removed.length;
}
