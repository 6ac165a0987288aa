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
import { apiJson, throwIfResNotOk } from '@/lib/api';
import { browserToday } from '@/lib/browser-today';
import { queryKeys } from '@/lib/query-keys';

export const availabilityKey = (userId: number, range: DateRange) =>
  queryKeys.myAvailability.range(userId, range.from, range.to);
export const bookingsKey = (userId: number, range: DateRange) =>
  ['/api/bookings', userId, range.from, range.to] as const;

const rangeQuery = (range: DateRange) =>
  `from=${encodeURIComponent(range.from)}&to=${encodeURIComponent(range.to)}`;
const availabilityUrl = (range: DateRange) => `/api/availability?${rangeQuery(range)}`;
const bookingsUrl = (range: DateRange) => `/api/bookings?${rangeQuery(range)}`;

/** Reads started at page load, each taken over by the first query for the same address. */
const early = new Map<string, { at: number; response: Promise<Response | null> }>();
/** Older than this, an early read is not used: it may predate a sign-in. */
const EARLY_READ_MAX_AGE_MS = 10_000;

/** The calendar's reads as query options: the hooks below use them, and the app prefetches with them at load. */
const availabilityQuery = (userId: number, range: DateRange) =>
  queryOptions<Availability[], Error>({
    queryKey: availabilityKey(userId, range),
    queryFn: ({ signal }) => fetchJson<Availability[]>(availabilityUrl(range), signal),
  });

const bookingsQuery = (userId: number, range: DateRange) =>
  queryOptions<Booking[], Error>({
    queryKey: bookingsKey(userId, range),
    queryFn: ({ signal }) => fetchJson<Booking[]>(bookingsUrl(range), signal),
  });

/**
 * Starts reading the month the calendar opens on as the page loads, alongside /api/user and the
 * calendar's code rather than after both (no request waterfalls). Both endpoints read the
 * session's own user, so the user's id is not needed to start them. Once `session` says whose
 * month it is, the answers go into the cache under that user's keys: the calendar's first render
 * then has its month, and draws it in the signed-in guard's interruptible pass instead of in the
 * uninterrupted render that follows an answer arriving after it
 * (docs/decisions/0053-pages-drawn-in-slices.md).
 */
export function prefetchFirstMonth(queryClient: QueryClient, session: Promise<{ id: number } | null>): void {
  const range = monthGridRange(startOfMonth(browserToday()));
  for (const url of [availabilityUrl(range), bookingsUrl(range)]) {
    const response = fetch(url, { credentials: 'include' }).catch(() => null);
    early.set(url, { at: Date.now(), response });
  }
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

async function fetchJson<T>(url: string, signal: AbortSignal): Promise<T> {
  const started = early.get(url);
  early.delete(url);
  if (started && Date.now() - started.at < EARLY_READ_MAX_AGE_MS) {
    // a failed early read (signed out, server error) is simply made again, as it would have been
    const earlyRes = await started.response;
    if (earlyRes?.ok) return (await earlyRes.json()) as T;
  }
  const res = await fetch(url, { credentials: 'include', signal });
  await throwIfResNotOk(res);
  return (await res.json()) as T;
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
