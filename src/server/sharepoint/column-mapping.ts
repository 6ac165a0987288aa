/**
 * Which column of an organisation's list holds each portal field. Real lists rarely carry the
 * portal's default names: SharePoint encodes characters in internal names (`Session_x0020_Date`), cuts
 * them to 32 characters, and the modern UI drops spaces. So columns are matched by internal or
 * display name after normalising both, the type of the match is checked, and staff's corrections
 * (stored with the settings) win over the automatic match. docs/decisions explains the choices.
 */
import {
  type ColumnMapping,
  type ColumnType,
  type FieldMatch,
  type ListColumn,
  type ListKind,
  PORTAL_FIELDS,
} from '../../shared/schemas/sharepoint-columns';

interface FieldSpec {
  label: string;
  /** the column's internal name in a list made with the portal's default names */
  defaultName: string;
  /** other names people give the column, compared after normalising */
  aliases?: string[];
  required: boolean;
  accepts: readonly ColumnType[];
  expected: string;
}

const TEXTUAL: readonly ColumnType[] = ['text', 'note', 'choice', 'number'];
const READ_TEXT = { accepts: TEXTUAL, expected: 'a text, choice or number column' } as const;
const WRITE_TEXT = { accepts: ['text', 'note'], expected: 'a single line of text column' } as const;
const FREELANCER_READ = { accepts: ['text', 'number'], expected: 'a text or number column' } as const;

export const FIELD_SPECS: { [K in ListKind]: Record<(typeof PORTAL_FIELDS)[K][number], FieldSpec> } = {
  bookings: {
    title: { label: 'Title', defaultName: 'Title', required: false, ...READ_TEXT },
    freelancerId: {
      label: 'Freelancer ID',
      defaultName: 'FreelancerID',
      aliases: ['Freelancer', 'Facilitator ID'],
      required: true,
      ...FREELANCER_READ,
    },
    date: {
      label: 'Session date',
      defaultName: 'SessionDate',
      aliases: ['Date'],
      required: true,
      accepts: ['dateOnly', 'dateTime'],
      expected: 'a date column',
    },
    startTime: { label: 'Start time', defaultName: 'StartTime', required: false, ...READ_TEXT },
    endTime: { label: 'End time', defaultName: 'EndTime', required: false, ...READ_TEXT },
    schoolId: { label: 'School ID', defaultName: 'SchoolID', required: false, ...READ_TEXT },
    schoolName: { label: 'School name', defaultName: 'SchoolName', required: false, ...READ_TEXT },
    schoolAddress: { label: 'School address', defaultName: 'SchoolAddress', required: false, ...READ_TEXT },
    schoolPostcode: {
      label: 'School postcode',
      defaultName: 'SchoolPostcode',
      required: false,
      ...READ_TEXT,
    },
    program: {
      label: 'Program',
      defaultName: 'Programme',
      aliases: ['Program'],
      required: false,
      ...READ_TEXT,
    },
    timeSlot: { label: 'Time slot', defaultName: 'TimeSlot', required: false, ...READ_TEXT },
    deliveryType: { label: 'Delivery type', defaultName: 'DeliveryType', required: false, ...READ_TEXT },
    year: {
      label: 'Year group',
      defaultName: 'Year',
      aliases: ['Year Group'],
      required: false,
      ...READ_TEXT,
    },
    location: { label: 'Location', defaultName: 'Location', required: false, ...READ_TEXT },
    status: {
      label: 'Status',
      defaultName: 'Status',
      aliases: ['Booking Status'],
      required: false,
      ...READ_TEXT,
    },
  },
  availability: {
    key: { label: 'Key (freelancer ID and day)', defaultName: 'Title', required: true, ...WRITE_TEXT },
    freelancerId: { label: 'Freelancer ID', defaultName: 'FreelancerID', required: true, ...WRITE_TEXT },
    name: {
      label: 'Facilitator name',
      defaultName: 'FacilitatorName',
      required: true,
      ...WRITE_TEXT,
    },
    day: { label: 'Day', defaultName: 'Day', required: true, ...WRITE_TEXT },
    status: {
      label: 'Status',
      defaultName: 'Status',
      required: true,
      accepts: ['choice', 'text'],
      expected: 'a choice or text column',
    },
    startTime: { label: 'Start time', defaultName: 'StartTime', required: true, ...WRITE_TEXT },
    endTime: { label: 'End time', defaultName: 'EndTime', required: true, ...WRITE_TEXT },
    notes: {
      label: 'Notes',
      defaultName: 'Notes',
      required: true,
      accepts: ['note', 'text'],
      expected: 'a text column',
    },
  },
  facilitators: {
    name: { label: 'Name', defaultName: 'Title', aliases: ['Name'], required: true, ...READ_TEXT },
    freelancerId: { label: 'Freelancer ID', defaultName: 'FreelancerID', required: true, ...FREELANCER_READ },
    email: { label: 'Email', defaultName: 'Email', aliases: ['E-mail'], required: false, ...READ_TEXT },
    area: { label: 'Area', defaultName: 'Area', required: false, ...READ_TEXT },
  },
  schools: {
    name: {
      label: 'School name',
      defaultName: 'Title',
      aliases: ['Name', 'School Name'],
      required: false,
      ...READ_TEXT,
    },
    schoolId: { label: 'School ID', defaultName: 'SchoolID', required: true, ...READ_TEXT },
    address: { label: 'Address', defaultName: 'Address', required: false, ...READ_TEXT },
    postcode: {
      label: 'Postcode',
      defaultName: 'Postcode',
      aliases: ['Post Code'],
      required: false,
      ...READ_TEXT,
    },
  },
};

