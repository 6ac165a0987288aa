import type { DateRange } from '@shared/calendar';
import type {
  Availability,
  BulkAvailabilityBody,
  BulkAvailabilityResult,
  SaveAvailabilityBody,
} from '@shared/schemas/availability';
import type { Booking } from '@shared/schemas/bookings';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson, throwIfResNotOk } from '@/lib/api';

/** Keys start with the endpoint so one prefix invalidates every range of it. */
export const availabilityKey = (userId: number, range: DateRange) =>
  ['/api/availability', userId, range.from, range.to] as const;
export const bookingsKey = (userId: number, range: DateRange) =>
  ['/api/bookings', userId, range.from, range.to] as const;

const rangeQuery = (range: DateRange) =>
  `from=${encodeURIComponent(range.from)}&to=${encodeURIComponent(range.to)}`;

/** The signed-in user's availability for exactly the days on screen. */
export function useAvailability(userId: number, range: DateRange) {
  return useQuery<Availability[], Error>({
    queryKey: availabilityKey(userId, range),
    queryFn: ({ signal }) => fetchJson<Availability[]>(`/api/availability?${rangeQuery(range)}`, signal),
    placeholderData: keepPreviousData,
  });
}

/** The signed-in user's bookings for exactly the days on screen. */
export function useBookings(userId: number, range: DateRange) {
  return useQuery<Booking[], Error>({
    queryKey: bookingsKey(userId, range),
    queryFn: ({ signal }) => fetchJson<Booking[]>(`/api/bookings?${rangeQuery(range)}`, signal),
    placeholderData: keepPreviousData,
  });
}

async function fetchJson<T>(url: string, signal: AbortSignal): Promise<T> {
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
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['/api/availability'] }),
  });
}

export function useBulkUpdate() {
  const queryClient = useQueryClient();
  return useMutation<BulkAvailabilityResult, Error, BulkInput>({
    mutationFn: (body) => apiJson<BulkAvailabilityResult>('POST', '/api/availability/bulk', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['/api/availability'] }),
  });
}

export function useSyncAll() {
  return useMutation<{ queued: number }, Error, { userId: number }>({
    mutationFn: (body) => apiJson<{ queued: number }>('POST', '/api/sharepoint/sync-all', body),
  });
}
