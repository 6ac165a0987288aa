import { z } from 'zod';
import { EXPORT_NO_AREA } from '../exports';
import { PRIORITIES } from '../priorities';
import { SAFEGUARDING_STATES } from '../safeguarding';
import { availability } from './availability';
import { booking } from './bookings';
import { areaList, dateString, idList } from './common';
import { publicUser } from './users';

/** How many facilitators one page of the staff grid holds unless the caller asks for fewer. */
export const GRID_PAGE_SIZE = 50;
/** The most a caller may ask for in one page. */
export const MAX_GRID_PAGE_SIZE = 200;
/** The `area` value that stands for "facilitators without an area" (the grid's "No area" option). */
export const GRID_NO_AREA = EXPORT_NO_AREA;

/**
 * One page of the staff grid. `from`/`to` the days shown; `cursor` where the previous page ended
 * (absent: the first page); `area` only these areas (absent: every area; GRID_NO_AREA: those without
 * one); `only` only these facilitators, `exclude` all but these (the facilitator filter sends
 * whichever is shorter); `search` a part of a name or email.
 */
export const staffGridQuery = z
  .object({
    from: dateString,
    to: dateString,
    cursor: z.string().max(400, 'Cursor is too long').optional(),
    limit: z.coerce
      .number({ error: 'Limit must be a number' })
      .int('Limit must be a whole number')
      .min(1, 'Limit must be at least 1')
      .max(MAX_GRID_PAGE_SIZE, `Limit must be at most ${MAX_GRID_PAGE_SIZE}`)
      .default(GRID_PAGE_SIZE),
    area: areaList.optional(),
    only: idList.optional(),
    exclude: idList.optional(),
    search: z.string().max(200, 'Search is at most 200 characters').optional(),
  })
  .refine((query) => query.from <= query.to, { message: '"to" must be on or after "from"', path: ['to'] });
export type StaffGridQuery = z.input<typeof staffGridQuery>;

/** One facilitator's row: their account and, for the range, their days, sessions and note marks. */
export const staffGridRow = z.object({
  user: publicUser,
  availability: z.array(availability),
  bookings: z.array(booking),
  /** the highest priority of the staff notes on each day that has any */
  notes: z.array(z.object({ date: z.string(), priority: z.enum(PRIORITIES) })),
  /** the safeguarding state today, with its reasons */
  safeguarding: z.object({ state: z.enum(SAFEGUARDING_STATES), reasons: z.array(z.string()) }),
});
export type StaffGridRow = z.infer<typeof staffGridRow>;

export const staffGridPage = z.object({
  rows: z.array(staffGridRow),
  /** where the next page starts; null on the last page */
  nextCursor: z.string().nullable(),
  /** facilitators the filters show */
  matching: z.number().int(),
  /** every facilitator */
  total: z.number().int(),
  /** every facilitator's area, A-Z, GRID_NO_AREA last when someone has none: the area filter's options */
  areas: z.array(z.string()),
});
export type StaffGridPage = z.infer<typeof staffGridPage>;
