import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { DialogFooter } from '@/components/ui/dialog';
import { DeclineReasonField, useDeclineForm } from './decline-reason';

/**
 * The decline step of an offer's answer dialog: the reason field, then Back and Decline offer. It is
 * loaded when the dialog opens, not with the offers page: its form code (react-hook-form and the
 * shared rule) is needed only by someone who declines. `children` (the refusal, if any) shows between
 * the field and the buttons; Back hands the reason typed so far to the dialog, which gives it back
 * when the step opens again.
 */
export default function DeclineStep({
  reason,
  pending,
  onBack,
  onDecline,
  children,
}: {
  reason: string;
  pending: boolean;
  onBack: (reason: string) => void;
  onDecline: (reason: string) => void;
  children?: ReactNode;
}) {
  const form = useDeclineForm(reason);
  return (
    <>
      <DeclineReasonField form={form} />
      {children}
      <DialogFooter>
        <Button variant="outline" onClick={() => onBack(form.getValues('reason') ?? '')}>
          Back
        </Button>
        <Button
          variant="destructive"
          onClick={form.handleSubmit((values) => onDecline(values.reason))}
          disabled={pending}
        >
          <X aria-hidden />
          Decline offer
        </Button>
      </DialogFooter>
    </>
  );
}
