import type { DateRange } from '@shared/calendar';
import type { Availability, StaffSaveAvailabilityBody } from '@shared/schemas/availability';
import type { Booking, RefreshResult } from '@shared/schemas/bookings';
import type { SchedulerStatus } from '@shared/schemas/scheduler';
import type { PublicUser } from '@shared/schemas/users';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

export const STAFF_AVAILABILITIES_KEY = '/api/staff/availabilities';
export const STAFF_BOOKINGS_KEY = '/api/staff/bookings';
/** Spec section 4: the scheduler status is polled every 30 seconds. */
export const SCHEDULER_POLL_MS = 30_000;

const rangeQuery = (range: DateRange) =>
  `from=${encodeURIComponent(range.from)}&to=${encodeURIComponent(range.to)}`;

/** The grid's reads as query options: the hooks below use them, and the app prefetches with them at load. */
export const staffUsersQuery = () =>
  queryOptions<PublicUser[]>({
    queryKey: queryKeys.staffUsers.all,
    queryFn: () => apiJson<PublicUser[]>('GET', '/api/staff/users'),
  });

export const staffAvailabilitiesQuery = (range: DateRange) =>
  queryOptions<Availability[]>({
    queryKey: [STAFF_AVAILABILITIES_KEY, range.from, range.to],
    queryFn: () => apiJson<Availability[]>('GET', `${STAFF_AVAILABILITIES_KEY}?${rangeQuery(range)}`),
  });

export const staffBookingsQuery = (range: DateRange) =>
  queryOptions<Booking[]>({
    queryKey: [STAFF_BOOKINGS_KEY, range.from, range.to],
    queryFn: () => apiJson<Booking[]>('GET', `${STAFF_BOOKINGS_KEY}?${rangeQuery(range)}`),
  });

export const schedulerStatusQuery = () =>
  queryOptions<SchedulerStatus>({ queryKey: queryKeys.schedulerStatus.all });

export function useStaffUsers() {
  return useQuery(staffUsersQuery());
}

/** Every facilitator's availability for exactly the range the grid shows. */
export function useStaffAvailabilities(range: DateRange) {
  return useQuery({ ...staffAvailabilitiesQuery(range), placeholderData: keepPreviousData });
}

export function useStaffBookings(range: DateRange) {
  return useQuery({ ...staffBookingsQuery(range), placeholderData: keepPreviousData });
}

export function useSchedulerStatus() {
  return useQuery({ ...schedulerStatusQuery(), refetchInterval: SCHEDULER_POLL_MS });
}

/** Pulls bookings from SharePoint now; on success every loaded bookings range is fetched again. */
export function useRefreshBookings() {
  const queryClient = useQueryClient();
  return useMutation<RefreshResult, Error, void>({
    mutationFn: () => apiJson<RefreshResult>('POST', '/api/staff/bookings/refresh'),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: [STAFF_BOOKINGS_KEY] });
    },
    // a refresh sets or clears the SharePoint problem the status line shows
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.schedulerStatus.all }),
  });
}

/** Staff edit of any facilitator's day; refreshes the grid's availability and the users' "last updated". */
export function useSaveStaffAvailability() {
  const queryClient = useQueryClient();
  return useMutation<Availability, Error, StaffSaveAvailabilityBody>({
    mutationFn: (body) => apiJson<Availability>('POST', '/api/staff/availability', body),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: [STAFF_AVAILABILITIES_KEY] }),
        queryClient.invalidateQueries({ queryKey: queryKeys.staffUsers.all }),
      ]);
    },
  });
}
