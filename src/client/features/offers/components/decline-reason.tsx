import { zodResolver } from '@hookform/resolvers/zod';
import { DECLINE_REASON_MAX, type Decline, type DeclineInput, declineBody } from '@shared/schemas/decline';
import { useId } from 'react';
import { type UseFormReturn, useForm } from 'react-hook-form';
import { FormField } from '@/components/ui/form';
import { Textarea } from '@/components/ui/textarea';

/** A decline's form: its optional reason, with the rule the server parses. */
export function useDeclineForm(reason = '') {
  return useForm<DeclineInput, unknown, Decline>({
    resolver: zodResolver(declineBody),
    defaultValues: { reason },
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
