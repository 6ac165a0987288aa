import { z } from 'zod';

/** Why the portal is not ready to serve: the ready probe's `reason`. */
export const NOT_READY_REASONS = [
  'starting',
  'maintenance',
  'shutting-down',
  'client-not-built',
  'database-unreachable',
  'migrations-behind',
  'migrations-ahead',
] as const;
export type NotReadyReason = (typeof NOT_READY_REASONS)[number];

export const liveAnswer = z.object({ status: z.literal('live') });
export const readyAnswer = z.object({ status: z.literal('ready') });
export const notReadyAnswer = z.object({
  status: z.literal('not-ready'),
  reason: z.enum(NOT_READY_REASONS),
  message: z.string(),
});
export type NotReadyAnswer = z.infer<typeof notReadyAnswer>;
