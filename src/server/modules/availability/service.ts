import type { ChangeSource } from '@shared/schemas/history';
import { and, asc, between, eq, inArray, sql } from 'drizzle-orm';
import { daysBetween, selectBulkDays } from '../../../shared/calendar';
import {
  type Availability,
  type AvailabilityStatus,
  BOOKED_DAY_MESSAGE,
  type BulkAvailabilityResult,
  MAX_BULK_DAYS,
} from '../../../shared/schemas/availability';
import type { Db, Queryable } from '../../db/client';
import { availability, bookings, users } from '../../db/schema';
import { AppError, badRequest, notFound } from '../../errors';
import type { SharePointConnector } from '../../sharepoint/connector';
import { enqueueAvailabilitySync } from '../../sharepoint/outbox';
import { type ChangeEntry, recordChanges } from '../history/record';
import type { DateRange } from '../range';

type AvailabilityRow = typeof availability.$inferSelect;

/**
 * What writing days needs: the database, and the app's SharePoint connector, whose drain loop is
 * woken once the queued days have committed (sharepoint/outbox.ts).
 */
export interface DayWriter {
  db: Db;
  sharePoint: SharePointConnector;
}

/** The answer's keys (the shared `availability` schema) and the columns they come from. */
export const availabilityColumns = {
  id: availability.id,
  userId: availability.userId,
  date: availability.date,
  status: availability.status,
  startTime: availability.startTime,
  endTime: availability.endTime,
  notes: availability.notes,
  syncedToSharePoint: availability.syncedToSharePoint,
};

/** An availability row as availabilityColumns reads it. */
export type AvailabilityRecord = Pick<AvailabilityRow, keyof typeof availabilityColumns>;

export function toAvailability(row: AvailabilityRecord): Availability {
  return {
    id: row.id,
    userId: row.userId,
    date: row.date,
    status: row.status as AvailabilityStatus,
    startTime: row.startTime,
    endTime: row.endTime,
    notes: row.notes,
    syncedToSharePoint: row.syncedToSharePoint,
  };
}

export interface DayInput {
  userId: number;
  date: string;
  status: AvailabilityStatus;
  startTime: string;
  endTime: string;
  notes: string;
}

export interface Actor {
  id: number;
  /** staff may change days that have bookings; facilitators may not */
  mayOverrideBookings: boolean;
  /** how the change is made, for the history */
  via: ChangeSource;
}

/**
 * Availability of one user, or of everyone when userId is omitted, in an inclusive range, ordered by
 * user then date.
 */
export async function listAvailability(
  db: Queryable,
  range: DateRange,
  userId?: number,
): Promise<Availability[]> {
  const a = availability;
  const inRange = between(a.date, range.from, range.to);
  const rows = await db
    .select(availabilityColumns)
    .from(a)
    .where(userId === undefined ? inRange : and(eq(a.userId, userId), inRange))
    .orderBy(asc(a.userId), asc(a.date));
  return rows.map(toAvailability);
}

/**
 * Save one day (insert or replace). The booking check, the write, the user's "last updated" time and
 * the SharePoint outbox row commit together.
 */
export async function saveDay(
  { db, sharePoint }: DayWriter,
  input: DayInput,
  actor: Actor,
): Promise<Availability> {
  const saved = await db.transaction(async (tx) => {
    await assertUserExists(tx, input.userId);
    if (!actor.mayOverrideBookings && (await bookedDates(tx, input.userId, [input.date])).length > 0) {
      throw new AppError(409, BOOKED_DAY_MESSAGE);
    }
    const [row] = await writeDays(tx, input.userId, [input], actor);
    return toAvailability(row!);
  });
  sharePoint.outboxWakeUp.queued();
  return saved;
}

export interface BulkInput {
  userId: number;
  startDate: string;
  endDate: string;
  daysOfWeek: number[];
  status: AvailabilityStatus;
  startTime: string;
  endTime: string;
  notes: string;
}

/** Apply one status to every chosen weekday in a range, skipping days with bookings; all or nothing. */
export async function bulkUpdate(
  writer: DayWriter,
  input: BulkInput,
  actor: Actor,
): Promise<BulkAvailabilityResult> {
  if (daysBetween(input.startDate, input.endDate) > MAX_BULK_DAYS) {
    throw badRequest(`A bulk update can cover at most ${MAX_BULK_DAYS} days`, {
      endDate: [`At most ${MAX_BULK_DAYS} days`],
    });
  }
  const { startDate, endDate, daysOfWeek, ...values } = input;
  return setManyDays(writer, { ...values, dates: selectBulkDays(startDate, endDate, daysOfWeek) }, actor);
}

export interface ManyDaysInput {
  userId: number;
  /** the days to set; repeats are ignored */
  dates: string[];
  status: AvailabilityStatus;
  startTime: string;
  endTime: string;
  notes: string;
}

/**
 * One status, times and notes on a list of days of one user: what bulk update and recurring patterns
 * (modules/patterns) both come down to, so they check and write alike. Days with bookings are skipped
 * whoever asks (the bulk dialog's "automatically skipped" promise); the rest go through `writeDays` in the
 * same transaction, so the answer is all or nothing.
 */
export async function setManyDays(
  { db, sharePoint }: DayWriter,
  input: ManyDaysInput,
  actor: Actor,
): Promise<BulkAvailabilityResult> {
  const { userId, dates, ...values } = input;
  // one row per day: a day twice in one upsert statement is an error in PostgreSQL
  const days = [...new Set(dates)].sort();
  const result = await db.transaction(async (tx) => {
    await assertUserExists(tx, userId);
    const skippedBookedDates = await bookedDates(tx, userId, days);
    const skipped = new Set(skippedBookedDates);
    const toWrite = days.filter((date) => !skipped.has(date));
    await writeDays(
      tx,
      userId,
      toWrite.map((date) => ({ ...values, date })),
      actor,
    );
    return { updated: toWrite.length, skippedBookedDates };
  });
  if (result.updated > 0) sharePoint.outboxWakeUp.queued();
  return result;
}

