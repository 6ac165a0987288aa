// Export values the pages need without the exports schema (see ./availability.ts for why).

/** An export covers at most this many days (one year, leap day included). */
export const MAX_EXPORT_DAYS = 366;

/** The `area` value that stands for "facilitators without an area" (the grid's "No area" option). */
export const EXPORT_NO_AREA = '__no_area__';
