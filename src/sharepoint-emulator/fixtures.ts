/**
 * The lists the portal expects (docs/operations.md, "SharePoint lists") and deterministic data to fill them.
 * Generators are pure functions of their seed so tests can predict every value.
 */
import { createRng, pick, type Rng, randomInt } from './random';
import { type Store, snapshot } from './store';
import type { ColumnDef, FieldInput, ItemSnapshot, ListInfo, SiteInfo } from './types';

export const BOOKING_STATUSES = ['Confirmed', 'Provisional', 'Cancelled'] as const;
export const AVAILABILITY_STATUSES = ['Available', 'Limited', 'Unavailable'] as const;

export type ListKey = 'bookings' | 'availability' | 'facilitators' | 'schools';

export const DEFAULT_LIST_NAMES: Record<ListKey, string> = {
  bookings: 'Bookings',
  availability: 'Availability',
  facilitators: 'Facilitators',
  schools: 'Schools',
};

/** Columns the portal filters on, indexed as a big list needs them. */
export const DEFAULT_INDEXED: Record<ListKey, string[]> = {
  bookings: ['SessionDate', 'FreelancerID'],
  availability: ['Title'],
  facilitators: ['FreelancerID'],
  schools: ['SchoolID'],
};

const text = (name: string): ColumnDef => ({ name, type: 'text' });

export function defaultColumns(freelancerIdType: 'text' | 'number' = 'text'): Record<ListKey, ColumnDef[]> {
  const freelancerId: ColumnDef = { name: 'FreelancerID', type: freelancerIdType };
  return {
    bookings: [
      text('Title'),
      freelancerId,
      { name: 'SessionDate', type: 'dateOnly' },
      text('StartTime'),
      text('EndTime'),
      text('SchoolID'),
      text('SchoolName'),
      text('SchoolAddress'),
      text('SchoolPostcode'),
      text('Programme'),
      text('TimeSlot'),
      text('DeliveryType'),
      text('Year'),
      text('Location'),
      { name: 'Status', type: 'choice', choices: [...BOOKING_STATUSES] },
    ],
    availability: [
      { name: 'Title', type: 'text', required: true, enforceUniqueValues: true },
      { name: 'FreelancerID', type: 'text' },
      text('FacilitatorName'),
      text('Day'),
      { name: 'Status', type: 'choice', choices: [...AVAILABILITY_STATUSES] },
      text('StartTime'),
      text('EndTime'),
      { name: 'Notes', type: 'note' },
    ],
    facilitators: [text('Title'), freelancerId, text('Email'), text('Area')],
    schools: [text('Title'), text('SchoolID'), text('Address'), text('Postcode')],
  };
}

/**
 * Column names as a real tenant has them: typed with spaces (stored `_x0020_`-encoded), made in the
 * modern UI (spaces dropped from the internal name), cut to 32 characters, or named differently
 * altogether. Keyed by the portal's default name; columns not listed keep it.
 */
export const TENANT_COLUMN_NAMES: Record<ListKey, Record<string, { name: string; displayName: string }>> = {
  bookings: {
    FreelancerID: { name: 'Freelancer_x0020_ID', displayName: 'Freelancer ID' },
    SessionDate: { name: 'Session_x0020_Date', displayName: 'Session Date' },
    StartTime: { name: 'StartTime', displayName: 'Start Time' },
    EndTime: { name: 'EndTime', displayName: 'End Time' },
    SchoolID: { name: 'School_x0020_ID', displayName: 'School ID' },
    SchoolName: { name: 'School_x0020_Name', displayName: 'School Name' },
    SchoolAddress: { name: 'School_x0020_Address', displayName: 'School Address' },
    SchoolPostcode: { name: 'School_x0020_Post_x0020_Code', displayName: 'School Post Code' },
    TimeSlot: { name: 'Time_x0020_Slot', displayName: 'Time Slot' },
    DeliveryType: { name: 'Delivery_x0020_Type', displayName: 'Delivery Type' },
    Year: { name: 'Year_x0020_Group', displayName: 'Year Group' },
    Status: { name: 'Booking_x0020_Status', displayName: 'Booking Status' },
  },
  availability: {
    FreelancerID: { name: 'Freelancer_x0020_ID', displayName: 'Freelancer ID' },
    FacilitatorName: { name: 'Facilitator_x0020_Name', displayName: 'Facilitator Name' },
    StartTime: { name: 'Start_x0020_Time', displayName: 'Start Time' },
    EndTime: { name: 'End_x0020_Time', displayName: 'End Time' },
    Notes: { name: 'Notes_x0020_for_x0020_the_x0020_', displayName: 'Notes for the office team' },
  },
  facilitators: {
    FreelancerID: { name: 'Freelancer_x0020_ID', displayName: 'Freelancer ID' },
    Email: { name: 'E_x002d_mail', displayName: 'E-mail' },
  },
  schools: {
    SchoolID: { name: 'School_x0020_ID', displayName: 'School ID' },
    Postcode: { name: 'Post_x0020_Code', displayName: 'Post Code' },
  },
};

