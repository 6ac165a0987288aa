import type { CompletenessResponse } from '@shared/schemas/completeness';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';

export const COMPLETENESS_KEY = '/api/staff/completeness';

/** Completeness of one month, optionally one area; the previous answer stays while the next loads. */
export function useCompleteness(month: string, area: string) {
  const query = new URLSearchParams({ month, ...(area ? { area } : {}) });
  return useQuery<CompletenessResponse>({
    queryKey: [COMPLETENESS_KEY, month, area],
    queryFn: () => apiJson<CompletenessResponse>('GET', `${COMPLETENESS_KEY}?${query.toString()}`),
    placeholderData: keepPreviousData,
  });
}
