import { z } from 'zod';

/**
 * The kinds of event a person can choose how to hear of. A push names only the event (below) and a
 * link; what it is about loads after sign-in.
 */
export const NOTIFICATION_KINDS = [
  'offer-new',
  'offer-ended',
  'booking-changed',
  'availability-reminder',
  'safeguarding-expiring',
] as const;
export const notificationKind = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof notificationKind>;

/** What each kind is called on the settings page. */
export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, string> = {
  'offer-new': 'A new offer of a session',
  'offer-ended': 'An offer filled, withdrawn or expired',
  'booking-changed': 'A booking added, moved or cancelled on your calendar',
  'availability-reminder': 'Reminders to update your availability',
  'safeguarding-expiring': 'A safeguarding check about to expire',
};

/** The events a push names: each belongs to one kind. */
export const PUSH_EVENTS = {
  'offer-new': 'offer-new',
  'offer-filled': 'offer-ended',
  'offer-withdrawn': 'offer-ended',
  'offer-expired': 'offer-ended',
  'booking-added': 'booking-changed',
  'booking-moved': 'booking-changed',
  'booking-cancelled': 'booking-changed',
  'availability-reminder': 'availability-reminder',
  'safeguarding-expiring': 'safeguarding-expiring',
} as const satisfies Record<string, NotificationKind>;
export type PushEvent = keyof typeof PUSH_EVENTS;

/** What a push carries, all of it: the event and the portal path to open. */
export const pushPayload = z.object({
  kind: z.enum(Object.keys(PUSH_EVENTS) as [PushEvent, ...PushEvent[]]),
  link: z.string().regex(/^\/[^\s]*$/),
});
export type PushPayload = z.infer<typeof pushPayload>;

export const notificationChannel = z.enum(['push', 'email', 'both', 'none'], {
  error: 'Choose push, email, both or none',
});
export type NotificationChannel = z.infer<typeof notificationChannel>;

/** 'HH:MM', 24-hour clock, in the organisation's time zone */
const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Enter a time such as 22:00');

export const quietHours = z
  .object({ start: clockTime, end: clockTime })
  .refine((hours) => hours.start !== hours.end, {
    message: 'Quiet hours must end at another time than they start',
    path: ['end'],
  });
export type QuietHours = z.infer<typeof quietHours>;

export const notificationPreferences = z.object({
  channels: z.object(
    Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, notificationChannel])) as Record<
      NotificationKind,
      typeof notificationChannel
    >,
  ),
  /** null: no quiet hours */
  quietHours: quietHours.nullable(),
});
export type NotificationPreferences = z.infer<typeof notificationPreferences>;

/** The answer of GET /api/notifications/preferences: the choices and the time zone quiet hours are in. */
export const notificationPreferencesAnswer = notificationPreferences.extend({ timeZone: z.string() });

export const pushKeyAnswer = z.object({ publicKey: z.string() });

/** A browser's PushSubscription as `toJSON()` gives it, and the endpoint it replaces, if any. */
export const pushSubscriptionBody = z.object({
  endpoint: z.string().max(2000).url('Must be a URL'),
  keys: z.object({
    // an uncompressed P-256 point (65 bytes) and a 16-byte secret, base64url
    p256dh: z.string().regex(/^[A-Za-z0-9_-]{86,88}={0,2}$/, 'Must be a P-256 public key'),
    auth: z.string().regex(/^[A-Za-z0-9_-]{22,24}={0,2}$/, 'Must be a 16-byte secret'),
  }),
  replaces: z.string().max(2000).url().optional(),
});
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionBody>;

export const pushEndpointBody = z.object({ endpoint: z.string().max(2000).url('Must be a URL') });

export const pushSubscriptionAnswer = z.object({ subscribed: z.boolean() });

/** For staff: whether push services refuse the portal's key (401, 403) and how many devices get pushes. */
export const pushStatus = z.object({
  devices: z.number().int(),
  keyProblem: z.object({ status: z.number().int(), at: z.string() }).nullable(),
  queued: z.number().int(),
});
export type PushStatus = z.infer<typeof pushStatus>;

/**
 * The settings form: quiet hours as a switch and two times, which are checked only while the switch
 * is on; `preferencesFromForm` makes the body.
 */
export const notificationPreferencesForm = z
  .object({
    channels: notificationPreferences.shape.channels,
    quiet: z.boolean(),
    start: z.string(),
    end: z.string(),
  })
  .superRefine((form, ctx) => {
    if (!form.quiet) return;
    const checked = quietHours.safeParse({ start: form.start, end: form.end });
    if (checked.success) return;
    for (const issue of checked.error.issues)
      ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  });
export type NotificationPreferencesForm = z.infer<typeof notificationPreferencesForm>;

export function preferencesFromForm(form: NotificationPreferencesForm): NotificationPreferences {
  return { channels: form.channels, quietHours: form.quiet ? { start: form.start, end: form.end } : null };
}
