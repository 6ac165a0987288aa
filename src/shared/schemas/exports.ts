import { z } from 'zod';
import { daysBetween, isDateString } from '../calendar';
import { MAX_EXPORT_DAYS } from '../exports';
import { dateString, urlId } from './common';

export { EXPORT_NO_AREA, MAX_EXPORT_DAYS } from '../exports';

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const rangeInOrder = (value: { from: string; to: string }) => value.from <= value.to;
const rangeOrderMessage = { message: '"to" must be on or after "from"', path: ['to'] };

/** Comma-separated user ids, as the grid's deselected facilitators are sent. */
const idList = z
  .string()
  .max(12_000, 'Too many ids')
  .regex(/^(\d{1,10}(,\d{1,10})*)?$/, 'Ids must be whole numbers separated by commas')
  .transform((text) => (text === '' ? [] : text.split(',').map(Number)))
  .pipe(z.array(z.number().int().positive().max(2_147_483_647)).max(5_000, 'Too many ids'));

/** One area name or several (`area=North&area=South`); each at most 100 characters like users' areas. */
const areaList = z
  .union([z.string(), z.array(z.string())], { error: 'Areas must be text' })
  .transform((value) => (Array.isArray(value) ? value : [value]))
  .pipe(z.array(z.string().max(100, 'An area is at most 100 characters')).max(500, 'Too many areas'));

/**
 * The staff grid's export: its range and filters. No `area` means every area; `area` given means only
 * those (EXPORT_NO_AREA for facilitators without one); `exclude` leaves named facilitators out.
 */
export const staffExportQuery = z
  .object({
    format: z.enum(EXPORT_FORMATS, { error: 'Format must be csv or xlsx' }).default('csv'),
    from: dateString,
    to: dateString,
    area: areaList.optional(),
    exclude: idList.optional(),
  })
  .refine(rangeInOrder, rangeOrderMessage);
export type StaffExportQuery = z.input<typeof staffExportQuery>;

/** A facilitator's own availability as CSV; `userId`, if given, must be the caller's own. */
export const ownExportQuery = z
  .object({
    from: dateString,
    to: dateString,
    userId: urlId.optional(),
  })
  .refine(rangeInOrder, rangeOrderMessage);
export type OwnExportQuery = z.input<typeof ownExportQuery>;

/**
 * The facilitator's download dialog: both dates, in order, at most MAX_EXPORT_DAYS days. One message
 * for the range, on `to`, which the dialog shows under both dates.
 */
export const ownExportForm = z
  .object({ from: z.string(), to: z.string() })
  .superRefine(({ from, to }, ctx) => {
    const problem = (message: string) => ctx.addIssue({ code: 'custom', path: ['to'], message });
    if (!isDateString(from) || !isDateString(to)) problem('Choose a start and an end date.');
    else if (to < from) problem('The end date must be on or after the start date.');
    else if (daysBetween(from, to) > MAX_EXPORT_DAYS) problem(`Choose at most ${MAX_EXPORT_DAYS} days.`);
  });
export type OwnExportForm = z.infer<typeof ownExportForm>;
