import { z } from 'zod';
import { MAX_EXPORT_DAYS } from '../exports';
import { dayLabel } from '../safeguarding';
import { dateString, nonBlankText, urlId } from './common';
import { safeguardingStatus as safeguardingStatusSchema } from './safeguarding';

// ---------------------------------------------------------------------------------------------------
// The viewing log

/** Where a whole certificate number was shown or exported. */
export const CERTIFICATE_VIEW_VIAS = [
  'staff-records',
  'staff-records-saved',
  'own-records',
  'subject-access',
] as const;
export type CertificateViewVia = (typeof CERTIFICATE_VIEW_VIAS)[number];

/** How each is named on screens and in the subject access archive. */
export const CERTIFICATE_VIEW_LABELS: Record<CertificateViewVia, string> = {
  'staff-records': 'Safeguarding records opened by staff',
  'staff-records-saved': 'Safeguarding records saved by staff',
  'own-records': 'Their own safeguarding records',
  'subject-access': 'Subject access archive',
};

export const certificateView = z.object({
  id: z.number().int(),
  at: z.string(),
  viewerId: z.number().int().nullable(),
  viewerName: z.string(),
  via: z.enum(CERTIFICATE_VIEW_VIAS),
});
export type CertificateView = z.infer<typeof certificateView>;

export const certificateViewsResponse = z.object({
  userId: z.number().int(),
  views: z.array(certificateView),
  /** more older entries than the answer holds */
  more: z.boolean(),
});
export type CertificateViewsResponse = z.infer<typeof certificateViewsResponse>;

// ---------------------------------------------------------------------------------------------------
// The school's assurance

export const ASSURANCE_STATEMENT_MAX = 2000;

export const DEFAULT_ASSURANCE_STATEMENT =
  'We confirm that the checks shown here were made on each person named, as required by Keeping ' +
  'Children Safe in Education, and that they stood as shown on the date of the session. Certificate ' +
  'numbers show their last four digits only.';

export const assuranceStatementBody = z.object({
  statement: nonBlankText('Enter the confirmation statement').pipe(
    z.string().max(ASSURANCE_STATEMENT_MAX, `The statement is at most ${ASSURANCE_STATEMENT_MAX} characters`),
  ),
});
export type AssuranceStatementBody = z.input<typeof assuranceStatementBody>;

export const assuranceStatementResponse = z.object({
  statement: z.string(),
  /** null: the default statement, never saved */
  updatedAt: z.string().nullable(),
});
export type AssuranceStatementResponse = z.infer<typeof assuranceStatementResponse>;

const blankIsAbsent = (value: unknown) => (value === '' ? undefined : value);

/** One booking (`bookingId`), or the sessions at one school (optional) between two days. */
export const assuranceQuery = z
  .object({
    bookingId: z.preprocess(blankIsAbsent, urlId.optional()),
    from: z.preprocess(blankIsAbsent, dateString.optional()),
    to: z.preprocess(blankIsAbsent, dateString.optional()),
    school: z.preprocess(
      blankIsAbsent,
      z.string().trim().min(1).max(200, 'A school name is at most 200 characters').optional(),
    ),
  })
  .refine((value) => value.bookingId !== undefined || (value.from !== undefined && value.to !== undefined), {
    message: 'Choose a session, or a first and last day',
    path: ['from'],
  })
  .refine((value) => value.bookingId === undefined || (value.from === undefined && value.to === undefined), {
    message: 'Choose a session or a range of days, not both',
    path: ['bookingId'],
  })
  .refine((value) => !value.from || !value.to || value.from <= value.to, {
    message: 'The last day must be on or after the first',
    path: ['to'],
  })
  .refine(
    (value) =>
      !value.from ||
      !value.to ||
      (Date.parse(`${value.to}T00:00:00Z`) - Date.parse(`${value.from}T00:00:00Z`)) / 86_400_000 <=
        MAX_EXPORT_DAYS,
    { message: `At most ${MAX_EXPORT_DAYS} days after the first day`, path: ['to'] },
  );
