import { and, asc, count, eq, ne, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { CreateUserBody, PublicUser, UpdateUserBody } from '../../../shared/schemas/users';
import { createUserBody, STALE_ACCOUNT_MESSAGE, updateUserBody } from '../../../shared/schemas/users';
import { FIRST_GRID_ROWS } from '../../../shared/staff-grid-order';
import { canonicalUsername, LOOKALIKE_USERNAME_MESSAGE, usernameSkeleton } from '../../../shared/username';
import { hashPassword } from '../../auth/passwords';
import type { Db, Queryable } from '../../db/client';
import { type JsonArrayText, jsonRow, readJsonArray, statementsFormat } from '../../db/json-list';
import { bookings, listVersions, sessions, users, usersListJson } from '../../db/schema';
import { AppError, conflict, isUniqueViolation, notFound } from '../../errors';
import { turnOffFeed } from '../calendar-feed/service';
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
    version: row.version,
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

const publicUserColumns = {
  id: users.id,
  username: users.username,
  displayName: users.displayName,
  email: users.email,
  freelancerId: users.freelancerId,
  role: users.role,
  area: users.area,
  lastAvailabilityUpdatedAt: users.lastAvailabilityUpdatedAt,
  version: users.version,
};

/**
 * Every account as the JSON text of `PublicUser[]`, sorted by name as people read it, then id. Each
 * account's text is kept in `users_list_json` (ADR 45) and used while its version is still the
 * account's list version (every change to an account moves it on: drizzle/0018_users_list_version.sql)
 * and its shape the code's row format; when any is missing or older, one statement writes those
 * (saving them for the next read) and answers with the whole list. Before, the database wrote every
 * account's text on each build (ADR 6, ADR 39).
 */
export async function listUsersJson(db: Queryable): Promise<JsonArrayText> {
  const { read, writeAndAnswer } = usersListStatements();
  // Usually every text is there: one plain read.
  const whole = (await db.execute(read)) as unknown as {
    rows: Array<{ missing: number | string; body: string }>;
  };
  if (Number(whole.rows[0]?.missing ?? 0) === 0) return (whole.rows[0]?.body ?? '[]') as JsonArrayText;
  return readJsonArray(db, writeAndAnswer);
}

/**
 * listUsersJson's two statements: the plain read of the kept texts (with how many are missing or
 * older), and the one that writes those and answers with the whole list.
 */
function usersListStatements(): { read: SQL; writeAndAnswer: SQL } {
  const { columns, row, shape } = jsonRow(publicUserColumns);
  const kept = usersListJson;
  const version = sql`coalesce(${listVersions.version}, 0)`;
  const everyone = sql`${users} left join ${listVersions}
    on ${listVersions.list} = 'users' and ${listVersions.userId} = ${users.id}`;
  const keptForUser = sql`${kept.userId} = ${users.id} and ${kept.version} = ${version} and ${kept.shape} = ${shape}`;
  const joined = (json: SQLWrapper, from: SQL) =>
    sql`'[' || coalesce(string_agg(${json}, ','
          order by lower(coalesce(${users.displayName}, ${users.username})), ${users.id}), '') || ']' as body ${from}`;
  const read = sql`select count(*) filter (where ${kept.userId} is null) as missing,
               ${joined(kept.json, sql`from ${everyone} left join ${kept} on ${keptForUser}`)}`;
  const writeAndAnswer = sql`
    with written as (
      select t."id" as user_id, t.list_version as version, ${row} as json
      from (select ${columns}, ${version} as list_version from ${everyone}
            where not exists (select 1 from ${kept} where ${keptForUser})) t
    ),
    saved as (
      insert into ${kept} (user_id, version, shape, json)
      select user_id, version, ${shape}, json from written order by user_id
      on conflict (user_id) do update
        set version = excluded.version, shape = excluded.shape, json = excluded.json
        where ${kept.version} < excluded.version or ${kept.shape} <> excluded.shape
    )
    select ${joined(
      sql`coalesce(written.json, ${kept.json})`,
      sql`from ${everyone}
      left join written on written.user_id = ${users.id}
      left join ${kept} on written.user_id is null and ${keptForUser}`,
    )}
  `;
  return { read, writeAndAnswer };
}

/** The format of the accounts list's text (ADR 56). */
export const USERS_LIST_FORMAT = (() => {
  const { read, writeAndAnswer } = usersListStatements();
  return statementsFormat(read, writeAndAnswer);
})();

/**
 * The ids of the staff grid's first rows as it opens, for the dashboard's HTML to preload (ADR 46).
 * Sorted by the database, which reads 60 ids instead of every account on the HTML's path: the
 * order is the client's (src/shared/staff-grid-order.ts) for names in plain letters; where a name
 * sorts otherwise the client asks for its own first rows and this preload goes unused.
 */
export async function firstGridRowIds(db: Queryable): Promise<number[]> {
  const name = sql`lower(coalesce(nullif(btrim(${users.displayName}), ''), ${users.username})) collate "C"`;
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(ne(users.role, 'staff'))
    .orderBy(asc(name), asc(users.id))
    .limit(FIRST_GRID_ROWS);
  return rows.map((row) => row.id);
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

export async function countStaff(db: Queryable): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(eq(users.role, STAFF_ROLE));
  return row?.n ?? 0;
}
