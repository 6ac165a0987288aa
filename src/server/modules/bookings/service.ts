import { and, between, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import {
  type JsonArrayText,
  jsonArrayStatement,
  readJsonArray,
  selectJsonArray,
  statementsFormat,
} from '../../db/json-list';
import { bookings } from '../../db/schema';
import type { DateRange } from '../range';

/** The answer's keys (the shared `booking` schema) and the columns they come from. */
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

/** The order of the bookings lists. */
const BOOKINGS_ORDER = ['date', 'startTime', 'id'];

/**
 * Bookings of one user, or of everyone (linked or not) when userId is omitted, in an inclusive range,
 * ordered by date, start time and id: the JSON array of `Booking` the list routes answer with.
 */
export function listBookingsJson(db: Queryable, range: DateRange, userId?: number): Promise<JsonArrayText> {
  return readJsonArray(db, bookingsArrayStatement(range, userId));
}

/** The format of the text listBookingsJson answers with (ADR 56). */
export function bookingsListFormat(range: DateRange, userId?: number): string {
  return statementsFormat(bookingsArrayStatement(range, userId));
}

function bookingsArrayStatement(range: DateRange, userId?: number) {
  const b = bookings;
  const inRange = between(b.date, range.from, range.to);
  return jsonArrayStatement(
    bookingColumns,
    sql`from ${b} where ${userId === undefined ? inRange : and(eq(b.userId, userId), inRange)}`,
    BOOKINGS_ORDER,
  );
}

/** Bookings of some facilitators in an inclusive range, in the same order and shape as the whole list (ADR 46). */
export function listBookingsOfUsersJson(
  db: Queryable,
  range: DateRange,
  userIds: readonly number[],
): Promise<JsonArrayText> {
  const b = bookings;
  return selectJsonArray(
    db,
    bookingColumns,
    sql`from ${b} where ${and(inArray(b.userId, [...userIds]), between(b.date, range.from, range.to))}`,
    BOOKINGS_ORDER,
  );
}
