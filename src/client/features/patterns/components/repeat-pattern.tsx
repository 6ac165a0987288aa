import { Repeat } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogTrigger } from '@/components/ui/dialog';
import { PatternForm } from './pattern-form';

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
      <DialogContent width="wide">
        {/* mounted only while open: every opening starts afresh */}
        {open ? <PatternForm userId={userId} onClose={() => setOpen(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}
