import type {
  NotificationPreferences,
  PushStatus,
  PushSubscriptionBody,
} from '@shared/schemas/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';

export type PreferencesAnswer = NotificationPreferences & { timeZone: string };

export const notificationsKeys = {
  preferences: ['notifications', 'preferences'] as const,
  pushStatus: ['notifications', 'push-status'] as const,
} as const;

export function useNotificationPreferences() {
  return useQuery({
    queryKey: notificationsKeys.preferences,
    queryFn: ({ signal }) =>
      apiJson<PreferencesAnswer>('GET', '/api/notifications/preferences', undefined, { signal }),
  });
}

export function useSaveNotificationPreferences() {
  const queryClient = useQueryClient();
  return useMutation<PreferencesAnswer, Error, NotificationPreferences>({
    mutationFn: (body) => apiJson<PreferencesAnswer>('PUT', '/api/notifications/preferences', body),
    onSuccess: (saved) => queryClient.setQueryData(notificationsKeys.preferences, saved),
  });
}

/** For staff: whether push services refuse the portal's key. */
export function usePushStatus(enabled: boolean) {
  return useQuery({
    queryKey: notificationsKeys.pushStatus,
    queryFn: ({ signal }) => apiJson<PushStatus>('GET', '/api/push/status', undefined, { signal }),
    enabled,
  });
}

export const fetchPushKey = () => apiJson<{ publicKey: string }>('GET', '/api/push/key');
export const sendSubscription = (body: PushSubscriptionBody) =>
  apiJson<{ subscribed: boolean }>('POST', '/api/push/subscription', body);
export const removeSubscription = (endpoint: string) =>
  apiJson<{ subscribed: boolean }>('DELETE', '/api/push/subscription', { endpoint });
