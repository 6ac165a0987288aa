import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { CreateUserBody, PublicUser, UpdateUserBody } from '../../../shared/schemas/users';
import { createUserBody, updateUserBody } from '../../../shared/schemas/users';
import { hashPassword } from '../../auth/passwords';
import type { Db, Queryable } from '../../db/client';
import { bookings, sessions, users } from '../../db/schema';
import { AppError, conflict, isUniqueViolation, notFound } from '../../errors';
import { type ChangeBy, recordChanges } from '../history/record';

export type UserRow = typeof users.$inferSelect;

export const STAFF_ROLE = 'staff';

export function toPublicUser(row: UserRow): PublicUser {
  return {
    id: row.id,
    username: row.username,
    displayName: row.displayName,
    email: row.email,
    freelancerId: row.freelancerId,
    role: row.role,
    area: row.area,
    lastAvailabilityUpdatedAt: row.lastAvailabilityUpdatedAt?.toISOString() ?? null,
  };
}

const duplicateUsername = (username: string) => conflict(`The username "${username}" is already taken`);

export async function findUserByUsername(db: Queryable, username: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username.trim()})`);
  return row;
}

export async function findUserById(db: Queryable, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

export async function listUsers(db: Queryable): Promise<PublicUser[]> {
  const rows = await db
    .select()
    .from(users)
    .orderBy(asc(sql`lower(coalesce(${users.displayName}, ${users.username}))`), asc(users.id));
  return rows.map(toPublicUser);
}

/**
 * What the history keeps of an account: its public fields, never the password hash. A password
 * change is recorded as `password: 'changed'` in the after values.
 */
export function accountValues(row: UserRow) {
  return {
    username: row.username,
    displayName: row.displayName,
    email: row.email,
    freelancerId: row.freelancerId,
    role: row.role,
    area: row.area,
  };
}

/**
 * Create an account. `by` says who did it, for the history ('registration': the new user, signing
 * up): routes always pass it; setup (the first staff account, demo and test fixtures) leaves it out
 * and is not recorded.
 */
export async function createUser(
  db: Queryable,
  input: CreateUserBody,
  by?: ChangeBy | 'registration',
): Promise<UserRow> {
  const data = createUserBody.parse(input);
  const passwordHash = await hashPassword(data.password);
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(users)
        .values({
          username: data.username,
          passwordHash,
          displayName: data.displayName,
          email: data.email,
          freelancerId: data.freelancerId,
          area: data.area,
          role: data.role,
        })
        .returning();
      if (by) {
        await recordChanges(tx, [
          {
            entity: 'account',
            action: 'create',
            subjectUserId: row!.id,
            actorId: by === 'registration' ? row!.id : by.actorId,
            via: by === 'registration' ? 'facilitator' : by.via,
            before: null,
            after: accountValues(row!),
          },
        ]);
      }
      return row!;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateUsername(data.username);
    throw error;
  }
}

export interface UpdateUserOptions {
  /**
   * End the user's sessions when the password changes (default). The route passes false when staff
   * change their own password, and ends only their other sessions itself.
   */
  endSessionsOnPasswordChange?: boolean;
  /** who made the change, for the history (left out by setup scripts: not recorded) */
  by?: ChangeBy;
}

export async function updateUser(
  db: Db,
  id: number,
  input: UpdateUserBody,
  options: UpdateUserOptions = {},
): Promise<UserRow> {
  const data = updateUserBody.parse(input);
  const passwordHash = data.password ? await hashPassword(data.password) : undefined;
  try {
    return await db.transaction(async (tx) => {
      // Staff rows are locked as in deleteUser, so two demotions at once cannot leave no staff.
      await tx.select({ id: users.id }).from(users).where(eq(users.role, STAFF_ROLE)).for('update');
      const [existing] = await tx.select().from(users).where(eq(users.id, id)).for('update');
      if (!existing) throw notFound('User not found');
      const role = data.role ?? existing.role;
      if (existing.role === STAFF_ROLE && role !== STAFF_ROLE) {
        await assertAnotherStaffRemains(tx, id, 'The last staff account cannot lose the staff role');
      }
      const [row] = await tx
        .update(users)
        .set({
          username: data.username,
          // undefined leaves a column as it is: fields the caller left out are kept
          displayName: data.displayName,
          email: data.email,
          freelancerId: data.freelancerId,
          area: data.area,
          role,
          updatedAt: new Date(),
          ...(passwordHash ? { passwordHash } : {}),
        })
        .where(eq(users.id, id))
        .returning();
      if (!row) throw notFound('User not found');
      if (options.by) {
        const before = accountValues(existing);
        const after = accountValues(row);
        const changed = passwordHash !== undefined || JSON.stringify(before) !== JSON.stringify(after);
        if (changed) {
          await recordChanges(tx, [
            {
              entity: 'account',
              action: 'update',
              subjectUserId: id,
              actorId: options.by.actorId,
              via: options.by.via,
              before,
              after: passwordHash ? { ...after, password: 'changed' } : after,
            },
          ]);
        }
      }
      // A new password set by staff signs the user out everywhere.
      if (passwordHash && options.endSessionsOnPasswordChange !== false) {
        await tx.delete(sessions).where(eq(sessions.userId, id));
      }
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateUsername(data.username);
    throw error;
  }
}

/**
 * Delete an account. Availability, notes and sessions go with it (foreign keys cascade, in one
 * statement); bookings stay, unlinked, because they belong to the organisation's SharePoint.
 */
export async function deleteUser(
  db: Db,
  id: number,
  actingUserId: number,
  via: ChangeBy['via'] = 'staff',
): Promise<void> {
  if (id === actingUserId) throw new AppError(400, 'You cannot delete your own account');
  await db.transaction(async (tx) => {
    // Lock every staff row too: two staff deleting each other at once must not leave nobody.
    await tx.select({ id: users.id }).from(users).where(eq(users.role, STAFF_ROLE)).for('update');
    const [existing] = await tx.select().from(users).where(eq(users.id, id)).for('update');
    if (!existing) throw notFound('User not found');
    if (existing.role === STAFF_ROLE) {
      await assertAnotherStaffRemains(tx, id, 'The last staff account cannot be deleted');
    }
    await tx.update(bookings).set({ userId: null }).where(eq(bookings.userId, id));
    // recorded first, while the account still has a name to copy into the history
    await recordChanges(tx, [
      {
        entity: 'account',
        action: 'delete',
        subjectUserId: id,
        actorId: actingUserId,
        via,
        before: accountValues(existing),
        after: null,
      },
    ]);
    await tx.delete(users).where(eq(users.id, id));
  });
}

async function assertAnotherStaffRemains(db: Queryable, excludingId: number, message: string) {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.role, STAFF_ROLE), ne(users.id, excludingId)));
  if ((row?.n ?? 0) === 0) throw new AppError(409, message);
}

export async function countStaff(db: Queryable): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(eq(users.role, STAFF_ROLE));
  return row?.n ?? 0;
}
