import { and, asc, between, gt, inArray, ne, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { compareAreaNames } from '../../../shared/collate';
import { PRIORITIES, type Priority } from '../../../shared/priorities';
import type { Booking } from '../../../shared/schemas/bookings';
import {
  GRID_NO_AREA,
  type StaffGridPage,
  type StaffGridRow,
  type staffGridQuery,
} from '../../../shared/schemas/staff-grid';
import type { Queryable } from '../../db/client';
import { rowsByPerson } from '../../db/rows-by-person';
import { availability, bookings, facilitatorAreas, staffNotes, users } from '../../db/schema';
import { badRequest } from '../../errors';
import { type AvailabilityRecord, availabilityColumns, toAvailability } from '../availability/service';
import { bookingColumns, toBooking } from '../bookings/service';
import { safeguardingStatuses } from '../safeguarding/service';
import { publicUserColumns, STAFF_ROLE, toPublicUser } from '../users/service';

export type GridQuery = z.output<typeof staffGridQuery>;

/**
 * The grid's order: the name it shows (the display name, or the username when there is none),
 * lower-cased, then the id. `users_grid_order_idx` is on exactly this expression, so a page is read
 * from the index from where the cursor points.
 */
const gridName = sql`lower(coalesce(nullif(btrim(${users.displayName}), ''), ${users.username}))`;
const areaKey = sql`coalesce(nullif(btrim(${users.area}), ''), ${GRID_NO_AREA})`;

/** The filters as SQL over `users`: facilitators only, in the chosen areas and people, matching the search. */
function filtersOf(query: GridQuery): SQL {
  const conditions: SQL[] = [ne(users.role, STAFF_ROLE)];
  if (query.area) {
    conditions.push(query.area.length ? sql`${areaKey} in ${query.area}` : sql`false`);
  }
  if (query.only) conditions.push(query.only.length ? inArray(users.id, query.only) : sql`false`);
  if (query.exclude?.length) conditions.push(notInArray(users.id, query.exclude));
  const search = query.search?.trim().toLowerCase();
  if (search) {
    const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(or(sql`${gridName} like ${pattern}`, sql`lower(${users.email}) like ${pattern}`)!);
  }
  return and(...conditions)!;
}

/** A cursor names the last row of a page by its place in the grid's order. */
export function encodeCursor(name: string, id: number): string {
  return Buffer.from(JSON.stringify([name, id])).toString('base64url');
}

function decodeCursor(cursor: string): { name: string; id: number } {
  try {
    const [name, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof name === 'string' && Number.isInteger(id)) return { name, id: id as number };
  } catch {
    // answered below
  }
  throw badRequest('The cursor is not one this list gave', { cursor: ['Not a cursor from this list'] });
}

/**
 * One page of the staff grid: the facilitators the filters show, in the grid's order from the
 * cursor on, each with their days, sessions, note marks and safeguarding state for the range, and
 * how many there are. A handful of plain statements whatever the organisation's size: the page's
 * accounts from the order's index, then their rows by the (person, day) indexes.
 */
export async function readGridPage(db: Queryable, query: GridQuery, today: string): Promise<StaffGridPage> {
  const filters = filtersOf(query);
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  // PGlite runs one statement at a time and PostgreSQL takes these from its pool side by side
  const [people, areaCounts, filteredCount] = await Promise.all([
    db
      .select({ user: publicUserColumns, name: sql<string>`${gridName}` })
      .from(users)
      .where(after ? and(filters, sql`(${gridName}, ${users.id}) > (${after.name}, ${after.id})`) : filters)
      .orderBy(asc(gridName), asc(users.id))
      .limit(query.limit + 1),
    // every area's facilitators, as the trigger keeps them: the area choices and the counts
    db
      .select({ area: facilitatorAreas.area, facilitators: facilitatorAreas.facilitators })
      .from(facilitatorAreas)
      .where(gt(facilitatorAreas.facilitators, 0)),
    // chosen people, some left out or a search: those the filters show are counted
    query.only || query.exclude?.length || query.search?.trim()
      ? db.select({ matching: sql<number>`count(*)::int` }).from(users).where(filters)
      : null,
  ]);
  const counted = (areas: readonly string[] | undefined) =>
    areaCounts
      .filter((row) => areas === undefined || areas.includes(row.area))
      .reduce((sum, row) => sum + row.facilitators, 0);
  const summary = {
    total: counted(undefined),
    matching: filteredCount ? (filteredCount[0]?.matching ?? 0) : counted(query.area),
    areas: areaCounts.map((row) => row.area),
  };
  const page = people.slice(0, query.limit);
  const last = page.at(-1);
  const nextCursor = people.length > query.limit && last ? encodeCursor(last.name, last.user.id) : null;
  const ids = page.map((person) => person.user.id);
  const rows = ids.length
    ? await rowsOf(db, ids, query, today)
    : new Map<number, Omit<StaffGridRow, 'user'>>();
  const everyArea = summary.areas;
  const areas = everyArea.filter((area) => area !== GRID_NO_AREA);
  areas.sort(compareAreaNames);
  if (everyArea.includes(GRID_NO_AREA)) areas.push(GRID_NO_AREA);
  return {
    rows: page.map(({ user }) => ({ user: toPublicUser(user), ...rows.get(user.id)! })),
    nextCursor,
    matching: summary.matching,
    total: summary.total,
    areas,
  };
}

/** The page's facilitators' days, sessions, note marks and safeguarding, by facilitator. */
async function rowsOf(
  db: Queryable,
  ids: number[],
  range: { from: string; to: string },
  today: string,
): Promise<Map<number, Omit<StaffGridRow, 'user'>>> {
  const [days, sessions, notes, safeguarding] = await Promise.all([
    rowsByPerson<AvailabilityRecord>(
      db,
      availabilityColumns,
      availability.userId,
      and(inArray(availability.userId, ids), between(availability.date, range.from, range.to)),
      sql`${availability.date}`,
    ),
    rowsByPerson<Booking>(
      db,
      bookingColumns,
      bookings.userId,
      and(inArray(bookings.userId, ids), between(bookings.date, range.from, range.to)),
      sql`${bookings.date}, ${bookings.startTime}, ${bookings.id}`,
    ),
    db
      .select({ userId: staffNotes.facilitatorId, date: staffNotes.date, priority: staffNotes.priority })
      .from(staffNotes)
      .where(and(inArray(staffNotes.facilitatorId, ids), between(staffNotes.date, range.from, range.to)))
      .orderBy(asc(staffNotes.date)),
    safeguardingStatuses(db, ids, today),
  ]);
  const rows = new Map<number, Omit<StaffGridRow, 'user'>>();
  for (const id of ids) {
    const status = safeguarding.get(id);
    rows.set(id, {
      availability: [],
      bookings: [],
      notes: [],
      safeguarding: { state: status?.state ?? 'missing', reasons: status?.reasons ?? [] },
    });
  }
  for (const day of days) rows.get(day.userId)!.availability.push(toAvailability(day));
  for (const session of sessions) rows.get(session.userId!)!.bookings.push(toBooking(session));
  for (const note of notes) {
    const marks = rows.get(note.userId)!.notes;
    const priority = note.priority as Priority;
    const mark = marks.find((m) => m.date === note.date);
    if (!mark) marks.push({ date: note.date, priority });
    else if (PRIORITIES.indexOf(priority) > PRIORITIES.indexOf(mark.priority)) mark.priority = priority;
  }
  return rows;
}
