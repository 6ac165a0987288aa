/**
 * Office hours and the booking-refresh timetable, as pure functions of an instant.
 *
 * The scheduler refreshes bookings every `BOOKINGS_REFRESH_MINUTES` inside `OFFICE_HOURS`, counted from
 * the start of each office day (08:00, 08:15, 08:30 … with the defaults). Everything here is local to
 * the organisation's time zone and safe across daylight-saving changes: wall-clock times are turned
 * into instants through `TZDate`, never by adding fixed hours.
 */
import { TZDate } from '@date-fns/tz';
import { formatTime12, MONTH_NAMES, WEEKDAY_NAMES } from '../shared/calendar';
import type { OfficeHours } from './config';

export interface LocalTime {
  year: number;
  /** 1 = January … 12 = December */
  month: number;
  day: number;
  /** 0 = Sunday … 6 = Saturday */
  dayOfWeek: number;
  /** minutes after local midnight */
  minute: number;
}

const partsFormatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = partsFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      calendar: 'gregory',
      numberingSystem: 'latn',
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'short',
    });
    partsFormatters.set(timeZone, formatter);
  }
  return formatter;
}

const SHORT_DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The wall-clock date and time at `instant` in `timeZone`. */
export function localTime(instant: Date, timeZone: string): LocalTime {
  const parts = formatterFor(timeZone).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const hour = Number(part('hour')) % 24;
  return {
    year: Number(part('year')),
    month: Number(part('month')),
    day: Number(part('day')),
    dayOfWeek: SHORT_DAYS.indexOf(part('weekday')),
    minute: hour * 60 + Number(part('minute')),
  };
}

/** The instant of a wall-clock time (`minute` after midnight, may be 1440) on a local day. */
export function instantAt(
  day: Pick<LocalTime, 'year' | 'month' | 'day'>,
  minute: number,
  timeZone: string,
): Date {
  const date = new TZDate(day.year, day.month - 1, day.day, Math.floor(minute / 60), minute % 60, timeZone);
  return new Date(date.getTime());
}

/** The local calendar day `offset` days after `day` (calendar arithmetic, no zone involved). */
function shiftDay(day: Pick<LocalTime, 'year' | 'month' | 'day'>, offset: number) {
  const probe = new Date(Date.UTC(day.year, day.month - 1, day.day + offset));
  return {
    year: probe.getUTCFullYear(),
    month: probe.getUTCMonth() + 1,
    day: probe.getUTCDate(),
    dayOfWeek: probe.getUTCDay(),
  };
}

/** True when `now` falls inside office hours (start included, end excluded) in `timeZone`. */
export function isWithinOfficeHours(hours: OfficeHours, timeZone: string, now: Date): boolean {
  const local = localTime(now, timeZone);
  return (
    hours.days.includes(local.dayOfWeek) &&
    local.minute >= hours.startMinute &&
    local.minute < hours.endMinute
  );
}

/**
 * When the next background booking refresh is due: the next `intervalMinutes` step after `now`
 * counted from the start of today's office hours, if it is still inside them; otherwise the start
 * of the next office day. Always strictly after `now`.
 */
export function nextRefreshAt(
  hours: OfficeHours,
  timeZone: string,
  intervalMinutes: number,
  now: Date,
): Date {
  if (!Number.isInteger(intervalMinutes) || intervalMinutes < 1) {
    throw new RangeError(`The refresh interval must be a whole number of minutes: ${intervalMinutes}`);
  }
  const local = localTime(now, timeZone);
  if (hours.days.includes(local.dayOfWeek) && local.minute >= hours.startMinute) {
    const steps = Math.floor((local.minute - hours.startMinute) / intervalMinutes) + 1;
    const candidate = hours.startMinute + steps * intervalMinutes;
    if (candidate < hours.endMinute) {
      const at = instantAt(local, candidate, timeZone);
      if (at.getTime() > now.getTime()) return at;
    }
  }
  // Today's office hours are over (or not a working day): the next day's start, or today's if still ahead.
  for (let offset = 0; offset <= 7; offset++) {
    const day = shiftDay(local, offset);
    if (!hours.days.includes(day.dayOfWeek)) continue;
    const start = instantAt(day, hours.startMinute, timeZone);
    if (start.getTime() > now.getTime()) return start;
  }
  // Unreachable with at least one office day; a safe answer anyway.
  return new Date(now.getTime() + intervalMinutes * 60_000);
}

function pad2(value: number): string {
  return String(value).padStart(2, '0');
}

/**
 * "Today at 10:15", "Tomorrow at 08:00" or "Monday 9 March at 08:00": the next update as people read
 * it, in the organisation's time zone (24-hour clock, as OFFICE_HOURS is written).
 */
export function describeNextUpdate(next: Date, now: Date, timeZone: string): string {
  return describeMoment(next, now, timeZone);
}

/** "Today at 10:15 AM", "Yesterday at …", "Tomorrow at …" or "Monday 9 March at …", in the organisation's zone. */
export function describeMoment(instant: Date, now: Date, timeZone: string): string {
  const at = localTime(instant, timeZone);
  const today = localTime(now, timeZone);
  const time = formatTime12(`${pad2(Math.floor(at.minute / 60))}:${pad2(at.minute % 60)}`);
  const sameDay = (other: Pick<LocalTime, 'year' | 'month' | 'day'>) =>
    other.year === at.year && other.month === at.month && other.day === at.day;
  if (sameDay(today)) return `Today at ${time}`;
  if (sameDay(shiftDay(today, 1))) return `Tomorrow at ${time}`;
  if (sameDay(shiftDay(today, -1))) return `Yesterday at ${time}`;
  return `${WEEKDAY_NAMES[at.dayOfWeek]} ${at.day} ${MONTH_NAMES[at.month - 1]} at ${time}`;
}

export interface OfficeHoursStatus {
  isOfficeHours: boolean;
  nextUpdateAt: Date;
  nextUpdate: string;
}

/** Everything the scheduler status needs from the clock. */
export function officeHoursStatus(
  hours: OfficeHours,
  timeZone: string,
  intervalMinutes: number,
  now: Date,
): OfficeHoursStatus {
  const nextUpdateAt = nextRefreshAt(hours, timeZone, intervalMinutes, now);
  return {
    isOfficeHours: isWithinOfficeHours(hours, timeZone, now),
    nextUpdateAt,
    nextUpdate: describeNextUpdate(nextUpdateAt, now, timeZone),
  };
}
