/**
 * Rows for tests to stand on, written straight to the database: the bookings SharePoint would have
 * brought, the days and notes a request would have saved. Each fills only what the table demands,
 * so a test names just the values it is about. Numbering restarts in every test file.
 */
import type { Queryable } from '../db/client';
import { availability, bookings, staffNotes } from '../db/schema';

type BookingValues = typeof bookings.$inferInsert;
type DayValues = typeof availability.$inferInsert;
type NoteValues = typeof staffNotes.$inferInsert;

let bookingSeq = 0;

/** A booking as a SharePoint refresh stores it; title "Session n" and a unique item id unless given. */
export async function insertBooking(
  db: Queryable,
  values: Partial<BookingValues> & Pick<BookingValues, 'date'>,
): Promise<typeof bookings.$inferSelect> {
  bookingSeq += 1;
  const [row] = await db
    .insert(bookings)
    .values({ title: `Session ${bookingSeq}`, sharePointId: `test-sp-${bookingSeq}`, ...values })
    .returning();
  return row!;
}

/** One person's availability on one day. */
export async function insertDay(
  db: Queryable,
  values: Pick<DayValues, 'userId' | 'date' | 'status'> & Partial<DayValues>,
): Promise<typeof availability.$inferSelect> {
  const [row] = await db.insert(availability).values(values).returning();
  return row!;
}

/** A staff note on a facilitator's day, normal priority unless given. */
export async function insertNote(
  db: Queryable,
  values: Pick<NoteValues, 'facilitatorId' | 'date' | 'note'> & Partial<NoteValues>,
): Promise<typeof staffNotes.$inferSelect> {
  const [row] = await db.insert(staffNotes).values(values).returning();
  return row!;
}
