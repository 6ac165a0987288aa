import { parseDateString } from '@shared/calendar';
import type { Availability } from '@shared/schemas/availability';
import type { Booking } from '@shared/schemas/bookings';
import { Lock, NotebookPen } from 'lucide-react';
import { forwardRef, type KeyboardEvent, type ReactNode } from 'react';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { cn } from '@/lib/utils';
import {
  bookingTitle,
  formatLongDate,
  formatTimeRange,
  STATUS_BAR_CLASSES,
  STATUS_LABELS,
} from '../lib/calendar-format';
import { BookingChip } from './booking-chip';

export const MAX_CHIPS = 4;
export const LOCKED_TOOLTIP = 'This date is locked due to confirmed bookings';

export interface DayCellProps {
  date: string;
  inMonth: boolean;
  isToday: boolean;
  isActive: boolean;
  availability: Availability | undefined;
  bookings: Booking[];
  onActivate: (date: string) => void;
  onOpenBookings: (bookings: Booking[]) => void;
  /** more for the day from other features (offers), composed in by the route */
  extra?: ReactNode;
  onKeyDown: (event: KeyboardEvent<HTMLTableCellElement>, date: string) => void;
}

/** What a screen reader hears for a day: date, status, times, bookings and the lock. */
export function dayLabel(
  date: string,
  inMonth: boolean,
  isToday: boolean,
  availability: Availability | undefined,
  bookings: Booking[],
): string {
  const parts = [formatLongDate(date)];
  if (!inMonth) return `${parts[0]}, outside this month`;
  if (isToday) parts.push('today');
  if (availability) {
    parts.push(STATUS_LABELS[availability.status]);
    const times = formatTimeRange(availability.startTime, availability.endTime);
    if (times) parts.push(times);
    if (availability.notes) parts.push(`notes: ${availability.notes}`);
  } else {
    parts.push('no availability set');
  }
  if (bookings.length > 0) {
    parts.push(
      `${bookings.length} ${bookings.length === 1 ? 'booking' : 'bookings'}: ${bookings.map(bookingTitle).join('; ')}`,
    );
    parts.push('locked');
  }
  return parts.join(', ');
}

export const DayCell = forwardRef<HTMLTableCellElement, DayCellProps>(function DayCell(
  {
    date,
    inMonth,
    isToday,
    isActive,
    availability,
    bookings,
    onActivate,
    onOpenBookings,
    onKeyDown,
    extra: more,
  },
  ref,
) {
  const { day } = parseDateString(date);
  const locked = bookings.length > 0;
  const shown = bookings.slice(0, MAX_CHIPS);
  const extra = bookings.length - shown.length;

  if (!inMonth) {
    return (
      <td
        aria-disabled="true"
        aria-label={dayLabel(date, false, false, undefined, [])}
        data-date={date}
        data-in-month="false"
        className="h-20 rounded-md border border-dashed bg-muted/40 p-1.5 align-top text-muted-foreground sm:h-28"
      >
        <span aria-hidden className="text-xs">
          {day}
        </span>
      </td>
    );
  }

  return (
    <td
      ref={ref}
      tabIndex={isActive ? 0 : -1}
      aria-label={dayLabel(date, true, isToday, availability, bookings)}
      aria-current={isToday ? 'date' : undefined}
      data-date={date}
      data-in-month="true"
      data-status={availability?.status ?? 'none'}
      data-locked={locked ? 'true' : 'false'}
      onClick={() => onActivate(date)}
      onKeyDown={(event) => onKeyDown(event, date)}
      className={cn(
        'h-20 rounded-md border bg-card p-1 align-top outline-none hover:bg-accent/60 focus-visible:ring-[3px] focus-visible:ring-ring/60 sm:h-28 sm:p-1.5',
        isToday && 'border-primary ring-2 ring-primary/60',
        locked ? 'cursor-not-allowed' : 'cursor-pointer',
      )}
    >
      <div className="flex min-w-0 flex-col gap-1">
        <div className="flex items-center justify-between gap-1">
          <span
            aria-hidden
            className={cn(
              'flex size-6 items-center justify-center rounded-full font-medium text-xs sm:text-sm',
              isToday && 'bg-primary text-primary-foreground',
            )}
          >
            {day}
          </span>
          {availability?.notes ? (
            // the words themselves are in the cell's label and the day dialog; this says there are some
            <NotebookPen
              aria-hidden
              data-testid="notes-hint"
              className="ml-auto size-3.5 shrink-0 text-muted-foreground"
            />
          ) : null}
          {locked ? (
            <Tooltip>
              <TooltipTrigger asChild>
                <span data-testid="day-lock" className="inline-flex text-muted-foreground">
                  <Lock className="size-3.5" aria-hidden />
                </span>
              </TooltipTrigger>
              <TooltipContent>{LOCKED_TOOLTIP}</TooltipContent>
            </Tooltip>
          ) : null}
        </div>
        <div
          aria-hidden
          data-testid="status-bar"
          className={cn(
            'h-1.5 w-full rounded-full',
            availability ? STATUS_BAR_CLASSES[availability.status] : 'bg-muted',
          )}
        />
        {availability ? (
          // status and times on lines of their own, so a cell never cuts the end time off
          <span aria-hidden className="hidden text-[11px] text-muted-foreground leading-4 sm:grid">
            <span className="truncate">{STATUS_LABELS[availability.status]}</span>
            {availability.startTime || availability.endTime ? (
              <span data-testid="day-times" className="[overflow-wrap:anywhere]">
                {formatTimeRange(availability.startTime, availability.endTime)}
              </span>
            ) : null}
          </span>
        ) : null}
        {shown.length > 0 ? (
          <ul className="grid min-w-0 gap-0.5">
            {shown.map((booking) => (
              <li key={booking.id} className="min-w-0">
                <BookingChip booking={booking} tabbable={isActive} onOpen={(b) => onOpenBookings([b])} />
              </li>
            ))}
          </ul>
        ) : null}
        {extra > 0 ? (
          <button
            type="button"
            tabIndex={isActive ? 0 : -1}
            className="w-fit rounded-sm px-1 text-left font-medium text-[11px] text-primary underline-offset-2 outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/60"
            aria-label={`${extra} more bookings. Show all bookings of this day`}
            onClick={(event) => {
              event.stopPropagation();
              onOpenBookings(bookings);
            }}
            onKeyDown={(event) => event.stopPropagation()}
          >
            +{extra} more
          </button>
        ) : null}
        {more}
      </div>
    </td>
  );
});
