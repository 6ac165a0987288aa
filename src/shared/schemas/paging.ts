import { z } from 'zod';

/** How many rows one page of a long list holds unless the caller asks for fewer. */
export const PAGE_SIZE = 50;
/** The most rows a caller may ask for in one page. */
export const MAX_PAGE_SIZE = 200;

/** Where the previous page ended, as the list gave it (absent: the first page). */
export const pageCursor = z.string().max(400, 'Cursor is too long').optional();

/** How many rows to answer, 1 to MAX_PAGE_SIZE. */
export const pageLimit = z.coerce
  .number({ error: 'Limit must be a number' })
  .int('Limit must be a whole number')
  .min(1, 'Limit must be at least 1')
  .max(MAX_PAGE_SIZE, `Limit must be at most ${MAX_PAGE_SIZE}`);

export const SORT_DIRECTIONS = ['ascending', 'descending'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];
export const sortDirection = z
  .enum(SORT_DIRECTIONS, { error: 'Direction must be ascending or descending' })
  .default('ascending');
