import type { DateRange } from '@shared/calendar';
import type { Availability, StaffSaveAvailabilityBody } from '@shared/schemas/availability';
import type { Booking, RefreshResult } from '@shared/schemas/bookings';
import type { SchedulerStatus } from '@shared/schemas/scheduler';
import type { PublicUser } from '@shared/schemas/users';
import {
  keepPreviousData,
  type QueryClient,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { apiJson } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';
import { firstFacilitatorIds } from '../lib/grid-model';

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
/** The scheduler status is polled every 30 seconds, as the dashboard's status line promises. */
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

/**
 * The same lists narrowed to some facilitators (the grid's first rows). Their keys extend the whole
 * range's, so whatever refreshes a range's list refreshes these too.
 */
export const staffAvailabilitiesOfQuery = (range: DateRange, userIds: readonly number[]) =>
  queryOptions<Availability[]>({
    queryKey: [...staffGridKeys.availabilities.range(range), userIds.join(',')],
    queryFn: () =>
      apiJson<Availability[]>(
        'GET',
        `${STAFF_AVAILABILITIES_URL}?${rangeQuery(range)}&userIds=${userIds.join(',')}`,
      ),
  });

export const staffBookingsOfQuery = (range: DateRange, userIds: readonly number[]) =>
  queryOptions<Booking[]>({
    queryKey: [...staffGridKeys.bookings.range(range), userIds.join(',')],
    queryFn: () =>
      apiJson<Booking[]>('GET', `${STAFF_BOOKINGS_URL}?${rangeQuery(range)}&userIds=${userIds.join(',')}`),
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

/** Every facilitator's availability for exactly the range asked for. */
export function useStaffAvailabilities(range: DateRange) {
  return useQuery({ ...staffAvailabilitiesQuery(range), placeholderData: keepPreviousData });
}

export function useStaffBookings(range: DateRange) {
  return useQuery({ ...staffBookingsQuery(range), placeholderData: keepPreviousData });
}

export interface StaffGridLists {
  availabilities: Availability[];
  bookings: Booking[];
  /** whose rows the lists hold while only the first rows are in; null once they are the whole range's */
  loadedUserIds: ReadonlySet<number> | null;
  /** nothing to draw yet */
  isPending: boolean;
  error: Error | null;
  /** what is drawn is an earlier range's, or only the first rows: more is on its way */
  isUpdating: boolean;
  bookingsFetching: boolean;
}

/**
 * The grid's availability and bookings for `range`. At 5,000 facilitators the whole month is
 * 13 MiB of JSON: reading it, and drawing after it, held the first row for a second while the
 * grid shows some twenty. So the rows of `firstIds` (the grid's opening rows, null until the users
 * are in) are asked for first and drawn; the whole range is read once they are on screen, and
 * replaces them (docs/decisions/0046-the-staff-grid-draws-its-first-rows-from-their-own-lists.md).
 * A range already in the cache (a return to the page) is drawn whole at once.
 */
export function useStaffGridLists(range: DateRange, firstIds: readonly number[] | null): StaffGridLists {
  const queryClient = useQueryClient();
  const wholeAvailabilities = staffAvailabilitiesQuery(range);
  const wholeBookings = staffBookingsQuery(range);
  const [wholeWanted, setWholeWanted] = useState(() => wholeRangeCached(queryClient, range));
  const firstWanted = !wholeWanted && firstIds !== null && firstIds.length > 0;
  const firstAvailabilities = useQuery({
    ...staffAvailabilitiesOfQuery(range, firstIds ?? []),
    placeholderData: keepPreviousData,
    enabled: firstWanted,
  });
  const firstBookings = useQuery({
    ...staffBookingsOfQuery(range, firstIds ?? []),
    placeholderData: keepPreviousData,
    enabled: firstWanted,
  });
  const availabilities = useQuery({
    ...wholeAvailabilities,
    placeholderData: keepPreviousData,
    enabled: wholeWanted,
  });
  const bookings = useQuery({ ...wholeBookings, placeholderData: keepPreviousData, enabled: wholeWanted });

  // Settled either way: first rows that failed to load leave the whole range to try.
  const settled = (query: { isPending: boolean; isError: boolean }) => !query.isPending || query.isError;
  const firstSettled =
    firstIds !== null && (firstIds.length === 0 || (settled(firstAvailabilities) && settled(firstBookings)));
  useEffect(() => {
    if (wholeWanted || !firstSettled) return;
    // after the frame that shows the first rows, so reading the whole range does not hold it back
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setWholeWanted(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [wholeWanted, firstSettled]);

  const firstIdSet = useMemo(() => new Set(firstIds ?? []), [firstIds]);
  const bookingsFetching = bookings.isFetching || firstBookings.isFetching;
  const error = availabilities.error ?? bookings.error;
  if (availabilities.data !== undefined && bookings.data !== undefined) {
    return {
      availabilities: availabilities.data,
      bookings: bookings.data,
      loadedUserIds: null,
      isPending: false,
      error,
      isUpdating: availabilities.isPlaceholderData || bookings.isPlaceholderData,
      bookingsFetching,
    };
  }
  if (firstAvailabilities.data !== undefined && firstBookings.data !== undefined) {
    return {
      availabilities: firstAvailabilities.data,
      bookings: firstBookings.data,
      loadedUserIds: firstIdSet,
      isPending: false,
      error,
      isUpdating: true,
      bookingsFetching,
    };
  }
  return {
    availabilities: [],
    bookings: [],
    loadedUserIds: null,
    isPending: true,
    error,
    isUpdating: false,
    bookingsFetching,
  };
}

/** Whether the cache has the whole range's availability and bookings (a return to the page). */
function wholeRangeCached(queryClient: QueryClient, range: DateRange): boolean {
  return (
    queryClient.getQueryData(staffAvailabilitiesQuery(range).queryKey) !== undefined &&
    queryClient.getQueryData(staffBookingsQuery(range).queryKey) !== undefined
  );
}

/** Already settled: React's `use` reads a thenable marked this way without suspending. */
const SETTLED: PromiseLike<void> = Object.assign(Promise.resolve(), {
  status: 'fulfilled',
  value: undefined,
});

/**
 * Settles, answered or failed, once the grid can draw its opening rows for `range`: the users, then
 * the first rows' lists (or the whole range's, when the cache has it). Already settled when the
 * cache has them. The dashboard waits on it before its first render (React's `use`, under a
 * Suspense boundary showing the loading line), so that render has the data and React draws it in
 * its interruptible pass. Drawn before them, the page was drawn again, whole and uninterrupted,
 * when they arrived: React re-renders a store's readers at once when its data changed between
 * their render and their commit. Failures are left to the hooks, which ask again and show them.
 */
export function gridOpeningReads(queryClient: QueryClient, range: DateRange): PromiseLike<void> {
  const wholeCached = () => wholeRangeCached(queryClient, range);
  const firstCached = (users: PublicUser[]) => {
    const firstIds = firstFacilitatorIds(users);
    return (
      firstIds.length === 0 ||
      (queryClient.getQueryData(staffAvailabilitiesOfQuery(range, firstIds).queryKey) !== undefined &&
        queryClient.getQueryData(staffBookingsOfQuery(range, firstIds).queryKey) !== undefined)
    );
  };
  const cachedUsers = queryClient.getQueryData(staffUsersQuery().queryKey);
  if (cachedUsers !== undefined && (wholeCached() || firstCached(cachedUsers))) return SETTLED;
  return (async () => {
    const users = await queryClient.fetchQuery(staffUsersQuery()).catch(() => undefined);
    if (users === undefined || wholeCached()) return;
    const firstIds = firstFacilitatorIds(users);
    if (firstIds.length === 0) return;
    await Promise.allSettled([
      queryClient.fetchQuery(staffAvailabilitiesOfQuery(range, firstIds)),
      queryClient.fetchQuery(staffBookingsOfQuery(range, firstIds)),
    ]);
  })();
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
