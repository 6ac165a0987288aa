import type {
  SafeguardingList,
  SafeguardingPolicyBody,
  SafeguardingPolicyPreview,
  SafeguardingRecordsBody,
  SafeguardingRecordsResponse,
} from '@shared/schemas/safeguarding';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

const POLICY_URL = '/api/staff/safeguarding/policy';
const recordsUrl = (userId: number) => `/api/staff/users/${userId}/safeguarding`;

/**
 * Safeguarding's cache keys. A policy or records saved change facilitators' states, so the list of
 * statuses and the users screen's pages (filtered by state) are read again.
 */
export const safeguardingKeys = {
  list: queryKeys.safeguardingList.all,
  policy: ['safeguarding-policy'] as const,
  records: (userId: number) => ['safeguarding-records', userId] as const,
  own: ['own-safeguarding'] as const,
} as const;

/** Every facilitator's status today (staff). */
export function useSafeguardingList(enabled = true) {
  return useQuery({
    queryKey: safeguardingKeys.list,
    queryFn: ({ signal }) =>
      apiJson<SafeguardingList>('GET', '/api/staff/safeguarding', undefined, { signal }),
    enabled,
  });
}

export function useSafeguardingPolicy() {
  return useQuery({
    queryKey: safeguardingKeys.policy,
    queryFn: ({ signal }) => apiJson<SafeguardingPolicyBody>('GET', POLICY_URL, undefined, { signal }),
  });
}

export function useSaveSafeguardingPolicy() {
  const queryClient = useQueryClient();
  return useMutation<SafeguardingPolicyBody, Error, SafeguardingPolicyBody>({
    mutationFn: (body) => apiJson<SafeguardingPolicyBody>('PUT', POLICY_URL, body),
    onSuccess: (saved) => {
      queryClient.setQueryData(safeguardingKeys.policy, saved);
      void queryClient.invalidateQueries({ queryKey: safeguardingKeys.list });
      void queryClient.invalidateQueries({ queryKey: queryKeys.staffUsers.pages });
    },
  });
}

/** Whose state today a policy would change if saved; saves nothing. */
export function usePreviewSafeguardingPolicy() {
  return useMutation<SafeguardingPolicyPreview, Error, SafeguardingPolicyBody>({
    mutationFn: (body) => apiJson<SafeguardingPolicyPreview>('POST', `${POLICY_URL}/preview`, body),
  });
}

export function useSafeguardingRecords(userId: number | null) {
  return useQuery({
    queryKey: safeguardingKeys.records(userId ?? 0),
    queryFn: ({ signal }) =>
      apiJson<SafeguardingRecordsResponse>('GET', recordsUrl(userId ?? 0), undefined, { signal }),
    enabled: userId !== null,
  });
}

export function useSaveSafeguardingRecords(userId: number) {
  const queryClient = useQueryClient();
  return useMutation<SafeguardingRecordsResponse, Error, SafeguardingRecordsBody>({
    mutationFn: (body) => apiJson<SafeguardingRecordsResponse>('PUT', recordsUrl(userId), body),
    onSuccess: (saved) => {
      queryClient.setQueryData(safeguardingKeys.records(userId), saved);
      void queryClient.invalidateQueries({ queryKey: safeguardingKeys.list });
      void queryClient.invalidateQueries({ queryKey: queryKeys.staffUsers.pages });
    },
  });
}

export function useOwnSafeguarding() {
  return useQuery({
    queryKey: safeguardingKeys.own,
    queryFn: ({ signal }) =>
      apiJson<SafeguardingRecordsResponse>('GET', '/api/safeguarding', undefined, { signal }),
  });
}
