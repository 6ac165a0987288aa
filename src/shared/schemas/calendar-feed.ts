import { z } from 'zod';

/**
 * The signed-in user's calendar feed. `path` is the feed's URL path (the browser adds its own origin);
 * null when the feed is off, or when the stored copy of the token can no longer be read (APP_SECRET
 * changed): then `enabled` is still true and rotating gives a new URL.
 */
export const calendarFeedStatus = z.object({
  enabled: z.boolean(),
  path: z.string().nullable(),
  createdAt: z.string().nullable(),
});
export type CalendarFeedStatus = z.infer<typeof calendarFeedStatus>;

/** The feed route's parameter: anything, so that a malformed token is an unknown one (404), not a 400. */
export const calendarFeedTokenParam = z.object({ token: z.string() });

/** What the feed covers, counted from today in ORG_TIMEZONE: bounded so a fetch stays cheap. */
export const CALENDAR_FEED_DAYS_BACK = 92;
export const CALENDAR_FEED_DAYS_AHEAD = 366;
/** How often calendar apps are asked to fetch again (some honour it, Google decides for itself). */
export const CALENDAR_FEED_REFRESH = 'PT1H';
