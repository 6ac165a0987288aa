import { zodResolver } from '@hookform/resolvers/zod';
import type { AvailabilityStatus } from '@shared/availability';
import { formatTimeRange } from '@shared/calendar';
import {
  type Availability,
  type AvailabilityDayForm,
  availabilityDayForm,
} from '@shared/schemas/availability';
import type { Booking } from '@shared/schemas/bookings';
import { normaliseTimeOfDay } from '@shared/time-of-day';
import { Pencil } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { AvailabilityFormFields } from '@/components/availability-fields';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/utils';
import { useSaveStaffAvailability } from '../api/staff-grid-api';
import { STATUS_LABEL } from '../lib/grid-model';

/**
 * A day with no availability yet opens for editing at 09:00 to 17:00: times of an
 * available or limited day. Marked unavailable, it has no times unless staff choose them.
 */
export const STAFF_DEFAULT_START = '09:00';
export const STAFF_DEFAULT_END = '17:00';

const STATUS_DOT: Record<AvailabilityStatus, string> = {
  available: 'bg-success',
  limited: 'bg-warning',
  unavailable: 'bg-destructive',
};

function timeRange(start: string, end: string): string {
  return formatTimeRange(start, end) || 'No times set';
}

/**
 * A booking's time as stored: new refreshes store "HH:mm", but rows read before that may still hold
 * what was typed in SharePoint ("010:00"); those are read leniently, and what is no time says so.
 */
export function bookingTimeText(start: string | null, end: string | null): string {
  if (!start && !end) return '';
  const known = (value: string | null) => (value ? normaliseTimeOfDay(value) : '');
  const from = known(start);
  const to = known(end);
  if (from === null || to === null) return 'Time unknown';
  return timeRange(from, to);
}

/** How a booking is named to staff: its school, else its title. */
export function bookingName(booking: Booking): string {
  return booking.schoolName || booking.title || 'Unknown School';
}

/** The day dialog's availability block: a summary that toggles to an edit form. */
export function DayAvailability({
  userId,
  date,
  availability,
  bookings = [],
}: {
  userId: number;
  date: string;
  availability: Availability | undefined;
  /** the day's bookings: marking a booked day unavailable is confirmed first */
  bookings?: Booking[];
}) {
  const [editing, setEditing] = useState(false);
  return (
    <section className="grid gap-3 rounded-md border p-3" aria-labelledby="day-availability-heading">
      <div className="flex items-center justify-between gap-2">
        <h3 id="day-availability-heading" className="font-semibold text-sm">
          Availability
        </h3>
        {!editing ? (
          <Button size="sm" variant="outline" onClick={() => setEditing(true)}>
            <Pencil aria-hidden />
            Edit
          </Button>
        ) : null}
      </div>
      {editing ? (
        <AvailabilityForm
          userId={userId}
          date={date}
          availability={availability}
          bookings={bookings}
          onDone={() => setEditing(false)}
        />
      ) : availability ? (
        <div className="grid gap-1 text-sm" data-testid="availability-view">
          <span className="flex items-center gap-2 font-medium">
            <span aria-hidden className={cn('size-2.5 rounded-full', STATUS_DOT[availability.status])} />
            {STATUS_LABEL[availability.status]}
          </span>
          <span className="text-muted-foreground">
            {timeRange(availability.startTime, availability.endTime)}
          </span>
          {availability.notes ? (
            <p className="whitespace-pre-wrap [overflow-wrap:anywhere]">{availability.notes}</p>
          ) : null}
        </div>
      ) : (
        <p className="text-muted-foreground text-sm" data-testid="availability-view">
          No availability set
        </p>
      )}
    </section>
  );
}

