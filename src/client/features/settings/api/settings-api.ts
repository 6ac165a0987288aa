import type { SchedulerStatus } from '@shared/schemas/scheduler';
import type { SettingsBody, SettingsResponse, TestConnectionResult } from '@shared/schemas/settings';
import type { ColumnCheckResult } from '@shared/schemas/sharepoint-columns';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

export const settingsKeys = {
  sharePoint: ['sharepoint-settings'] as const,
} as const;
/** The settings are cached for 5 minutes. */
export const SETTINGS_CACHE_MS = 5 * 60 * 1000;

export function useSharePointSettings() {
  return useQuery({
    queryKey: settingsKeys.sharePoint,
    queryFn: ({ signal }) =>
      apiJson<SettingsResponse>('GET', '/api/sharepoint/settings', undefined, { signal }),
    staleTime: SETTINGS_CACHE_MS,
    gcTime: SETTINGS_CACHE_MS,
  });
}

export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation<SettingsResponse, Error, SettingsBody>({
    mutationFn: (body) => apiJson<SettingsResponse>('POST', '/api/sharepoint/settings', body),
    onSuccess: (saved) => queryClient.setQueryData(settingsKeys.sharePoint, saved),
  });
}

/** Tries the typed settings without saving them; a blank secret means the stored one. */
export function useTestConnection() {
  return useMutation<TestConnectionResult, Error, SettingsBody>({
    mutationFn: (body) =>
      apiJson<TestConnectionResult>('POST', '/api/sharepoint/test-connection-with-credentials', body),
  });
}

/** Reads the typed settings' lists and matches each portal field to a column; nothing is saved. */
export function useCheckColumns() {
  return useMutation<ColumnCheckResult, Error, SettingsBody>({
    mutationFn: (body) => apiJson<ColumnCheckResult>('POST', '/api/sharepoint/columns', body),
  });
}

/** SharePoint work that keeps failing, with what to do (read each time the settings page opens). */
export function useSharePointProblems() {
  return useQuery<SchedulerStatus, Error, SchedulerStatus['sharePointProblems']>({
    queryKey: queryKeys.schedulerStatus.all,
    queryFn: () => apiJson<SchedulerStatus>('GET', '/api/admin/scheduler/status'),
    select: (status) => status.sharePointProblems,
    refetchOnMount: 'always',
  });
}
