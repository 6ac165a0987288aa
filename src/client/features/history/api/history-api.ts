import type { HistoryPage } from '@shared/schemas/history';
import { type InfiniteData, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { apiJson } from '@/lib/api';

/** History's cache keys; every one starts with `all`, so one invalidation refreshes them all. */
export const historyKeys = {
  all: ['history'] as const,
  day: (userId: number, date: string) => ['history', 'day', userId, date] as const,
  person: (userId: number) => ['history', 'person', userId] as const,
  own: (from: string, to: string) => ['history', 'own', from, to] as const,
} as const;
const PAGE_SIZE = 20;

function withPage(base: string, before: number | undefined): string {
  const url = `${base}${base.includes('?') ? '&' : '?'}limit=${PAGE_SIZE}`;
  return before === undefined ? url : `${url}&before=${before}`;
}

function useHistoryPages(key: readonly unknown[], base: string, enabled: boolean) {
  return useInfiniteQuery<
    HistoryPage,
    Error,
    InfiniteData<HistoryPage>,
    readonly unknown[],
    number | undefined
  >({
    queryKey: key,
    queryFn: ({ pageParam }) => apiJson<HistoryPage>('GET', withPage(base, pageParam)),
    initialPageParam: undefined,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
    enabled,
    // history is read when asked for: always fresh when a panel opens
    staleTime: 0,
  });
}

/** Staff: changes to one facilitator's day (availability and notes). */
export function useDayHistory(userId: number, date: string, enabled: boolean) {
  return useHistoryPages(
    historyKeys.day(userId, date),
    `/api/staff/history?userId=${userId}&date=${encodeURIComponent(date)}`,
    enabled,
  );
}

/** Staff: everything about one person. */
export function usePersonHistory(userId: number, enabled: boolean) {
  return useHistoryPages(historyKeys.person(userId), `/api/staff/users/${userId}/history`, enabled);
}

/** The signed-in facilitator's own availability history, for days in a range. */
export function useOwnHistory(from: string, to: string, enabled: boolean) {
  return useHistoryPages(
    historyKeys.own(from, to),
    `/api/history?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
    enabled,
  );
}

/**
 * Any successful change anywhere in the app (a day saved, a note edited, an account changed) may have
 * added history: refetch the history on screen. Features do not know each other, so this listens to
 * every mutation rather than to a list of them.
 */
export function useRefreshHistoryOnChanges() {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      queryClient.getMutationCache().subscribe((event) => {
        if (event.type === 'updated' && event.action.type === 'success') {
          void queryClient.invalidateQueries({ queryKey: historyKeys.all });
        }
      }),
    [queryClient],
  );
}
