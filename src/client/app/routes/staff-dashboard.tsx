import { type DateString, DEFAULT_STAFF_VIEW, type StaffView, staffViewRange } from '@shared/calendar';
import { EXPORT_NO_AREA } from '@shared/exports';
import type { LogoutResponse } from '@shared/schemas/auth';
import type { PublicUser } from '@shared/schemas/users';
import { SIGNED_OUT_OF_PORTAL_ONLY } from '@shared/sign-in';
import { useQueryClient } from '@tanstack/react-query';
import { CalendarPlus, ListChecks, UserSearch, Users } from 'lucide-react';
import { Suspense, use, useCallback, useMemo, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { StaffExportMenu } from '@/features/exports';
import { useStaffNotes } from '@/features/notes/api/notes-api';
import { highestPriorityByCell, noteCellKey, notesOfDay } from '@/features/notes/lib/note-model';
import { useSafeguardingList } from '@/features/safeguarding';
import { gridOpeningReads, useStaffGridLists, useStaffUsers } from '@/features/staff-grid/api/staff-grid-api';
import {
  RefreshBookingsButton,
  RefreshProgress,
  useBookingRefresh,
} from '@/features/staff-grid/components/refresh-bookings';
import { type GridFilterState, ScheduleGrid } from '@/features/staff-grid/components/schedule-grid';
import { SchedulerStatusLine } from '@/features/staff-grid/components/scheduler-status';
import { firstFacilitatorIds, NO_AREA } from '@/features/staff-grid/lib/grid-model';
import { apiJson } from '@/lib/api';
import { browserToday } from '@/lib/browser-today';
import { StaffLayout } from '../layouts/staff-layout';
import { type DaySelection, StaffDayDialog } from '../staff-day-dialog';

/**
 * The page waits, under its loading line, until the grid's opening reads are in
 * (`gridOpeningReads`), then draws the heading and the grid in one render that React can interrupt.
 */
export default function StaffDashboardRoute() {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const today = useMemo(browserToday, []);
  const [opening] = useState(() => gridOpeningReads(queryClient, staffViewRange(DEFAULT_STAFF_VIEW, today)));
  const logout = async () => {
    try {
      const { microsoftSignOut } = await apiJson<LogoutResponse>('POST', '/api/logout');
      // after a Microsoft sign-in the login page offers to sign out of Microsoft too
      navigate(microsoftSignOut ? SIGNED_OUT_OF_PORTAL_ONLY : '/staff-login');
    } catch (error) {
      console.error('Logout failed:', error instanceof Error ? error.message : error);
    }
  };
  return (
    <StaffLayout onLogout={logout}>
      <Suspense fallback={<DashboardLoading />}>
        <StaffDashboard opening={opening} today={today} />
      </Suspense>
    </StaffLayout>
  );
}

function DashboardLoading() {
  return (
    <p className="py-10 text-center text-muted-foreground" role="status">
      Loading staff dashboard...
    </p>
  );
}

function StaffDashboard({ opening, today }: { opening: PromiseLike<void>; today: DateString }) {
  use(opening);
  const [view, setView] = useState<StaffView>(DEFAULT_STAFF_VIEW);
  const [date, setDate] = useState<DateString>(today);
  const range = staffViewRange(view, date);

  const users = useStaffUsers();
  const firstIds = useMemo(() => (users.data ? firstFacilitatorIds(users.data) : null), [users.data]);
  const lists = useStaffGridLists(range, firstIds);
  const notes = useStaffNotes(view, range.from);
  const refresh = useBookingRefresh();
  const [selection, setSelection] = useState<DaySelection | null>(null);
  // one function for the page's life: every grid row is memoised on it, and a new one each render
  // drew every row again whenever anything on the page changed
  const openDay = useCallback((user: PublicUser, day: DateString) => setSelection({ user, date: day }), []);
  // what the grid's filters show, so "Download" gives the same view
  const [gridFilters, setGridFilters] = useState<GridFilterState | null>(null);

  const priorities = useMemo(() => highestPriorityByCell(notes.data ?? []), [notes.data]);
  const notePriority = useCallback(
    (userId: number, day: DateString) => priorities.get(noteCellKey(userId, day)),
    [priorities],
  );
  // today's safeguarding state beside each name (checks on a session's own day: Who is free)
  const safeguardingList = useSafeguardingList();
  const safeguarding = useMemo(
    () => new Map((safeguardingList.data?.people ?? []).map((person) => [person.userId, person.status])),
    [safeguardingList.data],
  );
  const safeguardingOf = useCallback((userId: number) => safeguarding.get(userId), [safeguarding]);

  const loading = users.isPending || lists.isPending;
  const loadError = users.error ?? lists.error;

  const selectedAvailability = selection
    ? lists.availabilities.find((a) => a.userId === selection.user.id && a.date === selection.date)
    : undefined;
  const selectedBookings = selection
    ? lists.bookings.filter((b) => b.userId === selection.user.id && b.date === selection.date)
    : [];
  const selectedNotes = selection ? notesOfDay(notes.data ?? [], selection.user.id, selection.date) : [];

  return (
    <>
      <div className="grid gap-6">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="grid gap-2">
            <h1 className="font-semibold text-2xl tracking-tight">
              Staff Dashboard - Arts Facilitator Portal
            </h1>
            <SchedulerStatusLine />
          </div>
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" asChild>
              <Link href="/staff/users">
                <Users aria-hidden />
                Manage Users
              </Link>
            </Button>
            <Button variant="outline" asChild>
              <Link href="/staff/free">
                <UserSearch aria-hidden />
                Who is free
              </Link>
            </Button>
            <Button variant="outline" asChild>
              <Link href="/staff/sessions">
                <CalendarPlus aria-hidden />
                Open sessions
              </Link>
            </Button>
            <Button variant="outline" asChild>
              <Link href="/staff/completeness">
                <ListChecks aria-hidden />
                Completeness
              </Link>
            </Button>
            <StaffExportMenu
              range={range}
              filters={{
                areas: gridFilters?.areas?.map((a) => (a === NO_AREA ? EXPORT_NO_AREA : a)) ?? null,
                exclude: gridFilters?.deselected ?? [],
              }}
              shown={gridFilters?.shown ?? 0}
            />
            <RefreshBookingsButton
              onClick={refresh.start}
              isRefreshing={refresh.isRefreshing}
              bookingsLoading={lists.bookingsFetching}
            />
          </div>
        </div>
        <RefreshProgress message={refresh.message} />
        <Card>
          <CardHeader>
            <CardTitle>
              <h2>Facilitator Schedule Overview</h2>
            </CardTitle>
            <CardDescription>
              View and manage all facilitator availability and bookings in one place.
            </CardDescription>
          </CardHeader>
          {/* narrow padding on a phone leaves the grid room for a whole week */}
          <CardContent narrow>
            {loading ? (
              <DashboardLoading />
            ) : loadError ? (
              <p className="py-10 text-center text-destructive" role="alert">
                The dashboard could not be loaded: {loadError.message}
              </p>
            ) : (
              <ScheduleGrid
                users={users.data ?? []}
                availabilities={lists.availabilities}
                bookings={lists.bookings}
                loadedUserIds={lists.loadedUserIds}
                view={view}
                date={date}
                today={today}
                onViewChange={setView}
                onDateChange={setDate}
                notePriority={notePriority}
                onCellClick={openDay}
                isUpdating={lists.isUpdating}
                onFiltersChange={setGridFilters}
                safeguardingOf={safeguardingOf}
              />
            )}
          </CardContent>
        </Card>
      </div>
      <StaffDayDialog
        selection={selection}
        onClose={() => setSelection(null)}
        availability={selectedAvailability}
        bookings={selectedBookings}
        notes={selectedNotes}
      />
    </>
  );
}
