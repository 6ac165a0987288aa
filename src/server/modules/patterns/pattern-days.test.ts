import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  addDays,
  dayOfWeek,
  daysBetween,
  eachDay,
  selectBulkDays,
  startOfWeekMonday,
} from '../../../shared/calendar';
import { MAX_BULK_DAYS } from '../../../shared/schemas/availability';
import { patternBody, selectPatternDays } from '../../../shared/schemas/patterns';

const MON = 1;
const TUE = 2;
const WED = 3;
const THU = 4;
const FRI = 5;
const SAT = 6;
const SUN = 0;

describe('selectPatternDays: anchoring', () => {
  it('every week is the bulk update: every chosen weekday of the range', () => {
    expect(selectPatternDays('2026-01-05', '2026-01-18', [MON, WED], 1)).toEqual([
      '2026-01-05',
      '2026-01-07',
      '2026-01-12',
      '2026-01-14',
    ]);
  });

  it('every 2 weeks from a Monday: weeks 0, 2, 4 of the pattern', () => {
    // Mondays 7, 14, 21, 28 Sep, 5, 12 Oct 2026: weeks 0 … 5
    expect(selectPatternDays('2026-09-07', '2026-10-16', [MON, FRI], 2)).toEqual([
      '2026-09-07',
      '2026-09-11',
      '2026-09-21',
      '2026-09-25',
      '2026-10-05',
      '2026-10-09',
    ]);
  });

  it('a mid-week start anchors on the week of the start date; its earlier days are not set', () => {
    // Wednesday 25 Nov 2026: the anchor week is Mon 23 to Sun 29 Nov, so Mon 23 (before the
    // start) is not set but Thu 26 is; then weeks 2 (7 Dec) and 4 (21 Dec), across the month end.
    expect(selectPatternDays('2026-11-25', '2026-12-31', [MON, THU], 2)).toEqual([
      '2026-11-26',
      '2026-12-07',
      '2026-12-10',
      '2026-12-21',
      '2026-12-24',
    ]);
  });

  it('the same pattern started a week later falls in the other fortnight', () => {
    expect(selectPatternDays('2026-12-02', '2026-12-31', [MON, THU], 2)).toEqual([
      '2026-12-03',
      '2026-12-14',
      '2026-12-17',
      '2026-12-28',
      '2026-12-31',
    ]);
  });

  it('a Sunday start belongs to the week that began the Monday before (weeks run Monday to Sunday)', () => {
    // Sun 29 Nov 2026 is in week 0 (from Mon 23 Nov); Mon 30 Nov starts week 1, so it is skipped.
    expect(selectPatternDays('2026-11-29', '2026-12-20', [SUN, MON], 2)).toEqual([
      '2026-11-29',
      '2026-12-07',
      '2026-12-13',
    ]);
  });

  it('a Saturday start does the same: the next Monday is week 1', () => {
    expect(selectPatternDays('2026-11-28', '2026-12-14', [SAT, MON], 2)).toEqual([
      '2026-11-28',
      '2026-12-07',
      '2026-12-12',
    ]);
  });

  it('every 2 weeks across the year boundary', () => {
    // Mondays 21 Dec (week 0), 28 Dec (1), 4 Jan (2), 11 Jan (3), 18 Jan (4), 25 Jan (5)
    expect(selectPatternDays('2026-12-21', '2027-01-31', [MON], 2)).toEqual([
      '2026-12-21',
      '2027-01-04',
      '2027-01-18',
    ]);
  });

  it('every 4 weeks over an autumn term from a Tuesday, across the October clock change', () => {
    // anchor week Mon 31 Aug 2026 (31 Aug is before the start); weeks 0, 4, 8, 12. Clocks go back
    // on Sunday 25 Oct 2026, the day before week 8's Monday.
    expect(selectPatternDays('2026-09-01', '2026-12-18', [MON, FRI], 4)).toEqual([
      '2026-09-04',
      '2026-09-28',
      '2026-10-02',
      '2026-10-26',
      '2026-10-30',
      '2026-11-23',
      '2026-11-27',
    ]);
  });

  it('every 2 weeks across the March clock change, Sundays included', () => {
    // clocks go forward on Sunday 28 Mar 2027, in week 1 (from Mon 22 Mar) of this pattern
    expect(selectPatternDays('2027-03-21', '2027-04-12', [SUN, MON], 2)).toEqual([
      '2027-03-21',
      '2027-03-29',
      '2027-04-04',
      '2027-04-12',
    ]);
  });

  it('every 4 weeks across a year boundary and a leap day', () => {
    expect(selectPatternDays('2027-12-29', '2028-03-31', [TUE, WED], 4)).toEqual([
      '2027-12-29',
      '2028-01-25',
      '2028-01-26',
      '2028-02-22',
      '2028-02-23',
      '2028-03-21',
      '2028-03-22',
    ]);
    expect(selectPatternDays('2028-02-28', '2028-03-01', [TUE], 2)).toEqual(['2028-02-29']);
  });

  it('gives nothing when no chosen weekday falls in a pattern week of the range', () => {
    // Wed 25 Nov to Sun 6 Dec: Mondays are 23 Nov (before the start) and 30 Nov (week 1)
    expect(selectPatternDays('2026-11-25', '2026-12-06', [MON], 2)).toEqual([]);
    expect(selectPatternDays('2026-11-27', '2026-11-27', [FRI], 4)).toEqual(['2026-11-27']);
    expect(selectPatternDays('2026-11-27', '2026-11-26', [FRI], 1)).toEqual([]);
  });

  describe('does not depend on the host time zone', () => {
    const original = process.env.TZ;
    afterEach(() => {
      process.env.TZ = original;
    });
    it.each(['Europe/London', 'Pacific/Auckland', 'America/Los_Angeles', 'UTC'])('%s', (zone) => {
      process.env.TZ = zone;
      expect(selectPatternDays('2026-10-19', '2026-11-08', [SUN, MON, SAT], 2)).toEqual([
        '2026-10-19',
        '2026-10-24',
        '2026-10-25',
        '2026-11-02',
        '2026-11-07',
        '2026-11-08',
      ]);
      expect(selectPatternDays('2027-03-22', '2027-04-05', [SUN, MON], 1)).toEqual([
        '2027-03-22',
        '2027-03-28',
        '2027-03-29',
        '2027-04-04',
        '2027-04-05',
      ]);
    });
  });
});

