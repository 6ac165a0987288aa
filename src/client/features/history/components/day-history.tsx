import { ChevronDown, ChevronRight, History } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { useDayHistory, useRefreshHistoryOnChanges } from '../api/history-api';
import { HistoryList } from './history-list';

/**
 * The staff day dialog's history of one facilitator's day: availability and notes changes. Folded
 * until asked for, so opening a day costs no extra request.
 */
export function DayHistory({ userId, date }: { userId: number; date: string }) {
  const [open, setOpen] = useState(false);
  const query = useDayHistory(userId, date, open);
  useRefreshHistoryOnChanges();
  const regionId = useId();
  const headingId = useId();
  return (
    <section className="grid gap-3 rounded-md border p-3" aria-labelledby={headingId}>
      <div className="flex items-center justify-between gap-2">
        <h3 id={headingId} className="flex items-center gap-2 font-semibold text-sm">
          <History className="size-4" aria-hidden />
          History
        </h3>
        <Button
          variant="ghost"
          size="sm"
          aria-expanded={open}
          aria-controls={regionId}
          onClick={() => setOpen((value) => !value)}
        >
          {open ? <ChevronDown aria-hidden /> : <ChevronRight aria-hidden />}
          {open ? 'Hide history' : 'Show history'}
        </Button>
      </div>
      <div id={regionId} hidden={!open}>
        {open ? (
          <HistoryList
            query={query}
            label="Changes to this day"
            emptyText="No changes recorded for this day."
          />
        ) : null}
      </div>
    </section>
  );
}
