import { z } from 'zod';

/** `?validationToken=…`: Graph's handshake when a subscription is made; echoed as text/plain. */
export const notificationQuery = z.object({
  validationToken: z.string().min(1).max(1024).optional(),
});

/** What Graph POSTs when a subscribed list changes; only the fields the portal checks. */
export const changeNotifications = z.object({
  value: z
    .array(
      z.object({
        subscriptionId: z.string().max(200),
        clientState: z.string().max(200).nullable().optional(),
        changeType: z.string().max(100).optional(),
        resource: z.string().max(1000).optional(),
      }),
    )
    .min(1)
    .max(100),
});
export type ChangeNotifications = z.infer<typeof changeNotifications>;
