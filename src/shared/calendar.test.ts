import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  BULK_DEFAULT_RANGE_DAYS,
  compareDates,
  type DateString,
  dateOnlyInZone,
  dayOfWeek,
  daysBetween,
  daysInMonth,
  defaultBulkSelection,
  eachDay,
  endOfMonth,
  formatClockTime,
  formatDateParts,
  formatTime12,
  formatTimeRange,
  isDateString,
  isLeapYear,
  isWeekday,
  monthGrid,
  monthGridRange,
  monthLabel,
  monthWeekdays,
  navigateStaffView,
  nextMonth,
  parseDateString,
  previousMonth,
  type StaffView,
  selectBulkDays,
  staffViewDays,
  staffViewRange,
  startOfMonth,
  startOfWeekMonday,
  TIME_CHOICES,
  todayIn,
  weekDays,
} from './calendar';

// Oracles built only from UTC Date methods, independent of the module under test.
const MS_PER_DAY = 86_400_000;
const MS_PER_HOUR = 3_600_000;
const isoDay = (instant: Date) => instant.toISOString().slice(0, 10);
const utcMidnight = (date: DateString) => Date.parse(`${date}T00:00:00Z`);
const oracleAddDays = (date: DateString, amount: number) =>
  isoDay(new Date(utcMidnight(date) + amount * MS_PER_DAY));
const oracleDayOfWeek = (date: DateString) => new Date(utcMidnight(date)).getUTCDay();
const oracleEachDay = (from: DateString, to: DateString) => {
  const days: string[] = [];
  for (let t = utcMidnight(from); t <= utcMidnight(to); t += MS_PER_DAY) days.push(isoDay(new Date(t)));
  return days;
};

/** Last Sunday of a month at 01:00 UTC: when UK clocks change (EU rule, in force since 1996). */
const ukChangeInstant = (year: number, monthIndex: number) => {
  const lastDay = new Date(Date.UTC(year, monthIndex + 1, 0));
  return Date.UTC(year, monthIndex, lastDay.getUTCDate() - lastDay.getUTCDay(), 1);
};
const londonOffsetHours = (instant: number) => {
  const year = new Date(instant).getUTCFullYear();
  return instant >= ukChangeInstant(year, 2) && instant < ukChangeInstant(year, 9) ? 1 : 0;
};
const oracleLondonDay = (instant: number) =>
  isoDay(new Date(instant + londonOffsetHours(instant) * MS_PER_HOUR));
/** The UTC instant of London's midnight starting `date` (SharePoint's date-only storage). */
const londonMidnight = (date: DateString) => {
  const asUtc = utcMidnight(date);
  // Midnight is never inside a UK change hour (01:00 UTC), so the offset at UTC midnight minus one hour
  // of summer time is the offset in force at local midnight.
  return asUtc - londonOffsetHours(asUtc - MS_PER_HOUR) * MS_PER_HOUR;
};

const dateIn = (minYear: number, maxYear: number) =>
  fc
    .date({
      min: new Date(`${String(minYear).padStart(4, '0')}-01-01T00:00:00Z`),
      max: new Date(`${String(maxYear).padStart(4, '0')}-12-31T23:59:59Z`),
      noInvalidDate: true,
    })
    .map(isoDay);
const anyDate = dateIn(1, 9999);
const modernDate = dateIn(1900, 2200);
const instantIn = (minYear: number, maxYear: number) =>
  fc.date({
    min: new Date(`${minYear}-01-01T00:00:00Z`),
    max: new Date(`${maxYear}-12-31T23:59:59Z`),
    noInvalidDate: true,
  });
const view = fc.constantFrom<StaffView>('week', 'fortnight', 'month');

