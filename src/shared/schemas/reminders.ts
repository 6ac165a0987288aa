import { z } from 'zod';
import { AUTO_MONTHS, SMTP_SECURITY } from '../reminders';
import { bodyId } from './common';
import { monthString } from './completeness';

export {
  AUTO_MONTHS,
  AUTO_REMINDER_HOUR,
  type AutoMonth,
  DEFAULT_SMTP_PORTS,
  SMTP_SECURITY,
  type SmtpSecurity,
} from '../reminders';

const HOSTNAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*\.?$/;
const IPV6 = /^\[?[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*\]?$/;
const EMAIL =
  /^[^\s@<>()[\]\\,;:"]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

/** A plain `name@example.org` (no display name, no comments): what a message is sent to or from. */
export function isEmailAddress(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value);
}

const host = z
  .string()
  .trim()
  .max(253, 'Host must be at most 253 characters')
  .refine(
    (value) => value === '' || HOSTNAME.test(value) || IPV6.test(value),
    'Enter a host name such as smtp.example.org',
  )
  .transform((value) => value.replace(/^\[(.*)\]$/, '$1'));

const port = z
  .union(
    [
      z.number(),
      z
        .string()
        .trim()
        .regex(/^\d{1,5}$/),
    ],
    { error: 'Port must be a whole number' },
  )
  .transform(Number)
  .pipe(
    z
      .number({ error: 'Port must be a whole number' })
      .int('Port must be a whole number')
      .min(1, 'Port must be between 1 and 65535')
      .max(65535, 'Port must be between 1 and 65535'),
  );

export const reminderSettingsBody = z
  .object({
    host,
    port,
    security: z.enum(SMTP_SECURITY, { error: 'Security must be none, starttls or tls' }),
    username: z.string().trim().max(254, 'Username must be at most 254 characters').default(''),
    /** write-only: blank keeps the stored one; a blank username removes it */
    password: z.string().max(1000, 'Password must be at most 1000 characters').default(''),
    fromAddress: z
      .string()
      .trim()
      .max(254, 'Sender address must be at most 254 characters')
      .refine(
        (value) => value === '' || isEmailAddress(value),
        'Enter an email address such as portal@example.org',
      ),
    autoEnabled: z.boolean({ error: 'Automatic reminder must be on or off' }),
    autoDay: z
      .number({ error: 'Day must be a whole number from 1 to 28' })
      .int('Day must be a whole number from 1 to 28')
      .min(1, 'Day must be a whole number from 1 to 28')
      .max(28, 'Day must be a whole number from 1 to 28'),
    autoMonth: z.enum(AUTO_MONTHS, { error: 'Month must be next or current' }),
  })
  .superRefine((value, ctx) => {
    if (value.host) {
      if (!value.fromAddress)
        ctx.addIssue({
          code: 'custom',
          path: ['fromAddress'],
          message: 'Sender address is required to send email',
        });
    } else if (value.autoEnabled) {
      ctx.addIssue({
        code: 'custom',
        path: ['autoEnabled'],
        message: 'Set up the email server before turning on the automatic reminder',
      });
    }
  });
export type ReminderSettingsBody = z.input<typeof reminderSettingsBody>;
export type ReminderSettingsInput = z.output<typeof reminderSettingsBody>;

export const reminderSettingsResponse = z.object({
  host: z.string(),
  port: z.number().int(),
  security: z.enum(SMTP_SECURITY),
  username: z.string(),
  hasPassword: z.boolean(),
  fromAddress: z.string(),
  /** where reminders link to: the operator's PUBLIC_URL, read-only here; '' while it is not set */
  portalUrl: z.string(),
  autoEnabled: z.boolean(),
  autoDay: z.number().int(),
  autoMonth: z.enum(AUTO_MONTHS),
  /** host, sender and PUBLIC_URL are set: reminders can be sent */
  configured: z.boolean(),
  /** the next automatic reminder: the day (ORG_TIMEZONE) and the month it is about; null when off */
  nextAutomatic: z.object({ date: z.string(), month: z.string(), label: z.string() }).nullable(),
  /**
   * this save removed the stored password: the server, port, security or username changed and no
   * password was typed, and a password is only ever sent to the server it was typed for
   */
  passwordCleared: z.boolean(),
});
export type ReminderSettingsResponse = z.infer<typeof reminderSettingsResponse>;

export const sendRemindersBody = z.object({
  month: monthString,
  /** only these facilitators (still only the partial and missing ones); missing: all of them */
  userIds: z
    .array(bodyId, { error: 'userIds must be a list of facilitator ids' })
    .min(1, 'Choose at least one facilitator')
    .max(5000, 'At most 5000 facilitators at a time')
    .optional(),
});
export type SendRemindersBody = z.input<typeof sendRemindersBody>;

export const REMINDER_OUTCOMES = ['sent', 'skipped', 'failed'] as const;
export type ReminderOutcome = (typeof REMINDER_OUTCOMES)[number];

export const reminderResult = z.object({
  userId: z.number().int(),
  name: z.string(),
  email: z.string().nullable(),
  outcome: z.enum(REMINDER_OUTCOMES),
  /** why it was skipped or failed; null when sent */
  reason: z.string().nullable(),
});
export type ReminderResult = z.infer<typeof reminderResult>;

export const sendRemindersResponse = z.object({
  month: z.string(),
  label: z.string(),
  sent: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  results: z.array(reminderResult),
});
export type SendRemindersResponse = z.infer<typeof sendRemindersResponse>;
