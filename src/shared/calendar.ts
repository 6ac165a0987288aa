/**
 * Calendar helpers shared by the browser and the server.
 *
 * Every calendar day is a `yyyy-MM-dd` string. Arithmetic turns the string into a whole number of days
 * since 1970-01-01 using UTC `Date` methods only, so no result depends on the host's time zone. Only
 * `todayIn` and `dateOnlyInZone` look at a zone, and always at the one they are given.
 */

/** A calendar day, `yyyy-MM-dd` (proleptic Gregorian, years 0001 to 9999). */
export type DateString = string;

/** A time of day `HH:mm`, or `""` for "no time". */
export type TimeString = string;

/** 0 = Sunday … 6 = Saturday, the numbering of `Date#getUTCDay` and of the bulk-update payload. */
export type DayOfWeek = 0 | 1 | 2 | 3 | 4 | 5 | 6;

export interface DateParts {
  year: number;
  /** 1 = January … 12 = December. */
  month: number;
  day: number;
}

/** An inclusive range of days, as the list endpoints take it. */
export interface DateRange {
  from: DateString;
  to: DateString;
}

export interface CalendarCell {
  date: DateString;
  /** False for the greyed, unclickable days borrowed from the neighbouring months. */
  inMonth: boolean;
}

/** One row of the month grid: always 5 cells, Monday to Friday. */
export type CalendarWeek = CalendarCell[];

/** A Monday-to-Friday week, two of them from this week's Monday (across a month end too), or a month. */
export const STAFF_VIEWS = ['week', 'fortnight', 'month'] as const;
export type StaffView = (typeof STAFF_VIEWS)[number];
export type NavigationAction = 'previous' | 'next' | 'today';

export interface TimeChoice {
  value: TimeString;
  label: string;
}

export const DEFAULT_TIME_ZONE = 'Europe/London';
export const DEFAULT_STAFF_VIEW: StaffView = 'month';
export const SUNDAY: DayOfWeek = 0;
export const MONDAY: DayOfWeek = 1;
export const FRIDAY: DayOfWeek = 5;
export const SATURDAY: DayOfWeek = 6;
/** Monday to Friday: the calendar's columns and the bulk update's default days. */
export const WEEKDAYS: readonly DayOfWeek[] = [1, 2, 3, 4, 5];
export const DAYS_PER_GRID_WEEK = 5;
/** The bulk dialog starts at today and ends this many days later. */
export const BULK_DEFAULT_RANGE_DAYS = 30;
/** The server refuses list ranges longer than this. */
export const MAX_RANGE_DAYS = 400;
export const FIRST_TIME_CHOICE_HOUR = 7;
export const LAST_TIME_CHOICE_HOUR = 20;

const MS_PER_DAY = 86_400_000;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;
/** English month names, January first; shared by every date label on both sides. */
export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** English weekday names, Sunday first (the index `dayOfWeek` returns). */
export const WEEKDAY_NAMES = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;

// ---------------------------------------------------------------------------------------------------
// Parsing and the day-number representation

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function partsIfValid(value: unknown): DateParts | undefined {
  if (typeof value !== 'string') return undefined;
  const match = DATE_PATTERN.exec(value);
  if (!match) return undefined;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return { year, month, day };
}

/** True for a real calendar day written `yyyy-MM-dd` (so `2023-02-29` and `2026-13-01` are false). */
export function isDateString(value: unknown): value is DateString {
  return partsIfValid(value) !== undefined;
}

/** Splits a `yyyy-MM-dd` day; throws `RangeError` for anything that is not a real calendar day. */
export function parseDateString(value: string): DateParts {
  const parts = partsIfValid(value);
  if (!parts) throw new RangeError(`Not a yyyy-MM-dd calendar day: ${JSON.stringify(value)}`);
  return parts;
}

