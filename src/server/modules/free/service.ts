import { and, asc, eq, isNotNull, isNull, ne } from 'drizzle-orm';
import { formatTimeRange } from '../../../shared/calendar';
import { compareAreaNames, matchesSearch } from '../../../shared/collate';
import { mayBeSent } from '../../../shared/safeguarding';
import type { AvailabilityStatus } from '../../../shared/schemas/availability';
import type {
  FreeBooking,
  FreeFacilitator,
  FreeFit,
  FreeInclude,
  FreeResult,
} from '../../../shared/schemas/free';
import type { Priority } from '../../../shared/schemas/notes';
import { PAGE_SIZE } from '../../../shared/schemas/paging';
import type { Queryable } from '../../db/client';
import { availability, bookings, staffNotes, users } from '../../db/schema';
import { type CursorValue, decodeKeyset, encodeKeyset } from '../keyset';
import { facilitatorSafeguardingStatuses, safeguardingStatuses } from '../safeguarding/service';
import { STAFF_ROLE } from '../users/service';

export interface FreeSearch {
  date: string;
  /** both or neither; `from` < `to` (the route's schema checks it) */
  from?: string | undefined;
  to?: string | undefined;
  /** already trimmed and deduplicated; empty: every area */
  areas: readonly string[];
  include: FreeInclude;
  /** only those whose name, email or area holds this, without regard to case or accents */
  search?: string | undefined;
  /** one page of the ranked list: the rows after the one `cursor` names, `limit` of them */
  cursor?: string | undefined;
  limit?: number | undefined;
}

export interface TimeWindow {
  from: string;
  to: string;
}

/** At most this many bookings are named in a "Booked:" reason; the rest are counted. */
const NAMED_BOOKINGS = 3;

/**
 * How a day's times sit against a window. No times at all is "open" (the facilitator gave no hours,
 * so they may or may not suit). A missing start means from the start of the day, a missing end to its
 * end. The window is covered when it lies wholly inside the times, edges included: 09:00-12:00 covers
 * a 09:00-12:00 window but not 11:00-12:30.
 */
export function fitOf(startTime: string, endTime: string, window: TimeWindow): FreeFit {
  if (!startTime && !endTime) return 'open';
  const startsInTime = !startTime || startTime <= window.from;
  const lastsLongEnough = !endTime || endTime >= window.to;
  return startsInTime && lastsLongEnough ? 'covers' : 'outside';
}

/** Mid-sentence, in the one time format people read ("from 1:00 PM", "9:00 AM – 12:00 PM"). */
function timesLabel(startTime: string, endTime: string): string {
  const range = formatTimeRange(startTime, endTime);
  return range.charAt(0).toLowerCase() + range.slice(1);
}

function bookingLabel(booking: FreeBooking): string {
  const school = booking.schoolName?.trim();
  const program = booking.program?.trim();
  if (school && program) return `${school} (${program})`;
  return school || program || booking.title.trim() || 'a session';
}

export function bookedReason(dayBookings: readonly FreeBooking[]): string {
  const named = dayBookings.slice(0, NAMED_BOOKINGS).map(bookingLabel);
  const more = dayBookings.length - named.length;
  return `Booked: ${named.join('; ')}${more > 0 ? ` and ${more} more` : ''}`;
}

const STATUS_RANK: Record<AvailabilityStatus, number> = { available: 0, limited: 1, unavailable: 2 };
const FIT_RANK: Record<FreeFit, number> = { covers: 0, open: 1, outside: 2 };
const PRIORITY_RANK: Record<Priority, number> = { urgent: 0, high: 1, normal: 2 };

/**
 * The ranking: free before left out; available before limited (then unavailable, then nothing set);
 * times that cover the window before open times (then times that miss it); fewer bookings that day
 * first; then by name, case-insensitively, as the staff grid sorts.
 */
export function compareFree(a: FreeFacilitator, b: FreeFacilitator): number {
  // no key arrays or closures made per comparison: sorting 5,000 people makes about 60,000 of them
  return (
    Number(!a.free) - Number(!b.free) ||
    statusRank(a) - statusRank(b) ||
    fitRank(a) - fitRank(b) ||
    a.bookingsCount - b.bookingsCount ||
    compareNames(a, b)
  );
}

