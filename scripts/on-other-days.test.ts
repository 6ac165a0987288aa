import { describe, expect, it } from 'vitest';
import { DATE_DEPENDENT_TESTS } from '../e2e/date-dependent';
import { dateDependentBrowserTests, daysToTry } from './on-other-days';

describe('the days the date-dependent tests are run on', () => {
  it('are the next of each kind, one run for a day of two kinds', () => {
    const days = daysToTry(new Date('2026-12-02T03:37:00Z'));
    expect(days.map((day) => day.date)).toEqual([
      '2026-12-06', // Sunday
      '2026-12-31', // the year's last day and a month's
      '2027-01-01', // a new year, on a Friday: its week began in December
    ]);
    expect(days[1]!.why).toEqual([
      "31 December: the year's last day",
      "a month's last day: tomorrow is in the next month",
    ]);
    expect(days[2]!.why).toEqual([
      '1 January: a new year, last month in the year before',
      "the 1st of a month that starts on a Tuesday to Friday: this week's Monday is in the month before",
    ]);
  });

  it('give a kind a day of its own when no day picked for a rarer one is of it', () => {
    // 1 January 2028 is a Saturday: the next month to start mid-week is February 2028 (a Tuesday),
    // and 31 December 2028 is the Sunday
    const days = daysToTry(new Date('2028-01-02T10:00:00Z'));
    expect(days.map((day) => day.date)).toEqual(['2028-02-01', '2028-12-31', '2029-01-01']);
    expect(days[1]!.why).toHaveLength(3);
    // a 1st on a Monday or a weekend is not one: from 2 January 2027 the next is Thursday 1 April
    const from2027 = daysToTry(new Date('2027-01-02T10:00:00Z')).map((day) => day.date);
    expect(from2027).toEqual(['2027-01-03', '2027-04-01', '2027-12-31', '2028-01-01']);
  });

  it('never include today', () => {
    const dates = daysToTry(new Date('2026-12-31T10:00:00Z')).map((day) => day.date);
    expect(dates).not.toContain('2026-12-31');
    expect(dates).toContain('2027-12-31');
    expect(dates).toContain('2027-01-01');
  });
});

describe('the date-dependent browser tests', () => {
  it('are each found in their file and picked by one pattern', () => {
    const args = dateDependentBrowserTests();
    const pattern = new RegExp(args[args.indexOf('--grep') + 1]!);
    const titles = Object.values(DATE_DEPENDENT_TESTS).flat();
    expect(titles.length).toBeGreaterThan(0);
    for (const title of titles) expect(pattern.test(`e2e › ${title}`), title).toBe(true);
    expect(pattern.test('a test of something else')).toBe(false);
  });
});
