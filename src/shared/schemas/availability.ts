import { z } from 'zod';
import { bodyId, dateString, timeString } from './common';

export const AVAILABILITY_STATUSES = ['available', 'limited', 'unavailable'] as const;
export type AvailabilityStatus = (typeof AVAILABILITY_STATUSES)[number];
export const availabilityStatus = z.enum(AVAILABILITY_STATUSES, {
  error: 'Status must be available, limited or unavailable',
});

export const BOOKED_DAY_MESSAGE =
  'This date has confirmed bookings and cannot be modified to maintain data integrity.';

export const availability = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  date: z.string(),
  status: availabilityStatus,
  startTime: z.string(),
  endTime: z.string(),
  notes: z.string(),
  syncedToSharePoint: z.boolean(),
});
export type Availability = z.infer<typeof availability>;

const notesField = z.string().max(2000, 'Notes must be at most 2000 characters');
const userIdField = bodyId;

const timesInOrder = (value: { startTime?: string | undefined; endTime?: string | undefined }) =>
  !value.startTime || !value.endTime || value.startTime < value.endTime;
const timesMessage = { message: 'End time must be after start time', path: ['endTime'] };

/** One day (spec section 5). `userId` is optional: the session's user is meant. */
export const saveAvailabilityBody = z
  .object({
    userId: userIdField.optional(),
    date: dateString,
    status: availabilityStatus,
    startTime: timeString.optional().default(''),
    endTime: timeString.optional().default(''),
    notes: notesField.optional().default(''),
  })
  .refine(timesInOrder, timesMessage);
export type SaveAvailabilityBody = z.input<typeof saveAvailabilityBody>;

/** Bulk update: days of week are 0 (Sunday) to 6 (Saturday). */
export const bulkAvailabilityBody = z
  .object({
    userId: userIdField.optional(),
    startDate: dateString,
    endDate: dateString,
    daysOfWeek: z
      .array(z.number().int().min(0, 'Days of week are 0 to 6').max(6, 'Days of week are 0 to 6'))
      .min(1, 'Choose at least one day of the week')
      .max(7),
    status: availabilityStatus,
    startTime: timeString.optional().default(''),
    endTime: timeString.optional().default(''),
    notes: notesField.optional().default(''),
  })
  .refine((value) => value.startDate <= value.endDate, {
    message: 'End date must be on or after start date',
    path: ['endDate'],
  })
  .refine(timesInOrder, timesMessage);
export type BulkAvailabilityBody = z.input<typeof bulkAvailabilityBody>;

/** A bulk update may cover at most this many days (about two years). */
export const MAX_BULK_DAYS = 800;

export const bulkAvailabilityResult = z.object({
  updated: z.number().int(),
  skippedBookedDates: z.array(z.string()),
});
export type BulkAvailabilityResult = z.infer<typeof bulkAvailabilityResult>;

/** Staff edit of any facilitator's day: userId is required. */
export const staffSaveAvailabilityBody = z
  .object({
    userId: userIdField,
    date: dateString,
    status: availabilityStatus,
    startTime: timeString.optional().default(''),
    endTime: timeString.optional().default(''),
    notes: notesField.optional().default(''),
  })
  .refine(timesInOrder, timesMessage);
export type StaffSaveAvailabilityBody = z.input<typeof staffSaveAvailabilityBody>;

export const syncAllBody = z.object({ userId: userIdField.optional() });
export const syncAllResult = z.object({ queued: z.number().int() });
