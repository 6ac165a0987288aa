import { and, asc, eq, inArray } from 'drizzle-orm';
import type { AvailabilityStatus } from '../../../shared/schemas/availability';
import { type PatternPreview, type PatternResult, selectPatternDays } from '../../../shared/schemas/patterns';
import type { Queryable } from '../../db/client';
import { availability } from '../../db/schema';
import { type Actor, bookedDates, type DayWriter, setManyDays } from '../availability/service';

export interface PatternInput {
  userId: number;
  startDate: string;
  endDate: string;
  daysOfWeek: number[];
  everyWeeks: number;
  status: AvailabilityStatus;
  startTime: string;
  endTime: string;
  notes: string;
}

/**
 * What `applyPattern` would do now, without doing it: the same days, and booked days judged by the
 * same `bookedDates` the writer skips them with.
 */
export async function previewPattern(db: Queryable, input: PatternInput): Promise<PatternPreview> {
  const days = selectPatternDays(input.startDate, input.endDate, input.daysOfWeek, input.everyWeeks);
  const skippedBookedDates = await bookedDates(db, input.userId, days);
  const skipped = new Set(skippedBookedDates);
  const dates = days.filter((date) => !skipped.has(date));
  return { dates, skippedBookedDates, overwrittenDates: await savedDates(db, input.userId, dates) };
}

/** Set the pattern's days through the bulk update's writer: booked days skipped, all or nothing. */
export function applyPattern(writer: DayWriter, input: PatternInput, actor: Actor): Promise<PatternResult> {
  const { startDate, endDate, daysOfWeek, everyWeeks, ...values } = input;
  return setManyDays(
    writer,
    { ...values, dates: selectPatternDays(startDate, endDate, daysOfWeek, everyWeeks) },
    actor,
  );
}

/** Which of these dates the user already has availability on, in order. */
async function savedDates(db: Queryable, userId: number, dates: string[]): Promise<string[]> {
  if (dates.length === 0) return [];
  const rows = await db
    .select({ date: availability.date })
    .from(availability)
    .where(and(eq(availability.userId, userId), inArray(availability.date, dates)))
    .orderBy(asc(availability.date));
  return rows.map((row) => row.date);
}
