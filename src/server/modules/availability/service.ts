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
import { type JsonArrayText, selectJsonArray } from '../../db/json-list';
import { availability, bookings, users } from '../../db/schema';
import { AppError, badRequest, notFound } from '../../errors';
import { enqueueAvailabilitySync } from '../../sharepoint/outbox';
import type { DateRange } from '../range';

type AvailabilityRow = typeof availability.$inferSelect;

/** The answer's keys (the shared `availability` schema) and the columns they come from. */
const availabilityColumns = {
  id: availability.id,
  userId: availability.userId,
  date: availability.date,
  status: availability.status,
  startTime: availability.startTime,
  endTime: availability.endTime,
  notes: availability.notes,
  syncedToSharePoint: availability.syncedToSharePoint,
};

export function toAvailability(row: Pick<AvailabilityRow, keyof typeof availabilityColumns>): Availability {
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
 * date then user: the JSON array of `Availability` the list routes answer with.
 */
export function listAvailabilityJson(
  db: Queryable,
  range: DateRange,
  userId?: number,
): Promise<JsonArrayText> {
  const a = availability;
  const inRange = between(a.date, range.from, range.to);
  return selectJsonArray(
    db,
    availabilityColumns,
    sql`from ${a} where ${userId === undefined ? inRange : and(eq(a.userId, userId), inRange)}`,
    ['date', 'userId'],
    // the table's check constraints admit only the three statuses and HH:MM (or empty) times
    { plainText: ['status', 'startTime', 'endTime'] },
  );
}

/**
 * Save one day (insert or replace). The booking check, the write, the user's "last updated" time and
 * the SharePoint outbox row commit together.
 */
export async function saveDay(db: Db, input: DayInput, actor: Actor): Promise<Availability> {
  return db.transaction(async (tx) => {
    await assertUserExists(tx, input.userId);
    if (!actor.mayOverrideBookings && (await bookedDates(tx, input.userId, [input.date])).length > 0) {
      throw new AppError(409, BOOKED_DAY_MESSAGE);
    }
    const [row] = await upsertDays(tx, [input], actor.id);
    await touchUser(tx, input.userId);
    await enqueueAvailabilitySync(tx, [{ userId: input.userId, date: input.date }]);
    return toAvailability(row!);
  });
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
export async function bulkUpdate(db: Db, input: BulkInput, actor: Actor): Promise<BulkAvailabilityResult> {
  if (daysBetween(input.startDate, input.endDate) > MAX_BULK_DAYS) {
    throw badRequest(`A bulk update can cover at most ${MAX_BULK_DAYS} days`, {
      endDate: [`At most ${MAX_BULK_DAYS} days`],
    });
  }
  const days = selectBulkDays(input.startDate, input.endDate, input.daysOfWeek);
  return db.transaction(async (tx) => {
    await assertUserExists(tx, input.userId);
    const skippedBookedDates = await bookedDates(tx, input.userId, days);
    const skipped = new Set(skippedBookedDates);
    const toWrite = days.filter((date) => !skipped.has(date));
    if (toWrite.length > 0) {
      await upsertDays(
        tx,
        toWrite.map((date) => ({ ...input, date })),
        actor.id,
      );
      await touchUser(tx, input.userId);
      await enqueueAvailabilitySync(
        tx,
        toWrite.map((date) => ({ userId: input.userId, date })),
      );
    }
    return { updated: toWrite.length, skippedBookedDates };
  });
}

/** Queue every saved day of a user for delivery again (`sync-all`). */
export async function requeueAllDays(db: Db, userId: number): Promise<number> {
  return db.transaction(async (tx) => {
    await assertUserExists(tx, userId);
    const rows = await tx
      .select({ date: availability.date })
      .from(availability)
      .where(eq(availability.userId, userId));
    await enqueueAvailabilitySync(
      tx,
      rows.map((r) => ({ userId, date: r.date })),
    );
    return rows.length;
  });
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
