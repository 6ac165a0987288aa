/**
 * The kinds of day that `npm run test:days` gives no browser run (scripts/on-other-days.ts): the two
 * clock changes in Europe/London, a Saturday and the 2nd of a month that starts mid-week. For each, a
 * fixed clock at the day's first and last instants in the organisation's zone, and what the screens
 * work out from that day: the facilitator's month and the next one, the staff grid's week, fortnight
 * and month, their steps, and the bulk dialog's defaults. The expected values are written out, read off
 * a printed calendar, not worked out by the rules under test.
 */
import { describe, expect, it } from 'vitest';
import {
  addDays,
  DEFAULT_TIME_ZONE,
  defaultBulkSelection,
  isWeekday,
  monthGridRange,
  navigateStaffView,
  nextMonth,
  staffViewDays,
  staffViewRange,
  startOfWeekMonday,
  todayIn,
} from './calendar';

interface KindOfDay {
  kind: string;
  day: string;
  /** instants (UTC) and the organisation's day at each, the day's first and last among them */
  clock: [string, string][];
  weekday: boolean;
  yesterday: string;
  monday: string;
  /** the facilitator's month as read, and the month after (read too when the next 14 days reach it) */
  month: { from: string; to: string };
  next: { from: string; to: string };
  /** the staff grid: the fortnight's days; the month's first and last weekday and how many */
  fortnight: string[];
  staffMonth: { from: string; to: string; count: number };
  /** the staff grid's previous / next from this day, in week and month view */
  weekSteps: [string, string];
  monthSteps: [string, string];
  bulkEnd: string;
}

const KINDS: KindOfDay[] = [
  {
    kind: 'the clocks go forward (Sunday 28 March 2027, 23 hours)',
    day: '2027-03-28',
    clock: [
      ['2027-03-27T23:59:59Z', '2027-03-27'],
      ['2027-03-28T00:00:00Z', '2027-03-28'], // midnight, still GMT
      ['2027-03-28T00:59:59Z', '2027-03-28'],
      ['2027-03-28T01:00:00Z', '2027-03-28'], // 02:00 BST
      ['2027-03-28T12:00:00Z', '2027-03-28'], // the date runs' noon
      ['2027-03-28T22:59:59Z', '2027-03-28'], // 23:59:59 BST
      ['2027-03-28T23:00:00Z', '2027-03-29'],
    ],
    weekday: false,
    yesterday: '2027-03-27',
    monday: '2027-03-22',
    month: { from: '2027-03-01', to: '2027-04-02' },
    next: { from: '2027-03-29', to: '2027-04-30' },
    fortnight: [
      '2027-03-22',
      '2027-03-23',
      '2027-03-24',
      '2027-03-25',
      '2027-03-26',
      '2027-03-29',
      '2027-03-30',
      '2027-03-31',
      '2027-04-01',
      '2027-04-02',
    ],
    staffMonth: { from: '2027-03-01', to: '2027-03-31', count: 23 },
    weekSteps: ['2027-03-15', '2027-03-29'],
    monthSteps: ['2027-02-01', '2027-04-01'],
    bulkEnd: '2027-04-27',
  },
  {
    kind: 'the clocks go back (Sunday 31 October 2027, 25 hours)',
    day: '2027-10-31',
    clock: [
      ['2027-10-30T22:59:59Z', '2027-10-30'],
      ['2027-10-30T23:00:00Z', '2027-10-31'], // midnight BST
      ['2027-10-31T00:30:00Z', '2027-10-31'], // 01:30 BST
      ['2027-10-31T01:30:00Z', '2027-10-31'], // 01:30 GMT, the hour again
      ['2027-10-31T12:00:00Z', '2027-10-31'],
      ['2027-10-31T23:59:59Z', '2027-10-31'],
      ['2027-11-01T00:00:00Z', '2027-11-01'],
    ],
    weekday: false,
    yesterday: '2027-10-30',
    monday: '2027-10-25',
    month: { from: '2027-09-27', to: '2027-10-29' },
    next: { from: '2027-11-01', to: '2027-12-03' },
    fortnight: [
      '2027-10-25',
      '2027-10-26',
      '2027-10-27',
      '2027-10-28',
      '2027-10-29',
      '2027-11-01',
      '2027-11-02',
      '2027-11-03',
      '2027-11-04',
      '2027-11-05',
    ],
    staffMonth: { from: '2027-10-01', to: '2027-10-29', count: 21 },
    weekSteps: ['2027-10-18', '2027-11-01'],
    monthSteps: ['2027-09-01', '2027-11-01'],
    bulkEnd: '2027-11-30',
  },
  {
    kind: 'a Saturday (5 December 2026): its week began in November',
    day: '2026-12-05',
    clock: [
      ['2026-12-04T23:59:59Z', '2026-12-04'],
      ['2026-12-05T00:00:00Z', '2026-12-05'],
      ['2026-12-05T12:00:00Z', '2026-12-05'],
      ['2026-12-05T23:59:59Z', '2026-12-05'],
      ['2026-12-06T00:00:00Z', '2026-12-06'],
    ],
    weekday: false,
    yesterday: '2026-12-04',
    monday: '2026-11-30',
    month: { from: '2026-11-30', to: '2027-01-01' },
    next: { from: '2026-12-28', to: '2027-01-29' },
    fortnight: [
      '2026-11-30',
      '2026-12-01',
      '2026-12-02',
      '2026-12-03',
      '2026-12-04',
      '2026-12-07',
      '2026-12-08',
      '2026-12-09',
      '2026-12-10',
      '2026-12-11',
    ],
    staffMonth: { from: '2026-12-01', to: '2026-12-31', count: 23 },
    weekSteps: ['2026-11-23', '2026-12-07'],
    monthSteps: ['2026-11-02', '2027-01-01'],
    bulkEnd: '2027-01-04',
  },
  {
    kind: 'the 2nd of a month that starts mid-week (Friday 2 April 2027, summer time)',
    day: '2027-04-02',
    clock: [
      ['2027-04-01T22:59:59Z', '2027-04-01'],
      ['2027-04-01T23:00:00Z', '2027-04-02'], // midnight BST
      ['2027-04-02T12:00:00Z', '2027-04-02'],
      ['2027-04-02T22:59:59Z', '2027-04-02'],
      ['2027-04-02T23:00:00Z', '2027-04-03'],
    ],
    weekday: true,
    yesterday: '2027-04-01',
    monday: '2027-03-29',
    month: { from: '2027-03-29', to: '2027-04-30' },
    next: { from: '2027-05-03', to: '2027-06-04' },
    fortnight: [
      '2027-03-29',
      '2027-03-30',
      '2027-03-31',
      '2027-04-01',
      '2027-04-02',
      '2027-04-05',
      '2027-04-06',
      '2027-04-07',
      '2027-04-08',
      '2027-04-09',
    ],
    staffMonth: { from: '2027-04-01', to: '2027-04-30', count: 22 },
    weekSteps: ['2027-03-22', '2027-04-05'],
    monthSteps: ['2027-03-01', '2027-05-03'],
    bulkEnd: '2027-05-02',
  },
];