/** Fields the portal puts in `$filter`: their columns must be indexed once a list passes 5,000 items. */
export const FILTERED_FIELDS: { [K in ListKind]: ReadonlyArray<(typeof PORTAL_FIELDS)[K][number]> } = {
  bookings: [],
  // delivery finds items through the list's change feed (availability-items.ts), never a filter
  availability: [],
  facilitators: [],
  schools: [],
};

export const LIST_LABELS: Record<ListKind, string> = {
  bookings: 'Bookings list',
  availability: 'Availability list',
  facilitators: 'Facilitators list',
  schools: 'Schools list',
};

/** A column as Graph describes it, reduced to what matching needs. */
export interface ColumnInfo extends ListColumn {
  hidden: boolean;
  readOnly: boolean;
}

/**
 * Graph's columnDefinition tells the type by which facet is present (`text`, `number`,
 * `dateTime.format`, …). Facets the portal cannot read as plain values count as `other`.
 */
export function columnTypeOf(raw: Record<string, unknown>): ColumnType {
  const facet = (name: string) => {
    const value = raw[name];
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  };
  const text = facet('text');
  if (text) return text.allowMultipleLines === true ? 'note' : 'text';
  if (facet('number') || facet('currency')) return 'number';
  if (facet('choice')) return 'choice';
  if (facet('boolean')) return 'boolean';
  const dateTime = facet('dateTime');
  if (dateTime) return dateTime.format === 'dateOnly' ? 'dateOnly' : 'dateTime';
  return 'other';
}

/** `Session_x0020_Date` → `Session Date`; a code cut off by truncation is dropped. */
export function decodeInternalName(name: string): string {
  const whole = name.replace(/_x[0-9a-f]{4}_/gi, (code) =>
    String.fromCharCode(Number.parseInt(code.slice(2, 6), 16)),
  );
  return whole.replace(/_x[0-9a-f]{0,4}$/i, '');
}

