import { DEFAULT_STAFF_VIEW, staffViewRange, todayIn } from '@shared/calendar';
import { staffNotesQuery } from '@/features/notes/api/notes-api';
import {
  schedulerStatusQuery,
  staffAvailabilitiesQuery,
  staffBookingsQuery,
  staffUsersQuery,
} from '@/features/staff-grid/api/staff-grid-api';
import { queryClient } from '@/lib/query-client';

/**
 * The staff dashboard's first reads, started as the app loads: alongside /api/user and the
 * dashboard's own code instead of after them (no request waterfalls). The dashboard's
 * queries find them in the cache, in flight or done. A visitor who may not read them (signed out,
 * not staff) gets the same error the dashboard would have had, and its queries ask again on mount.
 */
export function prefetchStaffDashboard(): void {
  // the dashboard's opening view: the default view around the browser's today
  const today = todayIn(Intl.DateTimeFormat().resolvedOptions().timeZone);
  const range = staffViewRange(DEFAULT_STAFF_VIEW, today);
  void queryClient.prefetchQuery(staffUsersQuery());
  void queryClient.prefetchQuery(staffAvailabilitiesQuery(range));
  void queryClient.prefetchQuery(staffBookingsQuery(range));
  void queryClient.prefetchQuery(staffNotesQuery(DEFAULT_STAFF_VIEW, range.from));
  void queryClient.prefetchQuery(schedulerStatusQuery());
}
