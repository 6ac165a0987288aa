import type {
  CompletenessSort,
  CompletenessStatus,
  FacilitatorCompleteness,
} from '@shared/schemas/completeness';
import type { SortDirection } from '@shared/schemas/paging';

/** The columns the list is ordered by (on the server). */
export type SortKey = CompletenessSort;
export interface SortState {
  key: SortKey;
  direction: SortDirection;
}

export const STATUS_LABELS: Record<CompletenessStatus, string> = {
  complete: 'Complete',
  partial: 'Partial',
  missing: 'Missing',
};

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