const statusRank = (row: FreeFacilitator) => (row.status ? STATUS_RANK[row.status] : 3);
const fitRank = (row: FreeFacilitator) => (row.fit ? FIT_RANK[row.fit] : 0);

/**
 * A row's place in the ranking as values compareFree orders by, the id last: what a page's cursor
 * holds, so the next page starts after that row even if rows around it changed meanwhile.
 */
function rankOf(row: FreeFacilitator): CursorValue[] {
  return [
    Number(!row.free),
    statusRank(row),
    fitRank(row),
    row.bookingsCount,
    row.name.toLowerCase(),
    row.userId,
  ];
}

/** Whether a rank comes after another, value by value (numbers as numbers, names as compareNames does). */
function rankAfter(rank: readonly CursorValue[], cursor: readonly CursorValue[]): boolean {
  for (let i = 0; i < rank.length; i++) {
    const a = rank[i]!;
    const b = cursor[i]!;
    if (a !== b) return typeof a === typeof b ? a > b : typeof a === 'string';
  }
  return false;
}

function compareNames(a: FreeFacilitator, b: FreeFacilitator): number {
  const an = a.name.toLowerCase();
  const bn = b.name.toLowerCase();
  return an < bn ? -1 : an > bn ? 1 : a.userId - b.userId;
}

/**
 * Who can work on a day, ranked; people whose safeguarding checks have expired or are missing on that
 * day are left out (with the reasons when everyone is shown). A fixed six queries whatever the number of facilitators, each on
 * one day through the existing indexes (availability_date_idx, bookings_date_idx, staff_notes_date_idx)
 * plus the facilitators themselves; everything else is done here, in memory, for at most a few
 * thousand rows.
 */
