import { Repeat } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { formLoadFailure, onDemand, useOnDemand } from '@/lib/on-demand';

// The form, and the form and schema libraries with it, in a file of its own (ADR 66): nothing on
// the calendar needs them until the dialog opens; pointing at the button starts the download
const patternFormCode = onDemand(() => import('./pattern-form'));

/** "Repeat Pattern" on the facilitator's calendar: the button and its dialog. */
export function RepeatPattern({ userId }: { userId: number }) {
  const [open, setOpen] = useState(false);
  const code = useOnDemand(patternFormCode, open, () => {
    setOpen(false);
    void formLoadFailure().then((failure) => toast({ ...failure, variant: 'destructive' }));
  });
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button
          variant="outline"
          onPointerEnter={patternFormCode.prefetch}
          onFocus={patternFormCode.prefetch}
        >
          <Repeat aria-hidden />
          Repeat Pattern
        </Button>
      </DialogTrigger>
      <DialogContent width="wide">
        {/* mounted only while open: every opening starts afresh */}
        {open && code ? <code.PatternForm userId={userId} onClose={() => setOpen(false)} /> : null}
        {open && !code ? (
          <DialogHeader>
            <DialogTitle>Repeat Pattern</DialogTitle>
            <DialogDescription>Loading the form...</DialogDescription>
            <div className="grid place-items-center py-8">
              <Spinner size="lg" />
            </div>
          </DialogHeader>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