describe('isDateString and parsing', () => {
  it.each(['2026-03-29', '2024-02-29', '2000-02-29', '0001-01-01', '9999-12-31'])('accepts %s', (value) => {
    expect(isDateString(value)).toBe(true);
  });

  it.each([
    '2023-02-29',
    '2100-02-29',
    '1900-02-29',
    '2026-04-31',
    '2026-13-01',
    '2026-00-10',
    '2026-01-00',
    '0000-01-01',
    '2026-1-01',
    '26-01-01',
    ' 2026-01-01',
    '2026-01-01T00:00:00Z',
    '2026/01/01',
    '',
  ])('rejects %j', (value) => {
    expect(isDateString(value)).toBe(false);
    expect(() => parseDateString(value)).toThrow(RangeError);
  });

  it('rejects non-strings', () => {
    for (const value of [null, undefined, 20260101, new Date(), {}]) expect(isDateString(value)).toBe(false);
  });

  it('knows the leap-year rule, including centuries', () => {
    expect([2024, 2000, 2400, 1600].map(isLeapYear)).toEqual([true, true, true, true]);
    expect([2023, 2100, 1900, 2200].map(isLeapYear)).toEqual([false, false, false, false]);
    expect(daysInMonth(2024, 2)).toBe(29);
    expect(daysInMonth(2100, 2)).toBe(28);
    expect(daysInMonth(2000, 2)).toBe(29);
  });

  it('accepts every real day and round-trips through its parts', () => {
    fc.assert(
      fc.property(anyDate, (date) => {
        expect(isDateString(date)).toBe(true);
        expect(formatDateParts(parseDateString(date))).toBe(date);
      }),
    );
  });
});

