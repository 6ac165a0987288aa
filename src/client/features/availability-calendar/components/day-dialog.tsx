import {
  type Availability,
  type AvailabilityStatus,
  saveAvailabilityBody,
} from '@shared/schemas/availability';
import { type FormEvent, useId, useState } from 'react';
import { fieldErrorsOf, StatusChoice, TimeSelect } from '@/components/availability-fields';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { formatLongDate } from '../lib/calendar-format';

export interface DayFormValues {
  status: AvailabilityStatus;
  startTime: string;
  endTime: string;
  notes: string;
}

export interface DayDialogProps {
  date: string | null;
  existing: Availability | undefined;
  isSaving: boolean;
  onOpenChange: (open: boolean) => void;
  onSave: (date: string, values: DayFormValues) => void;
  /** where focus goes when the dialog closes (it has no Radix trigger) */
  onCloseAutoFocus?: (event: Event) => void;
}

/** "Update Availability" for one day: status, optional hourly times and notes. */
export function DayDialog({
  date,
  existing,
  isSaving,
  onOpenChange,
  onSave,
  onCloseAutoFocus,
}: DayDialogProps) {
  return (
    <Dialog open={date !== null} onOpenChange={onOpenChange}>
      <DialogContent onCloseAutoFocus={onCloseAutoFocus}>
        {date ? (
          // keyed by day: each day opens with its saved values (or the default: available, no times)
          <DayForm
            key={date}
            date={date}
            existing={existing}
            isSaving={isSaving}
            onCancel={() => onOpenChange(false)}
            onSave={onSave}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function DayForm({
  date,
  existing,
  isSaving,
  onCancel,
  onSave,
}: {
  date: string;
  existing: Availability | undefined;
  isSaving: boolean;
  onCancel: () => void;
  onSave: DayDialogProps['onSave'];
}) {
  const id = useId();
  const [values, setValues] = useState<DayFormValues>(() => initialValues(existing));
  const [errors, setErrors] = useState<Record<string, string>>({});

  const set = <K extends keyof DayFormValues>(key: K, value: DayFormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    setErrors(({ [key]: _removed, ...rest }) => rest);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = saveAvailabilityBody.safeParse({ date, ...values });
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error.issues));
      return;
    }
    onSave(date, values);
  };

  return (
    <form onSubmit={submit} className="grid gap-5" noValidate>
      <DialogHeader>
        <DialogTitle>Update Availability</DialogTitle>
        <DialogDescription>{formatLongDate(date)}</DialogDescription>
      </DialogHeader>
      <StatusChoice name={`${id}-status`} value={values.status} onChange={(s) => set('status', s)} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TimeSelect
          id={`${id}-start`}
          label="Start Time (optional)"
          value={values.startTime}
          onChange={(v) => set('startTime', v)}
          error={errors.startTime}
        />
        <TimeSelect
          id={`${id}-end`}
          label="End Time (optional)"
          value={values.endTime}
          onChange={(v) => set('endTime', v)}
          error={errors.endTime}
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={`${id}-notes`}>Notes (optional)</Label>
        <Textarea
          id={`${id}-notes`}
          value={values.notes}
          maxLength={2000}
          placeholder="Anything the team should know about this day"
          onChange={(event) => set('notes', event.target.value)}
          aria-invalid={errors.notes ? true : undefined}
        />
        {errors.notes ? <p className="text-destructive text-sm">{errors.notes}</p> : null}
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={isSaving}>
          {isSaving ? 'Saving...' : 'Save'}
        </Button>
      </DialogFooter>
    </form>
  );
}

function initialValues(existing: Availability | undefined): DayFormValues {
  return {
    status: existing?.status ?? 'available',
    startTime: existing?.startTime ?? '',
    endTime: existing?.endTime ?? '',
    notes: existing?.notes ?? '',
  };
}
