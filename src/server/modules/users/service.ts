import { and, asc, count, eq, isNull, ne, type SQL, sql } from 'drizzle-orm';
import { compareAreaNames, searchKey } from '../../../shared/collate';
import { PAGE_SIZE } from '../../../shared/schemas/paging';
import type { CreateUserBody, PublicUser, UpdateUserBody, UsersPage } from '../../../shared/schemas/users';
import { createUserBody, STALE_ACCOUNT_MESSAGE, updateUserBody } from '../../../shared/schemas/users';
import { canonicalUsername, LOOKALIKE_USERNAME_MESSAGE, usernameSkeleton } from '../../../shared/username';
import { hashPassword } from '../../auth/passwords';
import type { Db, Queryable } from '../../db/client';
import { bookings, sessions, users } from '../../db/schema';
import { AppError, conflict, isUniqueViolation, notFound } from '../../errors';
import { turnOffFeed } from '../calendar-feed/service';
import { type ChangeBy, recordChanges } from '../history/record';
import { decodeKeyset, encodeKeyset } from '../keyset';

export type UserRow = typeof users.$inferSelect;

export const STAFF_ROLE = 'staff';

/** The columns a PublicUser is made of: a list reads these, never the password hash or the keys. */
export const publicUserColumns = {
  id: users.id,
  username: users.username,
  displayName: users.displayName,
  email: users.email,
  freelancerId: users.freelancerId,
  role: users.role,
  area: users.area,
  lastAvailabilityUpdatedAt: users.lastAvailabilityUpdatedAt,
  version: users.version,
  deactivatedAt: users.deactivatedAt,
  anonymisedAt: users.anonymisedAt,
};

export function toPublicUser(row: Pick<UserRow, keyof typeof publicUserColumns>): PublicUser {
  return {
    id: row.id,
    username: row.username,
    displayName: row.displayName,
    email: row.email,
    freelancerId: row.freelancerId,
    role: row.role,
    area: row.area,
    lastAvailabilityUpdatedAt: row.lastAvailabilityUpdatedAt?.toISOString() ?? null,
    version: row.version,
    deactivatedAt: row.deactivatedAt?.toISOString() ?? null,
    anonymisedAt: row.anonymisedAt?.toISOString() ?? null,
  };
}

const duplicateUsername = (username: string) => conflict(`The username "${username}" is already taken`);

/** The stored keys of a username: sign-in and uniqueness compare these, never the text as typed. */
export function usernameKeys(username: string) {
  return { usernameCanonical: canonicalUsername(username), usernameSkeleton: usernameSkeleton(username) };
}

/**
 * Refuse a username that is, or looks the same as, another account's (409). The unique indexes
 * enforce the same under concurrency; this gives the clearer message.
 */
async function assertUsernameFree(db: Queryable, username: string, exceptId?: number): Promise<void> {
  const keys = usernameKeys(username);
  const clashes = await db
    .select({ id: users.id, canonical: users.usernameCanonical })
    .from(users)
    .where(
      sql`(${users.usernameCanonical} = ${keys.usernameCanonical} or ${users.usernameSkeleton} = ${keys.usernameSkeleton})`,
    );
  const other = clashes.find((row) => row.id !== exceptId);
  if (!other) return;
  if (other.canonical === keys.usernameCanonical) throw duplicateUsername(username);
  throw new AppError(409, LOOKALIKE_USERNAME_MESSAGE, { username: [LOOKALIKE_USERNAME_MESSAGE] });
}

export async function findUserByUsername(db: Queryable, username: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.usernameCanonical, canonicalUsername(username)));
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
 * The accounts' order by name: the name shown (display name, else username), lower-cased, then id;
 * the expression `users_grid_order_idx` holds for every account but staff.
 */
const NAME = sql`lower(coalesce(nullif(btrim(u.display_name), ''), u.username))`;

/** The marks NFD splits off accented Latin letters (é: e and U+0301). */
const ACCENT_MARKS = '[\u0300-\u036f]';

/**
 * A column as the search compares it, as searchKey does in the browser: lower case and without
 * accents, so "zoe" finds "Zoë" (null stays null, and matches nothing).
 */
const searchable = (column: SQL) =>
  sql`lower(regexp_replace(normalize(${column}, NFD), ${ACCENT_MARKS}, '', 'g'))`;

interface AccountRow {
  id: number;
  username: string;
  display_name: string | null;
  email: string | null;
  freelancer_id: string | null;
  role: string;
  area: string | null;
  last_availability_updated_at: string | Date | null;
  version: number;
  deactivated_at: string | Date | null;
  anonymised_at: string | Date | null;
  name: string;
}

/**
 * One page of accounts, all roles, by name then id from the cursor on, matching a search of names,
 * usernames, emails, freelancer IDs and areas (and, given `only`, among those accounts); with how
 * many match, how many there are and every area in use, counted in one aggregate. The page is read
 * from two indexes side by side: everyone but staff from `users_grid_order_idx` from where the cursor
 * points, and the staff (a handful) by role.
 */
