import type { CompletenessResponse } from '@shared/schemas/completeness';
import {
  keepPreviousData,
  type QueryObserverSuccessResult,
  type UseQueryResult,
  useQuery,
} from '@tanstack/react-query';
import { apiJson } from '@/lib/api';

const COMPLETENESS_URL = '/api/staff/completeness';

/** Completeness's cache keys; `all` refreshes every month and area. */
export const completenessKeys = {
  all: ['staff-completeness'] as const,
  month: (month: string, area: string) => ['staff-completeness', month, area] as const,
} as const;

/** Completeness of one month, optionally one area; the previous answer stays while the next loads. */
export function useCompleteness(month: string, area: string) {
  const query = new URLSearchParams({ month, ...(area ? { area } : {}) });
  return useQuery<CompletenessResponse>({
    queryKey: completenessKeys.month(month, area),
    queryFn: () => apiJson<CompletenessResponse>('GET', `${COMPLETENESS_URL}?${query.toString()}`),
    placeholderData: keepPreviousData,
  });
}

/**
 * Whether the report on screen is the one asked for: neither the one before, kept on screen while the
 * next month's or area's loads, nor a failed load. Only its people may be counted, chosen or sent to.
 */
export function showsAskedReport(
  query: UseQueryResult<CompletenessResponse>,
): query is QueryObserverSuccessResult<CompletenessResponse> {
  return query.isSuccess && !query.isPlaceholderData;
}
