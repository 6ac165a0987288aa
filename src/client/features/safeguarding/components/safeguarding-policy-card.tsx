import type { SafeguardingPolicyBody } from '@shared/schemas/safeguarding';
import { Save, ShieldCheck } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/components/ui/use-toast';
import { serverFieldErrors } from '@/lib/api';
import { useSafeguardingPolicy, useSaveSafeguardingPolicy } from '../api/safeguarding-api';

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
  const [form, setForm] = useState<PolicyForm | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    if (policy.data && form === null) setForm(formFrom(policy.data));
  }, [policy.data, form]);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!form) return;
    setErrors({});
    const number = (text: string) => (/^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN);
    save.mutate(
      {
        dbsMonths: number(form.dbsMonths),
        updateServiceMonths: number(form.updateServiceMonths),
        warningDays: number(form.warningDays),
        checkTypes: form.checkTypes
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean),
      },
      {
        onSuccess: (saved) => {
          setForm(formFrom(saved));
          toast({ title: 'Safeguarding policy saved', variant: 'success' });
        },
        onError: (error) => setErrors(serverFieldErrors(error, 'The policy could not be saved')),
      },
    );
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
              <Button type="submit" disabled={save.isPending}>
                <Save aria-hidden />
                Save policy
              </Button>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