describe('selectPatternDays: properties', () => {
  const day = fc.integer({ min: 0, max: 365 * 4 }).map((offset) => addDays('2025-01-01', offset));
  const weekdays = fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 7 });
  const every = fc.constantFrom(1, 2, 4);
  const span = fc.integer({ min: 0, max: 120 });

  it('is exactly the chosen weekdays of the range whose Monday is 0, n, 2n … weeks after the anchor Monday', () => {
    fc.assert(
      fc.property(day, span, weekdays, every, (start, length, days, n) => {
        const end = addDays(start, length);
        const anchor = startOfWeekMonday(start);
        // an independent reading of the rule: whole weeks between the Mondays
        const expected = eachDay(start, end).filter((date) => {
          const weeks = (daysBetween(anchor, startOfWeekMonday(date)) - 1) / 7;
          return weeks % n === 0 && days.includes(dayOfWeek(date));
        });
        expect(selectPatternDays(start, end, days, n)).toEqual(expected);
      }),
      { seed: 9_2026, numRuns: 300 },
    );
  });

  it('every week equals the bulk update; every 2 and 4 weeks are subsets of it', () => {
    fc.assert(
      fc.property(day, span, weekdays, (start, length, days) => {
        const end = addDays(start, length);
        const weekly = selectBulkDays(start, end, days);
        expect(selectPatternDays(start, end, days, 1)).toEqual(weekly);
        const fortnightly = selectPatternDays(start, end, days, 2);
        const fourWeekly = selectPatternDays(start, end, days, 4);
        expect(fortnightly.every((d) => weekly.includes(d))).toBe(true);
        expect(fourWeekly.every((d) => fortnightly.includes(d))).toBe(true);
      }),
      { seed: 9_2027, numRuns: 200 },
    );
  });

  it('weeks of a 2-week pattern alternate: a chosen day is set exactly when the same day 7 days on is not', () => {
    fc.assert(
      fc.property(day, weekdays, (start, days) => {
        const end = addDays(start, 90);
        const set = new Set(selectPatternDays(start, end, days, 2));
        for (const date of eachDay(start, addDays(end, -7))) {
          if (!days.includes(dayOfWeek(date))) continue;
          // days of the anchor week are set, and so never paired with one before them
          expect(set.has(date)).not.toBe(set.has(addDays(date, 7)));
        }
      }),
      { seed: 9_2028, numRuns: 100 },
    );
  });
});

describe('patternBody', () => {
  const valid = {
    startDate: '2026-09-01',
    endDate: '2026-12-18',
    daysOfWeek: [TUE],
    everyWeeks: 2,
    status: 'limited',
  };
  const issuesOf = (input: Record<string, unknown>) => {
    const result = patternBody.safeParse({ ...valid, ...input });
    return result.success
      ? {}
      : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
  };

  it('accepts a pattern and fills the optional fields as bulk update does', () => {
    expect(patternBody.parse(valid)).toEqual({
      ...valid,
      startTime: '',
      endTime: '',
      notes: '',
    });
  });

  it.each([
    ['everyWeeks', { everyWeeks: 3 }, 'Repeat every 1, 2 or 4 weeks'],
    ['everyWeeks', { everyWeeks: '2' }, 'Repeat every 1, 2 or 4 weeks'],
    ['everyWeeks', { everyWeeks: undefined }, 'Repeat every 1, 2 or 4 weeks'],
    ['daysOfWeek', { daysOfWeek: [] }, 'Choose at least one day of the week'],
    ['daysOfWeek.0', { daysOfWeek: [7] }, 'Days of week are 0 to 6'],
    ['endDate', { endDate: '2026-08-31' }, 'End date must be on or after start date'],
    ['endDate', { endDate: addDays('2026-09-01', MAX_BULK_DAYS) }, 'A pattern can cover at most 800 days'],
    ['endTime', { startTime: '10:00', endTime: '09:00' }, 'End time must be after start time'],
    ['startTime', { startTime: '9am' }, 'Time must be in HH:mm format or empty'],
    ['status', { status: 'busy' }, 'Status must be available, limited or unavailable'],
    ['notes', { notes: 'n'.repeat(2001) }, 'Notes must be at most 2000 characters'],
    ['startDate', { startDate: '2026-02-30' }, 'Date is not a real calendar day'],
  ])('refuses a bad %s', (path, input, message) => {
    expect(issuesOf(input)[path]).toBe(message);
  });

  it('accepts exactly the bulk cap of 800 days', () => {
    expect(issuesOf({ endDate: addDays('2026-09-01', MAX_BULK_DAYS - 1) })).toEqual({});
  });
});
