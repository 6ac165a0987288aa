import { z } from 'zod';

export const booking = z.object({
  id: z.number().int(),
  userId: z.number().int().nullable(),
  title: z.string(),
  date: z.string(),
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
  location: z.string().nullable(),
  sharePointId: z.string(),
  schoolId: z.string().nullable(),
  schoolName: z.string().nullable(),
  schoolAddress: z.string().nullable(),
  schoolPostcode: z.string().nullable(),
  program: z.string().nullable(),
  timeSlot: z.string().nullable(),
  deliveryType: z.string().nullable(),
  year: z.string().nullable(),
});
export type Booking = z.infer<typeof booking>;

export const refreshResult = z.object({
  added: z.number().int(),
  updated: z.number().int(),
  removed: z.number().int(),
  total: z.number().int(),
  unmatched: z.number().int().optional(),
});
export type RefreshResult = z.infer<typeof refreshResult>;
