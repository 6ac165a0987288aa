import { zodResolver } from '@hookform/resolvers/zod';
import {
  type Availability,
  type AvailabilityDayForm,
  availabilityDayForm,
} from '@shared/schemas/availability';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { AvailabilityFormFields } from '@/components/availability-fields';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { formatLongDate } from '../lib/calendar-format';

export type DayFormValues = AvailabilityDayForm;

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
  const form = useForm<DayFormValues>({
    resolver: zodResolver(availabilityDayForm),
    defaultValues: initialValues(existing),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { errors } = form.formState;

  return (
    <form onSubmit={form.handleSubmit((values) => onSave(date, values))} className="grid gap-5" noValidate>
      <DialogHeader>
        <DialogTitle>Update Availability</DialogTitle>
        <DialogDescription>{formatLongDate(date)}</DialogDescription>
      </DialogHeader>
      <AvailabilityFormFields
        control={form.control}
        errors={errors}
        idPrefix={id}
        notesPlaceholder="Anything the team should know about this day"
      />
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
