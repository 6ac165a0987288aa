import { dayLabel } from '@shared/safeguarding';
import type { FreeResult } from '@shared/schemas/free';
import type {
  CreateOffersInput,
  CreateSessionInput,
  MyOffer,
  OfferLinkView,
  OpenSessionsResponse,
  StaffOffer,
} from '@shared/schemas/offers';
import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { WINDOWED_FROM_ROWS } from '@/components/ui/windowed-rows';
import { apiJson } from '@/lib/api';
import { type SendResult, sendOrQueue } from '@/lib/offline-queue';
import { queryKeys } from '@/lib/query-keys';

const SESSIONS_URL = '/api/staff/sessions';

/** The offers' cache keys; `sessions` is the prefix of every open session's reads. */
export const offersKeys = {
  sessions: ['open-sessions'] as const,
  candidates: (sessionId: number | null) => ['open-sessions', sessionId, 'candidates'] as const,
  sessionOffers: (sessionId: number | null) => ['open-sessions', sessionId, 'offers'] as const,
  mine: ['my-offers'] as const,
  link: (token: string) => ['offer-link', token] as const,
} as const;

/** How often the list is read again while a session made here is on its way to SharePoint. */
const PENDING_POLL_MS = 5_000;

export function useOpenSessions() {
  return useQuery<OpenSessionsResponse>({
    queryKey: offersKeys.sessions,
    queryFn: ({ signal }) => apiJson('GET', SESSIONS_URL, undefined, { signal }),
    // a session made here is listed once SharePoint has it: the list looks again until then
    refetchInterval: (query) =>
      query.state.data?.pending.length && query.state.data.sharePointConfigured ? PENDING_POLL_MS : false,
  });
}

/** Read the Bookings list again now (the dashboard's Refresh Bookings), then the open sessions. */
export function useRefreshSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<unknown>('POST', '/api/staff/bookings/refresh'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: offersKeys.sessions }),
  });
}

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

export function useSessionOffers(sessionId: number | null) {
  return useQuery<StaffOffer[]>({
    queryKey: offersKeys.sessionOffers(sessionId),
    queryFn: ({ signal }) => apiJson('GET', `${SESSIONS_URL}/${sessionId}/offers`, undefined, { signal }),
    enabled: sessionId !== null,
  });
}

export function useCreateSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateSessionInput) => apiJson<{ id: number }>('POST', SESSIONS_URL, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: offersKeys.sessions }),
  });
}

export function useCreateOffers(sessionId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateOffersInput) =>
      apiJson<{ offers: StaffOffer[] }>('POST', `${SESSIONS_URL}/${sessionId}/offers`, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: offersKeys.sessions }),
  });
}

export function useWithdrawOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (offerId: number) => apiJson<StaffOffer>('POST', `/api/staff/offers/${offerId}/withdraw`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: offersKeys.sessions }),
  });
}

export function useMyOffers() {
  return useQuery<MyOffer[]>({
    queryKey: offersKeys.mine,
    queryFn: ({ signal }) => apiJson('GET', '/api/offers', undefined, { signal }),
  });
}

export type OfferAnswer = { action: 'accept' } | { action: 'decline'; reason: string } | { action: 'seen' };

/**
 * Accept, decline or mark seen. With no connection an accept or decline waits on the device
 * (`queued`) and is sent when the connection is back; a "seen" mark is not worth keeping.
 */
export function useAnswerOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    // run offline too (TanStack Query would pause it): with no connection a reply is queued
    networkMode: 'always',
    mutationFn: async ({
      offer,
      answer,
    }: {
      offer: Pick<MyOffer, 'id' | 'date'>;
      answer: OfferAnswer;
    }): Promise<SendResult<MyOffer>> => {
      const url = `/api/offers/${offer.id}/${answer.action}`;
      const body = answer.action === 'decline' ? { reason: answer.reason } : undefined;
      // the signed-in person, whose offers these are: a queued reply is sent only in their session
      const me = queryClient.getQueryData<{ id: number } | null>(queryKeys.session.all);
      if (answer.action === 'seen' || !me)
        return { queued: false, answer: await apiJson<MyOffer>('POST', url, body) };
      return sendOrQueue<MyOffer>({
        key: `offer:${offer.id}`,
        userId: me.id,
        method: 'POST',
        url,
        body,
        label: `${answer.action === 'accept' ? 'Accepting' : 'Declining'} the session offered on ${dayLabel(offer.date)}`,
      });
    },
    onSettled: (result) => (result?.queued ? undefined : queryClient.invalidateQueries()),
  });
}

export function useOfferLink(token: string) {
  return useQuery<OfferLinkView>({
    queryKey: offersKeys.link(token),
    // the token goes in the body, so no proxy or log records it with the address
    queryFn: () => apiJson('POST', '/api/offer-links/view', { token }),
    enabled: token !== '',
    retry: false,
  });
}

export function useAnswerOfferLink(token: string) {
  return useMutation({
    mutationFn: (answer: { accept: true } | { accept: false; reason: string }) =>
      apiJson<MyOffer>(
        'POST',
        `/api/offer-links/${answer.accept ? 'accept' : 'decline'}`,
        answer.accept ? { token } : { token, reason: answer.reason },
      ),
  });
}