export function formatDateParts({ year, month, day }: DateParts): DateString {
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/** Days since 1970-01-01. `setUTCFullYear` rather than `Date.UTC`, which maps years 0–99 to 1900–1999. */
function toDayNumber(date: DateString): number {
  const { year, month, day } = parseDateString(date);
  const instant = new Date(0);
  instant.setUTCFullYear(year, month - 1, day);
  return Math.round(instant.getTime() / MS_PER_DAY);
}

function fromDayNumber(dayNumber: number): DateString {
  const instant = new Date(dayNumber * MS_PER_DAY);
  const year = instant.getUTCFullYear();
  if (!Number.isFinite(year) || year < 1 || year > 9999) {
    throw new RangeError('Date arithmetic left the years 0001 to 9999');
  }
  return formatDateParts({ year, month: instant.getUTCMonth() + 1, day: instant.getUTCDate() });
}

// ---------------------------------------------------------------------------------------------------
// Days and ranges

/** -1, 0 or 1, for `Array#sort`. */
export function compareDates(a: DateString, b: DateString): -1 | 0 | 1 {
  const difference = toDayNumber(a) - toDayNumber(b);
  return difference < 0 ? -1 : difference > 0 ? 1 : 0;
}

export function addDays(date: DateString, amount: number): DateString {
  if (!Number.isInteger(amount)) throw new RangeError(`Days to add must be a whole number: ${amount}`);
  return fromDayNumber(toDayNumber(date) + amount);
}

/** How many days the inclusive range `from`..`to` holds: 1 when they are equal, 0 when `to` is earlier. */
export function daysBetween(from: DateString, to: DateString): number {
  return Math.max(0, toDayNumber(to) - toDayNumber(from) + 1);
}

/** Every day from `from` to `to`, both included; empty when `to` is earlier. */
export function eachDay(from: DateString, to: DateString): DateString[] {
  const first = toDayNumber(from);
  const last = toDayNumber(to);
  const days: DateString[] = [];
  for (let dayNumber = first; dayNumber <= last; dayNumber++) days.push(fromDayNumber(dayNumber));
  return days;
}

export function dayOfWeek(date: DateString): DayOfWeek {
  // 1970-01-01 was a Thursday; the double modulo keeps days before 1970 non-negative.
  return ((((toDayNumber(date) + 4) % 7) + 7) % 7) as DayOfWeek;
}

export function isWeekday(date: DateString): boolean {
  const weekday = dayOfWeek(date);
  return weekday !== SATURDAY && weekday !== SUNDAY;
}

/** The Monday on or before `date`: the staff week, unlike date-fns' default, starts on Monday. */
export function startOfWeekMonday(date: DateString): DateString {
  return addDays(date, -((dayOfWeek(date) + 6) % 7));
}

export function startOfMonth(date: DateString): DateString {
  const { year, month } = parseDateString(date);
  return formatDateParts({ year, month, day: 1 });
}

export function endOfMonth(date: DateString): DateString {
  const { year, month } = parseDateString(date);
  return formatDateParts({ year, month, day: daysInMonth(year, month) });
}

/** Moves by whole months; a day past the end of the target month becomes its last day (31 Jan + 1 → 28/29 Feb). */
export function addMonths(date: DateString, amount: number): DateString {
  if (!Number.isInteger(amount)) throw new RangeError(`Months to add must be a whole number: ${amount}`);
  const { year, month, day } = parseDateString(date);
  const monthIndex = year * 12 + (month - 1) + amount;
  const targetYear = Math.floor(monthIndex / 12);
  const targetMonth = monthIndex - targetYear * 12 + 1;
  if (targetYear < 1 || targetYear > 9999)
    throw new RangeError('Date arithmetic left the years 0001 to 9999');
  return formatDateParts({
    year: targetYear,
    month: targetMonth,
    day: Math.min(day, daysInMonth(targetYear, targetMonth)),
  });
}

/** The first day of the month before the one containing `date`. */
export function previousMonth(date: DateString): DateString {
  return addMonths(startOfMonth(date), -1);
}

/** The first day of the month after the one containing `date`. */
export function nextMonth(date: DateString): DateString {
  return addMonths(startOfMonth(date), 1);
}

/** "March 2026": full English month name whatever the browser's locale, as every screen shows it. */
export function monthLabel(date: DateString): string {
  const { year, month } = parseDateString(date);
  return `${MONTH_NAMES[month - 1]} ${pad(year, 4)}`;
}

// ---------------------------------------------------------------------------------------------------
// Weekday grids

/** The five days Monday to Friday of the week containing `date` (a weekend day belongs to the week before it). */
export function weekDays(date: DateString): DateString[] {
  const monday = startOfWeekMonday(date);
  return eachDay(monday, addDays(monday, DAYS_PER_GRID_WEEK - 1));
}

/** Every Monday-to-Friday day of the month containing `date`, in order. */
export function monthWeekdays(date: DateString): DateString[] {
  return eachDay(startOfMonth(date), endOfMonth(date)).filter(isWeekday);
}

function firstWeekdayOfMonth(date: DateString): DateString {
  const first = startOfMonth(date);
  // A month starting on a weekend has its first weekday on the following Monday.
  const weekday = dayOfWeek(first);
  return weekday === SATURDAY ? addDays(first, 2) : weekday === SUNDAY ? addDays(first, 1) : first;
}

function lastWeekdayOfMonth(date: DateString): DateString {
  const last = endOfMonth(date);
  const weekday = dayOfWeek(last);
  return weekday === SATURDAY ? addDays(last, -1) : weekday === SUNDAY ? addDays(last, -2) : last;
}

/**
 * The facilitator month grid: full Monday-to-Friday rows from the week of the month's first weekday to
 * the week of its last, so every weekday of the month appears once and the borrowed days fill the edges.
 */
export function monthGrid(date: DateString): CalendarWeek[] {
  const month = startOfMonth(date).slice(0, 7);
  const lastMonday = startOfWeekMonday(lastWeekdayOfMonth(date));
  const weeks: CalendarWeek[] = [];
  for (let monday = startOfWeekMonday(firstWeekdayOfMonth(date)); ; monday = addDays(monday, 7)) {
    weeks.push(weekDays(monday).map((day) => ({ date: day, inMonth: day.startsWith(month) })));
    if (monday === lastMonday) return weeks;
  }
}

/** The days the month grid shows, borrowed days included, for fetching availability and bookings. */
export function monthGridRange(date: DateString): DateRange {
  const weeks = monthGrid(date);
  return { from: weeks[0]![0]!.date, to: weeks[weeks.length - 1]![DAYS_PER_GRID_WEEK - 1]!.date };
}

/**
 * The staff grid's columns: week view is Monday to Friday of the week, fortnight view that week and the
 * next (whichever months they fall in), month view every weekday of the month.
 */
export function staffViewDays(view: StaffView, date: DateString): DateString[] {
  if (view === 'week') return weekDays(date);
  if (view === 'fortnight') return [...weekDays(date), ...weekDays(addDays(startOfWeekMonday(date), 7))];
  return monthWeekdays(date);
}

/** What the staff grid requests for a view: exactly the days it shows. */
export function staffViewRange(view: StaffView, date: DateString): DateRange {
  const days = staffViewDays(view, date);
  return { from: days[0]!, to: days[days.length - 1]! };
}

/**
 * The staff grid's date after previous / next / Today.
 *
 * Today returns `today` itself so that either view, and a later switch of view, shows the current week
 * and month. Month steps land on the month's first weekday rather than the 1st, because a 1st on a
 * weekend would put a later switch to week view in the previous month.
 */
export function navigateStaffView(
  view: StaffView,
  date: DateString,
  action: NavigationAction,
  today: DateString,
): DateString {
  if (action === 'today') {
    parseDateString(today);
    return today;
  }
  const step = action === 'next' ? 1 : -1;
  if (view === 'week') return addDays(startOfWeekMonday(date), 7 * step);
  if (view === 'fortnight') return addDays(startOfWeekMonday(date), 14 * step);
  return firstWeekdayOfMonth(addMonths(startOfMonth(date), step));
}

// ---------------------------------------------------------------------------------------------------
// Bulk update

/** The days of the inclusive range whose weekday (0 Sunday … 6 Saturday) is listed; other numbers match nothing. */
export function selectBulkDays(
  startDate: DateString,
  endDate: DateString,
  daysOfWeek: readonly number[],
): DateString[] {
  const wanted = new Set(daysOfWeek);
  return eachDay(startDate, endDate).filter((date) => wanted.has(dayOfWeek(date)));
}

/**
 * How many days selectBulkDays would choose, without listing them, capped at `cap`: cheap for any
 * range a request may carry (request budgets count it before the range is checked).
 */
export function countBulkDays(
  startDate: DateString,
  endDate: DateString,
  daysOfWeek: readonly number[],
  cap: number,
): number {
  const span = toDayNumber(endDate) - toDayNumber(startDate) + 1;
  if (!(span > 0)) return 0;
  const wanted = new Set(daysOfWeek).size;
  return Math.min(cap, Math.ceil((Math.min(span, cap * 7) * wanted) / 7));
}

/** The bulk dialog's opening values: today to 30 days later, Monday to Friday. */
export function defaultBulkSelection(today: DateString): {
  startDate: DateString;
  endDate: DateString;
  daysOfWeek: DayOfWeek[];
} {
  return { startDate: today, endDate: addDays(today, BULK_DEFAULT_RANGE_DAYS), daysOfWeek: [...WEEKDAYS] };
}

// ---------------------------------------------------------------------------------------------------
// Time zones

const dayFormatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone: building an `Intl.DateTimeFormat` is far slower than using one. */
function dayFormatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = dayFormatters.get(timeZone);
  if (!formatter) {
    // Throws RangeError for an unknown zone, which is what a misconfigured ORG_TIMEZONE deserves.
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      calendar: 'gregory',
      numberingSystem: 'latn',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dayFormatters.set(timeZone, formatter);
  }
  return formatter;
}

