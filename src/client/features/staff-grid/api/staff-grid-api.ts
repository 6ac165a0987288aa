import type { DateRange } from '@shared/calendar';
import type { Availability, StaffSaveAvailabilityBody } from '@shared/schemas/availability';
import type { RefreshResult } from '@shared/schemas/bookings';
import type { SchedulerStatus } from '@shared/schemas/scheduler';
import type { StaffGridPage, StaffGridRow } from '@shared/schemas/staff-grid';
import type { PublicUser } from '@shared/schemas/users';
import {
  infiniteQueryOptions,
  keepPreviousData,
  type QueryClient,
  queryOptions,
  useInfiniteQuery,
  useIsMutating,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { apiJson } from '@/lib/api';
import { queryKeys, readAgainAfterBookingsRefresh } from '@/lib/query-keys';

const STAFF_GRID_URL = '/api/staff/grid';
const SCHEDULER_STATUS_URL = '/api/admin/scheduler/status';

/** What the grid shows: the areas chosen (null: every area) and the facilitators left out. */
export interface GridFilters {
  areas: readonly string[] | null;
  /** the facilitators left out by name */
  excluded: readonly number[];
  /** the facilitators chosen, when fewer are chosen than left out (the shorter list is sent) */
  only: readonly number[] | null;
  /** a part of a name or email, trimmed; empty: no search */
  search: string;
}

export const NO_GRID_FILTERS: GridFilters = { areas: null, excluded: [], only: null, search: '' };

/** Past this many left out, the facilitators chosen are sent instead, so the address stays short. */
const MAX_EXCLUDED_SENT = 200;

/**
 * The filters to read the grid with, from what its filters choose. Leaving out many facilitators
 * means the filter's list (the accounts) was opened, so it is in the cache to name those chosen.
 */
export function gridFiltersFor(
  queryClient: QueryClient,
  chosen: { areas: readonly string[] | null; deselected: readonly number[]; search?: string } | null,
): GridFilters {
  if (!chosen) return NO_GRID_FILTERS;
  const search = chosen.search?.trim() ?? '';
  const users = queryClient.getQueryData(staffUsersQuery().queryKey);
  if (chosen.deselected.length > MAX_EXCLUDED_SENT && users) {
    const out = new Set(chosen.deselected);
    const only = users.filter((u) => u.role !== 'staff' && !out.has(u.id)).map((u) => u.id);
    return { areas: chosen.areas, excluded: [], only, search };
  }
  return { areas: chosen.areas, excluded: chosen.deselected, only: null, search };
}

/** The grid's cache keys; `all` (shared, in lib/query-keys) refreshes every page of every view. */
export const staffGridKeys = {
  all: queryKeys.staffGrid.all,
  view: (range: DateRange, filters: GridFilters) =>
    [
      ...queryKeys.staffGrid.all,
      range.from,
      range.to,
      filters.areas,
      filters.excluded,
      filters.only,
      filters.search,
    ] as const,
  /** the Refresh Bookings request while it runs (a mutation key: the page that asked may have gone) */
  refresh: [...queryKeys.staffGrid.all, 'refresh'] as const,
} as const;
/** The scheduler status is polled every 30 seconds, as the dashboard's status line promises. */
export const SCHEDULER_POLL_MS = 30_000;
/**
 * While a refresh this page asked for runs, the status (which carries the refresh's stage) is read
 * this often, so the progress bar moves when the server's work does.
 */
export const REFRESH_STAGE_POLL_MS = 500;

/** The address of one page of the grid. */
export function gridPageUrl(range: DateRange, filters: GridFilters, cursor: string | null): string {
  const query = new URLSearchParams({ from: range.from, to: range.to });
  if (cursor) query.set('cursor', cursor);
  for (const area of filters.areas ?? []) query.append('area', area);
  if (filters.only) query.set('only', filters.only.join(','));
  else if (filters.excluded.length > 0) query.set('exclude', filters.excluded.join(','));
  if (filters.search) query.set('search', filters.search);
  return `${STAFF_GRID_URL}?${query}`;
}

/**
 * The grid, a page of facilitators at a time, as query options: the dashboard reads them, and the app
 * asks for the first page with them as the dashboard's route starts.
 */
export const staffGridQuery = (range: DateRange, filters: GridFilters) =>
  infiniteQueryOptions({
    queryKey: staffGridKeys.view(range, filters),
    queryFn: ({ pageParam }) => apiJson<StaffGridPage>('GET', gridPageUrl(range, filters, pageParam)),
    initialPageParam: null as string | null,
    getNextPageParam: (page: StaffGridPage) => page.nextCursor,
  });

/** The grid's pages for a range and filters; a new range or filter keeps the last one drawn until it comes. */
export function useStaffGrid(range: DateRange, filters: GridFilters, enabled = true) {
  return useInfiniteQuery({ ...staffGridQuery(range, filters), placeholderData: keepPreviousData, enabled });
}

/** One facilitator's grid row for one day (the day dialog opened from elsewhere), or undefined until it is in. */
export function useStaffGridRow(userId: number, date: string): StaffGridRow | undefined {
  const grid = useInfiniteQuery(
    staffGridQuery({ from: date, to: date }, { ...NO_GRID_FILTERS, only: [userId] }),
  );
  return grid.data?.pages[0]?.rows[0];
}

/** Every account (the facilitator filter's choices, who is free): read when first needed. */
export const staffUsersQuery = () =>
  queryOptions<PublicUser[]>({
    queryKey: queryKeys.staffUsers.all,
    queryFn: () => apiJson<PublicUser[]>('GET', '/api/staff/users'),
  });

export function useStaffUsers() {
  return useQuery(staffUsersQuery());
}

export const schedulerStatusQuery = () =>
  queryOptions<SchedulerStatus>({
    // shared with the settings page, which shows the same SharePoint problems
    queryKey: queryKeys.schedulerStatus.all,
    queryFn: () => apiJson<SchedulerStatus>('GET', SCHEDULER_STATUS_URL),
  });

export function useSchedulerStatus() {
  return useQuery({ ...schedulerStatusQuery(), refetchInterval: SCHEDULER_POLL_MS });
}

/** The same status, read every REFRESH_STAGE_POLL_MS while `running` (and not at all otherwise). */
export function useRefreshStatus(running: boolean) {
  return useQuery({ ...schedulerStatusQuery(), refetchInterval: running ? REFRESH_STAGE_POLL_MS : false });
}

/**
 * Pulls bookings from SharePoint now; on success what it changes is read again (every loaded grid
 * page among it), then `onSuccess` runs. Both callbacks are the mutation's own, so they run even when the page that asked
 * has closed meanwhile (a refresh can take a while, and staff move on).
 */
export function useRefreshBookings(
  callbacks: { onSuccess?: () => void; onError?: (error: Error) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation<RefreshResult, Error, void>({
    mutationKey: staffGridKeys.refresh,
    mutationFn: () => apiJson<RefreshResult>('POST', '/api/staff/bookings/refresh'),
    onSuccess: async () => {
      await readAgainAfterBookingsRefresh(queryClient);
      callbacks.onSuccess?.();
    },
    onError: (error) => {
      // a failed refresh sets the SharePoint problem the status line shows
      void queryClient.invalidateQueries({ queryKey: queryKeys.schedulerStatus.all });
      callbacks.onError?.(error);
    },
  });
}

/** Whether a Refresh Bookings asked for in this tab is running, whichever page asked for it. */
export function useBookingRefreshRunning(): boolean {
  return useIsMutating({ mutationKey: staffGridKeys.refresh }) > 0;
}

/** Staff edit of any facilitator's day; refreshes the grid (its days and "last updated"). */
export function useSaveStaffAvailability() {
  const queryClient = useQueryClient();
  return useMutation<Availability, Error, StaffSaveAvailabilityBody>({
    mutationFn: (body) => apiJson<Availability>('POST', '/api/staff/availability', body),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: staffGridKeys.all });
    },
  });
}
