import type {
  ReminderSettingsBody,
  ReminderSettingsResponse,
  SendRemindersBody,
  SendRemindersResponse,
} from '@shared/schemas/reminders';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';

export const REMINDER_SETTINGS_KEY = '/api/staff/reminders/settings';

export function useReminderSettings() {
  return useQuery<ReminderSettingsResponse, Error>({ queryKey: [REMINDER_SETTINGS_KEY] });
}

export function useSaveReminderSettings() {
  const queryClient = useQueryClient();
  return useMutation<ReminderSettingsResponse, Error, ReminderSettingsBody>({
    mutationFn: (body) => apiJson<ReminderSettingsResponse>('PUT', REMINDER_SETTINGS_KEY, body),
    onSuccess: (saved) => queryClient.setQueryData([REMINDER_SETTINGS_KEY], saved),
  });
}

export function useSendReminders() {
  return useMutation<SendRemindersResponse, Error, SendRemindersBody>({
    mutationFn: (body) => apiJson<SendRemindersResponse>('POST', '/api/staff/reminders/send', body),
  });
}
