import type { Booking } from '@shared/schemas/bookings';
import { bookingTitle } from '../lib/calendar-format';
import { useLongPress } from '../lib/use-long-press';

export interface BookingChipProps {
  booking: Booking;
  tabbable: boolean;
  onOpen: (booking: Booking) => void;
}

/** A booked session in a day cell: click, Enter or a 500 ms touch long-press opens its details. */
export function BookingChip({ booking, tabbable, onOpen }: BookingChipProps) {
  const { handlers, consumeClick } = useLongPress(() => onOpen(booking));
  const title = bookingTitle(booking);
  return (
    <button
      type="button"
      tabIndex={tabbable ? 0 : -1}
      data-testid="booking-chip"
      // Wrapped (hyphenated where the browser can) rather than one cut line: a phone's cell is about
      // 70 px wide and "Puppe…" told nobody which session it was.
      className="line-clamp-3 w-full touch-manipulation select-none hyphens-auto rounded-sm bg-primary px-0.5 py-0.5 text-left font-medium text-[10px] text-primary-foreground leading-[13px] outline-none hover:bg-primary/85 focus-visible:ring-[3px] focus-visible:ring-ring/60 sm:line-clamp-2 sm:px-1.5 sm:text-[11px] sm:leading-[14px] [-webkit-touch-callout:none] [overflow-wrap:anywhere]"
      aria-label={`Booking: ${title}. Show details`}
      title={title}
      {...handlers}
      onClick={(event) => {
        event.stopPropagation();
        if (consumeClick()) return;
        onOpen(booking);
      }}
      onKeyDown={(event) => {
        // the cell's own keys (Enter opens the day) must not fire from inside a chip
        event.stopPropagation();
      }}
    >
      {title}
    </button>
  );
}
