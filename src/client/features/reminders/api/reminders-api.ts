import type {
  ReminderSettingsBody,
  ReminderSettingsResponse,
  SendRemindersBody,
  SendRemindersResponse,
} from '@shared/schemas/reminders';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';

const REMINDER_SETTINGS_URL = '/api/staff/reminders/settings';

/** The reminders' cache keys. */
export const reminderKeys = {
  settings: ['reminder-settings'] as const,
} as const;

export function useReminderSettings() {
  return useQuery<ReminderSettingsResponse, Error>({
    queryKey: reminderKeys.settings,
    queryFn: () => apiJson<ReminderSettingsResponse>('GET', REMINDER_SETTINGS_URL),
  });
}

export function useSaveReminderSettings() {
  const queryClient = useQueryClient();
  return useMutation<ReminderSettingsResponse, Error, ReminderSettingsBody>({
    mutationFn: (body) => apiJson<ReminderSettingsResponse>('PUT', REMINDER_SETTINGS_URL, body),
    onSuccess: (saved) => queryClient.setQueryData(reminderKeys.settings, saved),
  });
}

/**
 * Sends the month's reminders. The completeness report is read again once they are sent (it says who
 * was reminded), by the mutation itself: whether or not the page that sent them is still open.
 */
export function useSendReminders() {
  const queryClient = useQueryClient();
  return useMutation<SendRemindersResponse, Error, SendRemindersBody>({
    mutationFn: (body) => apiJson<SendRemindersResponse>('POST', '/api/staff/reminders/send', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.completeness.all }),
  });
}
