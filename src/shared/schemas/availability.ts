import { z } from 'zod';
import { AVAILABILITY_NOTES_MAX, AVAILABILITY_STATUSES } from '../availability';
import { daysBetween, isDateString } from '../calendar';
import { blankIfInvisible } from '../username';
import { bodyId, dateString, timeString } from './common';

export {
  AVAILABILITY_NOTES_MAX,
  AVAILABILITY_STATUSES,
  type AvailabilityStatus,
  BOOKED_DAY_MESSAGE,
} from '../availability';
export const availabilityStatus = z.enum(AVAILABILITY_STATUSES, {
  error: 'Status must be available, limited or unavailable',
});

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

const notesField = z
  .string()
  .max(AVAILABILITY_NOTES_MAX, `Notes must be at most ${AVAILABILITY_NOTES_MAX} characters`)
  .transform(blankIfInvisible);
const userIdField = bodyId;

const timesInOrder = (value: { startTime?: string | undefined; endTime?: string | undefined }) =>
  !value.startTime || !value.endTime || value.startTime < value.endTime;
const timesMessage = { message: 'End time must be after start time', path: ['endTime'] };
const datesInOrder = (value: { startDate: string; endDate: string }) => value.startDate <= value.endDate;
const datesMessage = { message: 'End date must be on or after start date', path: ['endDate'] };
const daysOfWeekField = z
  .array(z.number().int().min(0, 'Days of week are 0 to 6').max(6, 'Days of week are 0 to 6'))
  .min(1, 'Choose at least one day of the week')
  .max(7);

/** One day. `userId` is optional: the session's user is meant. */
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
    daysOfWeek: daysOfWeekField,
    status: availabilityStatus,
    startTime: timeString.optional().default(''),
    endTime: timeString.optional().default(''),
    notes: notesField.optional().default(''),
  })
  .refine(datesInOrder, datesMessage)
  .refine(timesInOrder, timesMessage);
export type BulkAvailabilityBody = z.input<typeof bulkAvailabilityBody>;

/** What the availability dialogs edit for a day: every field present, as the bodies check them. */
const dayFormFields = {
  status: availabilityStatus,
  startTime: timeString,
  endTime: timeString,
  notes: notesField,
};

/** The day dialog's form (the body adds the day and the person, which the dialog knows). */
export const availabilityDayForm = z.object(dayFormFields).refine(timesInOrder, timesMessage);
export type AvailabilityDayForm = z.infer<typeof availabilityDayForm>;

/** A bulk update may cover at most this many days (about two years). */
export const MAX_BULK_DAYS = 800;

/** A range of days and weekdays with a day's fields: the bulk body's rules, without the person. */
export const bulkSelectionForm = z
  .object({ startDate: dateString, endDate: dateString, daysOfWeek: daysOfWeekField, ...dayFormFields })
  .refine(datesInOrder, datesMessage)
  .refine(timesInOrder, timesMessage);

/** The bulk dialog's form: the range is checked against the cap before anything is sent. */
export const bulkAvailabilityForm = bulkSelectionForm.refine(
  (value) =>
    !isDateString(value.startDate) ||
    !isDateString(value.endDate) ||
    daysBetween(value.startDate, value.endDate) <= MAX_BULK_DAYS,
  {
    message: `A bulk update can cover at most ${MAX_BULK_DAYS} days (about two years): choose a later start or an earlier end`,
    path: ['endDate'],
  },
);
export type BulkAvailabilityForm = z.infer<typeof bulkAvailabilityForm>;

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
