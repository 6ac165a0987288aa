import { mayBeSent, SAFEGUARDING_STATE_LABELS } from '@shared/safeguarding';
import type { SafeguardingPolicyBody, SafeguardingPolicyPreview } from '@shared/schemas/safeguarding';
import { Save, ShieldCheck } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { errorFields } from '@/lib/api';
import {
  usePreviewSafeguardingPolicy,
  useSafeguardingPolicy,
  useSaveSafeguardingPolicy,
} from '../api/safeguarding-api';

interface PolicyForm {
  dbsMonths: string;
  updateServiceMonths: string;
  warningDays: string;
  checkTypes: string;
}

const formFrom = (policy: SafeguardingPolicyBody): PolicyForm => ({
  dbsMonths: String(policy.dbsMonths),
  updateServiceMonths: String(policy.updateServiceMonths),
  warningDays: String(policy.warningDays),
  checkTypes: policy.checkTypes.join('\n'),
});

/** Settings: how long a DBS check counts, when the warning starts, and the organisation's other checks. */
export function SafeguardingPolicyCard() {
  const id = useId();
  const policy = useSafeguardingPolicy();
  const save = useSaveSafeguardingPolicy();
  const preview = usePreviewSafeguardingPolicy();
  const [form, setForm] = useState<PolicyForm | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  // a policy that changes anyone's state is saved only once staff have seen whose
  const [confirming, setConfirming] = useState<{
    body: SafeguardingPolicyBody;
    preview: SafeguardingPolicyPreview;
  } | null>(null);
  useEffect(() => {
    if (policy.data && form === null) setForm(formFrom(policy.data));
  }, [policy.data, form]);

  const failed = (error: Error) => setErrors(errorFields(error, 'The policy could not be saved'));

  const store = (body: SafeguardingPolicyBody) => {
    setConfirming(null);
    save.mutate(body, {
      onSuccess: (saved) => {
        setForm(formFrom(saved));
        toast({ title: 'Safeguarding policy saved', variant: 'success' });
      },
      onError: failed,
    });
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!form) return;
    setErrors({});
    const number = (text: string) => (/^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN);
    const body: SafeguardingPolicyBody = {
      dbsMonths: number(form.dbsMonths),
      updateServiceMonths: number(form.updateServiceMonths),
      warningDays: number(form.warningDays),
      checkTypes: form.checkTypes
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
    };
    preview.mutate(body, {
      onSuccess: (answer) =>
        answer.changes.length === 0 ? store(body) : setConfirming({ body, preview: answer }),
      onError: failed,
    });
  };

  const field = (key: keyof PolicyForm) => ({
    value: form?.[key] ?? '',
    onChange: (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      setForm((current) => (current ? { ...current, [key]: event.target.value } : current)),
  });

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
        {!form ? (
          <Skeleton className="h-40 w-full" />
        ) : (
          <form onSubmit={submit} className="grid gap-4" noValidate>
            <div className="grid gap-4 sm:grid-cols-3">
              <FormField
                id={`${id}-dbs`}
                label="Months from the issue date"
                description="Not on the Update Service"
                error={errors.dbsMonths}
              >
                <Input inputMode="numeric" {...field('dbsMonths')} />
              </FormField>
              <FormField
                id={`${id}-update`}
                label="Months from the last status check"
                description="On the Update Service"
                error={errors.updateServiceMonths}
              >
                <Input inputMode="numeric" {...field('updateServiceMonths')} />
              </FormField>
              <FormField id={`${id}-warning`} label="Warn this many days before" error={errors.warningDays}>
                <Input inputMode="numeric" {...field('warningDays')} />
              </FormField>
            </div>
            <FormField
              id={`${id}-types`}
              label="Other checks (one per line)"
              description="For example insurance, first aid, right to work. Each is required, with a date it is valid until."
              error={errors.checkTypes}
            >
              <Textarea rows={3} {...field('checkTypes')} />
            </FormField>
            {errors._ ? (
              <p className="text-destructive text-sm" role="alert">
                {errors._}
              </p>
            ) : null}
            <div>
              <Button type="submit" disabled={save.isPending || preview.isPending}>
                <Save aria-hidden />
                Save policy
              </Button>
            </div>
          </form>
        )}
      </CardContent>
      <PolicyChangeDialog
        confirming={confirming?.preview ?? null}
        onCancel={() => setConfirming(null)}
        onConfirm={() => confirming && store(confirming.body)}
      />
    </Card>
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
