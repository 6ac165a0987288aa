import { BOOKED_DAY_MESSAGE } from '@shared/availability';
import { monthGrid, monthGridRange, nextMonth, previousMonth, startOfMonth } from '@shared/calendar';
import type { Availability } from '@shared/schemas/availability';
import type { Booking } from '@shared/schemas/bookings';
import { AlertCircle, Lightbulb } from 'lucide-react';
import { type ReactNode, useCallback, useId, useMemo, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { browserToday } from '@/lib/browser-today';
import { WAITING_DESCRIPTION, WAITING_TITLE } from '@/lib/offline-queue';
import { useAvailability, useBookings, useBulkUpdate, useSaveDay } from '../api/calendar-api';
import { BookingDetailsDialog } from './booking-details-dialog';
import { BulkDialog, type BulkFormValues } from './bulk-dialog';
import { CalendarGrid } from './calendar-grid';
import { CalendarLoading } from './calendar-loading';
import { CalendarToolbar } from './calendar-toolbar';
import { DayDialog, type DayFormValues } from './day-dialog';

const SAVE_ERROR_FALLBACK = 'An error occurred. Please try again.';

/** First day of the month shown and the day that holds the grid's single tab stop. */
function firstActiveDay(month: string, today: string): string {
  if (
    today.slice(0, 7) === month.slice(0, 7) &&
    monthGrid(month).some((w) => w.some((c) => c.date === today))
  )
    return today;
  const cell = monthGrid(month)
    .flat()
    .find((c) => c.inMonth);
  return cell!.date;
}

/**
 * Facilitator home: the month of weekdays with availability and bookings, and its dialogs.
 * `toolbarActions` are extra toolbar buttons from other features, composed in by the route.
 */
export function AvailabilityCalendar({
  userId,
  neverMarked = false,
  toolbarActions,
  dayExtra,
  openAt,
}: {
  userId: number;
  /** a day to open the calendar at (a link from a notification) instead of today */
  openAt?: string;
  /** more for a day from other features (offers), composed in by the route */
  dayExtra?: (date: string, tabbable: boolean) => ReactNode;
  /** the person has never saved any availability: the calendar shows how to start */
  neverMarked?: boolean;
  toolbarActions?: ReactNode;
}) {
  const labelId = useId();
  const [today] = useState(browserToday);
  const [month, setMonth] = useState(() => startOfMonth(openAt ?? today));
  const [active, setActive] = useState<{ date: string; focus: boolean }>(() => ({
    date: firstActiveDay(startOfMonth(openAt ?? today), openAt ?? today),
    focus: false,
  }));
  const [editDate, setEditDate] = useState<string | null>(null);
  const [bulkOpen, setBulkOpen] = useState(false);
  const [details, setDetails] = useState<Booking[] | null>(null);
  // The dialogs note the control that opened them before they open, and give focus back to it.
  const returnFocus = useRef<HTMLElement | null>(null);
  const rememberFocus = () => {
    returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  };
  const restoreFocus = (event: Event) => {
    const target = returnFocus.current;
    if (target?.isConnected) {
      event.preventDefault();
      target.focus();
    }
  };
  const openDetails = (bookings: Booking[]) => {
    rememberFocus();
    setDetails(bookings);
  };

  const weeks = useMemo(() => monthGrid(month), [month]);
  const range = useMemo(() => monthGridRange(month), [month]);
  const availabilityQuery = useAvailability(userId, range);
  const bookingsQuery = useBookings(userId, range);
  const saveDay = useSaveDay();
  const bulkUpdate = useBulkUpdate();

  const availabilityByDate = useMemo(() => {
    const map = new Map<string, Availability>();
    for (const row of availabilityQuery.data ?? []) map.set(row.date, row);
    return map;
  }, [availabilityQuery.data]);
  const bookingsByDate = useMemo(() => {
    const map = new Map<string, Booking[]>();
    for (const booking of bookingsQuery.data ?? []) {
      const list = map.get(booking.date);
      if (list) list.push(booking);
      else map.set(booking.date, [booking]);
    }
    return map;
  }, [bookingsQuery.data]);

  const showMonth = useCallback(
    (next: string, focus: boolean) => {
      const first = startOfMonth(next);
      setMonth(first);
      setActive({ date: firstActiveDay(first, today), focus });
    },
    [today],
  );

  const openDay = (date: string) => {
    if ((bookingsByDate.get(date)?.length ?? 0) > 0) {
      toast({ title: 'Cannot Edit Availability', description: BOOKED_DAY_MESSAGE, variant: 'destructive' });
      return;
    }
    rememberFocus();
    setEditDate(date);
  };

  const save = (date: string, values: DayFormValues) => {
    saveDay.mutate(
      { userId, date, ...values },
      {
        onSuccess: (result) => {
          setEditDate(null);
          if (result.queued) {
            toast({ title: WAITING_TITLE, description: WAITING_DESCRIPTION });
            return;
          }
          // the server queued the day for SharePoint with the save and delivers it on its own
          toast({
            title: 'Sync Successful',
            description: 'Your availability was synced to SharePoint automatically.',
            variant: 'success',
          });
        },
        onError: (error) =>
          toast({
            title: 'Error',
            description: errorMessage(error, SAVE_ERROR_FALLBACK),
            variant: 'destructive',
          }),
      },
    );
  };

  const bulkSave = async (values: BulkFormValues) => {
    try {
      return await bulkUpdate.mutateAsync({ userId, ...values });
    } catch (error) {
      toast({
        title: 'Error',
        description: errorMessage(error, SAVE_ERROR_FALLBACK),
        variant: 'destructive',
      });
      throw error;
    }
  };

  const firstLoad =
    (availabilityQuery.isPending && !availabilityQuery.data) ||
    (bookingsQuery.isPending && !bookingsQuery.data);
  const loadError = availabilityQuery.error ?? bookingsQuery.error;

  return (
    <div className="grid gap-4">
      {firstLoad ? (
        <CalendarLoading />
      ) : (
        <>
          <CalendarToolbar
            month={month}
            labelId={labelId}
            isFetching={availabilityQuery.isFetching || bookingsQuery.isFetching}
            onPrevious={() => showMonth(previousMonth(month), false)}
            onNext={() => showMonth(nextMonth(month), false)}
            onToday={() => {
              setMonth(startOfMonth(today));
              setActive({ date: firstActiveDay(startOfMonth(today), today), focus: false });
            }}
            onBulkUpdate={() => {
              rememberFocus();
              setBulkOpen(true);
            }}
            actions={toolbarActions}
          />
          {loadError ? (
            <div
              role="alert"
              className="flex flex-wrap items-center gap-3 rounded-md border border-destructive/60 bg-destructive/10 p-3 text-sm"
            >
              <AlertCircle className="size-4 text-destructive" aria-hidden />
              <span className="flex-1">
                Your calendar could not be loaded: {errorMessage(loadError, 'please try again.')}
              </span>
              <Button
                size="sm"
                variant="outline"
                onClick={() => {
                  void availabilityQuery.refetch();
                  void bookingsQuery.refetch();
                }}
              >
                Try again
              </Button>
            </div>
          ) : null}
          {neverMarked && availabilityByDate.size === 0 ? <FirstSteps /> : null}
          <CalendarGrid
            weeks={weeks}
            labelId={labelId}
            today={today}
            activeDate={active.date}
            focusActive={active.focus}
            availabilityByDate={availabilityByDate}
            bookingsByDate={bookingsByDate}
            onActiveDateChange={(date, focus) => setActive({ date, focus })}
            onDayActivate={openDay}
            onOpenBookings={openDetails}
            dayExtra={dayExtra}
            onPageMonth={(step) => showMonth(step < 0 ? previousMonth(month) : nextMonth(month), true)}
          />
        </>
      )}
      <DayDialog
        date={editDate}
        existing={editDate ? availabilityByDate.get(editDate) : undefined}
        isSaving={saveDay.isPending}
        onOpenChange={(open) => {
          if (!open) setEditDate(null);
        }}
        onSave={save}
        onCloseAutoFocus={restoreFocus}
      />
      <BulkDialog
        open={bulkOpen}
        today={today}
        isSaving={bulkUpdate.isPending}
        onOpenChange={setBulkOpen}
        onSubmit={bulkSave}
        onCloseAutoFocus={restoreFocus}
      />
      <BookingDetailsDialog
        bookings={details}
        onOpenChange={(open) => {
          if (!open) setDetails(null);
        }}
        onCloseAutoFocus={restoreFocus}
      />
    </div>
  );
}

/** For someone who has not marked a single day yet: where to begin. */
function FirstSteps() {
  return (
    <div
      data-testid="first-steps"
      className="flex items-start gap-3 rounded-md border border-primary/40 bg-primary/5 p-3 text-sm"
    >
      <Lightbulb className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
      <p>
        <span className="font-medium">Getting started:</span> choose a day to say whether you can work it,
        with times and notes if you like, or use <span className="font-medium">Bulk Update</span> to mark many
        days at once. Days with bookings are locked.
      </p>
    </div>
  );
}
