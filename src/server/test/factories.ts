/**
 * Rows for tests to stand on, written straight to the database: the bookings SharePoint would have
 * brought, the days and notes a request would have saved, the offers staff would have sent. Each fills
 * only what the table demands, so a test names just the values it is about. Numbering restarts in
 * every test file.
 */
import type { Queryable } from '../db/client';
import { availability, bookings, offers, safeguardingRecords, staffNotes } from '../db/schema';
import { signOfferLink } from '../modules/offers/links';

type BookingValues = typeof bookings.$inferInsert;
type DayValues = typeof availability.$inferInsert;
type NoteValues = typeof staffNotes.$inferInsert;
type OfferValues = typeof offers.$inferInsert;
type SafeguardingValues = typeof safeguardingRecords.$inferInsert;

export type BookingInput = Partial<BookingValues> & Pick<BookingValues, 'date'>;
export type DayInput = Pick<DayValues, 'userId' | 'date' | 'status'> & Partial<DayValues>;
export type NoteInput = Pick<NoteValues, 'facilitatorId' | 'date' | 'note'> & Partial<NoteValues>;

let bookingSeq = 0;

const bookingRow = (values: BookingInput): BookingValues => {
  bookingSeq += 1;
  return { title: `Session ${bookingSeq}`, sharePointId: `test-sp-${bookingSeq}`, ...values };
};

/** A booking as a SharePoint refresh stores it; title "Session n" and a unique item id unless given. */
export async function insertBooking(
  db: Queryable,
  values: BookingInput,
): Promise<typeof bookings.$inferSelect> {
  const [row] = await db.insert(bookings).values(bookingRow(values)).returning();
  return row!;
}

/** Several bookings in one statement, numbered as insertBooking numbers them. */
export async function insertBookings(
  db: Queryable,
  list: BookingInput[],
): Promise<(typeof bookings.$inferSelect)[]> {
  if (list.length === 0) return [];
  return db.insert(bookings).values(list.map(bookingRow)).returning();
}

/**
 * An open session: a booking with no facilitator yet, as staff make one to offer; 09:30 to 12:00
 * unless given.
 */
export function insertOpenSession(
  db: Queryable,
  values: BookingInput,
): Promise<typeof bookings.$inferSelect> {
  return insertBooking(db, { startTime: '09:30', endTime: '12:00', ...values });
}

/** One person's availability on one day. */
export async function insertDay(db: Queryable, values: DayInput): Promise<typeof availability.$inferSelect> {
  const [row] = await db.insert(availability).values(values).returning();
  return row!;
}

/** Several days in one statement. */
export async function insertDays(
  db: Queryable,
  list: DayInput[],
): Promise<(typeof availability.$inferSelect)[]> {
  if (list.length === 0) return [];
  return db.insert(availability).values(list).returning();
}

/** A staff note on a facilitator's day, normal priority unless given. */
export async function insertNote(db: Queryable, values: NoteInput): Promise<typeof staffNotes.$inferSelect> {
  const [row] = await db.insert(staffNotes).values(values).returning();
  return row!;
}

/** Several notes in one statement. */
export async function insertNotes(
  db: Queryable,
  list: NoteInput[],
): Promise<(typeof staffNotes.$inferSelect)[]> {
  if (list.length === 0) return [];
  return db.insert(staffNotes).values(list).returning();
}

/**
 * A person's DBS check on record: enhanced with the barred list, checked by the office, issued on
 * 2026-01-05 (valid for years under the default policy) unless given.
 */
export async function insertDbsCheck(
  db: Queryable,
  values: Pick<SafeguardingValues, 'userId'> & Partial<SafeguardingValues>,
): Promise<typeof safeguardingRecords.$inferSelect> {
  const [row] = await db
    .insert(safeguardingRecords)
    .values({
      dbsCertificateNumber: '001234567890',
      dbsIssueDate: '2026-01-05',
      dbsEnhancedWithBarredList: true,
      dbsCheckedBy: 'Office',
      ...values,
    })
    .returning();
  return row!;
}

/** An offer of a session to one person, sent and waiting for an answer unless given. */
export async function insertOffer(
  db: Queryable,
  values: Pick<OfferValues, 'bookingId' | 'userId' | 'replyBy'> & Partial<OfferValues>,
): Promise<typeof offers.$inferSelect> {
  const [row] = await db.insert(offers).values(values).returning();
  return row!;
}

/** The token of an offer's email link, signed as the offer email signs it (valid until its reply-by). */
export function offerLinkToken(
  appSecret: string,
  offer: { id: number; linkNonce: string | null; replyBy: Date },
): string {
  if (!offer.linkNonce) throw new Error(`offer ${offer.id} has no link nonce`);
  return signOfferLink(appSecret, {
    offerId: offer.id,
    nonce: offer.linkNonce,
    expiresAt: offer.replyBy.getTime(),
  });
}
