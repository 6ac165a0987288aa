/**
 * Reading values out of `fields` (which column holds what: column-mapping.ts). SharePoint leaves
 * empty columns out; an empty string or only spaces count as missing too.
 */

import { storableText } from '../storable-text';

export const CANCELLED_STATUS = 'cancelled';

/** A column as trimmed text; numbers become text (`1001`), missing or blank → null. */
export function fieldText(fields: Record<string, unknown> | undefined, name: string | null): string | null {
  if (name === null) return null;
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
