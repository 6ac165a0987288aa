import { type DateString, DEFAULT_STAFF_VIEW, type StaffView, staffViewRange } from '@shared/calendar';
import { EXPORT_NO_AREA } from '@shared/exports';
import type { PublicUser } from '@shared/schemas/users';
import { useQueryClient } from '@tanstack/react-query';
import { CalendarPlus, ListChecks, UserSearch, Users } from 'lucide-react';
import { useCallback, useMemo, useState } from 'react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { StaffExportMenu } from '@/features/exports';
import { useStaffNotes } from '@/features/notes/api/notes-api';
import { notesOfDay } from '@/features/notes/lib/note-model';
import { gridFiltersFor, useStaffGrid } from '@/features/staff-grid/api/staff-grid-api';
import {
  RefreshBookingsButton,
  RefreshProgress,
  useBookingRefresh,
} from '@/features/staff-grid/components/refresh-bookings';
import { type GridFilterState, ScheduleGrid } from '@/features/staff-grid/components/schedule-grid';
import { SchedulerStatusLine } from '@/features/staff-grid/components/scheduler-status';
import { NO_AREA } from '@/features/staff-grid/lib/grid-model';
import { errorMessage } from '@/lib/api';
import { browserToday } from '@/lib/browser-today';
import { StaffLayout } from '../layouts/staff-layout';
import { type DaySelection, StaffDayDialog } from '../staff-day-dialog';

/**
 * The staff dashboard: the grid reads a page of facilitators at a time (the first page was asked for
 * as the route started: app/staff-prefetch.ts), and the next as the last rows read scroll into view.
 */
export default function StaffDashboardRoute() {
  const today = useMemo(browserToday, []);
  return (
    <StaffLayout>
      <StaffDashboard today={today} />
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

function GridReadFailed({ error, onRetry }: { error: Error; onRetry: () => void }) {
  return (
    <div className="grid justify-items-center gap-3 py-10 text-center" role="alert">
      <p className="text-destructive">
        The dashboard could not be loaded: {errorMessage(error, 'please try again.')}
      </p>
      <Button variant="outline" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

function StaffDashboard({ today }: { today: DateString }) {
  const queryClient = useQueryClient();
  const [view, setView] = useState<StaffView>(DEFAULT_STAFF_VIEW);
  const [date, setDate] = useState<DateString>(today);
  const range = staffViewRange(view, date);
  // what the grid's filters choose: the rows are read for it, and "Download" gives the same view
  const [gridFilters, setGridFilters] = useState<GridFilterState | null>(null);
  const filters = useMemo(() => gridFiltersFor(queryClient, gridFilters), [queryClient, gridFilters]);
  // no area chosen shows nobody: nothing to ask for
  const noneChosen = filters.areas?.length === 0;
  const grid = useStaffGrid(range, filters, !noneChosen);
  const { fetchNextPage, hasNextPage, isFetchingNextPage } = grid;
  const pages = grid.data?.pages;
  const rows = useMemo(
    () => (noneChosen ? [] : (pages ?? []).flatMap((page) => page.rows)),
    [noneChosen, pages],
  );
  const first = pages?.[0];
  // The last first page read: when a new range or filter cannot be read, the grid and its filters stay
  // as chosen (with what went wrong in place of the rows), so one failed read does not reset them.
  const [lastFirst, setLastFirst] = useState(first);
  if (first && first !== lastFirst) setLastFirst(first);
  const shown = first ?? lastFirst;
  // what went wrong with the rows asked for last, with the way to ask again
  const failed =
    grid.error && !first ? <GridReadFailed error={grid.error} onRetry={() => void grid.refetch()} /> : null;
  const matching = noneChosen ? 0 : (first?.matching ?? 0);
  const loadMore = useCallback(() => {
    if (!isFetchingNextPage) void fetchNextPage();
  }, [fetchNextPage, isFetchingNextPage]);

  const refresh = useBookingRefresh();
  const [selection, setSelection] = useState<DaySelection | null>(null);
  // the view's notes are for the day dialog (the grid's pages carry the note marks): read once a
  // day is first opened, not beside the grid's first page
  const [notesWanted, setNotesWanted] = useState(false);
  if (selection && !notesWanted) setNotesWanted(true);
  const notes = useStaffNotes(view, range.from, notesWanted);
  // one function for the page's life: every grid row is memoised on it
  const openDay = useCallback((user: PublicUser, day: DateString) => setSelection({ user, date: day }), []);

  // nothing read yet; once something was, the grid stays and says what it is waiting for in its place
  const loading = !shown && !grid.error;
  const selectedRow = selection ? rows.find((row) => row.user.id === selection.user.id) : undefined;
  const selectedAvailability = selection
    ? selectedRow?.availability.find((a) => a.date === selection.date)
    : undefined;
  const selectedBookings = selection
    ? (selectedRow?.bookings ?? []).filter((b) => b.date === selection.date)
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
              shown={matching}
              searching={filters.search !== ''}
            />
            <RefreshBookingsButton
              onClick={refresh.start}
              isRefreshing={refresh.isRefreshing}
              bookingsLoading={grid.isFetching}
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
            ) : !shown ? (
              failed
            ) : (
              <ScheduleGrid
                rows={rows}
                matching={matching}
                total={shown?.total ?? 0}
                areas={shown?.areas ?? []}
                problem={failed ?? (!first && !noneChosen ? <DashboardLoading /> : null)}
                hasMore={!noneChosen && hasNextPage}
                onLoadMore={loadMore}
                view={view}
                date={date}
                today={today}
                onViewChange={setView}
                onDateChange={setDate}
                onCellClick={openDay}
                isUpdating={grid.isPlaceholderData}
                onFiltersChange={setGridFilters}
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