export type AssuranceQuery = z.output<typeof assuranceQuery>;

export const assuranceDbs = z.object({
  /** the last four digits, the rest starred */
  certificate: z.string(),
  issueDate: z.string(),
  enhancedWithBarredList: z.boolean(),
  onUpdateService: z.boolean(),
  statusCheckedOn: z.string().nullable(),
});

export const assurancePerson = z.object({
  userId: z.number().int(),
  name: z.string(),
  hasPhoto: z.boolean(),
  /** the day the records shown were saved; null: none had been saved by the session's day */
  recordedOn: z.string().nullable(),
  dbs: assuranceDbs.nullable(),
  checks: z.array(z.object({ type: z.string(), validUntil: z.string() })),
  status: safeguardingStatusSchema,
});
export type AssurancePerson = z.infer<typeof assurancePerson>;

export const assuranceSession = z.object({
  bookingId: z.number().int(),
  date: z.string(),
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
  school: z.string(),
  address: z.string(),
  session: z.string(),
  person: assurancePerson,
});
export type AssuranceSession = z.infer<typeof assuranceSession>;

const ASSURANCE_STATE_WORDS = {
  valid: 'In date',
  expiring: 'In date (renewal due soon)',
  expired: 'Expired',
  missing: 'Missing',
} as const;

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

/** A session's heading on the assurance: its day, times and school. */
export function assuranceHeading(session: AssuranceSession): string {
  const times = session.startTime && session.endTime ? `, ${session.startTime}–${session.endTime}` : '';
  return `${dayLabel(session.date)}${times} · ${session.school || 'No school named'}`;
}

/**
 * What the assurance says of the person sent, as label and value, in order: the page and the PDF
 * both show these, so they say the same.
 */
export function assuranceLines(person: AssurancePerson): Array<[label: string, value: string]> {
  const dbs = person.dbs;
  return [
    ['Person sent', person.name],
    ...(dbs
      ? ([
          ['Enhanced DBS with barred list', yesNo(dbs.enhancedWithBarredList)],
          ['Certificate number', dbs.certificate],
          ['Issued', dayLabel(dbs.issueDate)],
          ['On the Update Service', yesNo(dbs.onUpdateService)],
          [
            'Update Service status checked',
            dbs.statusCheckedOn ? dayLabel(dbs.statusCheckedOn) : 'Not recorded',
          ],
        ] satisfies Array<[string, string]>)
      : ([['Enhanced DBS', 'None recorded by the session’s day']] satisfies Array<[string, string]>)),
    ...person.checks.map((check): [string, string] => [
      check.type,
      `valid until ${dayLabel(check.validUntil)}`,
    ]),
    ['Checks on the session’s day', ASSURANCE_STATE_WORDS[person.status.state]],
    ['As recorded on', person.recordedOn ? dayLabel(person.recordedOn) : 'Nothing recorded by then'],
  ];
}

export const assuranceResponse = z.object({
  statement: z.string(),
  /** when the page was made (ISO) */
  generatedAt: z.string(),
  sessions: z.array(assuranceSession),
});
export type AssuranceResponse = z.infer<typeof assuranceResponse>;

// ---------------------------------------------------------------------------------------------------
// Photos

/** The largest file staff may upload; it is resized and re-encoded before it is kept. */
export const PHOTO_MAX_BYTES = 5 * 1024 * 1024;
const BASE64_MAX = Math.ceil(PHOTO_MAX_BYTES / 3) * 4;

export const photoBody = z.object({
  /** the image file, base64 */
  image: z
    .string()
    .min(1, 'Choose a photo')
    .max(BASE64_MAX, 'The photo is larger than 5 MB')
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'The photo could not be read'),
});
export type PhotoBody = z.infer<typeof photoBody>;

export const photoResponse = z.object({
  userId: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
  uploadedAt: z.string(),
});
export type PhotoResponse = z.infer<typeof photoResponse>;