function renamer(key: ListKey, style: 'protocol' | 'tenant') {
  const names = style === 'tenant' ? TENANT_COLUMN_NAMES[key] : {};
  const column = (c: ColumnDef): ColumnDef => {
    const renamed = names[c.name];
    return renamed ? { ...c, ...renamed } : c;
  };
  const fields = (input: FieldInput): FieldInput =>
    Object.fromEntries(Object.entries(input).map(([k, v]) => [names[k]?.name ?? k, v]));
  return { column, fields, name: (protocolName: string) => names[protocolName]?.name ?? protocolName };
}

export interface FacilitatorFixture {
  freelancerId: string;
  name: string;
  email: string;
  area: string;
}

export interface SchoolFixture {
  schoolId: string;
  name: string;
  address: string;
  postcode: string;
}

const FIRST = [
  'Amara',
  'Ben',
  'Chloe',
  'Dev',
  'Ellis',
  'Farah',
  'George',
  'Hana',
  'Isaac',
  'Jess',
  'Kofi',
  'Lena',
  'Milo',
  'Nia',
  "O'Neill",
  'Priya',
  'Quinn',
  'Rosa',
  'Sami',
  'Tom',
];
const LAST = [
  'Adeyemi',
  'Brown',
  'Chen',
  'Davies',
  'Evans',
  'Fraser',
  'Gupta',
  'Hughes',
  'Iqbal',
  'Jones',
  'Khan',
  'Lewis',
  'Morgan',
  'Novak',
  'Owen',
  'Patel',
  'Reid',
  'Smith',
  'Taylor',
  'Walsh',
];
const AREAS = ['North', 'South', 'East', 'West', 'Central'];
const TOWNS = [
  'Camden',
  'Hackney',
  'Islington',
  'Lambeth',
  'Lewisham',
  'Southwark',
  'Tower Hamlets',
  'Greenwich',
];
const STREETS = [
  'High Street',
  'Church Lane',
  'Park Road',
  'Station Road',
  'Mill Lane',
  'School Lane',
  'Victoria Road',
];
const SCHOOL_KINDS = ['Primary School', 'Academy', 'Junior School', 'Infant School', 'C of E Primary'];
const PROGRAMMES = ['Dance', 'Drama', 'Music', 'Visual Art', 'Poetry', 'Puppetry', 'Digital Media'];
const SLOTS = [
  { slot: 'AM', start: '09:30', end: '12:00' },
  { slot: 'PM', start: '13:00', end: '15:00' },
  { slot: 'Full day', start: '09:30', end: '15:00' },
];
const DELIVERY = ['In school', 'Online', 'Hybrid'];
const YEARS = ['Reception', 'Year 1', 'Year 2', 'Year 3', 'Year 4', 'Year 5', 'Year 6'];
const LOCATIONS = ['Hall', 'Classroom', 'Music room', 'Library', 'Playground'];

/** Freelancer IDs `1001`, `1002`, …: numeric-looking so text and number columns agree. */
export function generateFacilitators(
  count: number,
  seed: string | number = 'facilitators',
): FacilitatorFixture[] {
  const rng = createRng(seed);
  return Array.from({ length: count }, (_, i) => {
    const name = `${pick(rng, FIRST)} ${pick(rng, LAST)}`;
    const freelancerId = String(1001 + i);
    return {
      freelancerId,
      name,
      email: `${name.toLowerCase().replace(/[^a-z]+/g, '.')}.${freelancerId}@artsfacilitators.example`,
      area: pick(rng, AREAS),
    };
  });
}

export function generateSchools(count: number, seed: string | number = 'schools'): SchoolFixture[] {
  const rng = createRng(seed);
  return Array.from({ length: count }, (_, i) => {
    const town = pick(rng, TOWNS);
    return {
      schoolId: `SCH${String(i + 1).padStart(3, '0')}`,
      name: `${town} ${pick(rng, SCHOOL_KINDS)}`,
      address: `${randomInt(rng, 1, 200)} ${pick(rng, STREETS)}, ${town}, London`,
      postcode: `${pick(rng, ['N', 'E', 'SE', 'SW', 'NW'])}${randomInt(rng, 1, 20)} ${randomInt(rng, 1, 9)}${pick(rng, ['AB', 'DF', 'HL', 'QR', 'TW'])}`,
    };
  });
}

