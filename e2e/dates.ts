/**
 * Calendar arithmetic for the browser tests, written apart from the product's own (src/shared/calendar.ts)
 * on purpose: a test that works out from today's date what a screen should show must not share the rule
 * it checks, or a wrong rule would pass its own test. Plain `Date` values at UTC midnight stand for days.
 */

/** A day as the portal writes it: YYYY-MM-DD. */
export type Day = string;

const MONTHS = [
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
];

function toDate(day: Day): Date {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) throw new RangeError(`Not a day: ${day}`);
  return date;
}

function toDay(date: Date): Day {
  return date.toISOString().slice(0, 10);
}

/**
 * Today in `timeZone`, by default where the tests run (the browser and the test process share the
 * machine's zone); the portal's own "today" is the organisation's zone's.
 */
export function today(timeZone?: string): Day {
  // Swedish dates read YYYY-MM-DD
  return new Date().toLocaleDateString('sv-SE', { timeZone });
}

export function addDays(day: Day, amount: number): Day {
  const date = toDate(day);
  date.setUTCDate(date.getUTCDate() + amount);
  return toDay(date);
}

/** 0 Sunday … 6 Saturday, as `Date` counts them. */
export function dayOfWeek(day: Day): number {
  return toDate(day).getUTCDay();
}

export function isWeekday(day: Day): boolean {
  return dayOfWeek(day) % 6 !== 0;
}

/** Every day from `from` to `to`, both included. */
export function eachDay(from: Day, to: Day): Day[] {
  const days: Day[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}

/** How many days `from`..`to` holds, both included. */
export function daysBetween(from: Day, to: Day): number {
  return Math.round((toDate(to).getTime() - toDate(from).getTime()) / 86_400_000) + 1;
}

/** The Monday on or before `day`. */
export function startOfWeekMonday(day: Day): Day {
  return addDays(day, -((dayOfWeek(day) + 6) % 7));
}

/** Monday to Friday of the week holding `day` (a weekend day belongs to the week before it). */
export function weekDays(day: Day): Day[] {
  const monday = startOfWeekMonday(day);
  return [0, 1, 2, 3, 4].map((offset) => addDays(monday, offset));
}

export function firstOfMonth(day: Day): Day {
  return `${day.slice(0, 7)}-01`;
}

export function endOfMonth(day: Day): Day {
  const date = toDate(firstOfMonth(day));
  date.setUTCMonth(date.getUTCMonth() + 1, 0);
  return toDay(date);
}

/** The first day of the month `amount` months away from the one holding `day`. */
export function monthAway(day: Day, amount: number): Day {
  const date = toDate(firstOfMonth(day));
  date.setUTCMonth(date.getUTCMonth() + amount);
  return toDay(date);
}

export function nextMonth(day: Day): Day {
  return monthAway(day, 1);
}

export function previousMonth(day: Day): Day {
  return monthAway(day, -1);
}

/** The same day of the month `amount` months away, or that month's last day when it is shorter. */
export function addMonths(day: Day, amount: number): Day {
  const first = monthAway(day, amount);
  const wanted = `${first.slice(0, 8)}${day.slice(8)}`;
  const last = endOfMonth(first);
  return wanted > last ? last : wanted;
}

/** Monday to Friday of the month holding `day`. */
export function monthWeekdays(day: Day): Day[] {
  return eachDay(firstOfMonth(day), endOfMonth(day)).filter(isWeekday);
}

/** "December 2026". */
export function monthLabel(day: Day): string {
  return `${MONTHS[Number(day.slice(5, 7)) - 1]} ${day.slice(0, 4)}`;
}

const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** "Wednesday, 2 December 2026", as the calendar names a day. */
export function longDate(day: Day): string {
  const { year, month, day: dayOfMonth } = parseDateString(day);
  return `${WEEKDAY_NAMES[dayOfWeek(day)]}, ${dayOfMonth} ${MONTHS[month - 1]} ${year}`;
}

/** A day's parts as numbers. */
export function parseDateString(day: Day): { year: number; month: number; day: number } {
  toDate(day);
  return { year: Number(day.slice(0, 4)), month: Number(day.slice(5, 7)), day: Number(day.slice(8, 10)) };
}

/**
 * The facilitator's month as drawn: Monday-to-Friday rows from the week of the month's first weekday
 * to the week of its last, each day with whether it belongs to the month.
 */
export function monthGrid(day: Day): { date: Day; inMonth: boolean }[][] {
  const weekdays = monthWeekdays(day);
  const rows: { date: Day; inMonth: boolean }[][] = [];
  for (
    let monday = startOfWeekMonday(weekdays[0]!);
    monday <= weekdays[weekdays.length - 1]!;
    monday = addDays(monday, 7)
  ) {
    rows.push(weekDays(monday).map((date) => ({ date, inMonth: date.slice(0, 7) === day.slice(0, 7) })));
  }
  return rows;
}

/** The first and last day the facilitator's month shows, borrowed days included. */
export function monthGridRange(day: Day): { from: Day; to: Day } {
  const days = monthGrid(day).flat();
  return { from: days[0]!.date, to: days[days.length - 1]!.date };
}

/** The days of `from`..`to` whose weekday (0 Sunday … 6 Saturday) is listed. */
export function selectBulkDays(from: Day, to: Day, weekdays: readonly number[]): Day[] {
  return eachDay(from, to).filter((day) => weekdays.includes(dayOfWeek(day)));
}
