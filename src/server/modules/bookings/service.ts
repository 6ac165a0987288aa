import { and, asc, between, eq } from 'drizzle-orm';
import type { Booking } from '../../../shared/schemas/bookings';
import type { Queryable } from '../../db/client';
import { bookings } from '../../db/schema';
import type { DateRange } from '../range';

type BookingRow = typeof bookings.$inferSelect;

/** The columns a response needs: reading fewer (no timestamps to parse) makes big lists much cheaper. */
const bookingColumns = {
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

export function toBooking(row: Pick<BookingRow, keyof typeof bookingColumns>): Booking {
  return {
    id: row.id,
    userId: row.userId,
    title: row.title,
    date: row.date,
    startTime: row.startTime,
    endTime: row.endTime,
    location: row.location,
    sharePointId: row.sharePointId,
    schoolId: row.schoolId,
    schoolName: row.schoolName,
    schoolAddress: row.schoolAddress,
    schoolPostcode: row.schoolPostcode,
    program: row.program,
    timeSlot: row.timeSlot,
    deliveryType: row.deliveryType,
    year: row.year,
  };
}

/** Bookings of one user, or of everyone (linked or not) when userId is omitted. */
export async function listBookings(db: Queryable, range: DateRange, userId?: number): Promise<Booking[]> {
  const inRange = between(bookings.date, range.from, range.to);
  const rows = await db
    .select(bookingColumns)
    .from(bookings)
    .where(userId === undefined ? inRange : and(eq(bookings.userId, userId), inRange))
    .orderBy(asc(bookings.date), asc(bookings.startTime), asc(bookings.id));
  return rows.map(toBooking);
}
