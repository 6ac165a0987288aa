import { addDays, type DateRange, monthGridRange, nextMonth, startOfMonth } from '@shared/calendar';
import { dayLabel } from '@shared/safeguarding';
import type {
  Availability,
  BulkAvailabilityBody,
  BulkAvailabilityResult,
  SaveAvailabilityBody,
} from '@shared/schemas/availability';
import type { Booking } from '@shared/schemas/bookings';
import {
  keepPreviousData,
  type QueryClient,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { apiJson } from '@/lib/api';
import { browserToday } from '@/lib/browser-today';
import { type SendResult, sendOrQueue } from '@/lib/offline-queue';
import { queryKeys } from '@/lib/query-keys';

/** The calendar's cache keys: the availability is shared with patterns, which change it. */
export const calendarKeys = {
  availability: (userId: number, range: DateRange) =>
    queryKeys.myAvailability.range(userId, range.from, range.to),
  bookings: (userId: number, range: DateRange) => ['my-bookings', userId, range.from, range.to] as const,
} as const;

const rangeQuery = (range: DateRange) =>
  `from=${encodeURIComponent(range.from)}&to=${encodeURIComponent(range.to)}`;

/** The calendar's reads as query options: the hooks below use them, and the app prefetches with them at load. */
const availabilityQuery = (userId: number, range: DateRange) =>
  queryOptions({
    queryKey: calendarKeys.availability(userId, range),
    queryFn: ({ signal }) =>
      apiJson<Availability[]>('GET', `/api/availability?${rangeQuery(range)}`, undefined, { signal }),
  });

const bookingsQuery = (userId: number, range: DateRange) =>
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

/** The signed-in user's availability for exactly the days on screen. */
export function useAvailability(userId: number, range: DateRange) {
  return useQuery({ ...availabilityQuery(userId, range), placeholderData: keepPreviousData });
}

/** The signed-in user's bookings for exactly the days on screen. */
export function useBookings(userId: number, range: DateRange) {
  return useQuery({ ...bookingsQuery(userId, range), placeholderData: keepPreviousData });
}

export type SaveDayInput = SaveAvailabilityBody & { userId: number };
export type BulkInput = BulkAvailabilityBody & { userId: number };

/**
 * One day: on success the list is refetched before the caller's own onSuccess runs. With no
 * connection the save waits on the device (`queued`), and the calendar shows the day as saved until
 * the queue has sent it and the month is read again.
 */
export function useSaveDay() {
  const queryClient = useQueryClient();
  return useMutation<SendResult<Availability>, Error, SaveDayInput>({
    // run offline too (TanStack Query would pause it): with no connection it queues the save
    networkMode: 'always',
    mutationFn: (body) =>
      sendOrQueue<Availability>({
        key: `availability:${body.userId}:${body.date}`,
        userId: body.userId,
        method: 'POST',
        url: '/api/availability',
        body,
        label: `Your availability for ${dayLabel(body.date)}`,
      }),
    onSuccess: (result, body) => {
      if (!result.queued) return queryClient.invalidateQueries({ queryKey: queryKeys.myAvailability.all });
      showWaitingDay(queryClient, body);
    },
  });
}

/** A day saved on the device, drawn in each cached month that shows it until the server's answer replaces it. */
function showWaitingDay(queryClient: QueryClient, body: SaveDayInput): void {
  const waiting: Availability = {
    id: -1,
    userId: body.userId,
    date: body.date,
    status: body.status,
    startTime: body.startTime ?? '',
    endTime: body.endTime ?? '',
    notes: body.notes ?? '',
    syncedToSharePoint: false,
  };
  for (const [key, rows] of queryClient.getQueriesData<Availability[]>({
    queryKey: [...queryKeys.myAvailability.all, body.userId],
  })) {
    const [, , from, to] = key as ReturnType<typeof queryKeys.myAvailability.range>;
    if (!rows || body.date < from || body.date > to) continue;
    queryClient.setQueryData<Availability[]>(key, [...rows.filter((row) => row.date !== body.date), waiting]);
  }
}

export function useBulkUpdate() {
  const queryClient = useQueryClient();
  return useMutation<BulkAvailabilityResult, Error, BulkInput>({
    mutationFn: (body) => apiJson<BulkAvailabilityResult>('POST', '/api/availability/bulk', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.myAvailability.all }),
  });
}
