import {
  type DateString,
  dayOfWeek,
  formatTimeRange,
  MONTH_NAMES,
  parseDateString,
  WEEKDAY_NAMES,
} from '@shared/calendar';
import type { FreeFacilitator } from '@shared/schemas/free';
import { freeQuery } from '@shared/schemas/free';

/** What staff asked for; it lives in the page address, so a search can be linked to and reloaded. */
export interface FreeSearchState {
  /** null: today, as the server sees it in the organisation's time zone */
  date: DateString | null;
  from: string;
  to: string;
  areas: string[];
  /** also list who is left out, with the reasons */
  everyone: boolean;
}

export const EMPTY_SEARCH: FreeSearchState = { date: null, from: '', to: '', areas: [], everyone: false };

/** Reads the page address (`?date=…&from=…&to=…&areas=a,b&include=all`); anything unreadable is ignored. */
export function searchFromAddress(search: string): FreeSearchState {
  const params = new URLSearchParams(search);
  const text = (name: string) => params.get(name)?.trim() ?? '';
  const date = text('date');
  return {
    date: /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : null,
    from: text('from'),
    to: text('to'),
    areas: splitAreas(params.getAll('areas').join(',')),
    everyone: text('include') === 'all',
  };
}

function splitAreas(value: string): string[] {
  const seen = new Set<string>();
  const areas: string[] = [];
  for (const part of value.split(',')) {
    const area = part.trim();
    if (area && !seen.has(area.toLowerCase())) {
      seen.add(area.toLowerCase());
      areas.push(area);
    }
  }
  return areas;
}

/** The query string for both the page address and the API: only what was chosen. */
export function searchQueryString(state: FreeSearchState): string {
  const params = new URLSearchParams();
  if (state.date) params.set('date', state.date);
  if (state.from) params.set('from', state.from);
  if (state.to) params.set('to', state.to);
  if (state.areas.length > 0) params.set('areas', state.areas.join(','));
  if (state.everyone) params.set('include', 'all');
  return params.toString();
}

/**
 * The same rules the server applies (the shared schema), so a half-chosen window is explained at the
 * field instead of sent. Field name to messages; empty when the search can be sent.
 */
export function searchProblems(state: FreeSearchState): Record<string, string> {
  const parsed = freeQuery.safeParse(Object.fromEntries(new URLSearchParams(searchQueryString(state))));
  if (parsed.success) return {};
  const problems: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? 'date');
    problems[field] ??= issue.message;
  }
  return problems;
}

export function longDate(date: DateString): string {
  const { year, month, day } = parseDateString(date);
  return `${WEEKDAY_NAMES[dayOfWeek(date)]} ${day} ${MONTH_NAMES[month - 1]} ${year}`;
}

import { STATUS_LABELS as STATUS_LABEL } from '@/lib/availability-status';

export { STATUS_LABEL };

export function statusLabel(row: Pick<FreeFacilitator, 'status'>): string {
  return row.status ? STATUS_LABEL[row.status] : 'No availability set';
}

export function timesLabel(row: Pick<FreeFacilitator, 'status' | 'startTime' | 'endTime'>): string {
  if (!row.status) return '—';
  return formatTimeRange(row.startTime, row.endTime) || 'No times given';
}

export function bookingsLabel(count: number): string {
  if (count === 0) return 'No bookings';
  return count === 1 ? '1 booking' : `${count} bookings`;
}

/** Only for someone who could work: an unavailable day's times say nothing about the window. */
export function fitLabel(row: Pick<FreeFacilitator, 'fit' | 'status'>): string | null {
  if (row.status === 'unavailable') return null;
  if (row.fit === 'covers') return 'Covers the window';
  if (row.fit === 'open') return 'Open times';
  return null;
}

/** "3 free on Wednesday 2 December 2026, 10:00–12:00" */
export function summaryLabel(freeCount: number, date: DateString, from: string | null, to: string | null) {
  const who = freeCount === 0 ? 'Nobody free' : `${freeCount} free`;
  return `${who} on ${longDate(date)}${from && to ? `, ${formatTimeRange(from, to)}` : ''}`;
}
