import { zodResolver } from '@hookform/resolvers/zod';
import { mayBeSent, SAFEGUARDING_STATE_LABELS } from '@shared/safeguarding';
import {
  type SafeguardingPolicyBody,
  type SafeguardingPolicyForm,
  type SafeguardingPolicyPreview,
  safeguardingPolicyForm,
} from '@shared/schemas/safeguarding';
import { Save, ShieldCheck } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormError, FormField, firstMessage } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { showRefusal } from '@/lib/api';
import {
  usePreviewSafeguardingPolicy,
  useSafeguardingPolicy,
  useSaveSafeguardingPolicy,
} from '../api/safeguarding-api';

const formFrom = (policy: SafeguardingPolicyBody): SafeguardingPolicyForm => ({
  dbsMonths: String(policy.dbsMonths),
  updateServiceMonths: String(policy.updateServiceMonths),
  warningDays: String(policy.warningDays),
  checkTypes: policy.checkTypes.join('\n'),
});

/** Settings: how long a DBS check counts, when the warning starts, and the organisation's other checks. */
export function SafeguardingPolicyCard() {
  const policy = useSafeguardingPolicy();
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="flex items-center gap-2">
            <ShieldCheck aria-hidden className="size-5" />
            Safeguarding policy
          </h2>
        </CardTitle>
        <CardDescription>
          A DBS certificate has no expiry date of its own: choose how long an enhanced check with the barred
          list counts here. Facilitators whose checks are missing or expired are left out of Who is free.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {policy.data ? <PolicyForm policy={policy.data} /> : <Skeleton className="h-40 w-full" />}
      </CardContent>
    </Card>
  );
}

/** The form, filled from the policy as loaded; a save fills it from the policy as saved. */
function PolicyForm({ policy }: { policy: SafeguardingPolicyBody }) {
  const id = useId();
  const save = useSaveSafeguardingPolicy();
  const preview = usePreviewSafeguardingPolicy();
  const form = useForm<SafeguardingPolicyForm, unknown, SafeguardingPolicyBody>({
    resolver: zodResolver(safeguardingPolicyForm),
    defaultValues: formFrom(policy),
  });
  const errors = form.formState.errors;
  // a policy that changes anyone's state is saved only once staff have seen whose
  const [confirming, setConfirming] = useState<{
    body: SafeguardingPolicyBody;
    preview: SafeguardingPolicyPreview;
  } | null>(null);

  const failed = (error: Error) => showRefusal(form.setError, error, 'The policy could not be saved');

  const store = (body: SafeguardingPolicyBody) => {
    setConfirming(null);
    save.mutate(body, {
      onSuccess: (saved) => {
        form.reset(formFrom(saved));
        toast({ title: 'Safeguarding policy saved', variant: 'success' });
      },
      onError: failed,
    });
  };

  const submit = (body: SafeguardingPolicyBody) =>
    preview.mutate(body, {
      onSuccess: (answer) =>
        answer.changes.length === 0 ? store(body) : setConfirming({ body, preview: answer }),
      onError: failed,
    });

  return (
    <>
      <form onSubmit={form.handleSubmit(submit)} className="grid gap-4" noValidate>
        <div className="grid gap-4 sm:grid-cols-3">
          <FormField
            id={`${id}-dbs`}
            label="Months from the issue date"
            description="Not on the Update Service"
            error={errors.dbsMonths?.message}
          >
            <Input inputMode="numeric" {...form.register('dbsMonths')} />
          </FormField>
          <FormField
            id={`${id}-update`}
            label="Months from the last status check"
            description="On the Update Service"
            error={errors.updateServiceMonths?.message}
          >
            <Input inputMode="numeric" {...form.register('updateServiceMonths')} />
          </FormField>
          <FormField
            id={`${id}-warning`}
            label="Warn this many days before"
            error={errors.warningDays?.message}
          >
            <Input inputMode="numeric" {...form.register('warningDays')} />
          </FormField>
        </div>
        <FormField
          id={`${id}-types`}
          label="Other checks (one per line)"
          description="For example insurance, first aid, right to work. Each is required, with a date it is valid until."
          error={firstMessage(errors.checkTypes)}
        >
          <Textarea rows={3} {...form.register('checkTypes')} />
        </FormField>
        <FormError formState={form.formState} />
        <div>
          <Button type="submit" disabled={save.isPending || preview.isPending}>
            <Save aria-hidden />
            Save policy
          </Button>
        </div>
      </form>
      <PolicyChangeDialog
        confirming={confirming?.preview ?? null}
        onCancel={() => setConfirming(null)}
        onConfirm={() => confirming && store(confirming.body)}
      />
    </>
  );
}

/** Whose state today the policy would change, before it is saved. */
function PolicyChangeDialog({
  confirming,
  onCancel,
  onConfirm,
}: {
  confirming: SafeguardingPolicyPreview | null;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const changes = confirming?.changes ?? [];
  const leftOut = changes.filter((change) => !mayBeSent(change.to) && mayBeSent(change.from)).length;
  const people = (n: number) => (n === 1 ? '1 facilitator' : `${n} facilitators`);
  return (
    <ConfirmDialog
      open={confirming !== null}
      // a long list scrolls with the dialog, its buttons after it
      className="max-h-[calc(100dvh-2rem)] overflow-y-auto"
      title="Save this policy?"
      description={
        <>
          It changes the safeguarding state of {people(changes.length)} of {confirming?.facilitators ?? 0}{' '}
          from today.
          {leftOut > 0
            ? ` ${leftOut === 1 ? '1 of them' : `${leftOut} of them`} will be left out of Who is free, and offering them a session will need a reason.`
            : ''}{' '}
          Sessions before today keep the policy they had.
        </>
      }
      cancelLabel="Keep editing"
      confirmLabel="Save policy"
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      <ul className="grid gap-1.5 rounded-md border p-2 text-sm" aria-label="Whose state changes">
        {changes.map((change) => (
          <li key={change.userId} className="grid [overflow-wrap:anywhere]">
            <span>
              <span className="font-medium">{change.name}</span>: {SAFEGUARDING_STATE_LABELS[change.from]} →{' '}
              {SAFEGUARDING_STATE_LABELS[change.to]}
            </span>
            {change.reasons.length > 0 ? (
              <span className="text-muted-foreground text-xs">{change.reasons.join('; ')}</span>
            ) : null}
          </li>
        ))}
      </ul>
    </ConfirmDialog>
  );
}
