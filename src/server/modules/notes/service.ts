import { and, asc, between, eq } from 'drizzle-orm';
import type { Priority, StaffNote } from '../../../shared/schemas/notes';
import type { Queryable } from '../../db/client';
import { staffNotes, users } from '../../db/schema';
import { badRequest, notFound } from '../../errors';
import { recordChanges } from '../history/record';
import type { DateRange } from '../range';
import { STAFF_ROLE } from '../users/service';

type NoteRow = typeof staffNotes.$inferSelect;

export function toNote(row: NoteRow): StaffNote {
  return {
    id: row.id,
    facilitatorId: row.facilitatorId,
    date: row.date,
    note: row.note,
    priority: row.priority as Priority,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Every note about any facilitator in an inclusive range: by day, then facilitator, then age. */
export async function listNotes(db: Queryable, range: DateRange): Promise<StaffNote[]> {
  const rows = await db
    .select()
    .from(staffNotes)
    .where(between(staffNotes.date, range.from, range.to))
    .orderBy(
      asc(staffNotes.date),
      asc(staffNotes.facilitatorId),
      asc(staffNotes.createdAt),
      asc(staffNotes.id),
    );
  return rows.map(toNote);
}

/** What the history keeps of a note. */
const noteValues = (row: NoteRow) => ({ date: row.date, note: row.note, priority: row.priority });

/** A note change for the history: notes are only ever changed by staff. */
function noteChange(
  action: 'create' | 'update' | 'delete',
  actorId: number,
  before: NoteRow | null,
  after: NoteRow | null,
) {
  const row = (after ?? before)!;
  return {
    entity: 'note' as const,
    action,
    subjectUserId: row.facilitatorId,
    date: row.date,
    actorId,
    via: 'staff' as const,
    before: before && noteValues(before),
    after: after && noteValues(after),
  };
}

export interface NoteInput {
  facilitatorId: number;
  date: string;
  note: string;
  priority: Priority;
}

/** Notes are kept about facilitators: an unknown user is 404, a staff account is refused (400). */
export async function createNote(db: Queryable, input: NoteInput, createdBy: number): Promise<StaffNote> {
  const [target] = await db
    .select({ id: users.id, role: users.role })
    .from(users)
    .where(eq(users.id, input.facilitatorId));
  if (!target) throw notFound('Facilitator not found');
  if (target.role === STAFF_ROLE) {
    throw badRequest('Notes can only be kept about facilitators, not staff accounts', {
      facilitatorId: ['Choose a facilitator'],
    });
  }
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(staffNotes)
      .values({
        facilitatorId: input.facilitatorId,
        date: input.date,
        note: input.note,
        priority: input.priority,
        createdBy,
      })
      .returning();
    await recordChanges(tx, [noteChange('create', createdBy, null, row!)]);
    return toNote(row!);
  });
}

export interface NoteChange {
  note: string;
  priority: Priority;
  date?: string | undefined;
}

export async function updateNote(
  db: Queryable,
  id: number,
  change: NoteChange,
  actorId: number,
): Promise<StaffNote> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(staffNotes).where(eq(staffNotes.id, id)).for('update');
    if (!before) throw notFound('Note not found');
    const [row] = await tx
      .update(staffNotes)
      .set({
        note: change.note,
        priority: change.priority,
        ...(change.date ? { date: change.date } : {}),
        updatedAt: new Date(),
      })
      .where(eq(staffNotes.id, id))
      .returning();
    if (!row) throw notFound('Note not found');
    if (JSON.stringify(noteValues(before)) !== JSON.stringify(noteValues(row))) {
      await recordChanges(tx, [noteChange('update', actorId, before, row)]);
    }
    return toNote(row);
  });
}

export async function deleteNote(db: Queryable, id: number, actorId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [deleted] = await tx.delete(staffNotes).where(eq(staffNotes.id, id)).returning();
    if (!deleted) throw notFound('Note not found');
    await recordChanges(tx, [noteChange('delete', actorId, deleted, null)]);
  });
}

/** Notes of one facilitator on one day (used by tests and any later per-day view). */
export async function notesForDay(db: Queryable, facilitatorId: number, date: string): Promise<StaffNote[]> {
  const rows = await db
    .select()
    .from(staffNotes)
    .where(and(eq(staffNotes.facilitatorId, facilitatorId), eq(staffNotes.date, date)))
    .orderBy(asc(staffNotes.createdAt), asc(staffNotes.id));
  return rows.map(toNote);
}