function calendarDayOf(instant: Date, timeZone: string): DateString {
  if (Number.isNaN(instant.getTime())) throw new RangeError('Invalid instant');
  const parts = dayFormatterFor(timeZone).formatToParts(instant);
  const value = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((part) => part.type === type)?.value);
  return formatDateParts({ year: value('year'), month: value('month'), day: value('day') });
}

/** The calendar day it is in `timeZone` at `now`: "today" for the organisation, not for the host. */
export function todayIn(timeZone: string, now: Date = new Date()): DateString {
  return calendarDayOf(now, timeZone);
}

const DATE_TIME_PATTERN =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * The calendar day in `timeZone` named by a SharePoint date-only value. SharePoint stores such a value
 * as the zone's midnight expressed in UTC, so `2026-06-30T23:00:00Z` is 1 July in London summer time.
 * A value without an offset already names its day (and `new Date` would read it in the host's zone),
 * so its date part is taken as it is. Throws `RangeError` for anything else.
 */
export function dateOnlyInZone(isoDateTime: string, timeZone: string): DateString {
  const match = DATE_TIME_PATTERN.exec(isoDateTime.trim());
  const [, date, time, offset] = match ?? [];
  if (!date || !isDateString(date)) {
    throw new RangeError(`Not an ISO date or date-time: ${JSON.stringify(isoDateTime)}`);
  }
  if (!time || !offset) return date;
  // Rebuilt in the one shape every engine's Date parser accepts: "+0100" and a space separator are not.
  const normalisedOffset = offset.toUpperCase() === 'Z' ? 'Z' : `${offset.slice(0, 3)}:${offset.slice(-2)}`;
  return calendarDayOf(new Date(`${date}T${time}${normalisedOffset}`), timeZone);
}

// ---------------------------------------------------------------------------------------------------
// Times of day

/** "13:30" → "1:30 PM". Empty or malformed values come back unchanged so a bad stored value never breaks a render. */
export function formatTime12(value: TimeString): string {
  const match = TIME_PATTERN.exec(value);
  if (!match) return value;
  const hour = Number(match[1]);
  const hour12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${hour12}:${match[2]} ${hour < 12 ? 'AM' : 'PM'}`;
}

/**
 * A span of the day as people read it everywhere (screens, toasts, export text, calendar feeds):
 * "9:00 AM – 1:00 PM", "From 9:00 AM", "Until 1:00 PM", or "" when neither end is given.
 * docs/decisions/0015-one-time-format-for-people.md
 */
export function formatTimeRange(
  start: TimeString | null | undefined,
  end: TimeString | null | undefined,
): string {
  const from = start?.trim() ? formatTime12(start.trim()) : '';
  const to = end?.trim() ? formatTime12(end.trim()) : '';
  if (from && to) return `${from} – ${to}`;
  if (from) return `From ${from}`;
  if (to) return `Until ${to}`;
  return '';
}

/** The clock time of an instant in a time zone, in the same 12-hour form: "2:05 PM". */
export function formatClockTime(instant: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(instant);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return formatTime12(`${part('hour')}:${part('minute')}`);
}

/** The availability dialogs' hourly choices, 07:00 ("7:00 AM") to 20:00 ("8:00 PM"). */
export const TIME_CHOICES: readonly TimeChoice[] = Array.from(
  { length: LAST_TIME_CHOICE_HOUR - FIRST_TIME_CHOICE_HOUR + 1 },
  (_, index) => {
    const value = `${pad(FIRST_TIME_CHOICE_HOUR + index, 2)}:00`;
    return { value, label: formatTime12(value) };
  },
);
