import { desc, eq } from 'drizzle-orm';
import type { ErasureBody, ErasureRecord } from '../../../shared/schemas/retention';
import { erasureBody } from '../../../shared/schemas/retention';
import type { Db } from '../../db/client';
import { erasures, users } from '../../db/schema';
import { AppError, badRequest, notFound } from '../../errors';
import { assertAnotherActiveStaffRemains, STAFF_ROLE } from '../users/service';
import { erasureSteps } from './steps';

export const REASON_NAMES_PERSON =
  'Leave the person’s name, username, email and IDs out of the reason: the erasure record keeps nothing about them';

type ErasureRow = typeof erasures.$inferSelect;

function toRecord(row: ErasureRow): ErasureRecord {
  return {
    id: row.id,
    erasedAt: row.erasedAt.toISOString(),
    erasedBy: row.erasedByName,
    reason: row.reason,
    removed: row.removed,
    kept: row.kept,
  };
}

/** Whether `text` contains any of these (case and spacing aside). */
function mentions(text: string, values: Array<string | null>): boolean {
  const fold = (value: string) => value.toLowerCase().replace(/\s+/g, ' ').trim();
  const haystack = fold(text);
  return values.some((value) => value && fold(value).length >= 3 && haystack.includes(fold(value)));
}

/**
 * Erase a person: every step of steps.ts in one transaction, then the erasure record (who erased,
 * when, why, the counts removed and what was kept and why). Their SharePoint availability items are
 * queued for removal in the same transaction; `woken` is called after the commit so delivery starts.
 */
export async function erasePerson(
  db: Db,
  id: number,
  input: ErasureBody,
  by: { actorId: number },
  now: Date,
): Promise<ErasureRecord> {
  const { reason } = erasureBody.parse(input);
  if (id === by.actorId) throw new AppError(400, 'You cannot erase your own account');
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.role, STAFF_ROLE)).for('update');
    const [person] = await tx.select().from(users).where(eq(users.id, id)).for('update');
    if (!person) throw notFound('User not found');
    if (person.role === STAFF_ROLE) {
      await assertAnotherActiveStaffRemains(tx, id, 'The last active staff account cannot be erased');
    }
    if (mentions(reason, [person.username, person.displayName, person.email, person.freelancerId])) {
      throw badRequest(REASON_NAMES_PERSON, { reason: [REASON_NAMES_PERSON] });
    }
    const [actor] = await tx
      .select({ username: users.username, displayName: users.displayName })
      .from(users)
      .where(eq(users.id, by.actorId));
    const removed: Record<string, number> = {};
    const kept: ErasureRecord['kept'] = [];
    const target = {
      id: person.id,
      usernameCanonical: person.usernameCanonical,
      freelancerId: person.freelancerId,
    };
    for (const [, step] of erasureSteps()) {
      const outcome = await step.run(tx, target, now);
      if (outcome.removed > 0) removed[step.kind] = (removed[step.kind] ?? 0) + outcome.removed;
      if (outcome.kept && outcome.kept.count > 0) kept.push({ kind: step.kind, ...outcome.kept });
    }
    const [row] = await tx
      .insert(erasures)
      .values({
        erasedAt: now,
        erasedBy: by.actorId,
        erasedByName: actor?.displayName?.trim() || actor?.username || 'staff',
        reason,
        removed,
        kept,
      })
      .returning();
    return toRecord(row!);
  });
}

export async function listErasures(db: Db): Promise<ErasureRecord[]> {
  const rows = await db.select().from(erasures).orderBy(desc(erasures.id)).limit(200);
  return rows.map(toRecord);
}
