import type { DateRange } from '@shared/calendar';
import type { Availability, StaffSaveAvailabilityBody } from '@shared/schemas/availability';
import type { Booking, RefreshResult } from '@shared/schemas/bookings';
import type { SchedulerStatus } from '@shared/schemas/scheduler';
import type { PublicUser } from '@shared/schemas/users';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

const STAFF_AVAILABILITIES_URL = '/api/staff/availabilities';
const STAFF_BOOKINGS_URL = '/api/staff/bookings';
const SCHEDULER_STATUS_URL = '/api/admin/scheduler/status';

/** The grid's cache keys; each `all` is the prefix that refreshes every entry of its kind. */
export const staffGridKeys = {
  availabilities: {
    all: ['staff-availabilities'] as const,
    range: (range: DateRange) => ['staff-availabilities', range.from, range.to] as const,
  },
  bookings: {
    all: ['staff-bookings'] as const,
    range: (range: DateRange) => ['staff-bookings', range.from, range.to] as const,
  },
} as const;
/** Spec section 4: the scheduler status is polled every 30 seconds. */
export const SCHEDULER_POLL_MS = 30_000;
/**
 * While a refresh this page asked for runs, the status (which carries the refresh's stage) is read
 * this often, so the progress bar moves when the server's work does.
 */
export const REFRESH_STAGE_POLL_MS = 500;

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
    queryKey: staffGridKeys.availabilities.range(range),
    queryFn: () => apiJson<Availability[]>('GET', `${STAFF_AVAILABILITIES_URL}?${rangeQuery(range)}`),
  });

export const staffBookingsQuery = (range: DateRange) =>
  queryOptions<Booking[]>({
    queryKey: staffGridKeys.bookings.range(range),
    queryFn: () => apiJson<Booking[]>('GET', `${STAFF_BOOKINGS_URL}?${rangeQuery(range)}`),
  });

export const schedulerStatusQuery = () =>
  queryOptions<SchedulerStatus>({
    // shared with the settings page, which shows the same SharePoint problems
    queryKey: queryKeys.schedulerStatus.all,
    queryFn: () => apiJson<SchedulerStatus>('GET', SCHEDULER_STATUS_URL),
  });

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

/** The same status, read every REFRESH_STAGE_POLL_MS while `running` (and not at all otherwise). */
export function useRefreshStatus(running: boolean) {
  return useQuery({ ...schedulerStatusQuery(), refetchInterval: running ? REFRESH_STAGE_POLL_MS : false });
}

/** Pulls bookings from SharePoint now; on success every loaded bookings range is fetched again. */
export function useRefreshBookings() {
  const queryClient = useQueryClient();
  return useMutation<RefreshResult, Error, void>({
    mutationFn: () => apiJson<RefreshResult>('POST', '/api/staff/bookings/refresh'),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: staffGridKeys.bookings.all });
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
        queryClient.invalidateQueries({ queryKey: staffGridKeys.availabilities.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.staffUsers.all }),
      ]);
    },
  });
}
