import { describe, expect, it } from 'vitest';
import { DATE_DEPENDENT_TESTS } from '../e2e/date-dependent';
import { dateDependentBrowserTests, daysToTry } from './on-other-days';

describe('the days the date-dependent tests are run on', () => {
  it('are the next of each kind, one run for a day of two kinds', () => {
    const days = daysToTry(new Date('2026-12-02T03:37:00Z'), 'Europe/London');
    expect(days.map((day) => day.date)).toEqual([
      '2026-12-05', // Saturday
      '2026-12-06', // Sunday
      '2026-12-31', // a month's last day and the year's
      '2027-01-01',
      '2027-03-28', // British Summer Time begins
      '2027-04-01', // April 2027 starts on a Thursday
      '2027-04-02',
      '2027-10-31', // British Summer Time ends
    ]);
    expect(days[2]!.why).toHaveLength(2);
  });

  it("follow the organisation's zone for the clock changes", () => {
    const dates = daysToTry(new Date('2026-12-02T03:37:00Z'), 'America/New_York').map((day) => day.date);
    expect(dates).toContain('2027-03-14');
    expect(dates).toContain('2027-11-07');
    expect(dates).not.toContain('2027-03-28');
  });

  it('never include today', () => {
    const dates = daysToTry(new Date('2027-03-28T10:00:00Z'), 'Europe/London').map((day) => day.date);
    expect(dates).not.toContain('2027-03-28');
    expect(dates).toContain('2027-10-31');
    expect(dates).toContain('2028-03-26');
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
