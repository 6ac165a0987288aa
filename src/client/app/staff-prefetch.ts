import { DEFAULT_STAFF_VIEW, staffViewRange } from '@shared/calendar';
import { staffNotesQuery } from '@/features/notes/api/notes-api';
import {
  schedulerStatusQuery,
  staffAvailabilitiesOfQuery,
  staffBookingsOfQuery,
  staffUsersQuery,
} from '@/features/staff-grid/api/staff-grid-api';
import { firstFacilitatorIds } from '@/features/staff-grid/lib/grid-model';
import { browserToday } from '@/lib/browser-today';
import { queryClient } from '@/lib/query-client';

/**
 * The staff dashboard's first reads, started as the app loads: alongside /api/user and the
 * dashboard's own code instead of after them (no request waterfalls). The dashboard's
 * queries find them in the cache, in flight or done. A visitor who may not read them (signed out,
 * not staff) gets the same error the dashboard would have had, and its queries ask again on mount.
 *
 * The grid's first rows are asked for as soon as the users are in, while the dashboard's code is
 * still loading; the whole range's availability and bookings are read by the grid once those rows
 * are drawn (ADR 46; the page's HTML starts only the first rows, ADR 51).
 */
export function prefetchStaffDashboard(): void {
  // the dashboard's opening view: the default view around the browser's today
  const today = browserToday();
  const range = staffViewRange(DEFAULT_STAFF_VIEW, today);
  queryClient.fetchQuery(staffUsersQuery()).then(
    (users) => {
      const firstIds = firstFacilitatorIds(users);
      if (firstIds.length === 0) return;
      void queryClient.prefetchQuery(staffAvailabilitiesOfQuery(range, firstIds));
      void queryClient.prefetchQuery(staffBookingsOfQuery(range, firstIds));
    },
    // the dashboard's own users query asks again and shows the error
    () => undefined,
  );
  void queryClient.prefetchQuery(staffNotesQuery(DEFAULT_STAFF_VIEW, range.from));
  void queryClient.prefetchQuery(schedulerStatusQuery());
}
