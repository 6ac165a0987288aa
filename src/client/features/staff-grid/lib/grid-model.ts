import type { DateString, StaffView } from '@shared/calendar';
import {
  addDays,
  dayOfWeek,
  MONTH_NAMES,
  monthLabel,
  parseDateString,
  staffViewDays,
  startOfWeekMonday,
  WEEKDAY_NAMES,
} from '@shared/calendar';
import type { Availability, AvailabilityStatus } from '@shared/schemas/availability';
import type { Priority } from '@shared/schemas/notes';
import type { StaffGridRow } from '@shared/schemas/staff-grid';
import type { PublicUser } from '@shared/schemas/users';

/**
 * Users without an area are listed under this option of the area filter (the server's GRID_NO_AREA).
 * It is preselected with the real areas, so they are visible by default and can be hidden like any area.
 */
export { EXPORT_NO_AREA as NO_AREA } from '@shared/exports';
export const NO_AREA_LABEL = 'No area';

export const FIRST_COLUMN_WIDTH = 200;
/** The desktop week and month widths; two weeks, ten columns like a short month, take the month's. */
export const DAY_COLUMN_WIDTH: Record<StaffView, number> = { week: 120, fortnight: 80, month: 80 };
/** The view switch's buttons, in order. */
export const VIEW_NAMES: Record<StaffView, string> = { week: 'Week', fortnight: '2 weeks', month: 'Month' };
/** What previous and next move by, for their labels ("Previous 2 weeks"). */
export const VIEW_STEPS: Record<StaffView, string> = { week: 'week', fortnight: '2 weeks', month: 'month' };
/**
 * On a phone the desktop widths would leave room for one day beside the names; these fit a whole
 * Monday-to-Friday week in 390 px beside names wide enough to read (a long name on more lines), the
 * desktop widths above staying as they are.
 */
export const NARROW_FIRST_COLUMN_WIDTH = 128;
export const NARROW_DAY_COLUMN_WIDTH = 42;
export const ROW_HEIGHT = 64;
/** A phone's row: the name on up to three lines, then the email and the last update. */
export const NARROW_ROW_HEIGHT = 96;
const short = (name: string | undefined) => (name ?? '').slice(0, 3);

import { STATUS_LABELS as STATUS_LABEL } from '@/lib/availability-status';

export { STATUS_LABEL };

/** The name the grid shows: the display name, or the username when there is none. */
export function displayName(user: Pick<PublicUser, 'displayName' | 'username'>): string {
  return user.displayName?.trim() || user.username;
}

export interface RowLookup {
  /** the facilitator's availability on a day, if they set any */
  availability(date: string): Availability | undefined;
  /** how many sessions the facilitator has booked on a day */
  bookingCount(date: string): number;
  /** the highest priority of the day's staff notes, if it has any */
  notePriority(date: string): Priority | undefined;
  /** the latest day with availability in the range */
  latestDate: string | undefined;
}

/** One grid row's days, sessions and note marks looked up by date. */
export function rowLookup(row: Pick<StaffGridRow, 'availability' | 'bookings' | 'notes'>): RowLookup {
  const days = new Map(row.availability.map((day) => [day.date, day]));
  const counts = new Map<string, number>();
  for (const booking of row.bookings) counts.set(booking.date, (counts.get(booking.date) ?? 0) + 1);
  const notes = new Map(row.notes.map((mark) => [mark.date, mark.priority]));
  let latestDate: string | undefined;
  for (const day of row.availability)
    if (latestDate === undefined || day.date > latestDate) latestDate = day.date;
  return {
    availability: (date) => days.get(date),
    bookingCount: (date) => counts.get(date) ?? 0,
    notePriority: (date) => notes.get(date),
    latestDate,
  };
}

/** "4 Mar 2026" from a date string or an ISO timestamp (read in the browser's zone). */
export function formatDay(value: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const { year, month, day } = parseDateString(value);
    return `${day} ${short(MONTH_NAMES[month - 1])} ${year}`;
  }
  const instant = new Date(value);
  if (Number.isNaN(instant.getTime())) return value;
  return `${instant.getDate()} ${short(MONTH_NAMES[instant.getMonth()])} ${instant.getFullYear()}`;
}

