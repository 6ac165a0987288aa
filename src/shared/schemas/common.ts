import { z } from 'zod';
import { withoutInvisibleCharacters } from '../username';

/** A calendar day, `yyyy-MM-dd`. Never a `Date`: a midnight `Date` shifts with the time zone. */
export const dateString = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Date must be in yyyy-MM-dd format')
  .refine((value) => isRealCalendarDay(value), 'Date is not a real calendar day');

/** A time of day `HH:mm`, or `""` for "no time". */
export const timeString = z
  .string()
  .regex(/^(|([01]\d|2[0-3]):[0-5]\d)$/, 'Time must be in HH:mm format or empty');

/**
 * A record id in a JSON body: a whole number, or its digits as text. `z.coerce.number()` alone also
 * took `true` (as 1), `[5]` (as 5) and `"0x10"` (as 16), so a wrong-typed id could name a real record
 * (found by the fuzz suite: `{"userId": true}` saved a day for account 1).
 */
export const bodyId = z
  .union(
    [
      z.number(),
      z
        .string()
        .trim()
        .regex(/^\d{1,10}$/),
    ],
    { error: 'Must be a whole number' },
  )
  .transform(Number)
  .pipe(z.number().int().positive().max(2_147_483_647));

/**
 * A positive whole number in a URL, path or query string: canonical decimal digits only, at most `max`.
 * `z.coerce.number()` read `0x10`, `1e1`, ` 16`, `016`, `+16` and `16.0` as numbers, so
 * `/api/staff/users/0x10` acted on account 16, and `?userId=0x10` on account 16 as well.
 */
export const urlNumber = (max: number, message = 'Must be a whole number written in digits') =>
  z
    .string({ error: message })
    .regex(/^[1-9][0-9]{0,15}$/, message)
    .transform(Number)
    .pipe(z.number().int().max(max, message));

/** A record id in a URL path or query string. */
export const urlId = urlNumber(2_147_483_647);

export const idParam = z.object({ id: urlId });

/**
 * Text that must not be blank: something a reader can see is left once invisible characters
 * (zero-width spaces, bidi controls, soft hyphens…) and spaces are taken away.
 */
export const nonBlankText = (message: string) =>
  z
    .string()
    .trim()
    .refine((value) => withoutInvisibleCharacters(value).trim().length > 0, message);

/** Inclusive range query used by every list endpoint. */
export const dateRangeQuery = z.object({
  from: dateString.optional(),
  to: dateString.optional(),
});
export type DateRangeQuery = z.infer<typeof dateRangeQuery>;

/** Comma-separated user ids ("12,5,40"), at most 5,000: the staff grid's chosen or left-out facilitators. */
export const idList = z
  .string()
  .max(60_000, 'Too many ids')
  .regex(/^(\d{1,10}(,\d{1,10})*)?$/, 'Ids must be whole numbers separated by commas')
  .transform((text) => (text === '' ? [] : [...new Set(text.split(',').map(Number))]))
  .pipe(z.array(z.number().int().positive().max(2_147_483_647)).max(5_000, 'Too many ids'));

/** One area name or several (`area=North&area=South`); each at most 100 characters like users' areas. */
export const areaList = z
  .union([z.string(), z.array(z.string())], { error: 'Areas must be text' })
  .transform((value) => (Array.isArray(value) ? value : [value]))
  .pipe(z.array(z.string().max(100, 'An area is at most 100 characters')).max(500, 'Too many areas'));

export { MAX_RANGE_DAYS } from '../calendar';

export { type ErrorResponse, errorResponse } from './error-response';

export const messageResponse = z.object({ message: z.string() });

function isRealCalendarDay(value: string): boolean {
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  if (y < 1900 || y > 2200) return false;
  const probe = new Date(Date.UTC(y, m - 1, d));
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === m - 1 && probe.getUTCDate() === d;
}
