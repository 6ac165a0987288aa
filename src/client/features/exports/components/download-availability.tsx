import { daysBetween, endOfMonth, isDateString, startOfMonth } from '@shared/calendar';
import { MAX_EXPORT_DAYS } from '@shared/exports';
import { Download } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { downloadFile, errorMessage } from '@/lib/api';
import { browserToday } from '@/lib/browser-today';
import { ownExportUrl } from '../lib/export-urls';

function thisMonth() {
  const today = browserToday();
  return { from: startOfMonth(today), to: endOfMonth(today) };
}

/** What is wrong with a chosen range, or null. */
export function rangeProblem(from: string, to: string): string | null {
  if (!isDateString(from) || !isDateString(to)) return 'Choose a start and an end date.';
  if (to < from) return 'The end date must be on or after the start date.';
  if (daysBetween(from, to) > MAX_EXPORT_DAYS) return `Choose at most ${MAX_EXPORT_DAYS} days.`;
  return null;
}

/** A facilitator downloads their own availability (and bookings) for a chosen range as CSV. */
export function DownloadAvailability() {
  const [open, setOpen] = useState(false);
  const [range, setRange] = useState(thisMonth);
  const [pending, setPending] = useState(false);
  const [showProblem, setShowProblem] = useState(false);
  const fromId = useId();
  const toId = useId();
  const errorId = useId();
  const problem = rangeProblem(range.from, range.to);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setShowProblem(true);
    if (problem) return;
    setPending(true);
    try {
      const name = await downloadFile(ownExportUrl(range), 'my-availability.csv');
      toast({ title: 'Download started', description: name });
      setOpen(false);
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'The download failed',
        description: errorMessage(error, 'Please try again.'),
      });
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      <Button
        variant="outline"
        onClick={() => {
          setRange(thisMonth());
          setShowProblem(false);
          setOpen(true);
        }}
      >
        <Download aria-hidden />
        Download
      </Button>
      <Dialog open={open} onOpenChange={(next) => !pending && setOpen(next)}>
        <DialogContent width="md">
          <DialogHeader>
            <DialogTitle>Download my availability</DialogTitle>
            <DialogDescription>
              A CSV file (for Excel, Numbers or Google Sheets) with your availability and bookings, one row
              per weekday.
            </DialogDescription>
          </DialogHeader>
          <form className="grid gap-4" onSubmit={submit} noValidate>
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="grid gap-2">
                <Label htmlFor={fromId}>From</Label>
                <Input
                  id={fromId}
                  type="date"
                  value={range.from}
                  onChange={(e) => setRange((r) => ({ ...r, from: e.target.value }))}
                  aria-invalid={showProblem && problem !== null}
                  aria-describedby={showProblem && problem ? errorId : undefined}
                />
              </div>
              <div className="grid gap-2">
                <Label htmlFor={toId}>To</Label>
                <Input
                  id={toId}
                  type="date"
                  value={range.to}
                  onChange={(e) => setRange((r) => ({ ...r, to: e.target.value }))}
                  aria-invalid={showProblem && problem !== null}
                  aria-describedby={showProblem && problem ? errorId : undefined}
                />
              </div>
            </div>
            {showProblem && problem ? (
              <p id={errorId} className="text-destructive text-sm" role="alert">
                {problem}
              </p>
            ) : null}
            <DialogFooter>
              <Button type="button" variant="outline" disabled={pending} onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={pending}>
                <Download aria-hidden />
                {pending ? 'Preparing...' : 'Download CSV'}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}
