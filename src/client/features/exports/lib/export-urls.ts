import type { DateRange } from '@shared/calendar';
import type { ExportFormat } from '@shared/schemas/exports';

/** What the staff grid shows: its range, the areas chosen (null: all) and the facilitators left out. */
export interface GridExportFilters {
  areas: readonly string[] | null;
  exclude: readonly number[];
}

export function staffExportUrl(format: ExportFormat, range: DateRange, filters: GridExportFilters): string {
  const params = new URLSearchParams({ format, from: range.from, to: range.to });
  if (filters.areas) for (const area of filters.areas) params.append('area', area);
  // no area chosen shows nobody; an empty area name matches nobody (a missing one would mean all)
  if (filters.areas?.length === 0) params.append('area', '');
  if (filters.exclude.length > 0) params.set('exclude', [...filters.exclude].sort((a, b) => a - b).join(','));
  return `/api/staff/export?${params}`;
}

export function ownExportUrl(range: DateRange): string {
  return `/api/availability/export?${new URLSearchParams({ from: range.from, to: range.to })}`;
}
