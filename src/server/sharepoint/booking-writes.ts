/**
 * Writes to the Bookings list: a new session made in the portal, and the freelancer of an accepted
 * offer. Only the Graph requests; the queue is booking-outbox.ts.
 */
import { type BookingData, bookingFromItem } from './bookings-refresh';
import type { ColumnNames } from './column-mapping';
import { SharePointError } from './errors';
import { normaliseFreelancerId } from './fields';
import type { SharePointSession } from './session';

type BookingField = keyof ColumnNames<'bookings'>;

/** The portal's names for the columns a new session fills, in the order they are sent. */
const CREATE_FIELDS: BookingField[] = [
  'title',
  'date',
  'startTime',
  'endTime',
  'schoolName',
  'program',
  'location',
];

/**
 * Create the session's item. Fields with no column in this list's mapping, or blank, are left out.
 * Answers the booking the new item is, as a refresh would read it (null: SharePoint's answer could
 * not be read as one), so the portal can list it at once rather than after the next refresh.
 */
export async function createBookingItem(
  session: SharePointSession,
  values: Record<string, string>,
): Promise<BookingData | null> {
  const siteId = await session.siteId();
  const listId = await session.listId(session.settings.bookingsListName);
  const C = await session.columns('bookings');
  const fields: Record<string, unknown> = {};
  for (const name of CREATE_FIELDS) {
    const column = C[name];
    const value = values[name]?.trim();
    if (column && value) fields[column] = value;
  }
  if (!C.date) throw new SharePointError('not-configured', 'The Bookings list has no session date column.');
  const item = await session.client.createItem(siteId, listId, fields);
  const booking = bookingFromItem(item, session.config.ORG_TIMEZONE, C);
  return typeof booking === 'string' ? null : booking;
}

export type AssignOutcome = 'assigned' | 'filled' | 'changed' | 'missing';

/**
 * Write the freelancer id into the item, only if the item is still the version the portal offered:
 * with the eTag the refresh read (If-Match), or, with none known, after reading the item and finding
 * its freelancer column empty. A 412 whose item now holds this very freelancer is our own earlier
 * write whose answer was lost, so it counts as done.
 */
export async function assignFreelancer(
  session: SharePointSession,
  itemId: string,
  knownETag: string | null,
  freelancerId: string,
): Promise<AssignOutcome> {
  const siteId = await session.siteId();
  const listId = await session.listId(session.settings.bookingsListName);
  const C = await session.columns('bookings');
  if (!C.freelancerId)
    throw new SharePointError('not-configured', 'The Bookings list has no freelancer ID column.');
  const holder = (fields: Record<string, unknown> | undefined) =>
    normaliseFreelancerId(fields?.[C.freelancerId!]);

  let eTag = knownETag;
  if (!eTag) {
    const item = await session.client.getItem(siteId, listId, itemId);
    if (!item) return 'missing';
    const current = holder(item.fields);
    if (current) return current === freelancerId ? 'assigned' : 'filled';
    if (!item.eTag)
      throw new SharePointError('protocol', `SharePoint sent the item ${itemId} without its eTag.`);
    eTag = item.eTag;
  }
  const outcome = await session.client.updateItemIfUnchanged(
    siteId,
    listId,
    itemId,
    { [C.freelancerId]: freelancerId },
    eTag,
  );
  if (outcome === 'updated') return 'assigned';
  if (outcome === 'missing') return 'missing';
  const now = await session.client.getItem(siteId, listId, itemId);
  if (!now) return 'missing';
  const current = holder(now.fields);
  if (current === freelancerId) return 'assigned';
  return current ? 'filled' : 'changed';
}
