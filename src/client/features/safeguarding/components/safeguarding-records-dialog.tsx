import { zodResolver } from '@hookform/resolvers/zod';
import {
  type SafeguardingRecordsBody,
  type SafeguardingRecordsForm,
  type SafeguardingRecordsResponse,
  safeguardingRecordsForm,
} from '@shared/schemas/safeguarding';
import { Save } from 'lucide-react';
import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { SafeguardingBadge } from '@/components/safeguarding-badge';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { FormError, FormField, firstMessage } from '@/components/ui/form';
import { FormCheckbox } from '@/components/ui/form-checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { showRefusal } from '@/lib/api';
import { useSafeguardingRecords, useSaveSafeguardingRecords } from '../api/safeguarding-api';
import { CheckList } from './check-list';

export interface SafeguardingPerson {
  id: number;
  name: string;
}

function formFrom(records: SafeguardingRecordsResponse): SafeguardingRecordsForm {
  return {
    certificateNumber: records.dbs?.certificateNumber ?? '',
    issueDate: records.dbs?.issueDate ?? '',
    enhancedWithBarredList: records.dbs?.enhancedWithBarredList ?? true,
    onUpdateService: records.dbs?.onUpdateService ?? false,
    statusCheckedOn: records.dbs?.statusCheckedOn ?? '',
    checkedBy: records.dbs?.checkedBy ?? '',
    checks: records.checkTypes.map((type) => ({
      type,
      validUntil:
        records.checks.find((check) => check.type.toLowerCase() === type.toLowerCase())?.validUntil ?? '',
    })),
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
  const records = useSafeguardingRecords(userId);
  if (records.isError) return <p role="alert">{records.error.message}</p>;
  if (!records.data) return <Skeleton className="h-64 w-full" />;
  return <RecordsFields records={records.data} userId={userId} onSaved={onSaved} />;
}

type RecordsChange = Omit<SafeguardingRecordsBody, 'version'>;

/** The form, filled from the records as loaded. */
function RecordsFields({
  records: data,
  userId,
  onSaved,
}: {
  records: SafeguardingRecordsResponse;
  userId: number;
  onSaved: () => void;
}) {
  const id = useId();
  const save = useSaveSafeguardingRecords(userId);
  const form = useForm<SafeguardingRecordsForm, unknown, RecordsChange>({
    resolver: zodResolver(safeguardingRecordsForm),
    defaultValues: formFrom(data),
  });
  const onUpdateService = useWatch({ control: form.control, name: 'onUpdateService' });
  const errors = form.formState.errors;

  const submit = (change: RecordsChange) =>
    save.mutate(
      { ...change, version: data.version },
      {
        onSuccess: () => {
          toast({ title: 'Safeguarding records saved', variant: 'success' });
          onSaved();
        },
        onError: (error) => showRefusal(form.setError, error, 'The records could not be saved'),
      },
    );

  // the DBS check's messages come back by its fields ("dbs.issueDate"): one shows, below the check
  const dbsError = firstMessage((errors as Record<string, unknown>).dbs);
  const checksError = firstMessage(errors.checks);
  return (
    <form onSubmit={form.handleSubmit(submit)} className="grid gap-4" noValidate>
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
            <Input inputMode="numeric" autoComplete="off" {...form.register('certificateNumber')} />
          </FormField>
          <FormField id={`${id}-issued`} label="Issue date">
            <Input type="date" {...form.register('issueDate')} />
          </FormField>
        </div>
        <div className="flex items-start gap-2">
          <FormCheckbox control={form.control} name="enhancedWithBarredList" id={`${id}-barred`} />
          <Label plain htmlFor={`${id}-barred`} className="flex items-center gap-2 font-medium leading-snug">
            Enhanced check with the children’s barred list (anything less does not count)
          </Label>
        </div>
        <div className="flex items-start gap-2">
          <FormCheckbox control={form.control} name="onUpdateService" id={`${id}-update`} />
          <Label plain htmlFor={`${id}-update`} className="flex items-center gap-2 font-medium leading-snug">
            On the DBS Update Service
          </Label>
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          {onUpdateService ? (
            <FormField id={`${id}-status-check`} label="Last status check">
              <Input type="date" {...form.register('statusCheckedOn')} />
            </FormField>
          ) : null}
          <FormField id={`${id}-checked-by`} label="Checked by">
            <Input {...form.register('checkedBy')} />
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
                <Input type="date" {...form.register(`checks.${index}.validUntil`)} />
              </FormField>
            ))}
          </div>
          {checksError ? (
            <p className="text-destructive text-sm" role="alert">
              {checksError}
            </p>
          ) : null}
        </fieldset>
      ) : null}
      <FormError formState={form.formState} />
      <DialogFooter>
        <Button type="submit" disabled={save.isPending}>
          <Save aria-hidden />
          Save records
        </Button>
      </DialogFooter>
    </form>
  );
}