export interface Term {
  /** First day, `yyyy-MM-dd`. */
  start: string;
  /** Last day, `yyyy-MM-dd`. */
  end: string;
}

/** Summer term 2026: spans British Summer Time, so date-only values come back as 23:00Z. */
export const DEFAULT_TERM: Term = { start: '2026-04-13', end: '2026-07-17' };

export interface BookingGenOptions {
  seed: string | number;
  count: number;
  term: Term;
  freelancerIds: string[];
  schools: SchoolFixture[];
  /** Share of bookings with Status `Cancelled`; default 0.1. */
  cancelledRatio?: number;
  /** Share of bookings without school name/address/postcode, to be filled from Schools; default 0.2. */
  missingSchoolDetailsRatio?: number;
}

/** A generated booking as written to the list: `SessionDate` is a plain `yyyy-MM-dd` day. */
export type BookingFields = {
  Title: string;
  FreelancerID: string;
  SessionDate: string;
  StartTime: string;
  EndTime: string;
  SchoolID: string;
  SchoolName?: string;
  SchoolAddress?: string;
  SchoolPostcode?: string;
  Programme: string;
  TimeSlot: string;
  DeliveryType: string;
  Year: string;
  Location: string;
  Status: (typeof BOOKING_STATUSES)[number];
};

function weekdays(term: Term): string[] {
  const days: string[] = [];
  const end = Date.parse(`${term.end}T00:00:00Z`);
  for (let t = Date.parse(`${term.start}T00:00:00Z`); t <= end; t += 86_400_000) {
    const dow = new Date(t).getUTCDay();
    if (dow !== 0 && dow !== 6) days.push(new Date(t).toISOString().slice(0, 10));
  }
  if (days.length === 0) throw new Error(`Term ${term.start}..${term.end} has no weekdays`);
  return days;
}

function bookingStatus(rng: Rng, cancelledRatio: number): BookingFields['Status'] {
  if (rng() < cancelledRatio) return 'Cancelled';
  return rng() < 0.15 ? 'Provisional' : 'Confirmed';
}

/** Deterministic bookings for a term: same options, same bookings, in date order. */
export function generateBookings(options: BookingGenOptions): BookingFields[] {
  if (options.freelancerIds.length === 0 || options.schools.length === 0) {
    throw new Error('generateBookings needs at least one freelancer ID and one school');
  }
  const rng = createRng(options.seed);
  const days = weekdays(options.term);
  const cancelledRatio = options.cancelledRatio ?? 0.1;
  const missingRatio = options.missingSchoolDetailsRatio ?? 0.2;
  const out: BookingFields[] = [];
  for (let i = 0; i < options.count; i++) {
    const school = pick(rng, options.schools);
    const slot = pick(rng, SLOTS);
    const programme = pick(rng, PROGRAMMES);
    const booking: BookingFields = {
      Title: `${programme} workshop – ${school.name}`,
      FreelancerID: pick(rng, options.freelancerIds),
      SessionDate: pick(rng, days),
      StartTime: slot.start,
      EndTime: slot.end,
      SchoolID: school.schoolId,
      Programme: programme,
      TimeSlot: slot.slot,
      DeliveryType: pick(rng, DELIVERY),
      Year: pick(rng, YEARS),
      Location: pick(rng, LOCATIONS),
      Status: bookingStatus(rng, cancelledRatio),
    };
    if (rng() >= missingRatio) {
      booking.SchoolName = school.name;
      booking.SchoolAddress = school.address;
      booking.SchoolPostcode = school.postcode;
    }
    out.push(booking);
  }
  return out.sort(
    (a, b) => a.SessionDate.localeCompare(b.SessionDate) || a.StartTime.localeCompare(b.StartTime),
  );
}

export interface PortalSiteOptions {
  hostname?: string;
  path?: string;
  displayName?: string;
  timeZone?: string;
  seed?: string | number;
  facilitatorCount?: number;
  schoolCount?: number;
  bookingCount?: number;
  term?: Term;
  cancelledRatio?: number;
  missingSchoolDetailsRatio?: number;
  /** Type of the FreelancerID column in Bookings and Facilitators (the portal reads both). */
  freelancerIdType?: 'text' | 'number';
  /** Replaces the indexed columns of a list, e.g. `{ bookings: [] }` to test the Prefer rule. */
  indexed?: Partial<Record<ListKey, string[]>>;
  listNames?: Partial<Record<ListKey, string>>;
  /** Lists to leave out, e.g. `['schools']`. */
  omitLists?: ListKey[];
  /** Availability rows to start with (default names); by default the list is empty (the portal writes it). */
  availability?: FieldInput[];
  /** `tenant`: the lists' columns carry real-looking names (TENANT_COLUMN_NAMES); default `protocol`. */
  columnNames?: 'protocol' | 'tenant';
}