function AvailabilityForm({
  userId,
  date,
  availability,
  bookings,
  onDone,
}: {
  userId: number;
  date: string;
  availability: Availability | undefined;
  bookings: Booking[];
  onDone: () => void;
}) {
  const id = useId();
  // the values waiting for staff to confirm marking a booked day unavailable
  const [confirming, setConfirming] = useState<AvailabilityDayForm | null>(null);
  const save = useSaveStaffAvailability();
  const form = useForm<AvailabilityDayForm>({
    resolver: zodResolver(availabilityDayForm),
    defaultValues: {
      status: availability?.status ?? 'available',
      startTime: availability?.startTime ?? STAFF_DEFAULT_START,
      endTime: availability?.endTime ?? STAFF_DEFAULT_END,
      notes: availability?.notes ?? '',
    },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { errors } = form.formState;

  // The defaults are for a day that has no availability yet, and only while it is marked available
  // or limited; a saved day's times (empty or not) stay as they are. Times staff pick are kept.
  const status = useWatch({ control: form.control, name: 'status' });
  const isNewDay = availability === undefined;
  useEffect(() => {
    if (!isNewDay) return;
    const unavailable = status === 'unavailable';
    if (!form.getFieldState('startTime').isDirty)
      form.resetField('startTime', { defaultValue: unavailable ? '' : STAFF_DEFAULT_START });
    if (!form.getFieldState('endTime').isDirty)
      form.resetField('endTime', { defaultValue: unavailable ? '' : STAFF_DEFAULT_END });
  }, [form, isNewDay, status]);

  const send = (values: AvailabilityDayForm) => {
    setConfirming(null);
    save.mutate(
      { userId, date, ...values },
      {
        onSuccess: () => {
          toast({
            title: 'Availability updated',
            description: 'The facilitator’s availability has been saved.',
          });
          onDone();
        },
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: 'Failed to update availability',
            description: errorMessage(error, 'An error occurred. Please try again.'),
          }),
      },
    );
  };

  const submit = (values: AvailabilityDayForm) => {
    const markingBookedDayUnavailable =
      values.status === 'unavailable' && availability?.status !== 'unavailable' && bookings.length > 0;
    if (markingBookedDayUnavailable) setConfirming(values);
    else send(values);
  };

  return (
    <form
      className="grid gap-4"
      onSubmit={form.handleSubmit(submit)}
      noValidate
      aria-label="Edit availability"
    >
      <AvailabilityFormFields control={form.control} errors={errors} idPrefix={id} />
      <div className="flex justify-end gap-2">
        <Button type="button" variant="outline" onClick={onDone} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save'}
        </Button>
      </div>
      <AlertDialog open={confirming !== null} onOpenChange={(open) => (open ? null : setConfirming(null))}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Mark a booked day unavailable?</AlertDialogTitle>
            <AlertDialogDescription>
              This day is booked:{' '}
              {bookings
                .map((booking) =>
                  [bookingName(booking), bookingTimeText(booking.startTime, booking.endTime)]
                    .filter(Boolean)
                    .join(', '),
                )
                .join('; ')}
              . The booking stays in SharePoint; let the bookings team know if it has to move.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Keep as it was</AlertDialogCancel>
            <Button type="button" variant="destructive" onClick={() => confirming && send(confirming)}>
              Mark unavailable
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </form>
  );
}

/** The day's bookings, shortly. */
export function DayBookings({ bookings }: { bookings: Booking[] }) {
  if (bookings.length === 0) return null;
  return (
    <section className="grid gap-2 rounded-md border p-3" aria-labelledby="day-bookings-heading">
      <h3 id="day-bookings-heading" className="font-semibold text-sm">
        Bookings
      </h3>
      <ul className="grid gap-1.5 text-sm">
        {bookings.map((booking) => (
          <li key={booking.id} className="grid">
            <span className="font-medium">{bookingName(booking)}</span>
            <span className="text-muted-foreground text-xs">
              {[
                booking.program || booking.title,
                booking.timeSlot || bookingTimeText(booking.startTime, booking.endTime),
              ]
                .filter(Boolean)
                .join(' · ')}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
