import { z } from 'zod';
import { hasInvisibleCharacters, withoutInvisibleCharacters } from '../username';

const wholeNumber = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be from ${min} to ${max}`)
    .max(max, `${label} must be from ${min} to ${max}`);

/**
 * The retention schedule. `certificateMonths`: how long after a person leaves their full DBS
 * certificate number is kept (then only its last four digits, with the check's date, type and
 * result). `anonymiseMonths`: how long after leaving their personal details are anonymised.
 * `recordsYears`: availability, offers, notes, reminders sent and history older than this are removed.
 */
export const retentionSettingsBody = z
  .object({
    certificateMonths: wholeNumber('Months a leaver’s certificate number is kept', 0, 120),
    anonymiseMonths: wholeNumber('Months before a leaver is anonymised', 1, 240),
    recordsYears: wholeNumber('Years records are kept', 1, 50),
  })
  .refine((value) => value.anonymiseMonths >= value.certificateMonths, {
    message: 'A leaver is anonymised no sooner than their certificate number is shortened',
    path: ['anonymiseMonths'],
  });
export type RetentionSettingsBody = z.infer<typeof retentionSettingsBody>;

/**
 * The defaults follow the DBS code of practice (certificate information kept no more than six months
 * after the decision it served, then only the fact of the check) and the six years accounting records
 * are kept for.
 */
export const DEFAULT_RETENTION: RetentionSettingsBody = {
  certificateMonths: 6,
  anonymiseMonths: 12,
  recordsYears: 6,
};

/** A whole number as typed: digits only (spaces around them aside), else not a number, which its rule refuses. */
const typedNumber = z.string().transform((text) => (/^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN));

/** The settings form as typed (numbers as text), parsed into the body with its rules. */
export const retentionSettingsForm = z
  .object({ certificateMonths: typedNumber, anonymiseMonths: typedNumber, recordsYears: typedNumber })
  .pipe(retentionSettingsBody);
export type RetentionSettingsForm = z.input<typeof retentionSettingsForm>;

/** What a run of the schedule does, by kind: counts only. */
export const RETENTION_KINDS = [
  'certificateNumbers',
  'leaversAnonymised',
  'availability',
  'offers',
  'notes',
  'reminderSends',
  'history',
  'certificateViews',
  'recordVersions',
  'photos',
] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];
export const retentionCounts = z.object(
  Object.fromEntries(RETENTION_KINDS.map((kind) => [kind, z.number().int()])) as Record<
    RetentionKind,
    z.ZodNumber
  >,
);
export type RetentionCounts = z.infer<typeof retentionCounts>;

export const retentionResponse = z.object({
  settings: z.object({
    certificateMonths: z.number().int(),
    anonymiseMonths: z.number().int(),
    recordsYears: z.number().int(),
  }),
  lastRun: z.object({ ranAt: z.string(), counts: retentionCounts }).nullable(),
});
export type RetentionResponse = z.infer<typeof retentionResponse>;

/** What the next run would do if it ran today: `asOf` is today in the organisation's time zone. */
export const retentionPreview = z.object({
  asOf: z.string(),
  /** records dated before this day are removed */
  recordsBefore: z.string(),
  counts: retentionCounts,
});
export type RetentionPreview = z.infer<typeof retentionPreview>;

export const ERASURE_REASON_MAX = 500;

/** Why staff erase a person: recorded with the erasure, so it must not name them. */
export const erasureBody = z.object({
  reason: z
    .string({ error: 'Give the reason for the erasure' })
    .trim()
    .max(ERASURE_REASON_MAX, `The reason is at most ${ERASURE_REASON_MAX} characters`)
    .superRefine((value, ctx) => {
      if (withoutInvisibleCharacters(value).trim().length === 0)
        ctx.addIssue({ code: 'custom', message: 'Give the reason for the erasure' });
      else if (hasInvisibleCharacters(value))
        ctx.addIssue({
          code: 'custom',
          message: 'The reason must not contain invisible or text-direction characters',
        });
    }),
});
export type ErasureBody = z.input<typeof erasureBody>;

/**
 * What an erasure removes or keeps, by kind, and the plain words the screens show for each. The
 * erasure record stores the kind; a kind recorded before these existed is shown as it was stored.
 */
export const ERASURE_KIND_LABELS = {
  signInSessions: 'Sign-in sessions',
  calendarFeed: 'Calendar feed',
  microsoftSignIn: 'Microsoft sign-in link',
  microsoftInvitations: 'Microsoft sign-in invitations',
  passwordLinks: 'Password links',
  signInAttempts: 'Failed sign-in counts',
  requestBudgets: 'Request limit counts',
  sharePointAvailability: 'SharePoint availability items to remove',
  availabilityOutbox: 'Availability waiting to be sent to SharePoint',
  availability: 'Availability days',
  notes: 'Staff notes',
  bookingOutbox: 'Session changes waiting to be sent to SharePoint',
  offers: 'Offers',
  sessions: 'Sessions delivered',
  availabilityReminders: 'Availability reminders sent',
  safeguardingRecords: 'Safeguarding records',
  safeguardingReminders: 'Safeguarding reminders sent',
  history: 'History entries',
  passkeys: 'Passkeys',
  passkeyChallenges: 'Passkey sign-ins under way',
  pushOutbox: 'Notifications waiting to be sent',
  pushSubscriptions: 'Devices receiving notifications',
  notificationChoices: 'Notification choices',
  quietHours: 'Quiet hours',
  certificateViews: 'Certificate viewing log entries',
  recordVersions: 'Earlier safeguarding records',
  photo: 'Photo',
  erasures: 'Erasures they made',
  account: 'Account',
} as const;
export type ErasureKind = keyof typeof ERASURE_KIND_LABELS;

/** The words for a kind of an erasure record. */
export const erasureKindLabel = (kind: string): string =>
  Object.hasOwn(ERASURE_KIND_LABELS, kind) ? ERASURE_KIND_LABELS[kind as ErasureKind] : kind;

/** An erasure as recorded: nothing about the person erased. */
export const erasureRecord = z.object({
  id: z.number().int(),
  erasedAt: z.string(),
  erasedBy: z.string(),
  reason: z.string(),
  removed: z.record(z.string(), z.number().int()),
  kept: z.array(z.object({ kind: z.string(), count: z.number().int(), why: z.string() })),
});
export type ErasureRecord = z.infer<typeof erasureRecord>;
