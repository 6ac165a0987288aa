import { z } from 'zod';
import { STAFF_VIEWS } from '../calendar';
import { PRIORITIES } from '../priorities';
import { bodyId, dateString, nonBlankText } from './common';

export { PRIORITIES, type Priority } from '../priorities';
export const priority = z.enum(PRIORITIES, { error: 'Priority must be normal, high or urgent' });

export const staffNote = z.object({
  id: z.number().int(),
  facilitatorId: z.number().int(),
  date: z.string(),
  note: z.string(),
  priority,
  createdBy: z.number().int().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type StaffNote = z.infer<typeof staffNote>;

const noteText = nonBlankText('Note cannot be blank').pipe(
  z.string().max(5000, 'Note must be at most 5000 characters'),
);

/** The client sends an ISO date-time; only its calendar day matters. */
const noteDate = z
  .string()
  .transform((value) => value.slice(0, 10))
  .pipe(dateString);

/** What the day dialog's note forms edit: the note (trimmed, not blank) and its priority. */
export const noteForm = z.object({ note: noteText, priority });
export type NoteForm = z.infer<typeof noteForm>;

export const createNoteBody = z.object({
  facilitatorId: bodyId,
  date: noteDate,
  note: noteText,
  priority: priority.default('normal'),
});
export type CreateNoteBody = z.input<typeof createNoteBody>;

export const updateNoteBody = z.object({
  note: noteText,
  priority: priority.default('normal'),
  date: noteDate.optional(),
});
export type UpdateNoteBody = z.input<typeof updateNoteBody>;

export const notesQuery = z.object({
  date: noteDate,
  view: z.enum(STAFF_VIEWS, { error: 'View must be week, fortnight or month' }).default('month'),
});
