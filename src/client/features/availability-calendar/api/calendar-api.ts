import type { DateRange } from '@shared/calendar';
import { dayLabel } from '@shared/safeguarding';
import type {
  Availability,
  BulkAvailabilityBody,
  BulkAvailabilityResult,
  SaveAvailabilityBody,
} from '@shared/schemas/availability';
import {
  keepPreviousData,
  type QueryClient,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { apiJson } from '@/lib/api';
import { type SendResult, sendOrQueue } from '@/lib/offline-queue';
import { queryKeys } from '@/lib/query-keys';
import { availabilityQuery, bookingsQuery } from './calendar-reads';

export { calendarKeys, OFFLINE_DAYS, prefetchFirstMonth } from './calendar-reads';

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
