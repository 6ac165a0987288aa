import { describe, expect, it } from 'vitest';
import { DATE_DEPENDENT_TESTS } from '../e2e/date-dependent';
import { dateDependentBrowserTests, daysToTry } from './on-other-days';

describe('the days the date-dependent tests are run on', () => {
  it('are the next of each kind, one run for a day of two kinds', () => {
    const days = daysToTry(new Date('2026-12-02T03:37:00Z'), 'Europe/London');
    expect(days.map((day) => day.date)).toEqual([
      '2026-12-05', // Saturday
      '2026-12-31', // a month's last day and the year's
      '2027-01-01',
      '2027-03-28', // British Summer Time begins, on a Sunday
      '2027-04-01', // April 2027 starts on a Thursday
      '2027-04-02',
      '2027-10-31', // British Summer Time ends
    ]);
    expect(days[1]!.why).toEqual([
      "31 December: the year's last day",
      "a month's last day: tomorrow is in the next month",
    ]);
    expect(days[3]!.why).toEqual([
      'the clocks go forward in Europe/London: a day of 23 hours',
      'a Sunday: the last day of the week, whose Monday is six days back',
    ]);
  });

  it('fold a common kind into a day picked for a rarer one whenever that day is of it', () => {
    // from 2 January 2027 the next 1 January (2028) is a Saturday, so no other Saturday is needed
    const dates = daysToTry(new Date('2027-01-02T10:00:00Z'), 'Europe/London').map((day) => day.date);
    expect(dates).toContain('2028-01-01');
    expect(dates.filter((date) => new Date(`${date}T12:00:00Z`).getUTCDay() === 6)).toEqual(['2028-01-01']);
    // from 1 November 2027 the next clock change is 26 March 2028, a Sunday, and the last day of a
    // month is 30 November, a Tuesday, with 31 December 2027 still to come: that is the month's end
    const later = daysToTry(new Date('2027-11-01T10:00:00Z'), 'Europe/London');
    expect(later.find((day) => day.date === '2027-12-31')!.why).toHaveLength(2);
    expect(later.map((day) => day.date)).not.toContain('2027-11-30');
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
