import { z } from 'zod';
import { AVAILABILITY_STATUSES } from './availability';
import { dateString } from './common';
import { priority } from './notes';
import { pageCursor, pageLimit } from './paging';
import { safeguardingState } from './safeguarding';

/** More areas than an organisation has would only make the query longer; areas are at most 100 characters. */
export const FREE_MAX_AREAS = 50;
export const FREE_AREA_MAX_LENGTH = 100;

/** `include=all` also lists the facilitators who were left out, each with the reasons why. */
export const FREE_INCLUDE = ['free', 'all'] as const;
export type FreeInclude = (typeof FREE_INCLUDE)[number];

// A query string has no "absent" for a form field left blank: `from=` means no time was chosen.
const blankIsAbsent = (value: unknown) => (value === '' ? undefined : value);

const windowTime = (name: string) =>
  z.preprocess(
    blankIsAbsent,
    z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, `"${name}" must be a time in HH:mm format, e.g. 09:30`)
      .optional(),
  );

/**
 * `areas=North,South` (or `areas` repeated): split at commas, trimmed, blanks dropped, duplicates
 * (ignoring case) dropped. Bounded before splitting too, so a huge value is refused without work.
 */
const areasParam = z
  .union([z.string(), z.array(z.string())], { error: 'Areas must be text, separated by commas' })
  .optional()
  .refine(
    (value) =>
      value === undefined || [value].flat().join(',').length <= FREE_MAX_AREAS * (FREE_AREA_MAX_LENGTH + 1),
    `Choose at most ${FREE_MAX_AREAS} areas`,
  )
  .transform((value) => {
    const seen = new Set<string>();
    const areas: string[] = [];
    for (const part of [value ?? []].flat().flatMap((item) => item.split(','))) {
      const area = part.trim();
      if (!area || seen.has(area.toLowerCase())) continue;
      seen.add(area.toLowerCase());
      areas.push(area);
    }
    return areas;
  })
  .pipe(
    z
      .array(
        z.string().max(FREE_AREA_MAX_LENGTH, `Each area must be at most ${FREE_AREA_MAX_LENGTH} characters`),
      )
      .max(FREE_MAX_AREAS, `Choose at most ${FREE_MAX_AREAS} areas`),
  );

/**
 * `GET /api/staff/free`: who can work on `date` (default: today in the organisation's time zone),
 * optionally between `from` and `to` and only in some areas. With `cursor` or `limit`, one page of
 * the ranked list (`limit` of them, default PAGE_SIZE) after the row the cursor names; without
 * either, the whole list.
 */
export const freeQuery = z
  .object({
    date: z.preprocess(blankIsAbsent, dateString.optional()),
    from: windowTime('from'),
    to: windowTime('to'),
    areas: areasParam,
    include: z.preprocess(
      blankIsAbsent,
      z.enum(FREE_INCLUDE, { error: 'Include must be free or all' }).default('free'),
    ),
    cursor: pageCursor,
    limit: pageLimit.optional(),
  })
  .refine((value) => (value.from === undefined) === (value.to === undefined), {
    message: 'Give both "from" and "to" for a time window, or neither',
    path: ['to'],
  })
  .refine((value) => !value.from || !value.to || value.from < value.to, {
    message: '"to" must be later than "from"',
    path: ['to'],
  });
export type FreeQuery = z.input<typeof freeQuery>;

/** How a facilitator's times for the day sit against the window asked for. */
export const FREE_FITS = ['covers', 'open', 'outside'] as const;
export type FreeFit = (typeof FREE_FITS)[number];

export const freeBooking = z.object({
  title: z.string(),
  schoolName: z.string().nullable(),
  program: z.string().nullable(),
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
});
export type FreeBooking = z.infer<typeof freeBooking>;

export const freeNote = z.object({
  id: z.number().int(),
  note: z.string(),
  priority,
});

export const freeFacilitator = z.object({
  userId: z.number().int(),
  /** display name, or else the username */
  name: z.string(),
  email: z.string().nullable(),
  area: z.string().nullable(),
  /** null: no availability set for the day */
  status: z.enum(AVAILABILITY_STATUSES).nullable(),
  startTime: z.string(),
  endTime: z.string(),
  /** the facilitator's own notes on their availability for the day */
  availabilityNotes: z.string(),
  /** null when there is no window, or no availability to compare with it */
  fit: z.enum(FREE_FITS).nullable(),
  bookingsCount: z.number().int(),
  bookings: z.array(freeBooking),
  /** staff priority notes about the facilitator for the day, most urgent first */
  notes: z.array(freeNote),
  /** the safeguarding checks on the day: expired or missing ones leave the person out */
  safeguarding: z.object({ state: safeguardingState, reasons: z.array(z.string()) }),
  /** true: can be asked; false: left out unless everyone is shown, for `reasons` */
  free: z.boolean(),
  reasons: z.array(z.string()),
});
export type FreeFacilitator = z.infer<typeof freeFacilitator>;

export const freeResult = z.object({
  date: z.string(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  /** the areas searched, as the facilitators spell them; empty: every area */
  areas: z.array(z.string()),
  include: z.enum(FREE_INCLUDE),
  /** every area any facilitator has, A-Z, for the area choice */
  availableAreas: z.array(z.string()),
  /** the ranked list, or one page of it */
  facilitators: z.array(freeFacilitator),
  /** how many in the chosen areas are free, every page together */
  freeCount: z.number().int(),
  /** how many in the chosen areas are not free (listed only with include=all) */
  leftOutCount: z.number().int(),
  /** where the next page starts; null on the last page, and when the whole list was asked for */
  nextCursor: z.string().nullable(),
});
export type FreeResult = z.infer<typeof freeResult>;