/** Compared without case, spaces, punctuation or encodings: `Session_x0020_Date` ≈ `session date`. */
export function normaliseColumnName(name: string): string {
  return decodeInternalName(name)
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/** SharePoint cuts internal names to 32 characters of their encoded form. */
const INTERNAL_NAME_LIMIT = 32;
/** Shorter common prefixes match too many unrelated columns. */
const MIN_TRUNCATED_MATCH = 8;

function candidatesOf(spec: FieldSpec): string[] {
  return [spec.defaultName, spec.label, ...(spec.aliases ?? [])].map(normaliseColumnName);
}

type MatchTier = 1 | 2 | 3;

/** How well a column fits a field: 1 exact internal name, 2 normalised name, 3 truncated name. */
function tierOf(spec: FieldSpec, column: ColumnInfo): MatchTier | undefined {
  if (column.name === spec.defaultName) return 1;
  const wanted = candidatesOf(spec);
  const names = [normaliseColumnName(column.name), normaliseColumnName(column.displayName)];
  if (names.some((n) => n !== '' && wanted.includes(n))) return 2;
  if (column.name.length >= INTERNAL_NAME_LIMIT) {
    const cut = names[0]!;
    // cut inside our name ("Reason for not using Sharepo…") or after it ("Notes for the office te…")
    if (
      cut.length >= MIN_TRUNCATED_MATCH &&
      wanted.some((w) => w.startsWith(cut) || (w.length >= 4 && cut.startsWith(w)))
    )
      return 3;
  }
  return undefined;
}

function describeColumn(column: ColumnInfo): string {
  return column.displayName && column.displayName !== column.name
    ? `"${column.displayName}" (${column.name})`
    : `"${column.name}"`;
}

const TYPE_NAMES: Record<ColumnType, string> = {
  text: 'a text column',
  note: 'a multi-line text column',
  number: 'a number column',
  choice: 'a choice column',
  dateOnly: 'a date column',
  dateTime: 'a date and time column',
  boolean: 'a yes/no column',
  other: 'a column of a kind the portal cannot read',
};

/**
 * Every field of a list with the column that holds it. Staff's choice wins; otherwise the best
 * automatic match (exact internal name, then normalised names, then a truncated internal name),
 * each column used once, visible writable columns preferred over hidden or read-only ones.
 */
export function matchColumns<K extends ListKind>(
  kind: K,
  columns: ColumnInfo[],
  chosen: ColumnMapping[K] = {},
): FieldMatch[] {
  const specs = FIELD_SPECS[kind] as Record<string, FieldSpec>;
  const fields = PORTAL_FIELDS[kind] as readonly string[];
  const picks = chosen as Record<string, string | undefined>;
  const usable = columns.filter((c) => !c.hidden);
  const taken = new Set<string>();
  const assigned = new Map<string, ColumnInfo | null>();

  for (const field of fields) {
    const pick = picks[field];
    if (pick === undefined) continue;
    if (pick === '') {
      assigned.set(field, null);
      continue;
    }
    const column = columns.find((c) => c.name === pick);
    if (column) taken.add(column.name);
    // an unknown choice is reported below, never silently replaced by a guess
    assigned.set(field, column ?? null);
  }

  const rank = (c: ColumnInfo) => (c.readOnly ? 1 : 0);
  for (const tier of [1, 2, 3] as const) {
    for (const field of fields) {
      if (assigned.has(field)) continue;
      const spec = specs[field]!;
      const found = usable
        .filter((c) => !taken.has(c.name) && tierOf(spec, c) === tier)
        .sort((a, b) => rank(a) - rank(b))[0];
      if (found) {
        assigned.set(field, found);
        taken.add(found.name);
      }
    }
  }

  return fields.map((field) => {
    const spec = specs[field]!;
    const column = assigned.get(field) ?? null;
    const pick = picks[field];
    const source: FieldMatch['source'] = pick !== undefined ? 'staff' : column ? 'auto' : 'none';
    let problem: FieldMatch['problem'] = null;
    let message: string | null = null;
    if (pick && !column) {
      problem = 'unknown-column';
      message = `${spec.label}: the list has no column "${pick}" any more; choose another.`;
    } else if (!column && spec.required) {
      problem = 'missing';
      message = `${spec.label}: no column found; choose the column that holds it (${spec.expected}).`;
    } else if (column && !spec.accepts.includes(column.type)) {
      problem = 'wrong-type';
      message = `${spec.label}: the column ${describeColumn(column)} is ${TYPE_NAMES[column.type]}; it needs ${spec.expected}.`;
    }
    return {
      field,
      label: spec.label,
      required: spec.required,
      column: column?.name ?? null,
      columnDisplayName: column?.displayName ?? null,
      source,
      problem,
      expected: spec.expected,
      message,
    };
  });
}

/** Filtered columns of the list that are not indexed (display name and internal name). */
export function unindexedFilterColumns(
  kind: ListKind,
  matches: FieldMatch[],
  columns: ColumnInfo[],
): string[] {
  const filtered = FILTERED_FIELDS[kind] as readonly string[];
  const out: string[] = [];
  for (const match of matches) {
    if (!filtered.includes(match.field) || !match.column) continue;
    const column = columns.find((c) => c.name === match.column);
    if (column && !column.indexed) out.push(describeColumn(column));
  }
  return out;
}

/** field → internal column name (null: the list has none for this optional field). */
export type ColumnNames<K extends ListKind> = Record<(typeof PORTAL_FIELDS)[K][number], string | null>;

export function columnNamesOf<K extends ListKind>(matches: FieldMatch[]): ColumnNames<K> {
  return Object.fromEntries(
    matches.map((m) => [m.field, m.problem === 'unknown-column' ? null : m.column]),
  ) as ColumnNames<K>;
}