/** "Last updated: 4 Mar 2026" or "No availability set". */
export function lastUpdatedText(user: PublicUser, latestAvailabilityDate: string | undefined): string {
  const value = user.lastAvailabilityUpdatedAt ?? latestAvailabilityDate;
  return value ? `Last updated: ${formatDay(value)}` : 'No availability set';
}

/** "Dec" for a column header where a new month begins. */
export function monthShort(date: DateString): string {
  return short(MONTH_NAMES[parseDateString(date).month - 1]);
}

/** "Mon 2" for a column header. */
export function columnLabel(date: DateString): { weekday: string; day: number } {
  return { weekday: short(WEEKDAY_NAMES[dayOfWeek(date)]), day: parseDateString(date).day };
}

/** "Monday 2 March 2026". */
export function longDate(date: DateString): string {
  const { year, month, day } = parseDateString(date);
  return `${WEEKDAY_NAMES[dayOfWeek(date)]} ${day} ${MONTH_NAMES[month - 1]} ${year}`;
}

/**
 * The day column a view opens scrolled to: the first of its days that falls in today's week, so the
 * whole of this week that the view holds is in sight (its Monday when the view holds it; on the 1st
 * or 2nd of a month that starts mid-week, the month's first day). 0 when no day of this week is shown.
 */
export function openingColumn(days: readonly DateString[], today: DateString): number {
  const monday = startOfWeekMonday(today);
  const sunday = addDays(monday, 6);
  return Math.max(
    0,
    days.findIndex((day) => day >= monday && day <= sunday),
  );
}

/** The toolbar's label: "March 2026", or "2 Mar – 6 Mar 2026" for a week, "23 Nov – 4 Dec 2026" for two. */
export function viewLabel(view: StaffView, date: DateString): string {
  if (view === 'month') return monthLabel(date);
  const days = staffViewDays(view, date);
  const first = parseDateString(days[0]!);
  const last = parseDateString(days[days.length - 1]!);
  const start =
    first.year === last.year
      ? `${first.day} ${short(MONTH_NAMES[first.month - 1])}`
      : `${first.day} ${short(MONTH_NAMES[first.month - 1])} ${first.year}`;
  return `${start} – ${last.day} ${short(MONTH_NAMES[last.month - 1])} ${last.year}`;
}

export type CellTone =
  | 'available'
  | 'available-booked'
  | 'limited'
  | 'limited-booked'
  | 'unavailable'
  | 'unavailable-booked'
  | 'booked-only'
  | 'empty';

/** Status colour; lighter with a booking; grey with nothing; blue with a booking only. */
export function cellTone(status: AvailabilityStatus | undefined, booked: boolean): CellTone {
  if (!status) return booked ? 'booked-only' : 'empty';
  return booked ? `${status}-booked` : status;
}

/**
 * A booked day's status is the lighter shade of its colour and, so that it stays
 * told apart from "not set" on a dark background, where a light tint turns murky, a solid outline
 * in the full colour.
 */
export const CELL_TONE_CLASS: Record<CellTone, string> = {
  available: 'bg-success/75',
  'available-booked': 'bg-success/30 ring-2 ring-success ring-inset dark:bg-success/45',
  limited: 'bg-warning/75',
  'limited-booked': 'bg-warning/30 ring-2 ring-warning ring-inset dark:bg-warning/45',
  unavailable: 'bg-destructive/75',
  'unavailable-booked': 'bg-destructive/30 ring-2 ring-destructive ring-inset dark:bg-destructive/45',
  'booked-only': 'bg-blue-200 dark:bg-blue-900',
  empty: 'bg-muted',
};

export const NOTE_ICON_CLASS: Record<Priority, string> = {
  urgent: 'text-red-600 dark:text-red-400',
  high: 'text-orange-500 dark:text-orange-400',
  normal: 'text-blue-600 dark:text-blue-400',
};

/** What a screen reader hears for a cell. */
export function cellDescription(
  user: PublicUser,
  date: DateString,
  status: AvailabilityStatus | undefined,
  bookingCount: number,
  notePriority: Priority | undefined,
): string {
  const parts = [
    `${displayName(user)}, ${longDate(date)}`,
    status ? STATUS_LABEL[status] : 'No availability set',
  ];
  if (bookingCount > 0) parts.push(bookingCount === 1 ? 'Booked' : `Booked (${bookingCount} sessions)`);
  if (notePriority) parts.push(notePriority === 'normal' ? 'Has notes' : `Has ${notePriority} notes`);
  return parts.join(', ');
}
