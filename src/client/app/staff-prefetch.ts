import { DEFAULT_STAFF_VIEW, staffViewRange } from '@shared/calendar';
import {
  NO_GRID_FILTERS,
  schedulerStatusQuery,
  staffGridQuery,
} from '@/features/staff-grid/api/staff-grid-api';
import { browserToday } from '@/lib/browser-today';
import { queryClient } from '@/lib/query-client';

/**
 * The staff dashboard's first reads, asked for as its route starts: alongside /api/user and the
 * dashboard's own code instead of after them. Not the view's staff notes: every facilitator's, they
 * grow with the organisation and only the day dialog reads them (the grid's pages carry the note
 * marks), so they are read when a day is first opened, not beside the first page. The dashboard's queries find them in the cache, in
 * flight or done. A visitor who may not read them (signed out, not staff) gets the same error the
 * dashboard would have had, and its queries ask again on mount.
 */
export function prefetchStaffDashboard(): void {
  // the dashboard's opening view: the default view around the browser's today, nothing filtered
  const range = staffViewRange(DEFAULT_STAFF_VIEW, browserToday());
  void queryClient.prefetchInfiniteQuery(staffGridQuery(range, NO_GRID_FILTERS));
  void queryClient.prefetchQuery(schedulerStatusQuery());
}
