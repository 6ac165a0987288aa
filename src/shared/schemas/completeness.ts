import { z } from 'zod';
import { PAGE_SIZE, pageCursor, pageLimit, sortDirection } from './paging';

/** A calendar month, `yyyy-MM`. */
export const monthString = z
  .string()
  .trim()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Month must be in yyyy-MM format')
  .refine((value) => {
    const year = Number(value.slice(0, 4));
    return year >= 1900 && year <= 2200;
  }, 'Month must be between 1900 and 2200');

export const COMPLETENESS_STATUSES = ['complete', 'partial', 'missing'] as const;
export type CompletenessStatus = (typeof COMPLETENESS_STATUSES)[number];

/** What the list can be ordered by: name, area (none last), status (missing first), weekdays set. */
export const COMPLETENESS_SORTS = ['name', 'area', 'status', 'count'] as const;
export type CompletenessSort = (typeof COMPLETENESS_SORTS)[number];

/**
 * One page of a month's completeness: `sort` and `direction` order it, `cursor` is where the
 * previous page ended (absent: the first page), `limit` how many rows.
 */
export const completenessQuery = z.object({
  /** default: the current month in ORG_TIMEZONE */
  month: monthString.optional(),
  /** only facilitators in this area; blank or missing: everyone */
  area: z
    .string()
    .trim()
    .max(100, 'Area must be at most 100 characters')
    .optional()
    .transform((value) => value || undefined),
  /** the column the list is ordered by; ties by name, then id */
  sort: z.enum(COMPLETENESS_SORTS, { error: 'Sort must be name, area, status or count' }).default('name'),
  direction: sortDirection,
  cursor: pageCursor,
  limit: pageLimit.default(PAGE_SIZE),
});
export type CompletenessQuery = z.input<typeof completenessQuery>;

export const facilitatorCompleteness = z.object({
  userId: z.number().int(),
  name: z.string(),
  email: z.string().nullable(),
  area: z.string().nullable(),
  status: z.enum(COMPLETENESS_STATUSES),
  /** weekdays of the month with availability set (a booked day counts: it cannot be changed) */
  setDays: z.number().int(),
  weekdays: z.number().int(),
  /** the last reminder about this month, ISO date-time; null: never reminded */
  lastRemindedAt: z.string().nullable(),
  /** reminded about this month today (ORG_TIMEZONE): another reminder today would be skipped */
  remindedToday: z.boolean(),
});
export type FacilitatorCompleteness = z.infer<typeof facilitatorCompleteness>;

export const completenessResponse = z.object({
  month: z.string(),
  /** "December 2026" */
  label: z.string(),
  weekdays: z.number().int(),
  /** every facilitator area (before the area filter), sorted */
  areas: z.array(z.string()),
  /** of everyone in the area (or everyone), not only this page */
  counts: z.object({ complete: z.number().int(), partial: z.number().int(), missing: z.number().int() }),
  /** how many facilitators the list holds, every page together */
  matching: z.number().int(),
  /** the partial and missing in the list, every page together: whom "everyone" reminds */
  remindableIds: z.array(z.number().int()),
  /** this page's facilitators */
  facilitators: z.array(facilitatorCompleteness),
  /** where the next page starts; null on the last page */
  nextCursor: z.string().nullable(),
});
export type CompletenessResponse = z.infer<typeof completenessResponse>;