/**
 * Queue a user's days that SharePoint does not hold yet (`sync-all`). Delivered days are left out:
 * every one queued costs a read and, unless skipped as unchanged, a write that makes a new item
 * version, so re-sending a facilitator's whole history (hundreds of days) bought nothing.
 */
export async function requeueAllDays({ db, sharePoint }: DayWriter, userId: number): Promise<number> {
  const queued = await db.transaction(async (tx) => {
    await assertUserExists(tx, userId);
    const rows = await tx
      .select({ date: availability.date })
      .from(availability)
      .where(and(eq(availability.userId, userId), eq(availability.syncedToSharePoint, false)));
    await enqueueAvailabilitySync(
      tx,
      rows.map((r) => ({ userId, date: r.date })),
    );
    return rows.length;
  });
  if (queued > 0) sharePoint.outboxWakeUp.queued();
  return queued;
}

/** Which of these dates have at least one booking for the user. */
export async function bookedDates(db: Queryable, userId: number, dates: string[]): Promise<string[]> {
  if (dates.length === 0) return [];
  const rows = await db
    .selectDistinct({ date: bookings.date })
    .from(bookings)
    .where(and(eq(bookings.userId, userId), inArray(bookings.date, dates)))
    .orderBy(asc(bookings.date));
  return rows.map((r) => r.date);
}

/**
 * The one way days of a user are written, inside the caller's transaction (checks done): the rows,
 * the history (before values read here, under row locks, so they are what this write replaced), the
 * user's "last updated" time and the SharePoint outbox rows. A day saved with the values it already
 * had is still written (it is queued for SharePoint again) but is not a change for the history.
 */
export async function writeDays(
  tx: Queryable,
  userId: number,
  days: Omit<DayInput, 'userId'>[],
  actor: Actor,
): Promise<AvailabilityRow[]> {
  if (days.length === 0) return [];
  const before = await currentDays(
    tx,
    userId,
    days.map((d) => d.date),
  );
  const written = await upsertDays(
    tx,
    days.map((d) => ({ ...d, userId })),
    actor.id,
  );
  const changes: ChangeEntry[] = [];
  for (const day of days) {
    const was = before.get(day.date) ?? null;
    const now = dayValues(day);
    if (was && sameDay(was, now)) continue;
    changes.push({
      entity: 'availability',
      action: was ? 'update' : 'create',
      subjectUserId: userId,
      date: day.date,
      actorId: actor.id,
      via: actor.via,
      before: was,
      after: now,
    });
  }
  await recordChanges(tx, changes);
  await touchUser(tx, userId);
  await enqueueAvailabilitySync(
    tx,
    days.map((d) => ({ userId, date: d.date })),
  );
  return written;
}

/** What the history keeps of a day. */
type DayValues = Pick<DayInput, 'status' | 'startTime' | 'endTime' | 'notes'>;

const dayValues = (d: DayValues): DayValues => ({
  status: d.status,
  startTime: d.startTime,
  endTime: d.endTime,
  notes: d.notes,
});

const sameDay = (a: DayValues, b: DayValues) =>
  a.status === b.status && a.startTime === b.startTime && a.endTime === b.endTime && a.notes === b.notes;

/** The saved days among these dates, locked until the transaction ends, in date order. */
async function currentDays(db: Queryable, userId: number, dates: string[]): Promise<Map<string, DayValues>> {
  const found = new Map<string, DayValues>();
  for (let i = 0; i < dates.length; i += 1000) {
    const rows = await db
      .select({
        date: availability.date,
        status: availability.status,
        startTime: availability.startTime,
        endTime: availability.endTime,
        notes: availability.notes,
      })
      .from(availability)
      .where(and(eq(availability.userId, userId), inArray(availability.date, dates.slice(i, i + 1000))))
      .orderBy(asc(availability.date))
      .for('update');
    for (const row of rows)
      found.set(row.date, dayValues({ ...row, status: row.status as AvailabilityStatus }));
  }
  return found;
}

async function upsertDays(db: Queryable, days: DayInput[], actorId: number): Promise<AvailabilityRow[]> {
  const now = new Date();
  const written: AvailabilityRow[] = [];
  // Chunks keep each statement under PostgreSQL's bind-parameter limit.
  for (let i = 0; i < days.length; i += 1000) {
    const rows = await db
      .insert(availability)
      .values(
        days.slice(i, i + 1000).map((d) => ({
          userId: d.userId,
          date: d.date,
          status: d.status,
          startTime: d.startTime,
          endTime: d.endTime,
          notes: d.notes,
          syncedToSharePoint: false,
          updatedAt: now,
          updatedBy: actorId,
        })),
      )
      .onConflictDoUpdate({
        target: [availability.userId, availability.date],
        set: {
          status: sql`excluded.status`,
          startTime: sql`excluded.start_time`,
          endTime: sql`excluded.end_time`,
          notes: sql`excluded.notes`,
          syncedToSharePoint: false,
          updatedAt: now,
          updatedBy: actorId,
        },
      })
      .returning();
    written.push(...rows);
  }
  return written;
}

async function touchUser(db: Queryable, userId: number) {
  await db.update(users).set({ lastAvailabilityUpdatedAt: new Date() }).where(eq(users.id, userId));
}

async function assertUserExists(db: Queryable, userId: number) {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!row) throw notFound('User not found');
}
