import type { CalendarFeedStatus } from '@shared/schemas/calendar-feed';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';

const CALENDAR_FEED_URL = '/api/calendar-feed';

export const calendarFeedKeys = {
  status: ['calendar-feed'] as const,
} as const;

export function useCalendarFeed() {
  return useQuery({
    queryKey: calendarFeedKeys.status,
    queryFn: ({ signal }) => apiJson<CalendarFeedStatus>('GET', CALENDAR_FEED_URL, undefined, { signal }),
  });
}

const OFF: CalendarFeedStatus = { enabled: false, path: null, createdAt: null };

/** Turn on, rotate, turn off: each answer is the feed's new state. */
export function useCalendarFeedAction() {
  const queryClient = useQueryClient();
  return useMutation<CalendarFeedStatus, Error, 'on' | 'rotate' | 'off'>({
    mutationFn: async (action) => {
      if (action === 'off') {
        await apiJson<void>('DELETE', CALENDAR_FEED_URL);
        return OFF;
      }
      return apiJson<CalendarFeedStatus>(
        'POST',
        action === 'on' ? CALENDAR_FEED_URL : `${CALENDAR_FEED_URL}/rotate`,
      );
    },
    onSuccess: (status) => queryClient.setQueryData(calendarFeedKeys.status, status),
  });
}

/** The feed's full URL on this site (the server only knows the path: it may sit behind a proxy). */
export function feedUrl(path: string, origin: string = window.location.origin): string {
  return new URL(path, origin).toString();
}

/** The same URL for Apple Calendar, which opens webcal: links as a subscription. */
export function webcalUrl(url: string): string {
  return url.replace(/^https?:/, 'webcal:');
}
