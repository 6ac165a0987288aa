import type { DateString } from '@shared/calendar';
import type { Availability } from '@shared/schemas/availability';
import type { Booking } from '@shared/schemas/bookings';
import type { StaffNote } from '@shared/schemas/notes';
import type { PublicUser } from '@shared/schemas/users';
import { Link } from 'wouter';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DayHistory } from '@/features/history';
import { DayNotes } from '@/features/notes/components/day-notes';
import { DayAvailability, DayBookings } from '@/features/staff-grid/components/day-availability';
import { displayName, longDate } from '@/features/staff-grid/lib/grid-model';

export interface DaySelection {
  user: PublicUser;
  date: DateString;
}

/** The staff day-detail dialog: composes the grid's availability block with the notes feature. */
export function StaffDayDialog({
  selection,
  onClose,
  availability,
  bookings,
  notes,
}: {
  selection: DaySelection | null;
  onClose: () => void;
  availability: Availability | undefined;
  bookings: Booking[];
  notes: StaffNote[];
}) {
  return (
    <Dialog open={selection !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        {selection ? (
          <>
            <DialogHeader>
              <DialogTitle>{displayName(selection.user)}</DialogTitle>
              <DialogDescription>{longDate(selection.date)}</DialogDescription>
            </DialogHeader>
            <div className="grid gap-3">
              <DayAvailability
                key={`${selection.user.id}|${selection.date}`}
                userId={selection.user.id}
                date={selection.date}
                availability={availability}
                bookings={bookings}
              />
              <DayBookings bookings={bookings} />
              <DayNotes facilitatorId={selection.user.id} date={selection.date} notes={notes} />
              <DayHistory
                key={`history|${selection.user.id}|${selection.date}`}
                userId={selection.user.id}
                date={selection.date}
              />
              <Link
                href={`/staff/free?date=${selection.date}`}
                className="justify-self-start text-primary text-sm underline-offset-4 hover:underline focus-visible:underline"
              >
                Who is free on this day?
              </Link>
            </div>
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