describe('addDays', () => {
  it.each([
    ['2024-02-28', 1, '2024-02-29'],
    ['2024-02-29', 1, '2024-03-01'],
    ['2023-02-28', 1, '2023-03-01'],
    ['2100-02-28', 1, '2100-03-01'],
    ['2000-02-28', 1, '2000-02-29'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2027-01-01', -1, '2026-12-31'],
    ['2026-03-28', 1, '2026-03-29'],
    ['2026-03-29', 1, '2026-03-30'],
    ['2026-10-25', 1, '2026-10-26'],
    ['2024-01-01', 366, '2025-01-01'],
    ['2026-03-10', 0, '2026-03-10'],
  ])('%s + %i = %s', (date, amount, expected) => {
    expect(addDays(date, amount)).toBe(expected);
  });

  it('refuses fractions, bad dates and years outside 0001 to 9999', () => {
    expect(() => addDays('2026-01-01', 0.5)).toThrow(RangeError);
    expect(() => addDays('2026-02-30', 1)).toThrow(RangeError);
    expect(() => addDays('9999-12-31', 1)).toThrow(RangeError);
    expect(() => addDays('0001-01-01', -1)).toThrow(RangeError);
  });

  it('agrees with UTC millisecond arithmetic', () => {
    fc.assert(
      fc.property(modernDate, fc.integer({ min: -40_000, max: 40_000 }), (date, amount) => {
        expect(addDays(date, amount)).toBe(oracleAddDays(date, amount));
      }),
    );
  });

  it('round-trips and composes', () => {
    const amount = fc.integer({ min: -100_000, max: 100_000 });
    fc.assert(
      fc.property(dateIn(1000, 9000), amount, amount, (date, a, b) => {
        expect(addDays(addDays(date, a), -a)).toBe(date);
        expect(addDays(addDays(date, a), b)).toBe(addDays(date, a + b));
      }),
    );
  });
});

describe('ranges', () => {
  it('counts inclusively', () => {
    expect(daysBetween('2026-03-10', '2026-03-10')).toBe(1);
    expect(daysBetween('2026-03-01', '2026-03-31')).toBe(31);
    expect(daysBetween('2024-01-01', '2024-12-31')).toBe(366);
    expect(daysBetween('2000-01-01', '2000-12-31')).toBe(366);
    expect(daysBetween('2100-01-01', '2100-12-31')).toBe(365);
    expect(daysBetween('2026-03-11', '2026-03-10')).toBe(0);
    expect(eachDay('2024-02-27', '2024-03-01')).toEqual([
      '2024-02-27',
      '2024-02-28',
      '2024-02-29',
      '2024-03-01',
    ]);
    expect(eachDay('2026-03-11', '2026-03-10')).toEqual([]);
  });

  it('eachDay includes both ends, is consecutive and has daysBetween days', () => {
    fc.assert(
      fc.property(modernDate, fc.integer({ min: 0, max: 800 }), (from, span) => {
        const to = addDays(from, span);
        const days = eachDay(from, to);
        expect(days).toHaveLength(span + 1);
        expect(daysBetween(from, to)).toBe(span + 1);
        expect(days[0]).toBe(from);
        expect(days.at(-1)).toBe(to);
        expect(days).toEqual(oracleEachDay(from, to));
      }),
    );
  });

  it('is empty when the end comes first', () => {
    fc.assert(
      fc.property(modernDate, fc.integer({ min: 1, max: 800 }), (to, gap) => {
        const from = addDays(to, gap);
        expect(eachDay(from, to)).toEqual([]);
        expect(daysBetween(from, to)).toBe(0);
      }),
    );
  });

  it('compares like the timeline', () => {
    expect(compareDates('2026-03-10', '2026-03-11')).toBe(-1);
    expect(compareDates('2026-03-11', '2026-03-11')).toBe(0);
    expect(compareDates('2027-01-01', '2026-12-31')).toBe(1);
    fc.assert(
      fc.property(anyDate, anyDate, (a, b) => {
        const expected = Math.sign(utcMidnight(a) - utcMidnight(b));
        expect(compareDates(a, b)).toBe(expected === 0 ? 0 : expected);
        expect(compareDates(a, b)).toBe(a < b ? -1 : a > b ? 1 : 0);
      }),
    );
  });
});

describe('weekdays and weeks', () => {
  it('numbers days 0 Sunday to 6 Saturday', () => {
    expect(dayOfWeek('2026-03-29')).toBe(0);
    expect(dayOfWeek('2026-03-30')).toBe(1);
    expect(dayOfWeek('2024-02-29')).toBe(4);
    expect(dayOfWeek('2000-01-01')).toBe(6);
    expect(dayOfWeek('1970-01-01')).toBe(4);
    expect(dayOfWeek('0001-01-01')).toBe(1);
    fc.assert(
      fc.property(modernDate, (date) => {
        expect(dayOfWeek(date)).toBe(oracleDayOfWeek(date));
      }),
    );
  });

  it('isWeekday is Monday to Friday', () => {
    fc.assert(
      fc.property(anyDate, (date) => {
        const weekday = dayOfWeek(date);
        expect(isWeekday(date)).toBe(weekday >= 1 && weekday <= 5);
      }),
    );
  });

  it('startOfWeekMonday is the Monday on or before, a Sunday belonging to the week before', () => {
    expect(startOfWeekMonday('2026-03-29')).toBe('2026-03-23');
    expect(startOfWeekMonday('2026-03-30')).toBe('2026-03-30');
    expect(startOfWeekMonday('2026-04-03')).toBe('2026-03-30');
    expect(startOfWeekMonday('2025-01-01')).toBe('2024-12-30');
    fc.assert(
      fc.property(anyDate, (date) => {
        const monday = startOfWeekMonday(date);
        expect(dayOfWeek(monday)).toBe(1);
        expect(daysBetween(monday, date)).toBeGreaterThanOrEqual(1);
        expect(daysBetween(monday, date)).toBeLessThanOrEqual(7);
      }),
    );
  });

  it('weekDays is always five consecutive weekdays from Monday, containing a weekday date', () => {
    expect(weekDays('2026-03-29')).toEqual([
      '2026-03-23',
      '2026-03-24',
      '2026-03-25',
      '2026-03-26',
      '2026-03-27',
    ]);
    expect(weekDays('2024-12-31')).toEqual([
      '2024-12-30',
      '2024-12-31',
      '2025-01-01',
      '2025-01-02',
      '2025-01-03',
    ]);
    fc.assert(
      fc.property(modernDate, (date) => {
        const days = weekDays(date);
        expect(days.map(dayOfWeek)).toEqual([1, 2, 3, 4, 5]);
        expect(days).toEqual(eachDay(days[0]!, addDays(days[0]!, 4)));
        expect(days.includes(date)).toBe(isWeekday(date));
      }),
    );
  });
});

describe('months', () => {
  it('finds month ends, leap years included', () => {
    expect(startOfMonth('2026-03-29')).toBe('2026-03-01');
    expect(endOfMonth('2024-02-10')).toBe('2024-02-29');
    expect(endOfMonth('2023-02-10')).toBe('2023-02-28');
    expect(endOfMonth('2100-02-01')).toBe('2100-02-28');
    expect(endOfMonth('2000-02-01')).toBe('2000-02-29');
    expect(endOfMonth('2026-12-05')).toBe('2026-12-31');
    fc.assert(
      fc.property(anyDate, (date) => {
        const first = startOfMonth(date);
        const last = endOfMonth(date);
        expect(first.slice(0, 7)).toBe(date.slice(0, 7));
        expect(last.slice(0, 7)).toBe(date.slice(0, 7));
        expect(first.endsWith('-01')).toBe(true);
        if (date < '9999-12-01') expect(addDays(last, 1).endsWith('-01')).toBe(true);
        const { year, month } = parseDateString(date);
        expect(daysBetween(first, last)).toBe(daysInMonth(year, month));
      }),
    );
  });

  it('adds months, clamping to the last day', () => {
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2023-01-31', 1)).toBe('2023-02-28');
    expect(addMonths('2100-01-31', 1)).toBe('2100-02-28');
    expect(addMonths('2026-12-15', 1)).toBe('2027-01-15');
    expect(addMonths('2026-01-15', -1)).toBe('2025-12-15');
    expect(addMonths('2026-03-31', -13)).toBe('2025-02-28');
    expect(() => addMonths('9999-12-01', 1)).toThrow(RangeError);
  });

  it('previous and next month step between first days and undo each other', () => {
    expect(previousMonth('2026-03-31')).toBe('2026-02-01');
    expect(nextMonth('2026-01-31')).toBe('2026-02-01');
    expect(nextMonth('2026-12-31')).toBe('2027-01-01');
    expect(previousMonth('2026-01-01')).toBe('2025-12-01');
    fc.assert(
      fc.property(modernDate, (date) => {
        expect(previousMonth(nextMonth(date))).toBe(startOfMonth(date));
        expect(nextMonth(previousMonth(date))).toBe(startOfMonth(date));
        expect(daysBetween(startOfMonth(date), nextMonth(date))).toBe(
          daysBetween(startOfMonth(date), endOfMonth(date)) + 1,
        );
      }),
    );
  });

  it('labels months with the full English name and four-digit year', () => {
    expect(monthLabel('2026-03-29')).toBe('March 2026');
    expect(monthLabel('2024-02-29')).toBe('February 2024');
    expect(monthLabel('2026-12-01')).toBe('December 2026');
    expect(monthLabel('0999-09-09')).toBe('September 0999');
  });
});

describe('facilitator month grid', () => {
  const rows = (date: DateString) =>
    monthGrid(date).map((week) =>
      week.map((cell) => `${cell.date.slice(5)}${cell.inMonth ? '' : '*'}`).join(' '),
    );

  it('starts a month beginning on Sunday at its first Monday', () => {
    expect(rows('2026-03-15')).toEqual([
      '03-02 03-03 03-04 03-05 03-06',
      '03-09 03-10 03-11 03-12 03-13',
      '03-16 03-17 03-18 03-19 03-20',
      '03-23 03-24 03-25 03-26 03-27',
      '03-30 03-31 04-01* 04-02* 04-03*',
    ]);
  });

  it('starts a month beginning on Saturday at its first Monday', () => {
    expect(rows('2026-08-01')[0]).toBe('08-03 08-04 08-05 08-06 08-07');
  });

  it('borrows leading and trailing days from the neighbouring months', () => {
    expect(rows('2026-04-01')).toEqual([
      '03-30* 03-31* 04-01 04-02 04-03',
      '04-06 04-07 04-08 04-09 04-10',
      '04-13 04-14 04-15 04-16 04-17',
      '04-20 04-21 04-22 04-23 04-24',
      '04-27 04-28 04-29 04-30 05-01*',
    ]);
    expect(rows('2024-02-29')).toEqual([
      '01-29* 01-30* 01-31* 02-01 02-02',
      '02-05 02-06 02-07 02-08 02-09',
      '02-12 02-13 02-14 02-15 02-16',
      '02-19 02-20 02-21 02-22 02-23',
      '02-26 02-27 02-28 02-29 03-01*',
    ]);
    expect(monthGridRange('2024-02-10')).toEqual({ from: '2024-01-29', to: '2024-03-01' });
  });

  it('needs only four rows for a February starting on Monday', () => {
    expect(rows('2021-02-01')).toEqual([
      '02-01 02-02 02-03 02-04 02-05',
      '02-08 02-09 02-10 02-11 02-12',
      '02-15 02-16 02-17 02-18 02-19',
      '02-22 02-23 02-24 02-25 02-26',
    ]);
  });

  it('has full Monday-to-Friday rows and every weekday of the month exactly once', () => {
    fc.assert(
      fc.property(modernDate, (date) => {
        const weeks = monthGrid(date);
        const month = date.slice(0, 7);
        expect(weeks.length).toBeGreaterThanOrEqual(4);
        expect(weeks.length).toBeLessThanOrEqual(5);
        weeks.forEach((week, index) => {
          expect(week.map((cell) => dayOfWeek(cell.date))).toEqual([1, 2, 3, 4, 5]);
          expect(week.map((cell) => cell.date)).toEqual(weekDays(week[0]!.date));
          for (const cell of week) expect(cell.inMonth).toBe(cell.date.startsWith(month));
          expect(week.some((cell) => cell.inMonth)).toBe(true);
          if (index > 0) expect(week[0]!.date).toBe(addDays(weeks[index - 1]![0]!.date, 7));
        });
        const inMonth = weeks.flat().filter((cell) => cell.inMonth);
        const expected = oracleEachDay(`${month}-01`, endOfMonth(date)).filter((day) => {
          const weekday = oracleDayOfWeek(day);
          return weekday !== 0 && weekday !== 6;
        });
        expect(inMonth.map((cell) => cell.date)).toEqual(expected);
        expect(monthWeekdays(date)).toEqual(expected);
        expect(monthGridRange(date)).toEqual({ from: weeks[0]![0]!.date, to: weeks.at(-1)![4]!.date });
      }),
    );
  });
  it('has four or five rows for every month from 1900 to 2200', () => {
    for (let month = startOfMonth('1900-01-01'); month <= '2200-12-01'; month = nextMonth(month)) {
      const weeks = monthGrid(month);
      const cells = weeks.flat();
      expect([4, 5]).toContain(weeks.length);
      expect(cells.filter((cell) => cell.inMonth).map((cell) => cell.date)).toEqual(monthWeekdays(month));
      expect(new Set(cells.map((cell) => cell.date)).size).toBe(cells.length);
    }
  });
});

describe('staff grid views', () => {
  it('shows five weekdays from Monday in week view and all weekdays of the month in month view', () => {
    expect(staffViewDays('week', '2026-03-29')).toEqual(weekDays('2026-03-23'));
    expect(staffViewDays('month', '2026-03-29')).toHaveLength(22);
    expect(staffViewRange('week', '2026-04-01')).toEqual({ from: '2026-03-30', to: '2026-04-03' });
    expect(staffViewRange('month', '2026-08-20')).toEqual({ from: '2026-08-03', to: '2026-08-31' });
    expect(staffViewRange('month', '2026-02-20')).toEqual({ from: '2026-02-02', to: '2026-02-27' });
  });

  it('shows this week and next in fortnight view, across a month end and a year end', () => {
    expect(staffViewDays('fortnight', '2026-11-25')).toEqual([
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-30',
      '2026-12-01',
      '2026-12-02',
      '2026-12-03',
      '2026-12-04',
    ]);
    // a Sunday belongs to the week before it
    expect(staffViewRange('fortnight', '2026-12-27')).toEqual({ from: '2026-12-21', to: '2027-01-01' });
    expect(navigateStaffView('fortnight', '2026-11-25', 'next', '2026-01-01')).toBe('2026-12-07');
    expect(navigateStaffView('fortnight', '2026-12-07', 'previous', '2026-01-01')).toBe('2026-11-23');
  });

  it('requests exactly the days it shows', () => {
    fc.assert(
      fc.property(view, modernDate, (currentView, date) => {
        const days = staffViewDays(currentView, date);
        expect(days.every(isWeekday)).toBe(true);
        expect(staffViewRange(currentView, date)).toEqual({ from: days[0], to: days.at(-1) });
        expect(selectBulkDays(days[0]!, days.at(-1)!, [1, 2, 3, 4, 5])).toEqual(days);
      }),
    );
  });

  it('navigates by whole weeks and months, and back', () => {
    expect(navigateStaffView('week', '2026-03-29', 'next', '2026-01-01')).toBe('2026-03-30');
    expect(navigateStaffView('week', '2026-03-30', 'previous', '2026-01-01')).toBe('2026-03-23');
    expect(navigateStaffView('month', '2026-01-31', 'next', '2026-01-01')).toBe('2026-02-02');
    expect(navigateStaffView('month', '2026-09-15', 'previous', '2026-01-01')).toBe('2026-08-03');
    expect(navigateStaffView('month', '2026-12-15', 'next', '2026-01-01')).toBe('2027-01-01');
    expect(navigateStaffView('week', '2026-03-10', 'today', '2026-07-04')).toBe('2026-07-04');
    expect(() => navigateStaffView('week', '2026-03-10', 'today', 'not a day')).toThrow(RangeError);

    fc.assert(
      fc.property(view, modernDate, (currentView, date) => {
        const next = navigateStaffView(currentView, date, 'next', date);
        const back = navigateStaffView(currentView, next, 'previous', date);
        expect(staffViewDays(currentView, back)).toEqual(staffViewDays(currentView, date));
        const shown = staffViewRange(currentView, date);
        const nextShown = staffViewRange(currentView, next);
        // The next period starts on the first weekday after the current one ends.
        expect(nextShown.from).toBe(addDays(shown.to, dayOfWeek(shown.to) === 5 ? 3 : 1));
        // A month step lands on a weekday of the new month, so switching to week view stays in it.
        if (currentView === 'month') {
          expect(isWeekday(next)).toBe(true);
          expect(next.slice(0, 7)).toBe(nextMonth(date).slice(0, 7));
          expect(staffViewDays('week', next)).toContain(next);
        }
        expect(navigateStaffView(currentView, next, 'today', date)).toBe(date);
      }),
    );
  });
});

describe('bulk update days', () => {
  it('selects the listed weekdays inclusively', () => {
    expect(selectBulkDays('2026-03-27', '2026-04-06', [1, 2, 3, 4, 5])).toEqual([
      '2026-03-27',
      '2026-03-30',
      '2026-03-31',
      '2026-04-01',
      '2026-04-02',
      '2026-04-03',
      '2026-04-06',
    ]);
    expect(selectBulkDays('2026-03-27', '2026-04-06', [0, 6])).toEqual([
      '2026-03-28',
      '2026-03-29',
      '2026-04-04',
      '2026-04-05',
    ]);
    expect(selectBulkDays('2026-03-27', '2026-04-06', [])).toEqual([]);
    expect(selectBulkDays('2026-04-06', '2026-03-27', [1])).toEqual([]);
    expect(selectBulkDays('2024-02-29', '2024-02-29', [4])).toEqual(['2024-02-29']);
  });

  it('equals a brute-force filter', () => {
    const days = fc.array(fc.integer({ min: -2, max: 9 }), { maxLength: 10 });
    fc.assert(
      fc.property(modernDate, fc.integer({ min: -5, max: 400 }), days, (start, span, daysOfWeek) => {
        const end = addDays(start, span);
        const expected =
          span < 0
            ? []
            : oracleEachDay(start, end).filter((day) => daysOfWeek.includes(oracleDayOfWeek(day)));
        expect(selectBulkDays(start, end, daysOfWeek)).toEqual(expected);
      }),
    );
  });

  it('defaults to today plus 30 days, Monday to Friday', () => {
    expect(defaultBulkSelection('2026-02-10')).toEqual({
      startDate: '2026-02-10',
      endDate: '2026-03-12',
      daysOfWeek: [1, 2, 3, 4, 5],
    });
    expect(BULK_DEFAULT_RANGE_DAYS).toBe(30);
  });
});

describe('todayIn', () => {
  const at = (iso: string) => new Date(iso);

  it.each([
    // 2026: clocks go forward at 01:00 UTC on Sunday 29 March, back at 01:00 UTC on Sunday 25 October.
    ['2026-03-28T23:59:59Z', '2026-03-28'],
    ['2026-03-29T00:00:00Z', '2026-03-29'],
    ['2026-03-29T00:59:59Z', '2026-03-29'],
    ['2026-03-29T01:00:00Z', '2026-03-29'],
    ['2026-03-29T02:00:00Z', '2026-03-29'],
    ['2026-03-29T22:59:59Z', '2026-03-29'],
    ['2026-03-29T23:00:00Z', '2026-03-30'],
    ['2026-10-24T22:59:59Z', '2026-10-24'],
    ['2026-10-24T23:00:00Z', '2026-10-25'],
    ['2026-10-25T00:00:00Z', '2026-10-25'],
    ['2026-10-25T00:59:59Z', '2026-10-25'],
    ['2026-10-25T01:00:00Z', '2026-10-25'],
    ['2026-10-25T02:00:00Z', '2026-10-25'],
    ['2026-10-25T23:00:00Z', '2026-10-25'],
    ['2026-10-26T00:00:00Z', '2026-10-26'],
    // 2025: 30 March and 26 October.
    ['2025-03-30T00:30:00Z', '2025-03-30'],
    ['2025-03-30T23:30:00Z', '2025-03-31'],
    ['2025-10-25T23:30:00Z', '2025-10-26'],
    ['2025-10-26T01:30:00Z', '2025-10-26'],
    ['2024-02-28T23:30:00Z', '2024-02-28'],
    ['2024-06-30T23:30:00Z', '2024-07-01'],
    ['2026-12-31T23:59:59Z', '2026-12-31'],
  ])('in Europe/London at %s is %s', (instant, expected) => {
    expect(todayIn('Europe/London', at(instant))).toBe(expected);
  });

  it('follows the zone it is given, not the host', () => {
    const instant = at('2026-01-01T10:30:00Z');
    expect(todayIn('UTC', instant)).toBe('2026-01-01');
    expect(todayIn('Pacific/Kiritimati', instant)).toBe('2026-01-02');
    expect(todayIn('Pacific/Pago_Pago', instant)).toBe('2025-12-31');
    expect(todayIn('America/Los_Angeles', at('2026-03-08T07:59:59Z'))).toBe('2026-03-07');
    expect(todayIn('America/Los_Angeles', at('2026-03-08T08:00:00Z'))).toBe('2026-03-08');
    // Lord Howe Island keeps half-hour summer time: +10:30 once it ends on 5 April 2026.
    expect(todayIn('Australia/Lord_Howe', at('2026-04-05T13:29:59Z'))).toBe('2026-04-05');
    expect(todayIn('Australia/Lord_Howe', at('2026-04-05T13:30:00Z'))).toBe('2026-04-06');
  });

  it('uses the current instant when none is given', () => {
    const before = Date.now();
    const today = todayIn('Europe/London');
    const after = Date.now();
    expect([oracleLondonDay(before), oracleLondonDay(after)]).toContain(today);
  });

  it('refuses an unknown zone or an invalid instant', () => {
    expect(() => todayIn('Mars/Olympus_Mons', at('2026-01-01T00:00:00Z'))).toThrow(RangeError);
    expect(() => todayIn('Europe/London', new Date(Number.NaN))).toThrow(RangeError);
  });

  it('matches the UK rule for every instant this century', () => {
    fc.assert(
      fc.property(instantIn(2000, 2099), (instant) => {
        expect(todayIn('Europe/London', instant)).toBe(oracleLondonDay(instant.getTime()));
        expect(todayIn('UTC', instant)).toBe(isoDay(instant));
      }),
    );
  });

  it('matches the UK rule in the hours around each clock change', () => {
    const changeDay = fc.record({ year: fc.integer({ min: 2000, max: 2099 }), month: fc.constantFrom(2, 9) });
    const minutesFromMidnight = fc.integer({ min: -120, max: 180 });
    fc.assert(
      fc.property(changeDay, minutesFromMidnight, ({ year, month }, minutes) => {
        const change = ukChangeInstant(year, month);
        const instant = change - MS_PER_HOUR + minutes * 60_000;
        expect(todayIn('Europe/London', new Date(instant))).toBe(oracleLondonDay(instant));
      }),
    );
  });
});

describe('dateOnlyInZone', () => {
  it.each([
    ['2026-06-30T23:00:00Z', '2026-07-01'],
    ['2026-01-15T00:00:00Z', '2026-01-15'],
    // Midnight on the spring change day is still GMT; the next midnight is BST.
    ['2026-03-29T00:00:00Z', '2026-03-29'],
    ['2026-03-29T00:30:00Z', '2026-03-29'],
    ['2026-03-29T01:00:00Z', '2026-03-29'],
    ['2026-03-29T01:30:00Z', '2026-03-29'],
    ['2026-03-29T02:00:00Z', '2026-03-29'],
    ['2026-03-29T23:00:00Z', '2026-03-30'],
    // Midnight on the autumn change day is BST; the next midnight is GMT.
    ['2026-10-24T23:00:00Z', '2026-10-25'],
    ['2026-10-25T00:30:00Z', '2026-10-25'],
    ['2026-10-25T01:00:00Z', '2026-10-25'],
    ['2026-10-25T01:30:00Z', '2026-10-25'],
    ['2026-10-26T00:00:00Z', '2026-10-26'],
    ['2024-02-28T23:00:00Z', '2024-02-28'],
    ['2024-02-29T00:00:00Z', '2024-02-29'],
    ['2026-07-01T00:00:00+01:00', '2026-07-01'],
    ['2026-07-01T00:00:00+0100', '2026-07-01'],
    ['2026-06-30T23:00:00.000Z', '2026-07-01'],
    ['2026-06-30t23:00:00z', '2026-07-01'],
    ['2026-06-30 23:00:00Z', '2026-07-01'],
    ['2026-06-30T23:00Z', '2026-07-01'],
    [' 2026-06-30T23:00:00Z ', '2026-07-01'],
  ])('reads %s as %s in Europe/London', (value, expected) => {
    expect(dateOnlyInZone(value, 'Europe/London')).toBe(expected);
  });

  it('keeps values without an offset as the day they name', () => {
    expect(dateOnlyInZone('2026-07-01', 'Europe/London')).toBe('2026-07-01');
    expect(dateOnlyInZone('2026-07-01', 'Pacific/Kiritimati')).toBe('2026-07-01');
    expect(dateOnlyInZone('2026-07-01T00:00:00', 'America/Los_Angeles')).toBe('2026-07-01');
  });

  it('converts to other zones too', () => {
    expect(dateOnlyInZone('2026-06-30T23:00:00Z', 'UTC')).toBe('2026-06-30');
    expect(dateOnlyInZone('2026-06-30T23:00:00Z', 'America/Los_Angeles')).toBe('2026-06-30');
    expect(dateOnlyInZone('2026-06-30T10:00:00Z', 'Pacific/Kiritimati')).toBe('2026-07-01');
  });

  it.each([
    '',
    'yesterday',
    '2026-02-30T00:00:00Z',
    '2026-07-01Z',
    '2026-07-01T25:00:00Z',
    '2026-07-01T10:00:00+25:00',
    '2026-07-01T10:00:00 Z',
  ])('refuses %j', (value) => {
    expect(() => dateOnlyInZone(value, 'Europe/London')).toThrow(RangeError);
  });

  it("reads London's midnight as that day for every day this century", () => {
    for (const date of eachDay('2000-01-01', '2099-12-31')) {
      const stored = new Date(londonMidnight(date)).toISOString();
      if (dateOnlyInZone(stored, 'Europe/London') !== date) expect(`${stored} -> ${date}`).toBe('');
    }
  });

  it('agrees with todayIn for any instant and zone', () => {
    const zone = fc.constantFrom(
      'Europe/London',
      'UTC',
      'America/Los_Angeles',
      'Pacific/Kiritimati',
      'Asia/Kolkata',
    );
    fc.assert(
      fc.property(instantIn(1990, 2100), zone, (instant, timeZone) => {
        expect(dateOnlyInZone(instant.toISOString(), timeZone)).toBe(todayIn(timeZone, instant));
      }),
    );
  });
});

describe('times of day', () => {
  it('offers hourly choices from 7:00 AM to 8:00 PM', () => {
    expect(TIME_CHOICES).toHaveLength(14);
    expect(TIME_CHOICES[0]).toEqual({ value: '07:00', label: '7:00 AM' });
    expect(TIME_CHOICES.find((choice) => choice.value === '12:00')?.label).toBe('12:00 PM');
    expect(TIME_CHOICES.at(-1)).toEqual({ value: '20:00', label: '8:00 PM' });
    expect(TIME_CHOICES.map((choice) => choice.value)).toEqual(
      Array.from({ length: 14 }, (_, index) => `${String(7 + index).padStart(2, '0')}:00`),
    );
  });

  it.each([
    ['00:00', '12:00 AM'],
    ['00:30', '12:30 AM'],
    ['09:05', '9:05 AM'],
    ['11:59', '11:59 AM'],
    ['12:00', '12:00 PM'],
    ['13:30', '1:30 PM'],
    ['23:59', '11:59 PM'],
    ['', ''],
    ['24:00', '24:00'],
    ['9:00', '9:00'],
  ])('formats %j as %j', (value, expected) => {
    expect(formatTime12(value)).toBe(expected);
  });
});

describe('the one time format people read', () => {
  it.each([
    ['09:00', '13:00', '9:00 AM – 1:00 PM'],
    ['13:00', '', 'From 1:00 PM'],
    [null, '11:30', 'Until 11:30 AM'],
    [' ', undefined, ''],
  ])('writes %j to %j as %j', (start, end, expected) => {
    expect(formatTimeRange(start, end)).toBe(expected);
  });

  it('reads an instant on the clock of the given zone', () => {
    expect(formatClockTime(new Date('2026-07-01T13:05:00Z'), 'Europe/London')).toBe('2:05 PM');
    expect(formatClockTime(new Date('2026-12-01T00:05:00Z'), 'Europe/London')).toBe('12:05 AM');
    expect(formatClockTime(new Date('2026-12-01T00:05:00Z'), 'America/New_York')).toBe('7:05 PM');
  });
});
