import type { FreeResult } from '@shared/schemas/free';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { WINDOWED_FROM_ROWS } from '@/components/ui/windowed-rows';
import { apiJson } from '@/lib/api';
import { offersKeys, SESSIONS_URL } from './offers-api';

// Staff only, apart from offers-api.ts: the facilitator's offers page, which shares that file, does not
// carry the paged reads' code.

/**
 * A page of candidates holds as many as a list draws whole (WINDOWED_FROM_ROWS): a list that short is
 * read in one request, and a longer one reads its next page as its last rows come into view.
 */
export const CANDIDATES_PAGE_SIZE = WINDOWED_FROM_ROWS;

/** The address of one page of a session's candidates, searched (trimmed; empty: everyone). */
export function candidatesPageUrl(sessionId: number, search: string, cursor: string | null): string {
  const query = new URLSearchParams({ limit: String(CANDIDATES_PAGE_SIZE) });
  if (search) query.set('search', search);
  if (cursor) query.set('cursor', cursor);
  return `${SESSIONS_URL}/${sessionId}/candidates?${query}`;
}

/** Who is free for a session, ranked, a page at a time, found by the server's search. */
export function useCandidates(sessionId: number | null, search: string) {
  return useInfiniteQuery({
    queryKey: [...offersKeys.candidates(sessionId), search] as const,
    queryFn: ({ pageParam, signal }) =>
      apiJson<FreeResult>('GET', candidatesPageUrl(sessionId ?? 0, search, pageParam), undefined, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (page: FreeResult) => page.nextCursor,
    enabled: sessionId !== null,
    placeholderData: keepPreviousData,
    gcTime: 0,
  });
}
