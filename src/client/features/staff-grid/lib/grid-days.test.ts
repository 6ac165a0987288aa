/**
 * The kinds of day that `npm run test:days` gives no browser run (scripts/on-other-days.ts), as a
 * browser in Europe/London meets them: the date runs' browsers are in the machine's zone, UTC, so only
 * here does the browser's own clock change. Its day from the day's first instant to its last, and the
 * column the staff grid's month opens scrolled to. Expected values read off a printed calendar.
 */

import { staffViewDays } from '@shared/calendar';
import { afterEach, describe, expect, it } from 'vitest';
import { browserToday } from '@/lib/browser-today';
import { openingColumn, viewLabel } from './grid-model';

const originalZone = process.env.TZ;
afterEach(() => {
  if (originalZone === undefined) delete process.env.TZ;
  else process.env.TZ = originalZone;
});

interface KindOfDay {
  kind: string;
  day: string;
  /** instants (UTC) and the browser's day at each */
  clock: [string, string][];
  opensAt: string;
  week: string;
}

const KINDS: KindOfDay[] = [
  {
    kind: 'the clocks go forward (Sunday 28 March 2027)',
    day: '2027-03-28',
    clock: [
      ['2027-03-27T23:59:59Z', '2027-03-27'],
      ['2027-03-28T00:00:00Z', '2027-03-28'],
      ['2027-03-28T01:00:00Z', '2027-03-28'], // 02:00 BST
      ['2027-03-28T22:59:59Z', '2027-03-28'],
      ['2027-03-28T23:00:00Z', '2027-03-29'],
    ],
    // March 2027 starts on a Monday: this week's Monday, the 22nd, is its 16th weekday
    opensAt: '2027-03-22',
    week: '22 Mar – 26 Mar 2027',
  },
  {
    kind: 'the clocks go back (Sunday 31 October 2027)',
    day: '2027-10-31',
    clock: [
      ['2027-10-30T22:59:59Z', '2027-10-30'],
      ['2027-10-30T23:00:00Z', '2027-10-31'],
      ['2027-10-31T00:30:00Z', '2027-10-31'], // 01:30 BST
      ['2027-10-31T01:30:00Z', '2027-10-31'], // 01:30 GMT
      ['2027-10-31T23:59:59Z', '2027-10-31'],
      ['2027-11-01T00:00:00Z', '2027-11-01'],
    ],
    opensAt: '2027-10-25',
    week: '25 Oct – 29 Oct 2027',
  },
  {
    kind: 'a Saturday whose week began in the month before (5 December 2026)',
    day: '2026-12-05',
    clock: [
      ['2026-12-05T00:00:00Z', '2026-12-05'],
      ['2026-12-05T23:59:59Z', '2026-12-05'],
    ],
    opensAt: '2026-12-01',
    week: '30 Nov – 4 Dec 2026',
  },
  {
    kind: 'the 2nd of a month that starts mid-week (Friday 2 April 2027)',
    day: '2027-04-02',
    clock: [
      ['2027-04-01T22:59:59Z', '2027-04-01'],
      ['2027-04-01T23:00:00Z', '2027-04-02'],
      ['2027-04-02T22:59:59Z', '2027-04-02'],
    ],
    opensAt: '2027-04-01',
    week: '29 Mar – 2 Apr 2027',
  },
];

describe.each(KINDS)('$kind', ({ day, clock, opensAt, week }) => {
  it("is the day of a browser in Europe/London from the day's first instant to its last", () => {
    process.env.TZ = 'Europe/London';
    for (const [instant, expected] of clock) expect(browserToday(new Date(instant)), instant).toBe(expected);
  });

  it("opens the staff grid's month on the first day of this week it shows, and names the week", () => {
    const month = staffViewDays('month', day);
    expect(month[openingColumn(month, day)]).toBe(opensAt);
    expect(viewLabel('week', day)).toBe(week);
  });
});
