import { addDays, daysBetween, todayIn } from '../../shared/calendar';
import { type DateRangeQuery, MAX_RANGE_DAYS } from '../../shared/schemas/common';
import { badRequest } from '../errors';

// When a caller gives no range: about two months back and six ahead, enough for any screen.
const DEFAULT_BACK_DAYS = 62;
const DEFAULT_AHEAD_DAYS = 183;

export interface DateRange {
  from: string;
  to: string;
}

/**
 * The inclusive range a list endpoint answers for. A missing end is filled with a bounded default;
 * a reversed or over-long range is the caller's mistake (400), never silently trimmed.
 */
export function resolveRange(query: DateRangeQuery, timeZone: string, now: Date): DateRange {
  const today = todayIn(timeZone, now);
  const from =
    query.from ?? (query.to ? addDays(query.to, -DEFAULT_BACK_DAYS) : addDays(today, -DEFAULT_BACK_DAYS));
  const to =
    query.to ?? addDays(from, query.from ? DEFAULT_AHEAD_DAYS : DEFAULT_BACK_DAYS + DEFAULT_AHEAD_DAYS);
  if (from > to)
    throw badRequest('"from" must be on or before "to"', { to: ['"to" must be on or after "from"'] });
  if (daysBetween(from, to) > MAX_RANGE_DAYS) {
    throw badRequest(`A range can cover at most ${MAX_RANGE_DAYS} days`, {
      to: [`At most ${MAX_RANGE_DAYS} days`],
    });
  }
  return { from, to };
}
