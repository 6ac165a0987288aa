import { collatorCompare } from '@shared/collate';
import type { CompletenessStatus, FacilitatorCompleteness } from '@shared/schemas/completeness';

export type SortKey = 'name' | 'area' | 'status' | 'count';
export type SortDirection = 'ascending' | 'descending';
export interface SortState {
  key: SortKey;
  direction: SortDirection;
}

export const STATUS_LABELS: Record<CompletenessStatus, string> = {
  complete: 'Complete',
  partial: 'Partial',
  missing: 'Missing',
};

// ascending puts the people who need chasing first
const STATUS_ORDER: Record<CompletenessStatus, number> = { missing: 0, partial: 1, complete: 2 };

const byText = collatorCompare('en', { sensitivity: 'base', numeric: true });

/** Sorted copy; ties fall back to the name, and facilitators without an area go last. */
export function sortFacilitators(
  list: FacilitatorCompleteness[],
  sort: SortState,
): FacilitatorCompleteness[] {
  const sign = sort.direction === 'ascending' ? 1 : -1;
  const compare = (a: FacilitatorCompleteness, b: FacilitatorCompleteness): number => {
    switch (sort.key) {
      case 'area':
        if (!a.area || !b.area) return a.area === b.area ? 0 : a.area ? -sign : sign;
        return sign * byText(a.area, b.area);
      case 'status':
        return sign * (STATUS_ORDER[a.status] - STATUS_ORDER[b.status]);
      case 'count':
        return sign * (a.setDays - b.setDays);
      default:
        return sign * byText(a.name, b.name);
    }
  };
  return [...list].sort((a, b) => compare(a, b) || byText(a.name, b.name) || a.userId - b.userId);
}

/** Who a reminder can go to: partial or missing. */
export const needsReminder = (f: FacilitatorCompleteness) => f.status !== 'complete';

/** `yyyy-MM` moved by whole months. */
export function shiftMonth(month: string, by: number): string {
  const [year, m] = month.split('-').map(Number) as [number, number];
  const index = year * 12 + (m - 1) + by;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

export function isMonth(value: string | null | undefined): value is string {
  return typeof value === 'string' && /^\d{4}-(0[1-9]|1[0-2])$/.test(value);
}
