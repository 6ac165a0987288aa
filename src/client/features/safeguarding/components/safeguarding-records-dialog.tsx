import type { SafeguardingRecordsResponse } from '@shared/schemas/safeguarding';
import { Save } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { SafeguardingBadge } from '@/components/safeguarding-badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { errorFields } from '@/lib/api';
import { useSafeguardingRecords, useSaveSafeguardingRecords } from '../api/safeguarding-api';
import { CheckList } from './check-list';

export interface SafeguardingPerson {
  id: number;
  name: string;
}

interface FormValues {
  certificateNumber: string;
  issueDate: string;
  enhancedWithBarredList: boolean;
  onUpdateService: boolean;
  statusCheckedOn: string;
  checkedBy: string;
  /** valid-until per check type, '' when none is recorded */
  checks: Record<string, string>;
}

function formFrom(records: SafeguardingRecordsResponse): FormValues {
  return {
    certificateNumber: records.dbs?.certificateNumber ?? '',
    issueDate: records.dbs?.issueDate ?? '',
    enhancedWithBarredList: records.dbs?.enhancedWithBarredList ?? true,
    onUpdateService: records.dbs?.onUpdateService ?? false,
    statusCheckedOn: records.dbs?.statusCheckedOn ?? '',
    checkedBy: records.dbs?.checkedBy ?? '',
    checks: Object.fromEntries(
      records.checkTypes.map((type) => [
        type,
        records.checks.find((check) => check.type.toLowerCase() === type.toLowerCase())?.validUntil ?? '',
      ]),
    ),
  };
}

/** Staff keep one facilitator's DBS check and the organisation's other checks here. */
export function SafeguardingRecordsDialog({
  person,
  onClose,
}: {
  person: SafeguardingPerson | null;
  onClose: () => void;
}) {
  return (
    <Dialog open={person !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent width="xl">
        <DialogHeader>
          <DialogTitle>Safeguarding records{person ? ` of ${person.name}` : ''}</DialogTitle>
          <DialogDescription>
            The DBS check and the organisation’s other checks. The certificate number is shown only to staff
            and to the person.
          </DialogDescription>
        </DialogHeader>
        {person ? <RecordsForm userId={person.id} onSaved={onClose} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function RecordsForm({ userId, onSaved }: { userId: number; onSaved: () => void }) {
  const id = useId();
  const records = useSafeguardingRecords(userId);
  const save = useSaveSafeguardingRecords(userId);
  const [values, setValues] = useState<FormValues | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});

  useEffect(() => {
    if (records.data && values === null) setValues(formFrom(records.data));
  }, [records.data, values]);

  if (records.isError) return <p role="alert">{records.error.message}</p>;
  if (!records.data || !values) return <Skeleton className="h-64 w-full" />;
  const data = records.data;
  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) =>
    setValues((current) => (current ? { ...current, [key]: value } : current));
  const hasDbs = values.certificateNumber.trim() !== '' || values.issueDate !== '';

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setErrors({});
    save.mutate(
      {
        dbs: hasDbs
          ? {
              certificateNumber: values.certificateNumber,
              issueDate: values.issueDate,
              enhancedWithBarredList: values.enhancedWithBarredList,
              onUpdateService: values.onUpdateService,
              statusCheckedOn:
                values.onUpdateService && values.statusCheckedOn ? values.statusCheckedOn : null,
              checkedBy: values.checkedBy,
            }
          : null,
        checks: Object.entries(values.checks)
          .filter(([, validUntil]) => validUntil)
          .map(([type, validUntil]) => ({ type, validUntil })),
        version: data.version,
      },
      {
        onSuccess: () => {
          toast({ title: 'Safeguarding records saved', variant: 'success' });
          onSaved();
        },
        onError: (error) => setErrors(errorFields(error, 'The records could not be saved')),
      },
    );
  };

  // nested messages come back as "dbs.issueDate": the form shows them by their last part
  const dbsError = errors.dbs;
  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <div className="grid gap-2" data-testid="current-status">
        <div className="flex items-center gap-2">
          <span className="font-medium text-sm">Today:</span>
          <SafeguardingBadge state={data.status.state} />
        </div>
        <CheckList status={data.status} />
      </div>
      <fieldset className="grid gap-3 rounded-md border p-3">
        <legend className="px-1 font-medium text-sm">DBS check</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          <FormField id={`${id}-certificate`} label="Certificate number" description="12 digits">
            <Input
              inputMode="numeric"
              autoComplete="off"
              value={values.certificateNumber}
              onChange={(event) => set('certificateNumber', event.target.value)}
            />
          </FormField>
          <FormField id={`${id}-issued`} label="Issue date">
            <Input
              type="date"
              value={values.issueDate}
              onChange={(event) => set('issueDate', event.target.value)}
            />
          </FormField>
        </div>
        <div className="flex items-start gap-2">
          <Checkbox
            id={`${id}-barred`}
            checked={values.enhancedWithBarredList}
            onCheckedChange={(value) => set('enhancedWithBarredList', value === true)}
          />
          <Label plain htmlFor={`${id}-barred`} className="flex items-center gap-2 font-medium leading-snug">
            Enhanced check with the children’s barred list (anything less does not count)
          </Label>
        </div>
        <div className="flex items-start gap-2">
          <Checkbox
            id={`${id}-update`}
            checked={values.onUpdateService}
            onCheckedChange={(value) => set('onUpdateService', value === true)}
          />
          <Label plain htmlFor={`${id}-update`} className="flex items-center gap-2 font-medium leading-snug">
            On the DBS Update Service
          </Label>
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          {values.onUpdateService ? (
            <FormField id={`${id}-status-check`} label="Last status check">
              <Input
                type="date"
                value={values.statusCheckedOn}
                onChange={(event) => set('statusCheckedOn', event.target.value)}
              />
            </FormField>
          ) : null}
          <FormField id={`${id}-checked-by`} label="Checked by">
            <Input value={values.checkedBy} onChange={(event) => set('checkedBy', event.target.value)} />
          </FormField>
        </div>
        {dbsError ? (
          <p className="text-destructive text-sm" role="alert">
            {dbsError}
          </p>
        ) : null}
        <p className="text-muted-foreground text-sm">
          Leave the number and date blank when no DBS check is held.
        </p>
      </fieldset>
      {data.checkTypes.length > 0 ? (
        <fieldset className="grid gap-3 rounded-md border p-3">
          <legend className="px-1 font-medium text-sm">Other checks: valid until</legend>
          <div className="grid gap-3 sm:grid-cols-2">
            {data.checkTypes.map((type, index) => (
              <FormField key={type} id={`${id}-check-${index}`} label={type}>
                <Input
                  type="date"
                  value={values.checks[type] ?? ''}
                  onChange={(event) => set('checks', { ...values.checks, [type]: event.target.value })}
                />
              </FormField>
            ))}
          </div>
          {errors.checks ? (
            <p className="text-destructive text-sm" role="alert">
              {errors.checks}
            </p>
          ) : null}
        </fieldset>
      ) : null}
      {errors._ ? (
        <p className="text-destructive text-sm" role="alert">
          {errors._}
        </p>
      ) : null}
      <DialogFooter>
        <Button type="submit" disabled={save.isPending}>
          <Save aria-hidden />
          Save records
        </Button>
      </DialogFooter>
    </form>
  );
}
