import { z } from 'zod';
import { checkTypeKey, SAFEGUARDING_STATES } from '../safeguarding';
import { hasInvisibleCharacters, withoutInvisibleCharacters } from '../username';
import { dateString } from './common';
import { MAX_EXPORT_DAYS } from './exports';

export const MAX_CHECK_TYPES = 20;
export const CHECK_TYPE_MAX_LENGTH = 60;

const wholeNumber = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be from ${min} to ${max}`)
    .max(max, `${label} must be from ${min} to ${max}`);

/**
 * A name people read in lists, the history and exported files: something visible, and nothing that
 * shows nothing or turns the text around (zero-width and bidirectional control characters), which
 * could make one name look like another or show reversed in a page or a spreadsheet.
 */
const visibleName = (label: string, max: number, blank: string) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} is at most ${max} characters`)
    .superRefine((value, ctx) => {
      if (withoutInvisibleCharacters(value).trim().length === 0)
        ctx.addIssue({ code: 'custom', message: blank });
      else if (hasInvisibleCharacters(value))
        ctx.addIssue({
          code: 'custom',
          message: `${label} must not contain invisible or text-direction characters`,
        });
    });

const checkTypeName = visibleName('A check type', CHECK_TYPE_MAX_LENGTH, 'A check type needs a name').refine(
  (value) => checkTypeKey(value) !== 'dbs',
  'The DBS check is always kept; name other checks',
);

export const safeguardingPolicyBody = z.object({
  dbsMonths: wholeNumber('Months without the Update Service', 1, 120),
  updateServiceMonths: wholeNumber('Months on the Update Service', 1, 120),
  warningDays: wholeNumber('Warning days', 0, 365),
  checkTypes: z
    .array(checkTypeName, { error: 'Check types must be a list of names' })
    .max(MAX_CHECK_TYPES, `At most ${MAX_CHECK_TYPES} check types`)
    .refine(
      (names) => new Set(names.map(checkTypeKey)).size === names.length,
      'Each check type may be listed once',
    ),
});
export type SafeguardingPolicyBody = z.infer<typeof safeguardingPolicyBody>;

/** A whole number as typed: digits only (spaces around them aside), else not a number, which its rule refuses. */
const typedNumber = z.string().transform((text) => (/^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN));

/** The policy form as typed (numbers as text, one check type per line), parsed into the body with its rules. */
export const safeguardingPolicyForm = z
  .object({
    dbsMonths: typedNumber,
    updateServiceMonths: typedNumber,
    warningDays: typedNumber,
    checkTypes: z.string().transform((text) =>
      text
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
    ),
  })
  .pipe(safeguardingPolicyBody);
export type SafeguardingPolicyForm = z.input<typeof safeguardingPolicyForm>;
export const safeguardingPolicyResponse = safeguardingPolicyBody;

/** A DBS certificate number is 12 digits; spaces people type between groups are dropped. */
const certificateNumber = z
  .string({ error: 'Certificate number must be text' })
  .max(40, 'Certificate number must be 12 digits')
  .transform((value) => value.replace(/[\s-]/g, ''))
  .pipe(z.string().regex(/^\d{12}$/, 'Certificate number must be 12 digits'));

export const dbsRecordBody = z
  .object({
    certificateNumber,
    issueDate: dateString,
    enhancedWithBarredList: z.boolean({ error: 'Say whether it is an enhanced check with the barred list' }),
    onUpdateService: z.boolean({ error: 'Say whether the certificate is on the Update Service' }),
    statusCheckedOn: dateString.nullable().default(null),
    checkedBy: visibleName('Who checked', 100, 'Say who checked the certificate'),
  })
  .refine((value) => !value.statusCheckedOn || value.statusCheckedOn >= value.issueDate, {
    message: 'The status check cannot be before the issue date',
    path: ['statusCheckedOn'],
  })
  .refine((value) => value.onUpdateService || !value.statusCheckedOn, {
    message: 'A status check is only made for certificates on the Update Service',
    path: ['statusCheckedOn'],
  });

export const otherCheckBody = z.object({
  type: checkTypeName,
  validUntil: dateString,
});

export const safeguardingRecordsBody = z.object({
  dbs: dbsRecordBody.nullable(),
  checks: z
    .array(otherCheckBody, { error: 'Checks must be a list' })
    .max(MAX_CHECK_TYPES, `At most ${MAX_CHECK_TYPES} checks`)
    .refine(
      (checks) => new Set(checks.map((check) => checkTypeKey(check.type))).size === checks.length,
      'Each check may be listed once',
    ),
  /** the record's version the edit was made on; another edit since: 409 */
  version: z.number({ error: 'Version must be a whole number' }).int().min(0).max(2_147_483_647),
});
export type SafeguardingRecordsBody = z.input<typeof safeguardingRecordsBody>;

