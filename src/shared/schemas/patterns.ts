import { z } from 'zod';
import { type DateString, dayOfWeek, daysBetween, eachDay, isDateString } from '../calendar';
import {
  bulkAvailabilityBody,
  bulkAvailabilityResult,
  bulkSelectionForm,
  MAX_BULK_DAYS,
} from './availability';

/** How often a pattern repeats, in weeks: every week, every 2 weeks (fortnightly) or every 4 weeks. */
export const PATTERN_FREQUENCIES = [1, 2, 4] as const;
export type PatternFrequency = (typeof PATTERN_FREQUENCIES)[number];

/**
 * A recurring pattern: the bulk update's fields (same rules for dates, weekdays, status, times and
 * notes) plus how often it repeats. `userId` is optional: the session's user is meant.
 */
const everyWeeksField = z.literal(PATTERN_FREQUENCIES, { error: 'Repeat every 1, 2 or 4 weeks' });
// The cap of a bulk update, checked here so the form can show it under the end date.
const withinCap = (value: { startDate: string; endDate: string }) =>
  !isDateString(value.startDate) ||
  !isDateString(value.endDate) ||
  daysBetween(value.startDate, value.endDate) <= MAX_BULK_DAYS;
const capMessage = { message: `A pattern can cover at most ${MAX_BULK_DAYS} days`, path: ['endDate'] };

export const patternBody = bulkAvailabilityBody
  .safeExtend({ everyWeeks: everyWeeksField })
  .refine(withinCap, capMessage);
export type PatternBody = z.input<typeof patternBody>;

/** The pattern dialog's form: the body's rules, every field present, without the person. */
export const patternForm = bulkSelectionForm
  .safeExtend({ everyWeeks: everyWeeksField })
  .refine(withinCap, capMessage);
export type PatternForm = z.infer<typeof patternForm>;

/**
 * What applying a pattern would do, read before saving. `dates` are the days it will set (booked days
 * are not among them); `overwrittenDates` are those of them that already have availability, which
 * the pattern replaces; `skippedBookedDates` are the pattern's days left alone because of bookings.
 */
export const patternPreview = z.object({
  dates: z.array(z.string()),
  skippedBookedDates: z.array(z.string()),
  overwrittenDates: z.array(z.string()),
});
export type PatternPreview = z.infer<typeof patternPreview>;

/** Applying a pattern answers like a bulk update. */
export const patternResult = bulkAvailabilityResult;
export type PatternResult = z.infer<typeof patternResult>;

/**
 * The days a pattern sets, in order: every chosen weekday (0 Sunday … 6 Saturday) from `startDate`
 * to `endDate`, both included, in weeks 0, n, 2n … of the pattern. Week 0 (the anchor) is the week of
 * the start date; weeks run Monday to Sunday, as the calendar's rows do, so a Sunday belongs to the
 * week of the Monday before it. Days of the anchor week before the start date are outside the range,
 * so they are not set. Weeks are counted in whole days from the start date, never from clock times,
 * so a clock change cannot shift them.
 */
export function selectPatternDays(
  startDate: DateString,
  endDate: DateString,
  daysOfWeek: readonly number[],
  everyWeeks: number,
): DateString[] {
  const wanted = new Set(daysOfWeek);
  const lead = (dayOfWeek(startDate) + 6) % 7;
  return eachDay(startDate, endDate).filter(
    (date, index) => Math.floor((lead + index) / 7) % everyWeeks === 0 && wanted.has(dayOfWeek(date)),
  );
}
