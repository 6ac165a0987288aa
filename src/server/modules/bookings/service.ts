import { and, asc, between, eq } from 'drizzle-orm';
import type { Booking } from '../../../shared/schemas/bookings';
import type { Queryable } from '../../db/client';
import { bookings } from '../../db/schema';
import type { DateRange } from '../range';

/** The answer's keys (the shared `booking` schema) and the columns they come from. */
export const bookingColumns = {
  id: bookings.id,
  userId: bookings.userId,
  title: bookings.title,
  date: bookings.date,
  startTime: bookings.startTime,
  endTime: bookings.endTime,
  location: bookings.location,
  sharePointId: bookings.sharePointId,
  schoolId: bookings.schoolId,
  schoolName: bookings.schoolName,
  schoolAddress: bookings.schoolAddress,
  schoolPostcode: bookings.schoolPostcode,
  program: bookings.program,
  timeSlot: bookings.timeSlot,
  deliveryType: bookings.deliveryType,
  year: bookings.year,
};

export function toBooking(row: Booking): Booking {
  const booking = {} as Record<string, unknown>;
  for (const key of Object.keys(bookingColumns)) booking[key] = row[key as keyof Booking];
  return booking as Booking;
}

/**
 * Bookings of one user, or of everyone (linked or not) when userId is omitted, in an inclusive range,
 * ordered by date, start time and id.
 */
export function listBookings(db: Queryable, range: DateRange, userId?: number): Promise<Booking[]> {
  const inRange = between(bookings.date, range.from, range.to);
  return db
    .select(bookingColumns)
    .from(bookings)
    .where(userId === undefined ? inRange : and(eq(bookings.userId, userId), inRange))
    .orderBy(asc(bookings.date), asc(bookings.startTime), asc(bookings.id));
}
