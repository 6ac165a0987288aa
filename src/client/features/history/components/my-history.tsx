import { addDays, daysBetween, isDateString, MAX_RANGE_DAYS } from '@shared/calendar';
import { History } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { browserToday } from '@/lib/browser-today';
import { useOwnHistory, useRefreshHistoryOnChanges } from '../api/history-api';
import { HistoryList } from './history-list';

/** "History" on the facilitator's calendar: who changed which of their days, when and how. */
export function MyHistory({ userId }: { userId: number }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline">
          <History aria-hidden />
          History
        </Button>
      </DialogTrigger>
      <DialogContent width="xl">{open ? <OwnHistory userId={userId} /> : null}</DialogContent>
    </Dialog>
  );
}

function OwnHistory({ userId }: { userId: number }) {
  const id = useId();
  const [range, setRange] = useState(() => {
    const today = browserToday();
    return { from: addDays(today, -31), to: addDays(today, 183) };
  });
  const problem = rangeProblem(range.from, range.to);
  const query = useOwnHistory(range.from, range.to, problem === null);
  useRefreshHistoryOnChanges();
  return (
    <>
      <DialogHeader>
        <DialogTitle>Your availability history</DialogTitle>
        <DialogDescription>
          Every change to your calendar, by you or by staff, newest first.
        </DialogDescription>
      </DialogHeader>
      <fieldset className="grid min-w-0 grid-cols-2 gap-3">
        <legend className="mb-2 font-medium text-sm">Days changed</legend>
        <div className="grid min-w-0 gap-1.5">
          <Label htmlFor={`${id}-from`}>From</Label>
          <Input
            id={`${id}-from`}
            type="date"
            className="min-w-0"
            value={range.from}
            onChange={(event) => setRange((r) => ({ ...r, from: event.target.value }))}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
          />
        </div>
        <div className="grid min-w-0 gap-1.5">
          <Label htmlFor={`${id}-to`}>To</Label>
          <Input
            id={`${id}-to`}
            type="date"
            className="min-w-0"
            value={range.to}
            onChange={(event) => setRange((r) => ({ ...r, to: event.target.value }))}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
          />
        </div>
      </fieldset>
      {problem ? (
        <p id={`${id}-problem`} role="alert" className="text-destructive text-sm">
          {problem}
        </p>
      ) : (
        <HistoryList
          query={query}
          viewerId={userId}
          showDay
          label="Changes to your calendar"
          emptyText="No changes to days in this range."
        />
      )}
    </>
  );
}

function rangeProblem(from: string, to: string): string | null {
  if (!isDateString(from) || !isDateString(to)) return 'Choose both dates.';
  if (from > to) return 'The first date must be on or before the second.';
  if (daysBetween(from, to) > MAX_RANGE_DAYS) return `Choose at most ${MAX_RANGE_DAYS} days.`;
  return null;
}
