import { zodResolver } from '@hookform/resolvers/zod';
import { DECLINE_REASON_MAX, declineBody } from '@shared/schemas/offers';
import { useId } from 'react';
import { type UseFormReturn, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormField } from '@/components/ui/form';
import { Textarea } from '@/components/ui/textarea';

type DeclineInput = z.input<typeof declineBody>;
type Decline = z.output<typeof declineBody>;

/** A decline's form: its optional reason, with the rule the server parses. */
export function useDeclineForm() {
  return useForm<DeclineInput, unknown, Decline>({
    resolver: zodResolver(declineBody),
    defaultValues: { reason: '' },
  });
}

/** The decline's one field: why, if the facilitator wants to say. */
export function DeclineReasonField({ form }: { form: UseFormReturn<DeclineInput, unknown, Decline> }) {
  const id = useId();
  return (
    <FormField id={id} label="Reason (optional)" error={form.formState.errors.reason?.message}>
      <Textarea {...form.register('reason')} maxLength={DECLINE_REASON_MAX} />
    </FormField>
  );
}
