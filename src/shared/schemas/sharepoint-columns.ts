import { z } from 'zod';

/**
 * Which SharePoint column holds each portal field, per list. The portal matches columns by itself;
 * staff correct a match on the settings page, and only their corrections are stored.
 */
export const LIST_KINDS = ['bookings', 'availability', 'facilitators', 'schools'] as const;
export type ListKind = (typeof LIST_KINDS)[number];

export const PORTAL_FIELDS = {
  bookings: [
    'title',
    'freelancerId',
    'date',
    'startTime',
    'endTime',
    'schoolId',
    'schoolName',
    'schoolAddress',
    'schoolPostcode',
    'program',
    'timeSlot',
    'deliveryType',
    'year',
    'location',
    'status',
  ],
  availability: ['key', 'freelancerId', 'name', 'day', 'status', 'startTime', 'endTime', 'notes'],
  facilitators: ['name', 'freelancerId', 'email', 'area'],
  schools: ['name', 'schoolId', 'address', 'postcode'],
} as const satisfies Record<ListKind, readonly string[]>;

export type PortalField<K extends ListKind> = (typeof PORTAL_FIELDS)[K][number];

/** A column's internal name; an empty string means "no column" (only allowed for optional fields). */
const chosenColumn = z.string().trim().max(255, 'A column name has at most 255 characters');

export const columnMapping = z
  .object({
    bookings: z.partialRecord(z.enum(PORTAL_FIELDS.bookings), chosenColumn).optional(),
    availability: z.partialRecord(z.enum(PORTAL_FIELDS.availability), chosenColumn).optional(),
    facilitators: z.partialRecord(z.enum(PORTAL_FIELDS.facilitators), chosenColumn).optional(),
    schools: z.partialRecord(z.enum(PORTAL_FIELDS.schools), chosenColumn).optional(),
  })
  .strict();
export type ColumnMapping = z.infer<typeof columnMapping>;

/** The kinds of column the portal tells apart (from Graph's type facets). */
export const COLUMN_TYPES = [
  'text',
  'note',
  'number',
  'choice',
  'dateOnly',
  'dateTime',
  'boolean',
  'other',
] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

export const listColumn = z.object({
  name: z.string(),
  displayName: z.string(),
  type: z.enum(COLUMN_TYPES),
  indexed: z.boolean(),
});
export type ListColumn = z.infer<typeof listColumn>;

export const fieldMatch = z.object({
  field: z.string(),
  label: z.string(),
  required: z.boolean(),
  /** the internal name of the column used, or null when none is */
  column: z.string().nullable(),
  columnDisplayName: z.string().nullable(),
  /** found by the portal, chosen by staff, or none */
  source: z.enum(['auto', 'staff', 'none']),
  problem: z.enum(['missing', 'wrong-type', 'unknown-column']).nullable(),
  /** what kind of column fits, e.g. "a date column" */
  expected: z.string(),
  /** the problem in a sentence, or null */
  message: z.string().nullable(),
});
export type FieldMatch = z.infer<typeof fieldMatch>;

export const listColumnsReport = z.object({
  list: z.enum(LIST_KINDS),
  label: z.string(),
  listName: z.string(),
  /** why the list could not be checked (not found, no access), or null */
  error: z.string().nullable(),
  columns: z.array(listColumn),
  fields: z.array(fieldMatch),
  /** columns the portal filters on that must be indexed before the list passes 5,000 items */
  mustIndex: z.array(z.string()),
});
export type ListColumnsReport = z.infer<typeof listColumnsReport>;

export const columnCheckResult = z.object({
  /** false when the lists could not be reached at all (sign-in, site); message says why */
  reached: z.boolean(),
  message: z.string(),
  lists: z.array(listColumnsReport),
});
export type ColumnCheckResult = z.infer<typeof columnCheckResult>;
