import type { Booking } from '@shared/schemas/bookings';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { bookingTitle, bookingView, formatLongDate } from '../lib/calendar-format';

export interface BookingDetailsDialogProps {
  bookings: Booking[] | null;
  onOpenChange: (open: boolean) => void;
  /** where focus goes when the dialog closes (it has no Radix trigger) */
  onCloseAutoFocus?: (event: Event) => void;
}

/** Booking details: every field with its fallbacks; several bookings show one after another. */
export function BookingDetailsDialog({
  bookings,
  onOpenChange,
  onCloseAutoFocus,
}: BookingDetailsDialogProps) {
  const open = bookings !== null && bookings.length > 0;
  const single = bookings?.length === 1 ? bookings[0] : undefined;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="booking-details" onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>{single ? bookingTitle(single) : 'Booking Details'}</DialogTitle>
          <DialogDescription>
            {single
              ? 'Booking Details'
              : bookings?.[0]
                ? `${bookings.length} bookings on ${formatLongDate(bookings[0].date)}`
                : ''}
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-4">
          {(bookings ?? []).map((booking) => (
            <BookingFields key={booking.id} booking={booking} showTitle={!single} />
          ))}
        </div>
      </DialogContent>
    </Dialog>
  );
}

function BookingFields({ booking, showTitle }: { booking: Booking; showTitle: boolean }) {
  const view = bookingView(booking);
  const rows: [string, string][] = [
    ['School', view.school],
    ['Program', view.program],
    ['Time Slot', view.timeSlot],
    ['Delivery', view.delivery],
    ['Time', view.time],
    ['Location', view.location],
    ['Date', view.date],
  ];
  return (
    <section className="grid gap-2 rounded-md border p-3" aria-label={bookingTitle(booking)}>
      {showTitle ? <h3 className="font-medium text-sm">{bookingTitle(booking)}</h3> : null}
      <dl className="grid grid-cols-[7rem_1fr] gap-x-3 gap-y-1.5 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="min-w-0 break-words" data-field={label}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
