/**
 * The calendar's own day arithmetic (calendar.ts) checked against date-fns, the maintained library
 * for dates, day by day over three decades and across zones (docs/decisions/0034): date-fns is the
 * reference here rather than the implementation, for the reasons that ADR gives.
 */
import { TZDate } from '@date-fns/tz';
import {
  differenceInCalendarDays,
  addDays as fnsAddDays,
  addMonths as fnsAddMonths,
  endOfMonth as fnsEndOfMonth,
  format,
  getDay,
  isValid,
  parse,
  startOfWeek,
} from 'date-fns';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  dayOfWeek,
  daysBetween,
  eachDay,
  endOfMonth,
  isDateString,
  startOfWeekMonday,
  todayIn,
} from './calendar';

const day = (date: string) => new TZDate(`${date}T00:00:00Z`, 'UTC');
const text = (date: Date) => format(date, 'yyyy-MM-dd');
const every = eachDay('2020-01-01', '2031-12-31');

describe('calendar.ts agrees with date-fns', () => {
  // Differences are collected and compared once: an expect per day is slow on a shared machine.
  it('on weekdays, week starts, month ends and moving by days', () => {
    const differ: string[] = [];
    for (const [i, date] of every.entries()) {
      const d = day(date);
      const step = (i % 61) - 30;
      if (dayOfWeek(date) !== getDay(d)) differ.push(`dayOfWeek ${date}`);
      if (startOfWeekMonday(date) !== text(startOfWeek(d, { weekStartsOn: 1 }))) differ.push(`week ${date}`);
      if (endOfMonth(date) !== text(fnsEndOfMonth(d))) differ.push(`endOfMonth ${date}`);
      if (addDays(date, step) !== text(fnsAddDays(d, step))) differ.push(`addDays ${date} ${step}`);
    }
    expect(differ).toEqual([]);
  });

  it('on moving by months (the last day of a shorter month) and counting days', () => {
    const differ: string[] = [];
    for (const [i, date] of every.entries()) {
      const d = day(date);
      const months = (i % 49) - 24;
      if (addMonths(date, months) !== text(fnsAddMonths(d, months)))
        differ.push(`addMonths ${date} ${months}`);
      const other = every[(i * 7919) % every.length]!;
      if (daysBetween(date, other) !== Math.max(0, differenceInCalendarDays(day(other), d) + 1))
        differ.push(`daysBetween ${date} ${other}`);
    }
    expect(differ).toEqual([]);
  });

  it('on which strings are real days', () => {
    for (const value of [
      '2024-02-29',
      '2023-02-29',
      '2026-13-01',
      '2026-04-31',
      '2000-02-29',
      '1900-02-29',
    ]) {
      expect(isDateString(value), value).toBe(isValid(parse(value, 'yyyy-MM-dd', new Date(0))));
    }
  });

  it('on the day it is in a zone, across the clock changes', () => {
    const zones = ['Europe/London', 'America/New_York', 'Pacific/Auckland', 'Asia/Kolkata'];
    const start = Date.parse('2026-03-01T00:00:00Z');
    const differ: string[] = [];
    for (let hour = 0; hour < 24 * 300; hour += 7) {
      const instant = new Date(start + hour * 3_600_000);
      for (const zone of zones)
        if (todayIn(zone, instant) !== text(new TZDate(instant, zone)))
          differ.push(`${zone} ${instant.toISOString()}`);
    }
    expect(differ).toEqual([]);
  });
});
