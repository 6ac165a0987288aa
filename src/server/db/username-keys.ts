import { eq, isNull, or, sql } from 'drizzle-orm';
import { canonicalUsername, usernameSkeleton } from '../../shared/username';
import { isUniqueViolation } from '../errors';
import type { Db } from './client';
import { users } from './schema';

/**
 * Bring every stored username's canonical form and skeleton up to date with the application's
 * definition (the migration could only approximate it in SQL). Runs at start, after the migrations;
 * an account whose correct key is taken by another keeps what it has (its skeleton stays null) and
 * is counted, so staff can rename it.
 */
export async function reconcileUsernameKeys(db: Db): Promise<{ updated: number; conflicting: number }> {
  const rows = await db
    .select({
      id: users.id,
      username: users.username,
      canonical: users.usernameCanonical,
      skeleton: users.usernameSkeleton,
    })
    .from(users)
    .where(or(isNull(users.usernameSkeleton), sql`${users.usernameCanonical} like '%#%'`))
    // oldest first: of two accounts that fold to one name, the older keeps it
    .orderBy(users.id);
  let updated = 0;
  let conflicting = 0;
  for (const row of rows) {
    const canonical = canonicalUsername(row.username);
    const skeleton = usernameSkeleton(row.username);
    if (row.canonical === canonical && row.skeleton === skeleton) continue;
    try {
      // one savepoint per account: a clash leaves that account alone, never the others
      await db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ usernameCanonical: canonical, usernameSkeleton: skeleton })
          .where(eq(users.id, row.id));
      });
      updated++;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      conflicting++;
    }
  }
  return { updated, conflicting };
}