describe.each(KINDS)('$kind', (kind) => {
  it("is the organisation's day from its first instant to its last", () => {
    for (const [instant, day] of kind.clock)
      expect(todayIn(DEFAULT_TIME_ZONE, new Date(instant)), instant).toBe(day);
  });

  it("gives the facilitator's calendar its month and the next", () => {
    expect(isWeekday(kind.day)).toBe(kind.weekday);
    expect(addDays(kind.day, -1)).toBe(kind.yesterday);
    expect(monthGridRange(kind.day)).toEqual(kind.month);
    expect(monthGridRange(nextMonth(kind.day))).toEqual(kind.next);
  });

  it('gives the staff grid its week, fortnight and month, and their steps', () => {
    expect(startOfWeekMonday(kind.day)).toBe(kind.monday);
    expect(staffViewDays('week', kind.day)).toEqual(kind.fortnight.slice(0, 5));
    expect(staffViewDays('fortnight', kind.day)).toEqual(kind.fortnight);
    const month = staffViewDays('month', kind.day);
    expect({ from: month[0], to: month.at(-1), count: month.length }).toEqual(kind.staffMonth);
    expect(staffViewRange('fortnight', kind.day)).toEqual({
      from: kind.fortnight[0],
      to: kind.fortnight.at(-1),
    });
    const step = (view: 'week' | 'month', action: 'previous' | 'next') =>
      navigateStaffView(view, kind.day, action, kind.day);
    expect([step('week', 'previous'), step('week', 'next')]).toEqual(kind.weekSteps);
    expect([step('month', 'previous'), step('month', 'next')]).toEqual(kind.monthSteps);
    expect(navigateStaffView('month', kind.monthSteps[1], 'today', kind.day)).toBe(kind.day);
  });

  it('opens the bulk dialog on today to 30 days later', () => {
    expect(defaultBulkSelection(kind.day)).toEqual({
      startDate: kind.day,
      endDate: kind.bulkEnd,
      daysOfWeek: [1, 2, 3, 4, 5],
    });
  });
});
