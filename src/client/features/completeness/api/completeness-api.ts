import type { CompletenessResponse, CompletenessSort } from '@shared/schemas/completeness';
import type { SortDirection } from '@shared/schemas/paging';
import { keepPreviousData, type UseInfiniteQueryResult, useInfiniteQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

const COMPLETENESS_URL = '/api/staff/completeness';

/** The list's order: a column and which way. */
export interface CompletenessOrder {
  sort: CompletenessSort;
  direction: SortDirection;
}

/** Completeness's cache keys; `all` refreshes every month, area and order. */
export const completenessKeys = {
  all: queryKeys.completeness.all,
  month: (month: string, area: string) => [...queryKeys.completeness.all, month, area] as const,
  list: (month: string, area: string, order: CompletenessOrder) =>
    [...queryKeys.completeness.all, month, area, order.sort, order.direction] as const,
} as const;

/** The address of one page. */
export function completenessPageUrl(
  month: string,
  area: string,
  order: CompletenessOrder,
  cursor: string | null,
): string {
  const query = new URLSearchParams({ month, sort: order.sort, direction: order.direction });
  if (area) query.set('area', area);
  if (cursor) query.set('cursor', cursor);
  return `${COMPLETENESS_URL}?${query}`;
}

/**
 * Completeness of one month, optionally one area, in an order, a page at a time; the previous list
 * stays on screen while the next one's first page loads.
 */
export function useCompleteness(month: string, area: string, order: CompletenessOrder) {
  return useInfiniteQuery({
    queryKey: completenessKeys.list(month, area, order),
    queryFn: ({ pageParam }) =>
      apiJson<CompletenessResponse>('GET', completenessPageUrl(month, area, order, pageParam)),
    initialPageParam: null as string | null,
    getNextPageParam: (page: CompletenessResponse) => page.nextCursor,
    placeholderData: keepPreviousData,
  });
}

/**
 * The first page of the report on screen when it is the one asked for: neither the one before, kept
 * on screen while the next month's, area's or order's loads, nor a failed load. Only its people may
 * be counted, chosen or sent to.
 */
export function askedReport(
  query: UseInfiniteQueryResult<{ pages: CompletenessResponse[] }>,
): CompletenessResponse | null {
  if (!query.isSuccess || query.isPlaceholderData) return null;
  return query.data.pages[0] ?? null;
}
