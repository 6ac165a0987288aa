import type { FreeResult } from '@shared/schemas/free';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';

export const FREE_KEY = '/api/staff/free';

/**
 * Who is free for a search (its query string). Not kept once the page is left (gcTime 0): availability
 * and bookings change elsewhere, and coming back to the page should show the day as it is now.
 */
export function useFreeSearch(queryString: string, enabled: boolean) {
  return useQuery<FreeResult>({
    queryKey: [FREE_KEY, queryString],
    queryFn: () => apiJson<FreeResult>('GET', queryString ? `${FREE_KEY}?${queryString}` : FREE_KEY),
    enabled,
    placeholderData: keepPreviousData,
    gcTime: 0,
  });
}
