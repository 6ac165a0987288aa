import { addDays, type DateRange, monthGridRange, nextMonth, startOfMonth } from '@shared/calendar';
import type { Availability } from '@shared/schemas/availability';
import type { Booking } from '@shared/schemas/bookings';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';
import { browserToday } from '@/lib/browser-today';
import { queryKeys } from '@/lib/query-keys';

// The calendar's reads, apart from its changes: the app prefetches with these at load, and the
// changes carry the offline queue, which the login pages must not.

/** The calendar's cache keys: the availability is shared with patterns, which change it. */
export const calendarKeys = {
  availability: (userId: number, range: DateRange) =>
    queryKeys.myAvailability.range(userId, range.from, range.to),
  bookings: (userId: number, range: DateRange) => ['my-bookings', userId, range.from, range.to] as const,
} as const;

const rangeQuery = (range: DateRange) =>
  `from=${encodeURIComponent(range.from)}&to=${encodeURIComponent(range.to)}`;

/** The calendar's reads as query options: the hooks below use them, and the app prefetches with them at load. */
export const availabilityQuery = (userId: number, range: DateRange) =>
  queryOptions({
    queryKey: calendarKeys.availability(userId, range),
    queryFn: ({ signal }) =>
      apiJson<Availability[]>('GET', `/api/availability?${rangeQuery(range)}`, undefined, { signal }),
  });

export const bookingsQuery = (userId: number, range: DateRange) =>
  queryOptions({
    queryKey: calendarKeys.bookings(userId, range),
    queryFn: ({ signal }) =>
      apiJson<Booking[]>('GET', `/api/bookings?${rangeQuery(range)}`, undefined, { signal }),
  });

/**
 * Reads the month the calendar opens on as soon as the session says whose it is. The page's HTML
 * has already asked for both addresses (a preload the server writes into it), so the browser answers
 * these reads from those: the month arrives alongside /api/user and the calendar's code rather than
 * after both. In the cache before the calendar's first render, the month is drawn in the
 * signed-in guard's interruptible pass instead of in the uninterrupted render that follows an
 * answer arriving after it (docs/decisions/0053-pages-drawn-in-slices.md).
 */
export function prefetchFirstMonth(queryClient: QueryClient, session: Promise<{ id: number } | null>): void {
  const today = browserToday();
  const range = monthGridRange(startOfMonth(today));
  // The next 14 days open offline once read here (the service worker keeps these reads): when they
  // run past the month's grid, the next month is read too.
  const ranges =
    addDays(today, OFFLINE_DAYS - 1) > range.to ? [range, monthGridRange(nextMonth(today))] : [range];
  void session.then((user) => {
    if (!user) return;
    for (const each of ranges) {
      void queryClient.prefetchQuery(availabilityQuery(user.id, each));
      void queryClient.prefetchQuery(bookingsQuery(user.id, each));
    }
  });
}

/** How many days from today a facilitator's calendar opens with no connection, after one visit. */
export const OFFLINE_DAYS = 14;
