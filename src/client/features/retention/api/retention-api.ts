import type {
  ErasureBody,
  ErasureRecord,
  RetentionPreview,
  RetentionResponse,
  RetentionSettingsBody,
} from '@shared/schemas/retention';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

const SETTINGS_URL = '/api/staff/retention';

/** Retention's cache keys. */
export const retentionKeys = {
  all: ['retention'] as const,
  settings: ['retention', 'settings'] as const,
  preview: ['retention', 'preview'] as const,
  erasures: ['retention', 'erasures'] as const,
} as const;

/** The schedule and the last run's counts (staff). */
export function useRetention() {
  return useQuery({
    queryKey: retentionKeys.settings,
    queryFn: ({ signal }) => apiJson<RetentionResponse>('GET', SETTINGS_URL, undefined, { signal }),
  });
}

/** What the next run would remove today, by kind: read afresh each time it is shown. */
export function useRetentionPreview() {
  return useQuery({
    refetchOnMount: 'always',
    queryKey: retentionKeys.preview,
    queryFn: ({ signal }) =>
      apiJson<RetentionPreview>('GET', `${SETTINGS_URL}/preview`, undefined, { signal }),
  });
}

export function useSaveRetention() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RetentionSettingsBody) => apiJson<RetentionResponse>('PUT', SETTINGS_URL, body),
    onSuccess: (saved) => {
      queryClient.setQueryData(retentionKeys.settings, saved);
      // a new schedule changes what the next run would remove
      void queryClient.invalidateQueries({ queryKey: retentionKeys.preview });
    },
  });
}

/** Every erasure made: who, when, why, and what was removed and kept (nothing about the person). */
export function useErasures() {
  return useQuery({
    queryKey: retentionKeys.erasures,
    queryFn: ({ signal }) => apiJson<ErasureRecord[]>('GET', '/api/staff/erasures', undefined, { signal }),
  });
}

/** Erase one person; the users list, the safeguarding statuses and the erasures are read again. */
export function useErasePerson() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, body }: { userId: number; body: ErasureBody }) =>
      apiJson<ErasureRecord>('POST', `/api/staff/users/${userId}/erase`, body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: retentionKeys.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.staffUsers.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.safeguardingList.all });
    },
  });
}