/**
 * The records form as typed: a DBS check only when its number or date is filled, a status check only
 * on the Update Service, and a check per type whose date is filled; parsed into the body (its
 * version aside) with its rules.
 */
export const safeguardingRecordsForm = z
  .object({
    certificateNumber: z.string(),
    issueDate: z.string(),
    enhancedWithBarredList: z.boolean(),
    onUpdateService: z.boolean(),
    statusCheckedOn: z.string(),
    checkedBy: z.string(),
    /** each of the policy's check types, its valid-until '' when none is recorded */
    checks: z.array(z.object({ type: z.string(), validUntil: z.string() })),
  })
  .transform(
    ({ checks, ...dbs }): Omit<SafeguardingRecordsBody, 'version'> => ({
      dbs:
        dbs.certificateNumber.trim() !== '' || dbs.issueDate !== ''
          ? {
              ...dbs,
              statusCheckedOn: dbs.onUpdateService && dbs.statusCheckedOn ? dbs.statusCheckedOn : null,
            }
          : null,
      checks: checks.filter((check) => check.validUntil),
    }),
  )
  .pipe(safeguardingRecordsBody.omit({ version: true }));
export type SafeguardingRecordsForm = z.input<typeof safeguardingRecordsForm>;

export const safeguardingState = z.enum(SAFEGUARDING_STATES);

export const checkStatus = z.object({
  name: z.string(),
  state: safeguardingState,
  validUntil: z.string().nullable(),
  message: z.string(),
});

export const safeguardingStatus = z.object({
  state: safeguardingState,
  checks: z.array(checkStatus),
  reasons: z.array(z.string()),
});

const dbsRecord = z.object({
  certificateNumber: z.string(),
  issueDate: z.string(),
  enhancedWithBarredList: z.boolean(),
  onUpdateService: z.boolean(),
  statusCheckedOn: z.string().nullable(),
  checkedBy: z.string(),
});

/** One person's records in full: for staff and for the person themselves only. */
export const safeguardingRecordsResponse = z.object({
  userId: z.number().int(),
  name: z.string(),
  date: z.string(),
  dbs: dbsRecord.nullable(),
  checks: z.array(z.object({ type: z.string(), validUntil: z.string() })),
  /** the policy's check types, so a form can offer each */
  checkTypes: z.array(z.string()),
  status: safeguardingStatus,
  version: z.number().int(),
  updatedAt: z.string().nullable(),
});
export type SafeguardingRecordsResponse = z.infer<typeof safeguardingRecordsResponse>;

export const safeguardingListQuery = z.object({
  date: dateString.optional(),
});

/** Everyone's status for the grid, the users table and who is free; certificate numbers masked. */
export const safeguardingList = z.object({
  date: z.string(),
  people: z.array(
    z.object({
      userId: z.number().int(),
      name: z.string(),
      certificate: z.string().nullable(),
      status: safeguardingStatus,
    }),
  ),
});
export type SafeguardingList = z.infer<typeof safeguardingList>;

/**
 * What saving a policy would change: each facilitator whose state today would differ, worst new state
 * first (`reasons` under the new policy), and how many facilitators there are in all.
 */
export const safeguardingPolicyPreview = z.object({
  date: z.string(),
  facilitators: z.number().int(),
  changes: z.array(
    z.object({
      userId: z.number().int(),
      name: z.string(),
      from: safeguardingState,
      to: safeguardingState,
      reasons: z.array(z.string()),
    }),
  ),
});
export type SafeguardingPolicyPreview = z.infer<typeof safeguardingPolicyPreview>;

const blankIsAbsent = (value: unknown) => (value === '' ? undefined : value);

/** The record for schools: who was sent in a range (optionally to one school) and their checks then. */
export const safeguardingExportQuery = z
  .object({
    from: dateString,
    to: dateString,
    school: z.preprocess(
      blankIsAbsent,
      z.string().trim().min(1).max(200, 'A school name is at most 200 characters').optional(),
    ),
  })
  .refine((value) => value.from <= value.to, { message: '"to" must be on or after "from"', path: ['to'] })
  .refine(
    (value) =>
      (Date.parse(`${value.to}T00:00:00Z`) - Date.parse(`${value.from}T00:00:00Z`)) / 86_400_000 <=
      MAX_EXPORT_DAYS,
    { message: `At most ${MAX_EXPORT_DAYS} days after "from"`, path: ['to'] },
  );
export type SafeguardingExportQuery = z.input<typeof safeguardingExportQuery>;
