import { PassThrough, Readable } from 'node:stream';
import { and, asc, between, eq, inArray, ne, notInArray, type SQL, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { daysBetween, eachDay, formatTime12, formatTimeRange, isWeekday } from '../../../shared/calendar';
import type { AvailabilityStatus } from '../../../shared/schemas/availability';
import { EXPORT_NO_AREA, MAX_EXPORT_DAYS } from '../../../shared/schemas/exports';
import type { Queryable } from '../../db/client';
import { availability, bookings, users } from '../../db/schema';
import { badRequest } from '../../errors';
import { summaryOf } from '../calendar-feed/service';
import type { DateRange } from '../range';
import { STAFF_ROLE } from '../users/service';

/** Rows of users × days fetched per round trip: memory stays bounded whatever the organisation's size. */
export const CELLS_PER_BATCH = 20_000;

const STATUS_LABEL: Record<AvailabilityStatus, string> = {
  available: 'Available',
  limited: 'Limited Availability',
  unavailable: 'Unavailable',
};
export const NOT_SET = 'Not set';

export interface Column {
  key: keyof ExportRow;
  header: string;
  /** xlsx column width in characters */
  width: number;
  /**
   * A time of day, held as HH:mm: written as people read it ("9:00 AM"), in the CSV as that text and
   * in the workbook as a time a spreadsheet sorts and computes with, shown the same way (ADR 79).
   */
  time?: true;
}

export interface ExportRow {
  date: string;
  name: string;
  email: string;
  area: string;
  status: string;
  start: string;
  end: string;
  notes: string;
  bookings: string;
}

export const STAFF_COLUMNS: Column[] = [
  { key: 'date', header: 'Date', width: 12 },
  { key: 'name', header: 'Facilitator', width: 26 },
  { key: 'email', header: 'Email', width: 30 },
  { key: 'area', header: 'Area', width: 16 },
  { key: 'status', header: 'Status', width: 20 },
  { key: 'start', header: 'Start', width: 10, time: true },
  { key: 'end', header: 'End', width: 10, time: true },
  { key: 'notes', header: 'Availability notes', width: 40 },
  { key: 'bookings', header: 'Bookings', width: 60 },
];

export const OWN_COLUMNS: Column[] = STAFF_COLUMNS.filter((c) => !['name', 'email', 'area'].includes(c.key));

/** Exports cover at most a year: checked before anything is sent. */
export function checkExportRange(range: DateRange): void {
  if (daysBetween(range.from, range.to) > MAX_EXPORT_DAYS) {
    throw badRequest(`An export can cover at most ${MAX_EXPORT_DAYS} days`, {
      to: [`At most ${MAX_EXPORT_DAYS} days after "from"`],
    });
  }
}

// ---------------------------------------------------------------------------------------------------
// Formula neutralisation and CSV

/**
 * Where a spreadsheet may start reading a formula (OWASP CSV injection): at the start of the cell, once
 * spaces and quotes are skipped, a formula sign (= + - @, or its fullwidth twin); or a leading tab or
 * carriage return, which Excel skips before looking. `;=1+1` and ` =1+1` ran as formulas when only the
 * first character was checked.
 */
const CELL_FORMULA = /^[\s"'\u00a0\u3000]*[=+\-@\uff1d\uff0b\uff0d\uff20]|^[\s"'\u00a0]*[\t\r]/u;
/**
 * A formula sign after a character some reader splits cells at (comma, semicolon in semicolon locales,
 * tab, line break, pipe), once spaces and quotes are skipped. Fields are always quoted, so a reader
 * that follows RFC 4180 never splits there; one that does (a semicolon-locale spreadsheet given the
 * file another way, a hand-made import) would start a cell with the sign.
 */
const INNER_FORMULA = /([,;\t\r\n|][\s"'\u00a0\u3000]*)(?=[=+\-@\uff1d\uff0b\uff0d\uff20])/gu;

/**
 * A cell a spreadsheet could read as a formula, made text: an apostrophe before the cell (which the
 * spreadsheet then hides), and one before every formula sign that follows a separator inside it, so
 * no cell that a split of the line could make starts with a formula either.
 */
export function neutralise(value: string): string {
  const inner = value.replace(INNER_FORMULA, "$1'");
  return CELL_FORMULA.test(value) ? `'${inner}` : inner;
}

/**
 * One RFC 4180 field, always quoted (quotes doubled), so a semicolon or tab inside a cell never
 * splits it in a reader whose list separator is not the comma.
 */
export function csvField(value: string): string {
  return `"${neutralise(value).replaceAll('"', '""')}"`;
}

export const csvLine = (values: string[]) => `${values.map(csvField).join(',')}\r\n`;

/** UTF-8 byte order mark: without it Excel reads the file as the local code page and garbles accents. */
const BOM = '\uFEFF';

// ---------------------------------------------------------------------------------------------------
// Rows

export interface StaffFilters {
  /** only these areas (EXPORT_NO_AREA: no area); undefined: every area */
  areas?: string[];
  /** facilitators left out by name */
  exclude?: number[];
}

interface Person {
  id: number;
  name: string;
  email: string;
  area: string;
}

const displayName = (u: { displayName: string | null; username: string }) =>
  u.displayName?.trim() || u.username;

/**
 * The grid's order (the name shown, lower-cased, then the id): `users_grid_order_idx` holds it, so
 * each batch of people is read from the index from where the last one ended.
 */
const gridName = sql<string>`lower(coalesce(nullif(btrim(${users.displayName}), ''), ${users.username}))`;

/**
 * The grid's rows, a batch at a time: every non-staff user, in a chosen area and not excluded, in
 * the grid's order. Nobody is held beyond their batch.
 */
async function* facilitatorsFor(
  db: Queryable,
  filters: StaffFilters,
  perBatch: number,
): AsyncGenerator<Person[]> {
  const conditions: SQL[] = [ne(users.role, STAFF_ROLE)];
  if (filters.areas) {
    const area = sql`coalesce(nullif(btrim(${users.area}), ''), ${EXPORT_NO_AREA})`;
    conditions.push(filters.areas.length ? sql`${area} in ${filters.areas}` : sql`false`);
  }
  if (filters.exclude?.length) conditions.push(notInArray(users.id, filters.exclude));
  let last: { name: string; id: number } | null = null;
  for (;;) {
    const where: SQL[] = last
      ? [...conditions, sql`(${gridName}, ${users.id}) > (${last.name}, ${last.id})`]
      : conditions;
    const rows = await db
      .select({
        id: users.id,
        username: users.username,
        displayName: users.displayName,
        email: users.email,
        area: users.area,
        name: gridName,
      })
      .from(users)
      .where(and(...where))
      .orderBy(asc(gridName), asc(users.id))
      .limit(perBatch);
    if (rows.length === 0) return;
    yield rows.map((u) => ({
      id: u.id,
      name: displayName(u),
      email: u.email ?? u.username,
      area: u.area?.trim() ?? '',
    }));
    if (rows.length < perBatch) return;
    const end = rows.at(-1)!;
    last = { name: end.name, id: end.id };
  }
}

function bookingText(b: {
  startTime: string | null;
  endTime: string | null;
  program: string | null;
  title: string;
  schoolName: string | null;
}): string {
  // written as on screen, as the Start and End columns are
  const times = formatTimeRange(b.startTime, b.endTime) || 'All day';
  return `${times} ${summaryOf(b)}`;
}

/** How many people's rows make one batch of at most CELLS_PER_BATCH rows for the range. */
const peoplePerBatch = (range: DateRange) =>
  Math.max(1, Math.floor(CELLS_PER_BATCH / eachDay(range.from, range.to).length));

/**
 * One row per person per day: every weekday of the range (the grid's columns), and a weekend day only
 * when it holds availability or a booking. Yields a batch of people's rows at a time.
 */
async function* rowsFor(
  db: Queryable,
  people: AsyncIterable<Person[]> | Iterable<Person[]>,
  range: DateRange,
): AsyncGenerator<ExportRow[]> {
  const days = eachDay(range.from, range.to);
  for await (const batch of people) {
    const ids = batch.map((p) => p.id);
    const [days1, booked] = await Promise.all([
      db
        .select()
        .from(availability)
        .where(and(inArray(availability.userId, ids), between(availability.date, range.from, range.to))),
      db
        .select()
        .from(bookings)
        .where(and(inArray(bookings.userId, ids), between(bookings.date, range.from, range.to)))
        .orderBy(asc(bookings.date), asc(bookings.startTime), asc(bookings.id)),
    ]);
    const dayOf = new Map(days1.map((a) => [`${a.userId}|${a.date}`, a]));
    const bookingsOf = new Map<string, string[]>();
    for (const b of booked) {
      const key = `${b.userId}|${b.date}`;
      bookingsOf.set(key, [...(bookingsOf.get(key) ?? []), bookingText(b)]);
    }
    const rows: ExportRow[] = [];
    for (const person of batch) {
      for (const date of days) {
        const key = `${person.id}|${date}`;
        const day = dayOf.get(key);
        const dayBookings = bookingsOf.get(key);
        if (!isWeekday(date) && !day && !dayBookings) continue;
        rows.push({
          date,
          name: person.name,
          email: person.email,
          area: person.area,
          status: day ? STATUS_LABEL[day.status as AvailabilityStatus] : NOT_SET,
          start: day?.startTime ?? '',
          end: day?.endTime ?? '',
          notes: day?.notes ?? '',
          bookings: dayBookings?.join('; ') ?? '',
        });
      }
    }
    yield rows;
  }
}

export function staffRows(db: Queryable, range: DateRange, filters: StaffFilters) {
  return rowsFor(db, facilitatorsFor(db, filters, peoplePerBatch(range)), range);
}

export async function ownRows(db: Queryable, range: DateRange, userId: number) {
  const [user] = await db
    .select({
      id: users.id,
      username: users.username,
      displayName: users.displayName,
      email: users.email,
      area: users.area,
    })
    .from(users)
    .where(eq(users.id, userId));
  const people = user
    ? [{ id: user.id, name: displayName(user), email: user.email ?? user.username, area: user.area ?? '' }]
    : [];
  return rowsFor(db, [people], range);
}

// ---------------------------------------------------------------------------------------------------
// Files

/** CSV as a stream: BOM, header, then the rows as they are read. */
export function csvStream(columns: Column[], batches: AsyncIterable<ExportRow[]>): Readable {
  async function* lines() {
    yield BOM + csvLine(columns.map((c) => c.header));
    for await (const rows of batches) {
      yield rows
        .map((row) => csvLine(columns.map((c) => (c.time ? formatTime12(row[c.key]) : row[c.key]))))
        .join('');
    }
  }
  return Readable.from(lines());
}

/**
 * A text cell: neutralised, with line breaks as the LF Excel uses inside a cell (XML would turn a CR
 * into LF on reading anyway).
 */
const excelText = (value: string) => neutralise(value).replace(/\r\n?/g, '\n');

/** A `yyyy-MM-dd` day as the UTC midnight exceljs writes as that calendar day. */
const excelDate = (date: string) => new Date(`${date}T00:00:00Z`);

/** An `HH:mm` time as the fraction of a day a spreadsheet's time cell holds; any other text as it is. */
function excelTime(value: string): number | string {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value);
  if (!match) return excelText(value);
  return (Number(match[1]) * 60 + Number(match[2])) / (24 * 60);
}

/**
 * An .xlsx workbook written as it streams (exceljs' streaming writer: each row is committed and let
 * go). Text cells are neutralised like the CSV's, so saving the sheet as CSV later is safe too.
 */
export function xlsxStream(
  columns: Column[],
  batches: AsyncIterable<ExportRow[]>,
  sheetName: string,
  onError: (error: unknown) => void,
): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'Arts Facilitator Portal';
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c) => ({
    header: c.header,
    key: c.key,
    width: c.width,
    ...(c.key === 'date' ? { style: { numFmt: 'yyyy-mm-dd' } } : {}),
    ...(c.time ? { style: { numFmt: 'h:mm AM/PM' } } : {}),
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: columns.length } };
  (async () => {
    sheet.getRow(1).commit();
    for await (const rows of batches) {
      for (const row of rows) {
        const values: Record<string, unknown> = {};
        for (const c of columns)
          values[c.key] =
            c.key === 'date' ? excelDate(row.date) : c.time ? excelTime(row[c.key]) : excelText(row[c.key]);
        sheet.addRow(values).commit();
      }
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => {
    onError(error);
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return out;
}

export function exportFilename(prefix: string, range: DateRange, extension: 'csv' | 'xlsx'): string {
  return `${prefix}_${range.from}_to_${range.to}.${extension}`;
}
