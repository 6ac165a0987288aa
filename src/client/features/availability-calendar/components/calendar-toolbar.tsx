import { monthLabel } from '@shared/calendar';
import { CalendarRange, ChevronLeft, ChevronRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';

export interface CalendarToolbarProps {
  month: string;
  labelId: string;
  isFetching: boolean;
  onPrevious: () => void;
  onNext: () => void;
  onToday: () => void;
  onBulkUpdate: () => void;
  /** more actions after Bulk Update, composed in by the route (e.g. recurring patterns) */
  actions?: ReactNode;
}

/** The calendar toolbar: title, previous / next month, "Month YYYY", Today and Bulk Update. */
export function CalendarToolbar({
  month,
  labelId,
  isFetching,
  onPrevious,
  onNext,
  onToday,
  onBulkUpdate,
  actions,
}: CalendarToolbarProps) {
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center sm:justify-between">
      <h1 className="font-semibold text-2xl tracking-tight sm:whitespace-nowrap">Availability Calendar</h1>
      <div className="flex flex-wrap items-center gap-2">
        <div className="flex items-center gap-1">
          <Button variant="outline" size="icon" onClick={onPrevious} aria-label="Previous month">
            <ChevronLeft aria-hidden />
          </Button>
          <h2
            id={labelId}
            aria-live="polite"
            className="min-w-36 text-center font-medium text-base tabular-nums"
            data-testid="month-label"
          >
            {monthLabel(month)}
          </h2>
          <Button variant="outline" size="icon" onClick={onNext} aria-label="Next month">
            <ChevronRight aria-hidden />
          </Button>
        </div>
        <Button variant="outline" onClick={onToday}>
          Today
        </Button>
        <Button onClick={onBulkUpdate}>
          <CalendarRange aria-hidden />
          Bulk Update
        </Button>
        {actions}
        <span className="inline-flex size-6 items-center justify-center">
          {isFetching ? <Spinner size="sm" label="Updating calendar" /> : null}
        </span>
      </div>
    </div>
  );
}
