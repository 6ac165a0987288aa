import type { CalendarWeek } from '@shared/calendar';
import type { Availability } from '@shared/schemas/availability';
import type { Booking } from '@shared/schemas/bookings';
import { type KeyboardEvent, type ReactNode, useEffect, useMemo, useRef } from 'react';
import { DayCell } from './day-cell';

const COLUMNS = [
  ['Mon', 'Monday'],
  ['Tue', 'Tuesday'],
  ['Wed', 'Wednesday'],
  ['Thu', 'Thursday'],
  ['Fri', 'Friday'],
] as const;

export interface CalendarGridProps {
  weeks: CalendarWeek[];
  labelId: string;
  today: string;
  activeDate: string;
  /** true when the active day should take focus (after keyboard navigation) */
  focusActive: boolean;
  availabilityByDate: Map<string, Availability>;
  bookingsByDate: Map<string, Booking[]>;
  onActiveDateChange: (date: string, focus: boolean) => void;
  onDayActivate: (date: string) => void;
  onOpenBookings: (bookings: Booking[]) => void;
  /** more for a day from other features (offers); `tabbable`: the day holds the grid's tab stop */
  dayExtra?: (date: string, tabbable: boolean) => ReactNode;
  onPageMonth: (step: -1 | 1) => void;
}

const NO_BOOKINGS: Booking[] = [];

/**
 * The month as an ARIA grid of Monday-to-Friday rows. One day at a time is in the tab order (roving
 * tabindex); arrow keys move between the month's days, Home/End to the ends of the week, Page Up/Down
 * change month, Enter or Space opens the day.
 */
export function CalendarGrid({
  weeks,
  labelId,
  today,
  activeDate,
  focusActive,
  availabilityByDate,
  bookingsByDate,
  dayExtra,
  onActiveDateChange,
  onDayActivate,
  onOpenBookings,
  onPageMonth,
}: CalendarGridProps) {
  const cells = useMemo(() => weeks.flat(), [weeks]);
  const refs = useRef(new Map<string, HTMLTableCellElement>());

  useEffect(() => {
    if (focusActive) refs.current.get(activeDate)?.focus();
  }, [activeDate, focusActive]);

  const handleKeyDown = (event: KeyboardEvent<HTMLTableCellElement>, date: string) => {
    if (event.target !== event.currentTarget) return;
    const index = cells.findIndex((cell) => cell.date === date);
    const inMonthAt = (i: number) => (cells[i]?.inMonth ? cells[i]!.date : undefined);
    const rowStart = index - (index % 5);
    let next: string | undefined;
    switch (event.key) {
      case 'ArrowRight':
        for (let i = index + 1; i < cells.length && !next; i++) next = inMonthAt(i);
        break;
      case 'ArrowLeft':
        for (let i = index - 1; i >= 0 && !next; i--) next = inMonthAt(i);
        break;
      case 'ArrowDown':
        next = inMonthAt(index + 5);
        break;
      case 'ArrowUp':
        next = inMonthAt(index - 5);
        break;
      case 'Home':
        for (let i = rowStart; i < index && !next; i++) next = inMonthAt(i);
        break;
      case 'End':
        for (let i = rowStart + 4; i > index && !next; i--) next = inMonthAt(i);
        break;
      case 'PageUp':
      case 'PageDown':
        event.preventDefault();
        onPageMonth(event.key === 'PageUp' ? -1 : 1);
        return;
      case 'Enter':
      case ' ':
        event.preventDefault();
        onDayActivate(date);
        return;
      default:
        return;
    }
    event.preventDefault();
    if (next) onActiveDateChange(next, true);
  };

  return (
    <table
      // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a table made a grid is the ARIA APG pattern for an interactive calendar
      role="grid"
      aria-labelledby={labelId}
      className="w-full table-fixed border-separate border-spacing-1 sm:border-spacing-2"
      data-testid="calendar-grid"
    >
      <thead>
        <tr>
          {COLUMNS.map(([short, long]) => (
            <th
              key={long}
              scope="col"
              abbr={long}
              className="py-1 text-center font-medium text-muted-foreground text-xs sm:text-sm"
            >
              <span aria-hidden>{short}</span>
              <span className="sr-only">{long}</span>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {weeks.map((week) => (
          <tr key={week[0]!.date}>
            {week.map((cell) => (
              <DayCell
                key={cell.date}
                ref={(element) => {
                  if (element) refs.current.set(cell.date, element);
                  else refs.current.delete(cell.date);
                }}
                date={cell.date}
                inMonth={cell.inMonth}
                isToday={cell.date === today}
                isActive={cell.date === activeDate}
                availability={availabilityByDate.get(cell.date)}
                bookings={bookingsByDate.get(cell.date) ?? NO_BOOKINGS}
                onActivate={(date) => {
                  onActiveDateChange(date, false);
                  onDayActivate(date);
                }}
                onOpenBookings={onOpenBookings}
                onKeyDown={handleKeyDown}
                extra={cell.inMonth ? dayExtra?.(cell.date, cell.date === activeDate) : undefined}
              />
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
