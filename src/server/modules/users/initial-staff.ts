import { randomToken } from '../../crypto';
import type { Db } from '../../db/client';
import { AppError, isUniqueViolation } from '../../errors';
import { countStaff, createUser } from './service';

export const GENERATED_STAFF_USERNAME = 'admin';

/**
 * Make sure someone can sign in as staff. Runs at every start but acts only while no staff account
 * exists; with no configured credentials the generated password is returned for printing once.
 */
export async function ensureInitialStaff(
  db: Db,
  configured: { username?: string | undefined; password?: string | undefined },
): Promise<{ username: string; generatedPassword?: string } | null> {
  if ((await countStaff(db)) > 0) return null;
  const username = configured.username ?? GENERATED_STAFF_USERNAME;
  const generatedPassword = configured.password ? undefined : randomToken(12);
  try {
    await createUser(db, {
      username,
      password: configured.password ?? generatedPassword!,
      displayName: 'Staff Administrator',
      role: 'staff',
    });
  } catch (error) {
    // Another instance starting at the same moment created it first.
    if (isUniqueViolation(error) || (error instanceof AppError && error.status === 409)) return null;
    throw error;
  }
  return generatedPassword ? { username, generatedPassword } : { username };
}
