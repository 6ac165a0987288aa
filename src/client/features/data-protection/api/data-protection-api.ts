import type {
  AssuranceQuery,
  AssuranceResponse,
  AssuranceStatementBody,
  AssuranceStatementResponse,
  CertificateViewsResponse,
  PhotoResponse,
} from '@shared/schemas/data-protection';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';

const STATEMENT_URL = '/api/staff/assurance/statement';

/** Data protection's cache keys. */
export const dataProtectionKeys = {
  views: (userId: number) => ['certificate-views', userId] as const,
  statement: ['assurance-statement'] as const,
  assurance: (query: AssuranceQuery) => ['assurance', query] as const,
} as const;

/**
 * Who has been shown or sent a person's whole certificate number (staff). Read afresh each time it is
 * shown: opening the person's records or downloading their archive adds to it from elsewhere.
 */
export function useCertificateViews(userId: number) {
  return useQuery({
    refetchOnMount: 'always',
    queryKey: dataProtectionKeys.views(userId),
    queryFn: ({ signal }) =>
      apiJson<CertificateViewsResponse>('GET', `/api/staff/users/${userId}/certificate-views`, undefined, {
        signal,
      }),
  });
}

/** The query as the assurance routes take it: blank values left out. */
const assuranceSearch = (query: AssuranceQuery) =>
  new URLSearchParams(
    Object.entries(query).flatMap(([key, value]) =>
      value === undefined || value === '' ? [] : [[key, String(value)]],
    ),
  );

/** Where the assurance's PDF is downloaded from. */
export const assurancePdfUrl = (query: AssuranceQuery) =>
  `/api/staff/assurance/pdf?${assuranceSearch(query)}`;

/** The school's assurance for one session or a range; nothing is asked until a query is given. */
export function useAssurance(query: AssuranceQuery | null) {
  return useQuery({
    queryKey: dataProtectionKeys.assurance(query ?? {}),
    queryFn: ({ signal }) =>
      apiJson<AssuranceResponse>('GET', `/api/staff/assurance?${assuranceSearch(query ?? {})}`, undefined, {
        signal,
      }),
    enabled: query !== null,
  });
}

export function useAssuranceStatement() {
  return useQuery({
    queryKey: dataProtectionKeys.statement,
    queryFn: ({ signal }) => apiJson<AssuranceStatementResponse>('GET', STATEMENT_URL, undefined, { signal }),
  });
}

export function useSaveAssuranceStatement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AssuranceStatementBody) =>
      apiJson<AssuranceStatementResponse>('PUT', STATEMENT_URL, body),
    onSuccess: (saved) => {
      queryClient.setQueryData(dataProtectionKeys.statement, saved);
      void queryClient.invalidateQueries({ queryKey: ['assurance'] });
    },
  });
}

export function useUploadPhoto(userId: number) {
  return useMutation({
    mutationFn: (image: string) =>
      apiJson<PhotoResponse>('PUT', `/api/staff/users/${userId}/photo`, { image }),
  });
}

export function useDeletePhoto(userId: number) {
  return useMutation({
    mutationFn: () => apiJson<null>('DELETE', `/api/staff/users/${userId}/photo`),
  });
}
