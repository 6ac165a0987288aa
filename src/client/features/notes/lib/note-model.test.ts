import type { StaffNote } from '@shared/schemas/notes';
import { describe, expect, it } from 'vitest';
import { highestPriorityByCell, noteCellKey, notesOfDay } from './note-model';

const note = (
  id: number,
  facilitatorId: number,
  date: string,
  priority: StaffNote['priority'],
): StaffNote => ({
  id,
  facilitatorId,
  date,
  note: `note ${id}`,
  priority,
  createdBy: null,
  createdAt: `2026-03-01T10:00:0${id}.000Z`,
  updatedAt: `2026-03-01T10:00:0${id}.000Z`,
});

describe('note model', () => {
  const notes = [
    note(1, 7, '2026-03-02', 'normal'),
    note(2, 7, '2026-03-02', 'urgent'),
    note(3, 7, '2026-03-03', 'high'),
    note(4, 7, '2026-03-03', 'normal'),
    note(5, 8, '2026-03-02', 'normal'),
  ];

  it('the icon colour follows the highest priority of the day', () => {
    const map = highestPriorityByCell(notes);
    expect(map.get(noteCellKey(7, '2026-03-02'))).toBe('urgent');
    expect(map.get(noteCellKey(7, '2026-03-03'))).toBe('high');
    expect(map.get(noteCellKey(8, '2026-03-02'))).toBe('normal');
    expect(map.get(noteCellKey(8, '2026-03-03'))).toBeUndefined();
  });

  it('lists a day most urgent first, then oldest first', () => {
    expect(notesOfDay(notes, 7, '2026-03-03').map((n) => n.id)).toEqual([3, 4]);
    expect(notesOfDay(notes, 7, '2026-03-02').map((n) => n.id)).toEqual([2, 1]);
  });
});