export async function findFree(db: Queryable, search: FreeSearch): Promise<FreeResult> {
  const window: TimeWindow | null = search.from && search.to ? { from: search.from, to: search.to } : null;

  const wanted = new Set(search.areas.map((area) => area.toLowerCase()));
  // the checks on the day searched, not today: a session next month needs checks that last until then
  const [people, days, dayBookings, dayNotes, everyonesChecks] = await Promise.all([
    db
      .select({
        id: users.id,
        username: users.username,
        displayName: users.displayName,
        email: users.email,
        area: users.area,
      })
      .from(users)
      // a leaver (deactivated) is nobody's candidate
      .where(and(ne(users.role, STAFF_ROLE), isNull(users.deactivatedAt))),
    db
      .select({
        userId: availability.userId,
        status: availability.status,
        startTime: availability.startTime,
        endTime: availability.endTime,
        notes: availability.notes,
      })
      .from(availability)
      .where(eq(availability.date, search.date)),
    db
      .select({
        userId: bookings.userId,
        title: bookings.title,
        schoolName: bookings.schoolName,
        program: bookings.program,
        startTime: bookings.startTime,
        endTime: bookings.endTime,
      })
      .from(bookings)
      .where(and(eq(bookings.date, search.date), isNotNull(bookings.userId)))
      .orderBy(asc(bookings.startTime), asc(bookings.id)),
    db
      .select({
        id: staffNotes.id,
        facilitatorId: staffNotes.facilitatorId,
        note: staffNotes.note,
        priority: staffNotes.priority,
      })
      .from(staffNotes)
      .where(eq(staffNotes.date, search.date))
      .orderBy(asc(staffNotes.createdAt), asc(staffNotes.id)),
    // Every facilitator's checks, read by role, when every area is searched; a few areas' people
    // are fewer, and their checks are read by their ids once they are known (below).
    wanted.size === 0 ? facilitatorSafeguardingStatuses(db, search.date) : null,
  ]);

  // Area names as the facilitators spell them, matched without regard to case or outer spaces.
  const areaByKey = new Map<string, string>();
  for (const person of people) {
    const area = person.area?.trim();
    if (area && !areaByKey.has(area.toLowerCase())) areaByKey.set(area.toLowerCase(), area);
  }
  const availableAreas = [...areaByKey.values()].sort(compareAreaNames);
  const inArea =
    wanted.size === 0 ? people : people.filter((p) => wanted.has(p.area?.trim().toLowerCase() ?? ''));
  const safeguarding =
    everyonesChecks ??
    (await safeguardingStatuses(
      db,
      inArea.map((person) => person.id),
      search.date,
    ));
  // The reads are separate statements, never one snapshot: someone added or removed between them
  // has no status here, and is left out of this one answer.
  const chosen = inArea.filter(
    (person) =>
      safeguarding.has(person.id) &&
      matchesSearch(search.search ?? '', [
        person.displayName?.trim() || person.username,
        person.email,
        person.area,
      ]),
  );
  const dayOf = new Map(days.map((row) => [row.userId, row]));
  const bookingsOf = groupBy(dayBookings, (row) => row.userId!);
  const notesOf = groupBy(dayNotes, (row) => row.facilitatorId);

  const rows = chosen.map((person): FreeFacilitator => {
    const day = dayOf.get(person.id);
    const booked = (bookingsOf.get(person.id) ?? []).map(
      ({ title, schoolName, program, startTime, endTime }) => ({
        title,
        schoolName,
        program,
        startTime,
        endTime,
      }),
    );
    const status = (day?.status as AvailabilityStatus | undefined) ?? null;
    const startTime = day?.startTime ?? '';
    const endTime = day?.endTime ?? '';
    const fit = window && day ? fitOf(startTime, endTime, window) : null;

    const checks = safeguarding.get(person.id)!;
    const reasons: string[] = [];
    if (!mayBeSent(checks.state)) reasons.push(...checks.reasons.map((reason) => `Safeguarding: ${reason}`));
    if (booked.length > 0) reasons.push(bookedReason(booked));
    if (status === 'unavailable') reasons.push('Unavailable');
    else if (!status) reasons.push('No availability set');
    else if (fit === 'outside')
      reasons.push(`Times ${timesLabel(startTime, endTime)} don't cover the window`);

    return {
      userId: person.id,
      name: person.displayName?.trim() || person.username,
      email: person.email,
      area: person.area?.trim() || null,
      status,
      startTime,
      endTime,
      availabilityNotes: day?.notes ?? '',
      fit,
      bookingsCount: booked.length,
      bookings: booked,
      notes: (notesOf.get(person.id) ?? [])
        .map(({ id, note, priority }) => ({ id, note, priority: priority as Priority }))
        .sort((a, b) => PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority]),
      safeguarding: { state: checks.state, reasons: checks.reasons },
      free: reasons.length === 0,
      reasons,
    };
  });

  rows.sort(compareFree);
  const freeRows = rows.filter((row) => row.free);
  const listed = search.include === 'all' ? rows : freeRows;
  const page = pageOf(listed, search);
  return {
    date: search.date,
    from: window?.from ?? null,
    to: window?.to ?? null,
    areas: search.areas.map((area) => areaByKey.get(area.toLowerCase()) ?? area),
    include: search.include,
    availableAreas,
    facilitators: page.rows,
    freeCount: freeRows.length,
    leftOutCount: rows.length - freeRows.length,
    nextCursor: page.nextCursor,
  };
}

/**
 * The page asked for of the ranked list: without a cursor or a limit, all of it; else `limit` rows
 * (default PAGE_SIZE) after the row the cursor names.
 */
function pageOf(
  ranked: FreeFacilitator[],
  search: FreeSearch,
): { rows: FreeFacilitator[]; nextCursor: string | null } {
  if (search.cursor === undefined && search.limit === undefined) return { rows: ranked, nextCursor: null };
  const limit = search.limit ?? PAGE_SIZE;
  const cursor = search.cursor ? decodeKeyset(search.cursor, 6) : null;
  const start = cursor ? ranked.findIndex((row) => rankAfter(rankOf(row), cursor)) : 0;
  const rows = start < 0 ? [] : ranked.slice(start, start + limit);
  const last = rows.at(-1);
  const more = start >= 0 && start + limit < ranked.length;
  return { rows, nextCursor: more && last ? encodeKeyset(rankOf(last)) : null };
}

function groupBy<T, K>(items: readonly T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