export async function listUsersPage(
  db: Queryable,
  query: { cursor?: string | undefined; limit?: number | undefined; search?: string | undefined },
  only?: readonly number[],
): Promise<UsersPage> {
  const limit = query.limit ?? PAGE_SIZE;
  const cursor = query.cursor ? decodeKeyset(query.cursor, 2) : null;
  const search = searchKey(query.search?.trim() ?? '');
  const pattern = search ? `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const searched = pattern
    ? sql`(${searchable(NAME)} like ${pattern} or ${searchable(sql`u.username`)} like ${pattern}
          or ${searchable(sql`u.email`)} like ${pattern} or ${searchable(sql`u.freelancer_id`)} like ${pattern}
          or ${searchable(sql`u.area`)} like ${pattern})`
    : sql`true`;
  // one array parameter, however many people are chosen
  const chosen = only === undefined ? sql`true` : sql`u.id = any(${`{${only.join(',')}}`}::int[])`;
  const found = sql`(${searched} and ${chosen})`;
  const from = cursor ? sql`(${NAME}, u.id) > (${cursor[0]}, ${cursor[1]})` : sql`true`;
  const branch = (role: SQL) => sql`(
      select u.id, u.username, u.display_name, u.email, u.freelancer_id, u.role, u.area,
             u.last_availability_updated_at, u.version, u.deactivated_at, u.anonymised_at, ${NAME} as name
      from users u
      where ${role} and ${found} and ${from}
      order by ${NAME}, u.id
      limit ${limit + 1})`;
  const [page, summary] = await Promise.all([
    db.execute(sql`
      select * from (${branch(sql`u.role <> ${STAFF_ROLE}`)} union all ${branch(sql`u.role = ${STAFF_ROLE}`)}) accounts
      order by name, id
      limit ${limit + 1}`),
    db.execute(sql`
      select count(*)::int as total, (count(*) filter (where ${found}))::int as matching,
             coalesce(array_agg(distinct btrim(u.area)) filter (where btrim(u.area) <> ''), '{}') as areas
      from users u`),
  ]);
  const rows = (page as unknown as { rows: AccountRow[] }).rows;
  const [counts] = (
    summary as unknown as { rows: Array<{ total: number; matching: number; areas: string[] }> }
  ).rows;
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return {
    rows: shown.map((row) => ({
      id: row.id,
      username: row.username,
      displayName: row.display_name,
      email: row.email,
      freelancerId: row.freelancer_id,
      role: row.role,
      area: row.area,
      lastAvailabilityUpdatedAt: row.last_availability_updated_at
        ? new Date(row.last_availability_updated_at).toISOString()
        : null,
      version: row.version,
      deactivatedAt: row.deactivated_at ? new Date(row.deactivated_at).toISOString() : null,
      anonymisedAt: row.anonymised_at ? new Date(row.anonymised_at).toISOString() : null,
    })),
    nextCursor: rows.length > limit && last ? encodeKeyset([last.name, last.id]) : null,
    matching: counts?.matching ?? 0,
    total: counts?.total ?? 0,
    areas: [...(counts?.areas ?? [])].sort(compareAreaNames),
  };
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
  // invited: no usable password until the owner sets one through the link
  const passwordHash = data.password !== undefined ? await hashPassword(data.password) : null;
  try {
    return await db.transaction(async (tx) => {
      await assertUsernameFree(tx, data.username);
      const [row] = await tx
        .insert(users)
        .values({
          username: data.username,
          ...usernameKeys(data.username),
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
      // The edit was made on what the editor loaded; if the account changed since, applying it
      // would silently undo that change.
      if (existing.version !== data.version) throw conflict(STALE_ACCOUNT_MESSAGE);
      const role = data.role ?? existing.role;
      if (existing.role === STAFF_ROLE && role !== STAFF_ROLE) {
        await assertAnotherStaffRemains(tx, id, 'The last staff account cannot lose the staff role');
      }
      if (data.username !== undefined) await assertUsernameFree(tx, data.username, id);
      const [row] = await tx
        .update(users)
        .set({
          // undefined leaves a column as it is: fields the caller left out are kept
          username: data.username,
          ...(data.username === undefined ? {} : usernameKeys(data.username)),
          displayName: data.displayName,
          email: data.email,
          freelancerId: data.freelancerId,
          area: data.area,
          role,
          updatedAt: new Date(),
          version: existing.version + 1,
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
      // A password reset by staff is what they do when an account may be in the wrong hands: the
      // calendar feed URL is a credential too, so it stops working (the owner can turn it on again).
      if (passwordHash && options.by && options.by.actorId !== id) await turnOffFeed(tx, id);
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateUsername(data.username ?? '');
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

/** Refuse when no other staff account would be left able to sign in. */
export async function assertAnotherActiveStaffRemains(db: Queryable, excludingId: number, message: string) {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.role, STAFF_ROLE), ne(users.id, excludingId), isNull(users.deactivatedAt)));
  if ((row?.n ?? 0) === 0) throw new AppError(409, message);
}

export async function countStaff(db: Queryable): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(eq(users.role, STAFF_ROLE));
  return row?.n ?? 0;
}