export interface PortalSite {
  site: SiteInfo;
  /** The site URL the portal's settings should hold. */
  siteUrl: string;
  lists: Partial<Record<ListKey, ListInfo>>;
  facilitators: FacilitatorFixture[];
  schools: SchoolFixture[];
  bookings: ItemSnapshot[];
}

/**
 * What the portal's SharePoint settings hold to reach a seeded site with app credentials: the site
 * URL, each list's name (the required lists fall back to their default names when left out, the
 * optional ones to none) and the client credentials.
 */
export function portalSettingsFor(
  portal: PortalSite,
  credentials: { tenantId: string; clientId: string; clientSecret: string },
) {
  return {
    siteUrl: portal.siteUrl,
    availabilityListName: portal.lists.availability?.displayName ?? DEFAULT_LIST_NAMES.availability,
    bookingsListName: portal.lists.bookings?.displayName ?? DEFAULT_LIST_NAMES.bookings,
    facilitatorListName: portal.lists.facilitators?.displayName ?? '',
    schoolsListName: portal.lists.schools?.displayName ?? '',
    tenantId: credentials.tenantId,
    clientId: credentials.clientId,
    clientSecret: credentials.clientSecret,
  };
}

/** Creates a site with the portal's lists and fills them with generated, reproducible data. */
export function seedPortalSite(store: Store, options: PortalSiteOptions = {}): PortalSite {
  const seed = options.seed ?? 'arts-portal';
  const site = store.createSite({
    hostname: options.hostname ?? 'contoso.sharepoint.com',
    path: options.path ?? '/sites/ArtsFacilitators',
    displayName: options.displayName ?? 'Arts Facilitators',
    timeZone: options.timeZone,
  });
  const columns = defaultColumns(options.freelancerIdType);
  const lists: Partial<Record<ListKey, ListInfo>> = {};
  for (const key of Object.keys(DEFAULT_LIST_NAMES) as ListKey[]) {
    if (options.omitLists?.includes(key)) continue;
    const indexed = new Set(options.indexed?.[key] ?? DEFAULT_INDEXED[key]);
    const rename = renamer(key, options.columnNames ?? 'protocol');
    lists[key] = store.createList(site.id, {
      displayName: options.listNames?.[key] ?? DEFAULT_LIST_NAMES[key],
      columns: columns[key].map((c) => rename.column({ ...c, indexed: indexed.has(c.name) })),
    });
  }
  const facilitators = generateFacilitators(options.facilitatorCount ?? 12, `${seed}:facilitators`);
  const schools = generateSchools(options.schoolCount ?? 15, `${seed}:schools`);
  const bookings = generateBookings({
    seed: `${seed}:bookings`,
    count: options.bookingCount ?? 150,
    term: options.term ?? DEFAULT_TERM,
    freelancerIds: facilitators.map((f) => f.freelancerId),
    schools,
    cancelledRatio: options.cancelledRatio,
    missingSchoolDetailsRatio: options.missingSchoolDetailsRatio,
  });
  const named = (key: ListKey, input: FieldInput) =>
    renamer(key, options.columnNames ?? 'protocol').fields(input);
  if (lists.facilitators) {
    for (const f of facilitators) {
      store.createItem(
        lists.facilitators,
        named('facilitators', {
          Title: f.name,
          FreelancerID: f.freelancerId,
          Email: f.email,
          Area: f.area,
        }),
      );
    }
  }
  if (lists.schools) {
    for (const s of schools) {
      store.createItem(
        lists.schools,
        named('schools', { Title: s.name, SchoolID: s.schoolId, Address: s.address, Postcode: s.postcode }),
      );
    }
  }
  const bookingItems = lists.bookings
    ? bookings.map((b) => snapshot(store.createItem(lists.bookings!, named('bookings', b))))
    : [];
  if (lists.availability) {
    for (const a of options.availability ?? [])
      store.createItem(lists.availability, named('availability', a));
  }
  return { site, siteUrl: site.webUrl, lists, facilitators, schools, bookings: bookingItems };
}
