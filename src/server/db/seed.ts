import { randomToken } from '../crypto';
import { AppError, isUniqueViolation } from '../errors';
import { countStaff, createUser, findUserByUsername } from '../modules/users/service';
import type { Db } from './client';
import { bookings } from './schema';

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

/** A booking to seed for a user named by username (demo data and e2e fixtures; never an API). */
export interface DemoBooking {
  username: string;
  sharePointId: string;
  title: string;
  date: string;
  startTime?: string | null;
  endTime?: string | null;
  location?: string | null;
  schoolId?: string | null;
  schoolName?: string | null;
  schoolAddress?: string | null;
  schoolPostcode?: string | null;
  program?: string | null;
  timeSlot?: string | null;
  deliveryType?: string | null;
  year?: string | null;
}

/**
 * Insert bookings as a SharePoint pull would, linked to users by username. Idempotent: a booking whose
 * sharePointId exists already is left alone. Unknown usernames are an error, so a typo cannot pass silently.
 * Returns how many bookings were inserted.
 */
export async function seedDemoBookings(db: Db, items: DemoBooking[]): Promise<number> {
  const userIds = new Map<string, number>();
  for (const { username } of items) {
    if (userIds.has(username)) continue;
    const user = await findUserByUsername(db, username);
    if (!user) throw new Error(`seedDemoBookings: no user ${username}`);
    userIds.set(username, user.id);
  }
  if (items.length === 0) return 0;
  const inserted = await db
    .insert(bookings)
    .values(items.map(({ username, ...booking }) => ({ ...booking, userId: userIds.get(username)! })))
    .onConflictDoNothing({ target: bookings.sharePointId })
    .returning({ id: bookings.id });
  return inserted.length;
}
