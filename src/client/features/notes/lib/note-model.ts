import type { Priority, StaffNote } from '@shared/schemas/notes';

export const PRIORITY_LABEL: Record<Priority, string> = { normal: 'Normal', high: 'High', urgent: 'Urgent' };
const PRIORITY_RANK: Record<Priority, number> = { normal: 0, high: 1, urgent: 2 };

export const noteCellKey = (facilitatorId: number, date: string) => `${facilitatorId}|${date}`;

/** Per facilitator and day, the highest priority among its notes (urgent > high > normal). */
export function highestPriorityByCell(notes: readonly StaffNote[]): Map<string, Priority> {
  const result = new Map<string, Priority>();
  for (const note of notes) {
    const key = noteCellKey(note.facilitatorId, note.date);
    const current = result.get(key);
    if (!current || PRIORITY_RANK[note.priority] > PRIORITY_RANK[current]) result.set(key, note.priority);
  }
  return result;
}

/** A day's notes, most urgent first, then oldest first. */
export function notesOfDay(notes: readonly StaffNote[], facilitatorId: number, date: string): StaffNote[] {
  return notes
    .filter((note) => note.facilitatorId === facilitatorId && note.date === date)
    .sort(
      (a, b) =>
        PRIORITY_RANK[b.priority] - PRIORITY_RANK[a.priority] ||
        a.createdAt.localeCompare(b.createdAt) ||
        a.id - b.id,
    );
}
