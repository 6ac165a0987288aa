import { DEFAULT_STAFF_VIEW, staffViewRange } from '@shared/calendar';
import { staffNotesQuery } from '@/features/notes/api/notes-api';
import { gridOpeningReads, schedulerStatusQuery } from '@/features/staff-grid/api/staff-grid-api';
import { browserToday } from '@/lib/browser-today';
import { queryClient } from '@/lib/query-client';

/**
 * The staff dashboard's first reads, started as the app loads: alongside /api/user and the
 * dashboard's own code instead of after them (no request waterfalls). The dashboard's
 * queries find them in the cache, in flight or done. A visitor who may not read them (signed out,
 * not staff) gets the same error the dashboard would have had, and its queries ask again on mount.
 *
 * The grid's opening reads are the ones the dashboard waits for (`gridOpeningReads`): the users,
 * then the first rows' lists as soon as the users are in, while the dashboard's code is still
 * loading. The whole range's availability and bookings are read by the grid once those rows are
 * drawn (ADR 46; the page's HTML starts only the first rows, ADR 51).
 */
export function prefetchStaffDashboard(): void {
  // the dashboard's opening view: the default view around the browser's today
  const range = staffViewRange(DEFAULT_STAFF_VIEW, browserToday());
  void gridOpeningReads(queryClient, range);
  void queryClient.prefetchQuery(staffNotesQuery(DEFAULT_STAFF_VIEW, range.from));
  void queryClient.prefetchQuery(schedulerStatusQuery());
}
