import type { FacilitatorCompleteness } from '@shared/schemas/completeness';
import { describe, expect, it } from 'vitest';
import { isMonth, shiftMonth, sortFacilitators } from './completeness';

const person = (name: string, area: string | null, setDays: number): FacilitatorCompleteness => ({
  userId: name.length + setDays,
  name,
  email: null,
  area,
  status: setDays === 0 ? 'missing' : setDays >= 20 ? 'complete' : 'partial',
  setDays,
  weekdays: 20,
  lastRemindedAt: null,
  remindedToday: false,
});

const list = [person('bea', 'North', 20), person('Al', null, 3), person('Cy', 'East', 0)];
const names = (sorted: FacilitatorCompleteness[]) => sorted.map((p) => p.name);

describe('sortFacilitators', () => {
  it('by name, case-insensitively, both ways', () => {
    expect(names(sortFacilitators(list, { key: 'name', direction: 'ascending' }))).toEqual([
      'Al',
      'bea',
      'Cy',
    ]);
    expect(names(sortFacilitators(list, { key: 'name', direction: 'descending' }))).toEqual([
      'Cy',
      'bea',
      'Al',
    ]);
  });
  it('by area, no area last when ascending', () => {
    expect(names(sortFacilitators(list, { key: 'area', direction: 'ascending' }))).toEqual([
      'Cy',
      'bea',
      'Al',
    ]);
  });
  it('by status: missing, partial, complete', () => {
    expect(names(sortFacilitators(list, { key: 'status', direction: 'ascending' }))).toEqual([
      'Cy',
      'Al',
      'bea',
    ]);
  });
  it('by count of weekdays set', () => {
    expect(names(sortFacilitators(list, { key: 'count', direction: 'descending' }))).toEqual([
      'bea',
      'Al',
      'Cy',
    ]);
  });
});

describe('months', () => {
  it('shift across years', () => {
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
  });
  it('recognises yyyy-MM', () => {
    expect(isMonth('2026-12')).toBe(true);
    expect(isMonth('2026-13')).toBe(false);
    expect(isMonth(null)).toBe(false);
  });
});
