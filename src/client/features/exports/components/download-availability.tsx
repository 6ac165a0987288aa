import { zodResolver } from '@hookform/resolvers/zod';
import { endOfMonth, startOfMonth } from '@shared/calendar';
import { type OwnExportForm, ownExportForm } from '@shared/schemas/exports';
import { Download } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
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

/** A facilitator downloads their own availability (and bookings) for a chosen range as CSV. */
export function DownloadAvailability() {
  const [open, setOpen] = useState(false);
  const form = useForm<OwnExportForm>({
    resolver: zodResolver(ownExportForm),
    defaultValues: thisMonth(),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const pending = form.formState.isSubmitting;
  const problem = form.formState.errors.to?.message;
  const fromId = useId();
  const toId = useId();
  const errorId = useId();

  const download = async (range: OwnExportForm) => {
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
    }
  };
  const invalid = {
    'aria-invalid': problem ? true : undefined,
    'aria-describedby': problem ? errorId : undefined,
  } as const;

  return (
    <>
      <Button
        variant="outline"
        onClick={() => {
          form.reset(thisMonth());
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
          <form className="grid gap-4" onSubmit={form.handleSubmit(download)} noValidate>
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="grid gap-2">
                <Label htmlFor={fromId}>From</Label>
                <Input id={fromId} type="date" {...form.register('from', { deps: ['to'] })} {...invalid} />
              </div>
              <div className="grid gap-2">
                <Label htmlFor={toId}>To</Label>
                <Input id={toId} type="date" {...form.register('to')} {...invalid} />
              </div>
            </div>
            {problem ? (
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
