import type { FreeResult } from '@shared/schemas/free';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { WINDOWED_FROM_ROWS } from '@/components/ui/windowed-rows';
import { apiJson } from '@/lib/api';

const FREE_URL = '/api/staff/free';

/** Who is free's cache keys; `all` refreshes every search. */
export const freeKeys = {
  all: ['staff-free'] as const,
  search: (queryString: string) => ['staff-free', queryString] as const,
} as const;

/**
 * A page holds as many people as a list draws whole (WINDOWED_FROM_ROWS): a list that short is read
 * in one request, and a longer one is windowed, reading the next page as its cards come into view.
 */
export const FREE_PAGE_SIZE = WINDOWED_FROM_ROWS;

/** The address of one page of a search (its query string). */
export function freePageUrl(queryString: string, cursor: string | null): string {
  const query = new URLSearchParams(queryString);
  query.set('limit', String(FREE_PAGE_SIZE));
  if (cursor) query.set('cursor', cursor);
  return `${FREE_URL}?${query}`;
}

/**
 * Who is free for a search (its query string), a page of the ranked list at a time. Not kept once
 * the page is left (gcTime 0): availability and bookings change elsewhere, and coming back to the
 * page should show the day as it is now.
 */
export function useFreeSearch(queryString: string, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: freeKeys.search(queryString),
    queryFn: ({ pageParam }) => apiJson<FreeResult>('GET', freePageUrl(queryString, pageParam)),
    initialPageParam: null as string | null,
    getNextPageParam: (page: FreeResult) => page.nextCursor,
    enabled,
    placeholderData: keepPreviousData,
    gcTime: 0,
  });
}
