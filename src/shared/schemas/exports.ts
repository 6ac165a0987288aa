import { z } from 'zod';
import { daysBetween, isDateString } from '../calendar';
import { MAX_EXPORT_DAYS } from '../exports';
import { areaList, dateString, idList, urlId } from './common';

export { EXPORT_NO_AREA, MAX_EXPORT_DAYS } from '../exports';

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const rangeInOrder = (value: { from: string; to: string }) => value.from <= value.to;
const rangeOrderMessage = { message: '"to" must be on or after "from"', path: ['to'] };

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
