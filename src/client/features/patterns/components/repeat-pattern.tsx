import { Repeat } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';

/*
 * The form, and the form and schema libraries with it, come in a file of their own when the dialog
 * first opens: nothing on the calendar needs them before
 * (docs/decisions/0066-the-calendar-s-form-dialogs-load-after-the-month.md).
 */
const loadForm = () => import('./pattern-form');
const PatternForm = lazy(() => loadForm().then((module) => ({ default: module.PatternForm })));

/** "Repeat Pattern" on the facilitator's calendar: the button and its dialog. */
export function RepeatPattern({ userId }: { userId: number }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline">
          <Repeat aria-hidden />
          Repeat Pattern
        </Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-2xl lg:max-w-5xl">
        {/* mounted only while open: every opening starts afresh */}
        {open ? (
          <Suspense
            fallback={
              <div className="grid place-items-center py-10">
                <DialogTitle className="sr-only">Repeat Pattern</DialogTitle>
                <Spinner className="size-8" label="Loading the form" />
              </div>
            }
          >
            <PatternForm userId={userId} onClose={() => setOpen(false)} />
          </Suspense>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
