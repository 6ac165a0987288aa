import { dayOfWeek, formatTimeRange, MONTH_NAMES, parseDateString, WEEKDAY_NAMES } from '@shared/calendar';
import type { Booking } from '@shared/schemas/bookings';

/** "Monday, 6 July 2026", from the date string alone (no time zone can shift it). */
export function formatLongDate(date: string): string {
  const { year, month, day } = parseDateString(date);
  return `${WEEKDAY_NAMES[dayOfWeek(date)]}, ${day} ${MONTH_NAMES[month - 1]} ${year}`;
}

/** "Mon 6 Jul", for compact lists. */
export function formatShortDate(date: string): string {
  const { month, day } = parseDateString(date);
  return `${WEEKDAY_NAMES[dayOfWeek(date)]!.slice(0, 3)} ${day} ${MONTH_NAMES[month - 1]!.slice(0, 3)}`;
}

export { STATUS_COLOUR_CLASSES as STATUS_BAR_CLASSES, STATUS_LABELS } from '@/lib/availability-status';

export { formatTimeRange };

/** The booking-details fields with their fallbacks. */
export function bookingView(booking: Booking) {
  const address = [booking.schoolAddress, booking.schoolPostcode]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(', ');
  return {
    school: booking.schoolName?.trim() || 'Unknown School',
    program: booking.program?.trim() || 'Unknown Program',
    timeSlot: booking.timeSlot?.trim() || 'All Day',
    delivery: booking.deliveryType?.trim() || 'Live',
    time: formatTimeRange(booking.startTime, booking.endTime) || 'All Day',
    location: address || booking.location?.trim() || 'No address given',
    date: formatLongDate(booking.date),
  };
}

/** What a chip shows: the booking title, else its school or program. */
export function bookingTitle(booking: Booking): string {
  return booking.title?.trim() || booking.schoolName?.trim() || booking.program?.trim() || 'Booking';
}
