/**
 * Bookings in: read the Bookings list (everything the first time, then only the changes through the
 * stored delta link), match freelancer IDs to users, fill school details from the Schools list, and
 * apply the result in one transaction. Everything is collected before the database is touched, so
 * a failure half-way leaves the bookings exactly as they were.
 */
import { eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { dateOnlyInZone, todayIn } from '../../shared/calendar';
import type { RefreshResult } from '../../shared/schemas/bookings';
import { storableTimeOfDay } from '../../shared/time-of-day';
import type { Db, Queryable } from '../db/client';
import { bookings, sharepointSettings, users } from '../db/schema';
import type { ColumnNames } from './column-mapping';
import { hasStatus, SharePointError } from './errors';
import { CANCELLED_STATUS, fieldText, normaliseFreelancerId } from './fields';
import type { DeltaEntry, GraphItem } from './graph-client';
import type { SharePointSession } from './session';

type BookingRow = typeof bookings.$inferSelect;

/** What one SharePoint item becomes in the bookings table (userId decided at apply time). */
export interface BookingData {
  sharePointId: string;
  freelancerId: string | null;
  title: string;
  date: string;
  startTime: string | null;
  endTime: string | null;
  location: string | null;
  schoolId: string | null;
  schoolName: string | null;
  schoolAddress: string | null;
  schoolPostcode: string | null;
  program: string | null;
  timeSlot: string | null;
  deliveryType: string | null;
  year: string | null;
  /** the item's version: a write-back sends it as If-Match */
  eTag: string | null;
}

export interface BookingsRefreshResult extends RefreshResult {
  unmatched: number;
  /**
   * `full` read everything through the change feed; `delta` applied the changes since the last
   * refresh; `reconcile` read the whole list through the items endpoint (the weekly check that
   * corrects whatever the change feed failed to report).
   */
  mode: 'full' | 'delta' | 'reconcile';
  /** items left out because they could not be read (no usable SessionDate) */
  skipped: number;
}

/**
 * A facilitator's booking that changed in this refresh, for telling them (never stored, never sent
 * to staff). `date` is the session's day after the change (before it, for a cancellation);
 * `previousDate` is the day it was moved from.
 */
export interface BookingChange {
  userId: number;
  change: 'added' | 'moved' | 'cancelled';
  date: string;
  previousDate?: string;
}

/**
 * What a refresh found to tell facilitators about. Nothing on a list's first read (a fresh portal, or
 * settings aimed at another list): every booking would look new. Only sessions dated `today` or later.
 */
export interface BookingsRefreshOutcome extends BookingsRefreshResult {
  changes: BookingChange[];
}

const LIST_ID_SUFFIX = '#listId';

/** Why an item is no booking, or the booking it is. */
export function bookingFromItem(
  item: GraphItem,
  timeZone: string,
  C: ColumnNames<'bookings'>,
): BookingData | 'cancelled' | 'unreadable' {
  const f = item.fields;
  const status = fieldText(f, C.status);
  if (status && status.toLowerCase() === CANCELLED_STATUS) return 'cancelled';
  const rawDate = fieldText(f, C.date);
  if (!rawDate) return 'unreadable';
  let date: string;
  try {
    // A date-only column is local midnight of the site as a UTC instant: the day is the one in ORG_TIMEZONE.
    date = dateOnlyInZone(rawDate, timeZone);
  } catch {
    return 'unreadable';
  }
  return {
    sharePointId: item.id,
    freelancerId: C.freelancerId ? normaliseFreelancerId(f?.[C.freelancerId]) : null,
    title: fieldText(f, C.title) ?? '',
    date,
    startTime: storableTimeOfDay(fieldText(f, C.startTime)),
    endTime: storableTimeOfDay(fieldText(f, C.endTime)),
    location: fieldText(f, C.location),
    schoolId: fieldText(f, C.schoolId),
    schoolName: fieldText(f, C.schoolName),
    schoolAddress: fieldText(f, C.schoolAddress),
    schoolPostcode: fieldText(f, C.schoolPostcode),
    program: fieldText(f, C.program),
    timeSlot: fieldText(f, C.timeSlot),
    deliveryType: fieldText(f, C.deliveryType),
    year: fieldText(f, C.year),
    eTag: item.eTag ?? null,
  };
}

interface School {
  name: string | null;
  address: string | null;
  postcode: string | null;
}

function needsSchool(b: BookingData): boolean {
  return (
    b.schoolId !== null && (b.schoolName === null || b.schoolAddress === null || b.schoolPostcode === null)
  );
}

async function readSchools(session: SharePointSession): Promise<Map<string, School>> {
  const siteId = await session.siteId();
  const listId = await session.listId(session.settings.schoolsListName);
  const SCHOOL_COLUMNS = await session.columns('schools');
  const items = await session.client.listItems(siteId, listId, { top: session.pageSize });
  const schools = new Map<string, School>();
  for (const item of items) {
    const id = fieldText(item.fields, SCHOOL_COLUMNS.schoolId);
    if (!id) continue;
    schools.set(id, {
      name: fieldText(item.fields, SCHOOL_COLUMNS.name),
      address: fieldText(item.fields, SCHOOL_COLUMNS.address),
      postcode: fieldText(item.fields, SCHOOL_COLUMNS.postcode),
    });
  }
  return schools;
}

export async function readDeltaLinks(db: Queryable): Promise<Record<string, string>> {
  const [row] = await db
    .select({ deltaLinks: sharepointSettings.deltaLinks })
    .from(sharepointSettings)
    .where(eq(sharepointSettings.id, 1));
  return row?.deltaLinks ?? {};
}

interface Collected {
  mode: BookingsRefreshResult['mode'];
  /** items that are (or stay) bookings */
  upserts: Map<string, BookingData>;
  /** items that are no bookings any more (deleted or cancelled) */
  removals: Set<string>;
  deltaLink: string;
  listId: string;
  skipped: number;
  /** no change feed of this list was read before: the bookings are not news to anyone */
  firstRead: boolean;
}

/**
 * Every item of the list through the items endpoint, not the change feed: what the feed never
 * reported (a lost entry) is seen here. The stored delta link is kept, so the changes made while
 * this read ran still come through the next delta refresh.
 */
async function readWholeList(
  session: SharePointSession,
  siteId: string,
  listId: string,
  deltaLink: string,
): Promise<{ entries: DeltaEntry[]; deltaLink: string }> {
  const items = await session.client.listItems(siteId, listId, { top: session.pageSize });
  return { entries: items.map((item) => ({ id: item.id, deleted: false, item })), deltaLink };
}

/** Network half: everything from SharePoint, nothing written. */
async function collect(
  session: SharePointSession,
  db: Queryable,
  timeZone: string,
  onProcessing: (() => void) | undefined,
  reconcile: boolean,
): Promise<Collected> {
  const listName = session.settings.bookingsListName;
  const siteId = await session.siteId();
  const listId = await session.listId(listName);
  const columns = await session.columns('bookings');
  const links = await readDeltaLinks(db);
  const stored =
    links[listName] && links[`${listName}${LIST_ID_SUFFIX}`] === listId ? links[listName] : undefined;

  let mode: Collected['mode'] = stored ? (reconcile ? 'reconcile' : 'delta') : 'full';
  let result: { entries: DeltaEntry[]; deltaLink: string };
  try {
    // Without a stored link the change feed's first round is a full read already.
    result =
      stored && reconcile
        ? await readWholeList(session, siteId, listId, stored)
        : await session.client.delta(siteId, listId, stored, session.pageSize);
  } catch (error) {
    // 410: the change token expired; read everything again.
    if (!stored || reconcile || !hasStatus(error, 410)) throw error;
    mode = 'full';
    result = await session.client.delta(siteId, listId, undefined, session.pageSize);
  }
  // SharePoint has sent the changes: what follows is working through them (items read again,
  // schools looked up, rows stored), which can take as long as the reading did
  onProcessing?.();

  const upserts = new Map<string, BookingData>();
  const removals = new Set<string>();
  let skipped = 0;
  for (const entry of result.entries) {
    if (entry.deleted) {
      removals.add(entry.id);
      continue;
    }
    let item = entry.item;
    if (!item.fields) {
      // A changed item without its columns is no removal: read it again by id. Only a `deleted`
      // facet (or a 404 now) or a cancelled status takes a booking away.
      const fresh = await session.client.getItem(siteId, listId, item.id);
      if (!fresh) {
        removals.add(entry.id);
        continue;
      }
      if (!fresh.fields)
        throw new SharePointError('protocol', `SharePoint sent the item ${item.id} without its columns.`, {
          retryable: true,
        });
      item = fresh;
    }
    const booking = bookingFromItem(item, timeZone, columns);
    if (typeof booking === 'string') {
      if (booking === 'unreadable') skipped++;
      removals.add(entry.id);
    } else {
      upserts.set(entry.id, booking);
    }
  }

  if (session.settings.schoolsListName && [...upserts.values()].some(needsSchool)) {
    const schools = await readSchools(session);
    for (const booking of upserts.values()) {
      if (!needsSchool(booking)) continue;
      const school = schools.get(booking.schoolId!);
      if (!school) continue;
      booking.schoolName ??= school.name;
      booking.schoolAddress ??= school.address;
      booking.schoolPostcode ??= school.postcode;
    }
  }
  return { mode, upserts, removals, deltaLink: result.deltaLink, listId, skipped, firstRead: !stored };
}

/** freelancer ID (trimmed text) → the user with it (lowest id when several share one). */
async function freelancerIndex(db: Queryable): Promise<Map<string, number>> {
  const rows = await db
    .select({ id: users.id, freelancerId: users.freelancerId })
    .from(users)
    .where(isNotNull(users.freelancerId))
    .orderBy(users.id);
  const index = new Map<string, number>();
  for (const row of rows) {
    const key = normaliseFreelancerId(row.freelancerId);
    if (key && !index.has(key)) index.set(key, row.id);
  }
  return index;
}

const COMPARED: Array<keyof BookingData> = [
  'freelancerId',
  'title',
  'date',
  'startTime',
  'endTime',
  'location',
  'schoolId',
  'schoolName',
  'schoolAddress',
  'schoolPostcode',
  'program',
  'timeSlot',
  'deliveryType',
  'year',
  'eTag',
];

function differs(row: BookingRow, data: BookingData, userId: number | null): boolean {
  if (row.userId !== userId) return true;
  return COMPARED.some((key) => (row[key] ?? null) !== (data[key] ?? null));
}

const CHUNK = 500;

/** What a booking change is judged on: whose it is and when it is. */
const PLACED = {
  id: bookings.id,
  sharePointId: bookings.sharePointId,
  freelancerId: bookings.freelancerId,
  userId: bookings.userId,
  date: bookings.date,
  startTime: bookings.startTime,
  endTime: bookings.endTime,
};
type Placed = { [K in keyof typeof PLACED]: BookingRow[K] };

async function placedBookings(tx: Queryable, sharePointIds: string[]): Promise<Placed[]> {
  const rows: Placed[] = [];
  for (let i = 0; i < sharePointIds.length; i += CHUNK) {
    rows.push(
      ...(await tx
        .select(PLACED)
        .from(bookings)
        .where(inArray(bookings.sharePointId, sharePointIds.slice(i, i + CHUNK)))),
    );
  }
  return rows;
}

/**
 * Per facilitator, what happened to their bookings between `before` and `after` (rows by SharePoint
 * item): a booking that became theirs was added, one that stopped being theirs (deleted, cancelled,
 * given to someone else) was cancelled, and one of theirs on another day or at other times was moved.
 * A booking that changed hands only because an account's freelancer ID changed (the item's own
 * freelancer ID did not) is no news from SharePoint and tells no one. Sessions before `today` tell
 * no one either.
 */
export function bookingChanges(
  before: readonly Omit<Placed, 'id'>[],
  after: readonly Omit<Placed, 'id'>[],
  today: string,
): BookingChange[] {
  const was = new Map(before.map((row) => [row.sharePointId, row]));
  const now = new Map(after.map((row) => [row.sharePointId, row]));
  const changes: BookingChange[] = [];
  for (const id of new Set([...was.keys(), ...now.keys()])) {
    const b = was.get(id);
    const a = now.get(id);
    const oldUser = b?.userId ?? null;
    const newUser = a?.userId ?? null;
    if (oldUser === newUser) {
      if (oldUser === null || !a || !b) continue;
      const moved =
        a.date !== b.date ||
        (a.startTime ?? null) !== (b.startTime ?? null) ||
        (a.endTime ?? null) !== (b.endTime ?? null);
      if (moved && (a.date >= today || b.date >= today)) {
        changes.push({ userId: oldUser, change: 'moved', date: a.date, previousDate: b.date });
      }
      continue;
    }
    if (a && b && normaliseFreelancerId(a.freelancerId) === normaliseFreelancerId(b.freelancerId)) continue;
    if (b && oldUser !== null && b.date >= today) {
      changes.push({ userId: oldUser, change: 'cancelled', date: b.date });
    }
    if (a && newUser !== null && a.date >= today) {
      changes.push({ userId: newUser, change: 'added', date: a.date });
    }
  }
  return changes;
}

/** Database half: one transaction, so readers see the old bookings or the new ones, never a mix. */
async function apply(
  db: Db,
  session: SharePointSession,
  collected: Collected,
  today: string,
): Promise<{
  changes: BookingChange[];
  added: number;
  updated: number;
  removed: number;
  total: number;
  unmatched: number;
}> {
  const listName = session.settings.bookingsListName;
  return db.transaction(async (tx) => {
    // The settings must still be the ones the data came from (staff may have saved new ones meanwhile).
    const [current] = await tx
      .select({ siteUrl: sharepointSettings.siteUrl, bookingsListName: sharepointSettings.bookingsListName })
      .from(sharepointSettings)
      .where(eq(sharepointSettings.id, 1))
      .for('update');
    if (!current || current.siteUrl !== session.settings.siteUrl || current.bookingsListName !== listName) {
      throw new SharePointError(
        'not-configured',
        'The SharePoint settings changed during the refresh; try again.',
      );
    }

    const index = await freelancerIndex(tx);
    const userFor = (freelancerId: string | null) =>
      freelancerId ? (index.get(freelancerId) ?? null) : null;
    // Every booking, lightly (deletions and relinking); whole rows only where SharePoint sent data.
    const existing = await tx.select(PLACED).from(bookings);
    const bySharePointId = new Map(existing.map((row) => [row.sharePointId, row]));
    const fullRows = new Map<string, BookingRow>();
    const wanted = [...collected.upserts.keys()].filter((id) => bySharePointId.has(id));
    const whole = collected.mode !== 'delta';
    if (whole && wanted.length > existing.length / 2) {
      for (const row of await tx.select().from(bookings)) fullRows.set(row.sharePointId, row);
    } else {
      for (let i = 0; i < wanted.length; i += CHUNK) {
        const rows = await tx
          .select()
          .from(bookings)
          .where(inArray(bookings.sharePointId, wanted.slice(i, i + CHUNK)));
        for (const row of rows) fullRows.set(row.sharePointId, row);
      }
    }

    const toDelete: number[] = [];
    if (whole) {
      for (const row of existing) if (!collected.upserts.has(row.sharePointId)) toDelete.push(row.id);
    } else {
      for (const id of collected.removals) {
        const row = bySharePointId.get(id);
        if (row) toDelete.push(row.id);
      }
    }

    const now = new Date();
    const toWrite: Array<typeof bookings.$inferInsert> = [];
    let added = 0;
    let updated = 0;
    for (const data of collected.upserts.values()) {
      const userId = userFor(data.freelancerId);
      const row = fullRows.get(data.sharePointId);
      if (!row) added++;
      else if (differs(row, data, userId)) updated++;
      else continue;
      toWrite.push({ ...data, userId, updatedAt: now });
    }

    // Bookings SharePoint did not mention may need linking (a user got the freelancer ID since) or unlinking.
    const relink = new Map<number | null, number[]>();
    const deleting = new Set(toDelete);
    for (const row of existing) {
      if (deleting.has(row.id) || collected.upserts.has(row.sharePointId)) continue;
      const userId = userFor(normaliseFreelancerId(row.freelancerId));
      if (userId === row.userId) continue;
      const ids = relink.get(userId) ?? [];
      ids.push(row.id);
      relink.set(userId, ids);
    }

    for (let i = 0; i < toDelete.length; i += CHUNK) {
      await tx.delete(bookings).where(inArray(bookings.id, toDelete.slice(i, i + CHUNK)));
    }
    for (let i = 0; i < toWrite.length; i += CHUNK) {
      await tx
        .insert(bookings)
        .values(toWrite.slice(i, i + CHUNK))
        .onConflictDoUpdate({
          target: bookings.sharePointId,
          set: {
            userId: sql`excluded.user_id`,
            freelancerId: sql`excluded.freelancer_id`,
            title: sql`excluded.title`,
            date: sql`excluded.date`,
            startTime: sql`excluded.start_time`,
            endTime: sql`excluded.end_time`,
            location: sql`excluded.location`,
            schoolId: sql`excluded.school_id`,
            schoolName: sql`excluded.school_name`,
            schoolAddress: sql`excluded.school_address`,
            schoolPostcode: sql`excluded.school_postcode`,
            program: sql`excluded.program`,
            timeSlot: sql`excluded.time_slot`,
            deliveryType: sql`excluded.delivery_type`,
            year: sql`excluded.year`,
            eTag: sql`excluded.etag`,
            updatedAt: sql`excluded.updated_at`,
          },
        });
    }
    for (const [userId, ids] of relink) {
      for (let i = 0; i < ids.length; i += CHUNK) {
        await tx
          .update(bookings)
          .set({ userId, updatedAt: now })
          .where(inArray(bookings.id, ids.slice(i, i + CHUNK)));
      }
    }

    // An acceptance still on its way to SharePoint keeps its facilitator here: the list does not
    // show it yet, and freeing the day meanwhile would let it be booked twice. If SharePoint was
    // filled by someone else instead, the write-back finds out and undoes the acceptance.
    await tx.execute(sql`
      update bookings b set user_id = o.user_id, freelancer_id = u.freelancer_id, updated_at = ${now}
      from offers o join users u on u.id = o.user_id
      where o.booking_id = b.id and o.state = 'accepted' and o.write_back = 'pending'
        and b.user_id is null and coalesce(trim(b.freelancer_id), '') = ''`);

    const links = { [listName]: collected.deltaLink, [`${listName}${LIST_ID_SUFFIX}`]: collected.listId };
    await tx
      .update(sharepointSettings)
      .set({ deltaLinks: sql`${sharepointSettings.deltaLinks} || ${JSON.stringify(links)}::jsonb` })
      .where(eq(sharepointSettings.id, 1));

    const mentioned = new Set(collected.upserts.keys());
    for (const row of existing) if (deleting.has(row.id)) mentioned.add(row.sharePointId);
    const changes = collected.firstRead
      ? []
      : bookingChanges(
          existing.filter((row) => mentioned.has(row.sharePointId)),
          await placedBookings(tx, [...mentioned]),
          today,
        );

    const [counts] = await tx
      .select({
        total: sql<number>`count(*)::int`,
        unmatched: sql<number>`count(*) filter (where ${bookings.userId} is null)::int`,
      })
      .from(bookings);
    return {
      changes,
      added,
      updated,
      removed: toDelete.length,
      total: counts?.total ?? 0,
      unmatched: counts?.unmatched ?? 0,
    };
  });
}

/** One refresh. Callers serialise refreshes (jobs/refresh-job.ts); this function does not. */
export async function refreshBookings(
  db: Db,
  session: SharePointSession,
  timeZone: string,
  /** told when SharePoint has sent the changed bookings and working through them begins */
  onProcessing?: () => void,
  /** read the whole list rather than the changes (the weekly reconciliation) */
  reconcile = false,
  /** the clock that decides which sessions are past */
  now: () => Date = () => new Date(),
): Promise<BookingsRefreshOutcome> {
  const collected = await collect(session, db, timeZone, onProcessing, reconcile);
  const counts = await apply(db, session, collected, todayIn(timeZone, now()));
  return { ...counts, mode: collected.mode, skipped: collected.skipped };
}
