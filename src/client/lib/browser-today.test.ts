import { describe, expect, it } from 'vitest';
import { browserToday } from './browser-today';

describe('browserToday', () => {
  it('is the calendar day of the local clock, not of UTC', () => {
    // constructed from local fields: the same local day whatever zone the tests run in
    expect(browserToday(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
    expect(browserToday(new Date(2026, 11, 31, 0, 0))).toBe('2026-12-31');
  });

  it('pads months and days to two digits', () => {
    expect(browserToday(new Date(2027, 1, 3, 12))).toBe('2027-02-03');
  });
});
