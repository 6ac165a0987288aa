import { type DateString, formatDateParts, formatTime12 } from '@shared/calendar';

/**
 * The browser's calendar day: what "today" means to the person looking at the screen.
 *
 * A Date's local fields are already in the browser's own time zone, so no Intl.DateTimeFormat is
 * built to name that zone and convert into it: on a slow phone the first one built costs about
 * 100 ms of the page's start-up, most of a long task.
 */
export function browserToday(now: Date = new Date()): DateString {
  return formatDateParts({ year: now.getFullYear(), month: now.getMonth() + 1, day: now.getDate() });
}

/** What the browser's clock read at an instant, as the portal writes times ("9:05 AM"), from the same local fields. */
export function browserClockTime(instant: Date): string {
  const two = (value: number) => String(value).padStart(2, '0');
  return formatTime12(`${two(instant.getHours())}:${two(instant.getMinutes())}`);
}
