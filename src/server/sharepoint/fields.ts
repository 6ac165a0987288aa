/**
 * Column names of the lists (sharepoint-protocol.md section 6) and reading values out of `fields`.
 * SharePoint leaves empty columns out; an empty string or only spaces count as missing too.
 */

import { storableText } from '../storable-text';

export const BOOKING_COLUMNS = {
  title: 'Title',
  freelancerId: 'FreelancerID',
  date: 'SessionDate',
  startTime: 'StartTime',
  endTime: 'EndTime',
  schoolId: 'SchoolID',
  schoolName: 'SchoolName',
  schoolAddress: 'SchoolAddress',
  schoolPostcode: 'SchoolPostcode',
  program: 'Programme',
  timeSlot: 'TimeSlot',
  deliveryType: 'DeliveryType',
  year: 'Year',
  location: 'Location',
  status: 'Status',
} as const;

export const FACILITATOR_COLUMNS = {
  name: 'Title',
  freelancerId: 'FreelancerID',
  email: 'Email',
  area: 'Area',
} as const;

export const SCHOOL_COLUMNS = {
  name: 'Title',
  schoolId: 'SchoolID',
  address: 'Address',
  postcode: 'Postcode',
} as const;

export const AVAILABILITY_COLUMNS = {
  key: 'Title',
  freelancerId: 'FreelancerID',
  name: 'FacilitatorName',
  day: 'Day',
  status: 'Status',
  startTime: 'StartTime',
  endTime: 'EndTime',
  notes: 'Notes',
} as const;

/** Columns the portal cannot work without, per list (checked by the connection test). */
export const REQUIRED_COLUMNS = {
  bookings: [BOOKING_COLUMNS.freelancerId, BOOKING_COLUMNS.date],
  availability: Object.values(AVAILABILITY_COLUMNS),
  facilitators: [FACILITATOR_COLUMNS.name, FACILITATOR_COLUMNS.freelancerId],
  schools: [SCHOOL_COLUMNS.schoolId],
} as const;

export const CANCELLED_STATUS = 'cancelled';

/** A column as trimmed text; numbers become text (`1001`), missing or blank → null. */
export function fieldText(fields: Record<string, unknown> | undefined, name: string): string | null {
  const value = fields?.[name];
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') {
    // storable: a NUL in one item must not fail the whole refresh (PostgreSQL text refuses it)
    const trimmed = storableText(value).trim();
    return trimmed === '' ? null : trimmed;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return null;
}

/** Freelancer IDs compare as trimmed text: `1001`, `"1001"` and `" 1001 "` are the same person. */
export function normaliseFreelancerId(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value !== 'string') return null;
  const trimmed = storableText(value).trim();
  return trimmed === '' ? null : trimmed;
}

/** The natural key of an availability item: `{FreelancerID}|{yyyy-MM-dd}`. */
export function availabilityKey(freelancerId: string, date: string): string {
  return `${freelancerId}|${date}`;
}

const STATUS_LABELS: Record<string, string> = {
  available: 'Available',
  limited: 'Limited',
  unavailable: 'Unavailable',
};

export function availabilityStatusLabel(status: string): string {
  return STATUS_LABELS[status] ?? status;
}
