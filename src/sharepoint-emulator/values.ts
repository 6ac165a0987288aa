import { isoSeconds } from './clock';
import { invalidRequest } from './errors';
import type { ColumnDef, FieldValue } from './types';

/** Offset (ms) of `timeZone` from UTC at instant `ms`, using only Intl so no dependency is needed. */
function zoneOffsetMs(ms: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(ms));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** Calendar day (`yyyy-MM-dd`) that instant `ms` falls on in `timeZone`. */
export function localDay(ms: number, timeZone: string): string {
  return new Date(ms + zoneOffsetMs(ms, timeZone)).toISOString().slice(0, 10);
}

/**
 * SharePoint stores a date-only value as midnight in the site's zone and returns that instant
 * in UTC, so summer dates in London come back as 23:00Z the previous day.
 */
export function siteMidnightUtc(day: string, timeZone: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  // Two passes: the offset at the guess can differ from the offset at the true instant near a DST change.
  let ms = guess - zoneOffsetMs(guess, timeZone);
  ms = guess - zoneOffsetMs(ms, timeZone);
  return ms;
}

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

function parseInstant(value: string, column: ColumnDef): number {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) {
    throw invalidRequest(`Invalid value '${value}' for column '${column.name}': expected an ISO 8601 date.`);
  }
  return ms;
}

/**
 * Converts a written value to its stored form, or `undefined` for "empty". Stored forms are what
 * Graph returns on read, so serialising needs no further conversion.
 */
export function coerceForWrite(column: ColumnDef, value: unknown, timeZone: string): FieldValue | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const bad = () =>
    invalidRequest(`Invalid value '${String(value)}' for column '${column.name}' of type ${column.type}.`);
  switch (column.type) {
    case 'text':
    case 'note':
      if (typeof value === 'string') return value;
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      throw bad();
    case 'number': {
      const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
      if (!Number.isFinite(n)) throw bad();
      return n;
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 1 || value === 0) return value === 1;
      throw bad();
    case 'choice':
      if (typeof value !== 'string') throw bad();
      if (column.choices && !column.choices.includes(value)) throw bad();
      return value;
    case 'dateTime':
      if (typeof value !== 'string') throw bad();
      return isoSeconds(parseInstant(value, column));
    case 'dateOnly': {
      if (typeof value !== 'string') throw bad();
      const day = DAY_RE.test(value) ? value : localDay(parseInstant(value, column), timeZone);
      return isoSeconds(siteMidnightUtc(day, timeZone));
    }
  }
}
