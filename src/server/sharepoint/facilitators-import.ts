/**
 * Facilitators list → portal accounts, matched by freelancer ID. Name, email and area are copied
 * (a column left empty in SharePoint keeps the portal's value); passwords never are: a new account
 * has no usable password until staff set one.
 */
import { eq } from 'drizzle-orm';
import { usernameField } from '../../shared/schemas/users';
import { canonicalUsername, usernameSkeleton } from '../../shared/username';
import type { Db, Tx } from '../db/client';
import { users } from '../db/schema';
import { fieldText, normaliseFreelancerId } from './fields';
import type { SharePointSession } from './session';

export interface ImportSkip {
  itemId: string;
  freelancerId: string | null;
  name: string | null;
  reason: string;
}

export interface FacilitatorImportResult {
  created: number;
  updated: number;
  unchanged: number;
  skipped: ImportSkip[];
  /** items read from the list */
  total: number;
}

interface ListedFacilitator {
  itemId: string;
  freelancerId: string;
  name: string | null;
  email: string | null;
  area: string | null;
}

type UserRow = typeof users.$inferSelect;

/** An account the import created or changed. */
export interface ImportedAccountChange {
  action: 'create' | 'update';
  before: UserRow | null;
  after: UserRow;
}

/**
 * The caller's port for what the import did to accounts: it runs inside the import's transaction, so
 * the history the users module keeps commits or rolls back with the accounts.
 */
export type RecordImportedAccounts = (tx: Tx, changes: ImportedAccountChange[]) => Promise<void>;

const MAX = { name: 200, email: 254, area: 100, freelancerId: 100 };

/** Every account it creates or changes is handed to `recordAccounts` in the import's transaction. */
export async function importFacilitators(
  db: Db,
  session: SharePointSession,
  recordAccounts: RecordImportedAccounts,
): Promise<FacilitatorImportResult> {
  const listName = session.settings.facilitatorListName;
  const siteId = await session.siteId();
  const listId = await session.listId(listName);
  const C = await session.columns('facilitators');
  const items = await session.client.listItems(siteId, listId, { top: session.pageSize });

  const skipped: ImportSkip[] = [];
  const byFreelancer = new Map<string, ListedFacilitator>();
  // Sorted by item id so "the later item wins" does not depend on the order SharePoint sent them in.
  const sorted = [...items].sort((a, b) => Number(a.id) - Number(b.id) || a.id.localeCompare(b.id));
  for (const item of sorted) {
    const freelancerId = C.freelancerId ? normaliseFreelancerId(item.fields?.[C.freelancerId]) : null;
    const name = fieldText(item.fields, C.name);
    const email = fieldText(item.fields, C.email);
    const area = fieldText(item.fields, C.area);
    const skip = (reason: string) => skipped.push({ itemId: item.id, freelancerId, name, reason });
    if (!freelancerId) {
      skip('no freelancer ID');
      continue;
    }
    if (freelancerId.length > MAX.freelancerId) {
      skip('freelancer ID longer than 100 characters');
      continue;
    }
    if (byFreelancer.has(freelancerId)) {
      const earlier = byFreelancer.get(freelancerId)!;
      skipped.push({
        itemId: earlier.itemId,
        freelancerId,
        name: earlier.name,
        reason: `freelancer ID also used by item ${item.id}, which was imported instead`,
      });
    }
    byFreelancer.set(freelancerId, {
      itemId: item.id,
      freelancerId,
      name: name?.slice(0, MAX.name) ?? null,
      email: email && email.length <= MAX.email ? email : null,
      area: area?.slice(0, MAX.area) ?? null,
    });
  }

  return db.transaction(async (tx) => {
    const existing = await tx.select().from(users).orderBy(users.id);
    const byId = new Map<string, (typeof existing)[number]>();
    // Taken names compare in the one canonical form, and by looks, exactly as the unique indexes do:
    // lower-casing here while the database folded differently let `İ` through this check and into a
    // unique violation that failed every import after it.
    const taken = new Set(existing.map((u) => u.usernameCanonical));
    const lookalikes = new Set(existing.flatMap((u) => (u.usernameSkeleton ? [u.usernameSkeleton] : [])));
    const isFree = (username: string) =>
      !taken.has(canonicalUsername(username)) && !lookalikes.has(usernameSkeleton(username));
    for (const user of existing) {
      const key = normaliseFreelancerId(user.freelancerId);
      if (key && !byId.has(key)) byId.set(key, user);
    }
    let created = 0;
    let updated = 0;
    let unchanged = 0;
    const now = new Date();
    const history: ImportedAccountChange[] = [];
    const skip = (f: ListedFacilitator, reason: string) =>
      skipped.push({ itemId: f.itemId, freelancerId: f.freelancerId, name: f.name, reason });
    // Each item in its own savepoint: whatever one item holds, the database refusing it skips that
    // item (reported) and the rest are imported.
    const saved = async <T>(f: ListedFacilitator, write: (sp: Tx) => Promise<T>): Promise<T | undefined> => {
      try {
        return await tx.transaction((sp) => write(sp as unknown as Tx));
      } catch {
        skip(f, 'the portal could not save this item');
        return undefined;
      }
    };
    for (const f of byFreelancer.values()) {
      const user = byId.get(f.freelancerId);
      if (user) {
        const changes: Partial<typeof users.$inferInsert> = {};
        if (f.name !== null && f.name !== user.displayName) changes.displayName = f.name;
        if (f.email !== null && f.email !== user.email) changes.email = f.email;
        if (f.area !== null && f.area !== user.area) changes.area = f.area;
        if (Object.keys(changes).length === 0) {
          unchanged++;
          continue;
        }
        const row = await saved(f, async (sp) => {
          const [row] = await sp
            .update(users)
            .set({ ...changes, updatedAt: now, version: user.version + 1 })
            .where(eq(users.id, user.id))
            .returning();
          return row!;
        });
        if (!row) continue;
        history.push({ action: 'update', before: user, after: row });
        updated++;
        continue;
      }
      const candidates = [f.email?.toLowerCase(), `freelancer-${f.freelancerId}`.toLowerCase()].filter(
        (u): u is string => Boolean(u) && usernameField.safeParse(u).success,
      );
      if (candidates.length === 0) {
        skip(f, 'no usable username: the email and freelancer ID hold characters a username cannot');
        continue;
      }
      const username = candidates.find(isFree);
      if (!username) {
        skip(f, `the username ${candidates.join(' and ')} is taken by, or looks like, another account`);
        continue;
      }
      const row = await saved(f, async (sp) => {
        const [row] = await sp
          .insert(users)
          .values({
            username,
            usernameCanonical: canonicalUsername(username),
            usernameSkeleton: usernameSkeleton(username),
            passwordHash: null,
            displayName: f.name,
            email: f.email,
            freelancerId: f.freelancerId,
            area: f.area,
            role: 'facilitator',
          })
          .returning();
        return row!;
      });
      if (!row) continue;
      taken.add(row.usernameCanonical);
      if (row.usernameSkeleton) lookalikes.add(row.usernameSkeleton);
      history.push({ action: 'create', before: null, after: row });
      created++;
    }
    await recordAccounts(tx, history);
    return { created, updated, unchanged, skipped, total: items.length };
  });
}
