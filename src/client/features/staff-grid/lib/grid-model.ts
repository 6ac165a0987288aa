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
import { compareAreaNames } from '@shared/collate';
import type { Availability, AvailabilityStatus } from '@shared/schemas/availability';
import type { Booking } from '@shared/schemas/bookings';
import type { Priority } from '@shared/schemas/notes';
import type { PublicUser } from '@shared/schemas/users';
import { FIRST_GRID_ROWS, firstGridIds, gridName, gridOrder } from '@shared/staff-grid-order';

/**
 * Users without an area are listed under this option of the area filter. It is preselected with the
 * real areas, so they are visible by default and can be hidden like any area.
 */
export const NO_AREA = '__no_area__';
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
/** Day columns drawn beyond each side of the scroller's view, so a short sideways scroll shows no gap. */
export const COLUMN_OVERSCAN = 3;

/** The day columns a grid draws, by position: `first` to `last`, both included (none: last < first). */
export interface ColumnWindow {
  first: number;
  last: number;
}

/**
 * The day columns in a scroller's view, scrolled `left` px across and `width` px wide, with
 * `overscan` more either side. The names' column stays in view (it is sticky) and covers the first
 * `firstColumnWidth` px of the view; day column i starts at firstColumnWidth + i * columnWidth.
 */
export function columnWindow(
  left: number,
  width: number,
  layout: { count: number; columnWidth: number; firstColumnWidth: number },
  overscan: number,
): ColumnWindow {
  const { count, columnWidth, firstColumnWidth } = layout;
  if (count === 0 || columnWidth <= 0) return { first: 0, last: -1 };
  const inView = Math.max(0, width - firstColumnWidth);
  const firstInView = Math.floor(Math.max(0, left) / columnWidth);
  const lastInView = Math.ceil((Math.max(0, left) + inView) / columnWidth) - 1;
  const clamp = (position: number) => Math.min(count - 1, Math.max(0, position));
  return {
    first: clamp(firstInView - overscan),
    last: clamp(Math.max(firstInView, lastInView) + overscan),
  };
}

const short = (name: string | undefined) => (name ?? '').slice(0, 3);

import { STATUS_LABELS as STATUS_LABEL } from '@/lib/availability-status';

export { STATUS_LABEL };

export function displayName(user: Pick<PublicUser, 'displayName' | 'username'>): string {
  return gridName(user);
}

export function areaKey(user: Pick<PublicUser, 'area'>): string {
  return user.area?.trim() || NO_AREA;
}

/** Everyone the grid may show: all users except staff, sorted by display name case-insensitively. */
export function gridFacilitators(users: readonly PublicUser[]): PublicUser[] {
  return gridOrder(users);
}

/** The ids of the grid's first `count` rows as it opens (every area chosen, nobody left out). */
export function firstFacilitatorIds(users: readonly PublicUser[], count = FIRST_GRID_ROWS): number[] {
  return firstGridIds(users, count);
}

/** The area options derived from the facilitators: real areas A-Z, then "No area" if anyone lacks one. */
export function areaOptions(facilitators: readonly PublicUser[]): { value: string; label: string }[] {
  const keys = new Set(facilitators.map(areaKey));
  const real = [...keys].filter((key) => key !== NO_AREA).sort(compareAreaNames);
  const options = real.map((value) => ({ value, label: value }));
  if (keys.has(NO_AREA)) options.push({ value: NO_AREA, label: NO_AREA_LABEL });
  return options;
}

/** Who is shown: in a selected area and not deselected by name. No selected area shows nobody. */
export function visibleFacilitators(
  facilitators: readonly PublicUser[],
  selectedAreas: ReadonlySet<string>,
  deselected: ReadonlySet<number>,
): PublicUser[] {
  return facilitators.filter((user) => selectedAreas.has(areaKey(user)) && !deselected.has(user.id));
}

export interface GridIndex {
  /** false for a facilitator whose rows are not in yet (only the first rows are) */
  loaded(userId: number): boolean;
  /** a facilitator's availability on a day, if they set any */
  availability(userId: number, date: string): Availability | undefined;
  /** how many sessions a facilitator has booked on a day */
  bookingCount(userId: number, date: string): number;
  /** latest availability date per user among the loaded rows */
  latestDate: Map<number, string>;
}

interface DayLookup {
  availability: Map<string, Availability>;
  bookings: Map<string, number>;
}

/**
 * The loaded rows grouped by facilitator in one pass with numeric keys; a facilitator's days are
 * looked up by date only when their row is drawn. At 5,000 facilitators a month is over 100,000
 * rows, and keying each by a "user|date" string before the first row could be drawn cost about as
 * long as reading the JSON; the grid draws some twenty rows at a time.
 */
export function indexGridData(
  availabilities: readonly Availability[],
  bookings: readonly Booking[],
  /** the facilitators the rows are of, when they are not everyone's (the grid's first rows) */
  loadedUserIds: ReadonlySet<number> | null = null,
): GridIndex {
  const availabilityByUser = new Map<number, Availability[]>();
  const latestDate = new Map<number, string>();
  for (const row of availabilities) {
    const list = availabilityByUser.get(row.userId);
    if (list) list.push(row);
    else availabilityByUser.set(row.userId, [row]);
    const latest = latestDate.get(row.userId);
    if (latest === undefined || row.date > latest) latestDate.set(row.userId, row.date);
  }
  const bookingsByUser = new Map<number, Booking[]>();
  for (const booking of bookings) {
    if (booking.userId === null) continue;
    const list = bookingsByUser.get(booking.userId);
    if (list) list.push(booking);
    else bookingsByUser.set(booking.userId, [booking]);
  }
  const lookups = new Map<number, DayLookup>();
  const lookup = (userId: number): DayLookup => {
    let found = lookups.get(userId);
    if (!found) {
      const availability = new Map<string, Availability>();
      for (const row of availabilityByUser.get(userId) ?? []) availability.set(row.date, row);
      const counts = new Map<string, number>();
      for (const booking of bookingsByUser.get(userId) ?? [])
        counts.set(booking.date, (counts.get(booking.date) ?? 0) + 1);
      found = { availability, bookings: counts };
      lookups.set(userId, found);
    }
    return found;
  };
  return {
    loaded: (userId) => loadedUserIds === null || loadedUserIds.has(userId),
    availability: (userId, date) => lookup(userId).availability.get(date),
    bookingCount: (userId, date) => lookup(userId).bookings.get(date) ?? 0,
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
