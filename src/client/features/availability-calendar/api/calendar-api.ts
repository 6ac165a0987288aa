import { type DateRange, monthGridRange, startOfMonth } from '@shared/calendar';
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
  const range = monthGridRange(startOfMonth(browserToday()));
  void session.then((user) => {
    if (!user) return;
    void queryClient.prefetchQuery(availabilityQuery(user.id, range));
    void queryClient.prefetchQuery(bookingsQuery(user.id, range));
  });
}

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

/** One day: on success the list is refetched before the caller's own onSuccess runs. */
export function useSaveDay() {
  const queryClient = useQueryClient();
  return useMutation<Availability, Error, SaveDayInput>({
    mutationFn: (body) => apiJson<Availability>('POST', '/api/availability', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.myAvailability.all }),
  });
}

export function useBulkUpdate() {
  const queryClient = useQueryClient();
  return useMutation<BulkAvailabilityResult, Error, BulkInput>({
    mutationFn: (body) => apiJson<BulkAvailabilityResult>('POST', '/api/availability/bulk', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.myAvailability.all }),
  });
}
