import { dayLabel } from '@shared/safeguarding';
import type {
  CreateOffersInput,
  CreateSessionInput,
  MyOffer,
  OfferLinkView,
  OpenSessionsResponse,
  StaffOffer,
} from '@shared/schemas/offers';
import { useIsMutating, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';
import { type SendResult, sendOrQueue } from '@/lib/offline-queue';
import { queryKeys, readAgainAfterBookingsRefresh } from '@/lib/query-keys';

export const SESSIONS_URL = '/api/staff/sessions';

/** The offers' cache keys; `sessions` is the prefix of every open session's reads. */
export const offersKeys = {
  sessions: queryKeys.openSessions.all,
  candidates: (sessionId: number | null) => [...queryKeys.openSessions.all, sessionId, 'candidates'] as const,
  sessionOffers: (sessionId: number | null) => [...queryKeys.openSessions.all, sessionId, 'offers'] as const,
  /** the refresh from SharePoint while it runs (a mutation key: the page that asked may have gone) */
  refresh: [...queryKeys.openSessions.all, 'refresh'] as const,
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
/**
 * The open sessions read again from SharePoint (the same refresh as the dashboard's Refresh Bookings,
 * so the staff grid is read again too). The callbacks are the mutation's own: they run even when the
 * page that asked has closed meanwhile.
 */
export function useRefreshSessions(
  callbacks: { onSuccess?: () => void; onError?: (error: Error) => void } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: offersKeys.refresh,
    mutationFn: () => apiJson<unknown>('POST', '/api/staff/bookings/refresh'),
    onSuccess: callbacks.onSuccess,
    onError: callbacks.onError,
    onSettled: () => readAgainAfterBookingsRefresh(queryClient),
  });
}

/** Whether a refresh of the open sessions asked for in this tab is running, whichever page asked. */
export function useSessionsRefreshRunning(): boolean {
  return useIsMutating({ mutationKey: offersKeys.refresh }) > 0;
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
