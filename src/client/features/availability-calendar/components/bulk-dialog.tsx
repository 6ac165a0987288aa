import { zodResolver } from '@hookform/resolvers/zod';
import { daysBetween, defaultBulkSelection, selectBulkDays } from '@shared/calendar';
import {
  type BulkAvailabilityForm,
  type BulkAvailabilityResult,
  bulkAvailabilityForm,
  bulkSelectionForm,
  MAX_BULK_DAYS,
} from '@shared/schemas/availability';
import { AlertTriangle, CheckCircle2, Info } from 'lucide-react';
import { useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { AvailabilityFormFields, DateField, WeekdayChoice } from '@/components/availability-fields';
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

export const BULK_CAREFUL_WARNING =
  'CAREFUL: Bulk changes can overwrite other availability data; make sure your date range and days are correct before continuing.';
export const BULK_SKIP_NOTE =
  'Note: Days with confirmed bookings will be automatically skipped to maintain data integrity.';

export type BulkFormValues = BulkAvailabilityForm;

export interface BulkDialogProps {
  open: boolean;
  today: string;
  isSaving: boolean;
  onOpenChange: (open: boolean) => void;
  /** resolves with the server's answer; rejects after the caller has shown the error */
  onSubmit: (values: BulkFormValues) => Promise<BulkAvailabilityResult>;
  /** where focus goes when the dialog closes (it has no Radix trigger) */
  onCloseAutoFocus?: (event: Event) => void;
}

/** "Bulk Update Availability": one status over chosen weekdays of a date range. */
export function BulkDialog({
  open,
  today,
  isSaving,
  onOpenChange,
  onSubmit,
  onCloseAutoFocus,
}: BulkDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent width="xl" focusDialog onCloseAutoFocus={onCloseAutoFocus}>
        {/* mounted only while open: every opening starts from the defaults */}
        {open ? (
          <BulkForm
            today={today}
            isSaving={isSaving}
            onClose={() => onOpenChange(false)}
            onSubmit={onSubmit}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function BulkForm({
  today,
  isSaving,
  onClose,
  onSubmit,
}: {
  today: string;
  isSaving: boolean;
  onClose: () => void;
  onSubmit: BulkDialogProps['onSubmit'];
}) {
  const id = useId();
  const form = useForm<BulkFormValues>({
    resolver: zodResolver(bulkAvailabilityForm),
    defaultValues: {
      ...defaultBulkSelection(today),
      status: 'available',
      startTime: '',
      endTime: '',
      notes: '',
    },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { errors } = form.formState;
  const [result, setResult] = useState<BulkAvailabilityResult | null>(null);

  // how many days the range and weekdays cover, as they stand; a range over the cap says so instead
  // of counting nothing
  const watched = bulkSelectionForm.safeParse(form.watch());
  const tooLong =
    watched.success && daysBetween(watched.data.startDate, watched.data.endDate) > MAX_BULK_DAYS;
  const dayCount =
    watched.success && !tooLong
      ? selectBulkDays(watched.data.startDate, watched.data.endDate, watched.data.daysOfWeek).length
      : 0;

  const submit = form.handleSubmit(async (values) => {
    try {
      setResult(await onSubmit(values));
    } catch {
      // the caller has shown the error toast; the form stays as it was
    }
  });

  if (result) {
    return (
      <div className="grid gap-5">
        <DialogHeader>
          <DialogTitle>Bulk Update Availability</DialogTitle>
          <DialogDescription>Your bulk update has been saved.</DialogDescription>
        </DialogHeader>
        <div role="status" className="grid gap-3 rounded-md border p-4 text-sm" data-testid="bulk-result">
          <p className="flex items-center gap-2 font-medium">
            <CheckCircle2 className="size-4 text-success" aria-hidden />
            {result.updated === 1 ? 'Updated 1 day.' : `Updated ${result.updated} days.`}
          </p>
          {result.skippedBookedDates.length > 0 ? (
            <div className="grid gap-1">
              <p>
                {result.skippedBookedDates.length === 1
                  ? 'Skipped 1 day with confirmed bookings:'
                  : `Skipped ${result.skippedBookedDates.length} days with confirmed bookings:`}
              </p>
              <ul className="list-disc pl-5">
                {result.skippedBookedDates.map((date) => (
                  <li key={date}>{formatLongDate(date)}</li>
                ))}
              </ul>
            </div>
          ) : (
            <p className="text-muted-foreground">No days were skipped.</p>
          )}
        </div>
        <DialogFooter>
          <Button onClick={onClose}>Done</Button>
        </DialogFooter>
      </div>
    );
  }

  return (
    <form onSubmit={submit} className="grid gap-5" noValidate>
      <DialogHeader>
        <DialogTitle>Bulk Update Availability</DialogTitle>
        <DialogDescription>Set the same availability on many days at once.</DialogDescription>
      </DialogHeader>
      <div className="grid gap-4 sm:grid-cols-2">
        <Controller
          control={form.control}
          name="startDate"
          render={({ field }) => (
            <DateField
              id={`${id}-start-date`}
              label="Start Date"
              value={field.value}
              onChange={field.onChange}
              error={errors.startDate?.message}
            />
          )}
        />
        <Controller
          control={form.control}
          name="endDate"
          render={({ field }) => (
            <DateField
              id={`${id}-end-date`}
              label="End Date"
              value={field.value}
              onChange={field.onChange}
              error={errors.endDate?.message}
            />
          )}
        />
      </div>
      <Controller
        control={form.control}
        name="daysOfWeek"
        render={({ field }) => (
          <WeekdayChoice
            idPrefix={`${id}-day`}
            value={field.value}
            onChange={field.onChange}
            error={errors.daysOfWeek?.message}
          />
        )}
      />
      <AvailabilityFormFields control={form.control} errors={errors} idPrefix={id} />
      <div className="grid gap-2 text-sm">
        <p className="flex gap-2 rounded-md border border-destructive/60 bg-destructive/10 p-3 text-foreground">
          <AlertTriangle className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden />
          <span>{BULK_CAREFUL_WARNING}</span>
        </p>
        <p className="flex gap-2 rounded-md border bg-muted p-3 text-foreground">
          <Info className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
          <span>{BULK_SKIP_NOTE}</span>
        </p>
      </div>
      <p
        className={tooLong ? 'font-medium text-destructive text-sm' : 'text-muted-foreground text-sm'}
        aria-live="polite"
        data-testid="bulk-day-count"
      >
        {tooLong
          ? `The range is longer than ${MAX_BULK_DAYS} days: choose a shorter one.`
          : dayCount === 1
            ? '1 day selected.'
            : `${dayCount} days selected.`}
      </p>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={isSaving}>
          {isSaving ? 'Updating...' : 'Apply Bulk Update'}
        </Button>
      </DialogFooter>
    </form>
  );
}
