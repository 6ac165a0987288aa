import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { CertificateViewsResponse, CertificateViewVia } from '../../../shared/schemas/data-protection';
import type { Queryable } from '../../db/client';
import { certificateViews } from '../../db/schema';

/** The name the log keeps for a viewer whose account has been erased. */
export const ERASED_VIEWER = 'Erased account';

/**
 * Record that a whole certificate number of `subjectUserId` left the portal to `viewerId` through
 * `via`: call it for every answer or export that carries one, and only then. The viewer's name is
 * copied as it is now, so the entry reads the same after the account changes or goes.
 */
export async function recordCertificateView(
  db: Queryable,
  entry: { subjectUserId: number; viewerId: number; via: CertificateViewVia; at: Date },
): Promise<void> {
  await db.execute(sql`
    insert into certificate_views (at, subject_user_id, viewer_id, viewer_name, via)
    select ${entry.at.toISOString()}::timestamptz, ${entry.subjectUserId}, u.id,
      coalesce(nullif(btrim(u.display_name), ''), u.username), ${entry.via}
    from users u where u.id = ${entry.viewerId}`);
}

/** One person's log, newest first, `limit` at a time, older than the entry `before` when given. */
export async function listCertificateViews(
  db: Queryable,
  subjectUserId: number,
  page: { limit: number; before?: number } = { limit: 200 },
): Promise<CertificateViewsResponse> {
  const conditions = [eq(certificateViews.subjectUserId, subjectUserId)];
  if (page.before !== undefined) conditions.push(lt(certificateViews.id, page.before));
  const rows = await db
    .select()
    .from(certificateViews)
    .where(and(...conditions))
    .orderBy(desc(certificateViews.id))
    .limit(page.limit + 1);
  return {
    userId: subjectUserId,
    more: rows.length > page.limit,
    views: rows.slice(0, page.limit).map((row) => ({
      id: row.id,
      at: row.at.toISOString(),
      viewerId: row.viewerId,
      viewerName: row.viewerName,
      via: row.via as CertificateViewVia,
    })),
  };
}

/**
 * Erasure of one person: the entries about them go (their certificate goes with them), and where
 * they were the viewer of someone else's the entry stays, the record that the certificate was seen,
 * with their name replaced. Returns the counts.
 */
export async function eraseCertificateViews(
  db: Queryable,
  userId: number,
): Promise<{ removed: number; anonymised: number }> {
  const removed = await db
    .delete(certificateViews)
    .where(eq(certificateViews.subjectUserId, userId))
    .returning({ id: certificateViews.id });
  const anonymised = await db
    .update(certificateViews)
    .set({ viewerId: null, viewerName: ERASED_VIEWER })
    .where(eq(certificateViews.viewerId, userId))
    .returning({ id: certificateViews.id });
  return { removed: removed.length, anonymised: anonymised.length };
}

/** Retention: remove entries older than `before`. Returns how many went. */
export async function applyCertificateViewRetention(db: Queryable, before: Date): Promise<number> {
  const removed = await db
    .delete(certificateViews)
    .where(lt(certificateViews.at, before))
    .returning({ id: certificateViews.id });
  return removed.length;
}
