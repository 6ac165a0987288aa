import type {
  SafeguardingList,
  SafeguardingPolicyBody,
  SafeguardingPolicyPreview,
  SafeguardingRecordsBody,
  SafeguardingRecordsResponse,
} from '@shared/schemas/safeguarding';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';

export const SAFEGUARDING_LIST_KEY = '/api/staff/safeguarding';
export const SAFEGUARDING_POLICY_KEY = '/api/staff/safeguarding/policy';
export const OWN_SAFEGUARDING_KEY = '/api/safeguarding';
const recordsKey = (userId: number) => `/api/staff/users/${userId}/safeguarding`;

/** Every facilitator's status today (staff). */
export function useSafeguardingList(enabled = true) {
  return useQuery<SafeguardingList, Error>({ queryKey: [SAFEGUARDING_LIST_KEY], enabled });
}

export function useSafeguardingPolicy() {
  return useQuery<SafeguardingPolicyBody, Error>({ queryKey: [SAFEGUARDING_POLICY_KEY] });
}

export function useSaveSafeguardingPolicy() {
  const queryClient = useQueryClient();
  return useMutation<SafeguardingPolicyBody, Error, SafeguardingPolicyBody>({
    mutationFn: (body) => apiJson<SafeguardingPolicyBody>('PUT', SAFEGUARDING_POLICY_KEY, body),
    onSuccess: (saved) => {
      queryClient.setQueryData([SAFEGUARDING_POLICY_KEY], saved);
      void queryClient.invalidateQueries({ queryKey: [SAFEGUARDING_LIST_KEY] });
    },
  });
}

/** Whose state today a policy would change if saved; saves nothing. */
export function usePreviewSafeguardingPolicy() {
  return useMutation<SafeguardingPolicyPreview, Error, SafeguardingPolicyBody>({
    mutationFn: (body) =>
      apiJson<SafeguardingPolicyPreview>('POST', `${SAFEGUARDING_POLICY_KEY}/preview`, body),
  });
}

export function useSafeguardingRecords(userId: number | null) {
  return useQuery<SafeguardingRecordsResponse, Error>({
    queryKey: [recordsKey(userId ?? 0)],
    enabled: userId !== null,
  });
}

export function useSaveSafeguardingRecords(userId: number) {
  const queryClient = useQueryClient();
  return useMutation<SafeguardingRecordsResponse, Error, SafeguardingRecordsBody>({
    mutationFn: (body) => apiJson<SafeguardingRecordsResponse>('PUT', recordsKey(userId), body),
    onSuccess: (saved) => {
      queryClient.setQueryData([recordsKey(userId)], saved);
      void queryClient.invalidateQueries({ queryKey: [SAFEGUARDING_LIST_KEY] });
    },
  });
}

export function useOwnSafeguarding() {
  return useQuery<SafeguardingRecordsResponse, Error>({ queryKey: [OWN_SAFEGUARDING_KEY] });
}
