import type { FreeResult } from '@shared/schemas/free';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';

const FREE_URL = '/api/staff/free';

/** Who is free's cache keys; `all` refreshes every search. */
export const freeKeys = {
  all: ['staff-free'] as const,
  search: (queryString: string) => ['staff-free', queryString] as const,
} as const;

/**
 * Who is free for a search (its query string). Not kept once the page is left (gcTime 0): availability
 * and bookings change elsewhere, and coming back to the page should show the day as it is now.
 */
export function useFreeSearch(queryString: string, enabled: boolean) {
  return useQuery<FreeResult>({
    queryKey: freeKeys.search(queryString),
    queryFn: () => apiJson<FreeResult>('GET', queryString ? `${FREE_URL}?${queryString}` : FREE_URL),
    enabled,
    placeholderData: keepPreviousData,
    gcTime: 0,
  });
}
