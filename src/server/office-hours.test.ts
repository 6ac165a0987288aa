import { describe, expect, it } from 'vitest';
import { type OfficeHours, parseOfficeHours } from './config';
import {
  describeNextUpdate,
  isWithinOfficeHours,
  localTime,
  nextRefreshAt,
  officeHoursStatus,
} from './office-hours';

const hours = (text: string): OfficeHours => {
  const parsed = parseOfficeHours(text);
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
};

const LONDON = 'Europe/London';
const DEFAULT = hours('Mon-Fri 08:00-18:00');

describe('localTime', () => {
  it('reads the wall clock of the zone, not of the host', () => {
    // 2026-07-01 is a Wednesday; London is on summer time (UTC+1).
    expect(localTime(new Date('2026-07-01T07:30:00Z'), LONDON)).toEqual({
      year: 2026,
      month: 7,
      day: 1,
      dayOfWeek: 3,
      minute: 8 * 60 + 30,
    });
    expect(localTime(new Date('2026-07-01T23:30:00Z'), 'Asia/Tokyo')).toMatchObject({
      day: 2,
      dayOfWeek: 4,
      minute: 8 * 60 + 30,
    });
  });
});

describe('isWithinOfficeHours', () => {
  it.each([
    ['2026-03-04T07:59:00Z', false], // Wednesday, winter time: 07:59 local
    ['2026-03-04T08:00:00Z', true], // start included
    ['2026-03-04T17:59:59Z', true],
    ['2026-03-04T18:00:00Z', false], // end excluded
    ['2026-03-07T12:00:00Z', false], // Saturday
    ['2026-07-01T07:30:00Z', true], // 08:30 summer time
    ['2026-07-01T17:30:00Z', false], // 18:30 summer time
  ])('%s → %s in London Mon-Fri 08:00-18:00', (instant, expected) => {
    expect(isWithinOfficeHours(DEFAULT, LONDON, new Date(instant))).toBe(expected);
  });

  it('follows the configured days', () => {
    const mwf = hours('Mon,Wed,Fri 09:00-17:30');
    expect(isWithinOfficeHours(mwf, LONDON, new Date('2026-03-03T10:00:00Z'))).toBe(false); // Tuesday
    expect(isWithinOfficeHours(mwf, LONDON, new Date('2026-03-04T17:29:00Z'))).toBe(true);
    expect(isWithinOfficeHours(mwf, LONDON, new Date('2026-03-04T17:30:00Z'))).toBe(false);
  });
});

describe('nextRefreshAt', () => {
  const next = (instant: string, interval = 15, h = DEFAULT, zone = LONDON) =>
    nextRefreshAt(h, zone, interval, new Date(instant)).toISOString();

  it('steps every interval from the start of office hours', () => {
    expect(next('2026-03-04T10:07:00Z')).toBe('2026-03-04T10:15:00.000Z');
    expect(next('2026-03-04T10:15:00Z')).toBe('2026-03-04T10:30:00.000Z'); // strictly after now
    expect(next('2026-03-04T08:00:00Z')).toBe('2026-03-04T08:15:00.000Z');
    expect(next('2026-03-04T10:07:00Z', 45)).toBe('2026-03-04T10:15:00.000Z'); // 08:00, 08:45, 09:30, 10:15
  });

  it('goes to the next office-day start when the next step would fall at or after the end', () => {
    expect(next('2026-03-04T17:50:00Z')).toBe('2026-03-05T08:00:00.000Z');
    expect(next('2026-03-04T17:44:00Z')).toBe('2026-03-04T17:45:00.000Z');
    expect(next('2026-03-04T18:30:00Z')).toBe('2026-03-05T08:00:00.000Z');
  });

  it('before office hours the next refresh is today’s start', () => {
    expect(next('2026-03-04T06:00:00Z')).toBe('2026-03-04T08:00:00.000Z');
    expect(next('2026-03-04T00:00:00Z')).toBe('2026-03-04T08:00:00.000Z');
  });

  it('skips the weekend', () => {
    expect(next('2026-03-06T18:00:00Z')).toBe('2026-03-09T08:00:00.000Z'); // Friday evening → Monday
    expect(next('2026-03-07T12:00:00Z')).toBe('2026-03-09T08:00:00.000Z'); // Saturday
  });

  it('uses local wall time across daylight-saving changes', () => {
    // Friday 27 March 2026 evening (GMT) → Monday 30 March 08:00 BST = 07:00 UTC.
    expect(next('2026-03-27T19:00:00Z')).toBe('2026-03-30T07:00:00.000Z');
    // Friday 23 October 2026 evening (BST) → Monday 26 October 08:00 GMT.
    expect(next('2026-10-23T19:00:00Z')).toBe('2026-10-26T08:00:00.000Z');
  });

  it('works in other zones and with round-the-clock hours', () => {
    expect(next('2026-03-04T10:07:00Z', 15, DEFAULT, 'America/New_York')).toBe('2026-03-04T13:00:00.000Z');
    const always = hours('Sun-Sat 00:00-24:00');
    expect(next('2026-03-04T23:50:00Z', 15, always)).toBe('2026-03-05T00:00:00.000Z');
    expect(next('2026-03-04T12:01:00Z', 60, always)).toBe('2026-03-04T13:00:00.000Z');
  });

  it('refuses a nonsense interval', () => {
    expect(() => nextRefreshAt(DEFAULT, LONDON, 0, new Date())).toThrow(RangeError);
  });
});

describe('describeNextUpdate', () => {
  const now = new Date('2026-03-04T10:07:00Z'); // Wednesday
  it.each([
    ['2026-03-04T10:15:00Z', 'Today at 10:15 AM'],
    ['2026-03-05T08:00:00Z', 'Tomorrow at 8:00 AM'],
    ['2026-03-09T08:00:00Z', 'Monday 9 March at 8:00 AM'],
  ])('%s → %s', (next, text) => {
    expect(describeNextUpdate(new Date(next), now, LONDON)).toBe(text);
  });
});

describe('officeHoursStatus', () => {
  it('combines the flag, the instant and the text', () => {
    const status = officeHoursStatus(DEFAULT, LONDON, 15, new Date('2026-03-06T17:50:00Z'));
    expect(status).toEqual({
      isOfficeHours: true,
      nextUpdateAt: new Date('2026-03-09T08:00:00Z'),
      nextUpdate: 'Monday 9 March at 8:00 AM',
    });
  });
});
