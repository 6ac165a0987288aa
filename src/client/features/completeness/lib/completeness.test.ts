import { describe, expect, it } from 'vitest';
import { isMonth, shiftMonth } from './completeness';

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
