import { daysBetween, defaultBulkSelection, selectBulkDays } from '@shared/calendar';
import {
  type AvailabilityStatus,
  type BulkAvailabilityResult,
  bulkAvailabilityBody,
  MAX_BULK_DAYS,
} from '@shared/schemas/availability';
import { AlertTriangle, CheckCircle2, Info } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { fieldErrorsOf, StatusChoice, TimeSelect } from '@/components/availability-fields';
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
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { formatLongDate } from '../lib/calendar-format';

export const BULK_CAREFUL_WARNING =
  'CAREFUL: Bulk changes can overwrite other availability data; make sure your date range and days are correct before continuing.';
export const BULK_SKIP_NOTE =
  'Note: Days with confirmed bookings will be automatically skipped to maintain data integrity.';

// Monday first, as the calendar reads; values are the payload's 0 (Sunday) … 6 (Saturday).
const DAY_CHOICES = [
  { value: 1, label: 'Monday' },
  { value: 2, label: 'Tuesday' },
  { value: 3, label: 'Wednesday' },
  { value: 4, label: 'Thursday' },
  { value: 5, label: 'Friday' },
  { value: 6, label: 'Saturday' },
  { value: 0, label: 'Sunday' },
] as const;

export interface BulkFormValues {
  startDate: string;
  endDate: string;
  daysOfWeek: number[];
  status: AvailabilityStatus;
  startTime: string;
  endTime: string;
  notes: string;
}

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
      <DialogContent className="sm:max-w-xl" onCloseAutoFocus={onCloseAutoFocus}>
        {/* mounted only while open: every opening starts from the spec's defaults */}
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
  const [values, setValues] = useState<BulkFormValues>(() => ({
    ...defaultBulkSelection(today),
    status: 'available',
    startTime: '',
    endTime: '',
    notes: '',
  }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [result, setResult] = useState<BulkAvailabilityResult | null>(null);

  const set = <K extends keyof BulkFormValues>(key: K, value: BulkFormValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    setErrors(({ [key]: _removed, ...rest }) => rest);
  };

  const toggleDay = (day: number, checked: boolean) =>
    set(
      'daysOfWeek',
      checked ? [...values.daysOfWeek, day].sort() : values.daysOfWeek.filter((d) => d !== day),
    );

  const parsed = bulkAvailabilityBody.safeParse(values);
  const dayCount =
    parsed.success && daysBetween(parsed.data.startDate, parsed.data.endDate) <= MAX_BULK_DAYS
      ? selectBulkDays(parsed.data.startDate, parsed.data.endDate, parsed.data.daysOfWeek).length
      : 0;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error.issues));
      return;
    }
    try {
      setResult(await onSubmit(values));
    } catch {
      // the caller has shown the error toast; the form stays as it was
    }
  };

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
        <DateField
          id={`${id}-start-date`}
          label="Start Date"
          value={values.startDate}
          onChange={(v) => set('startDate', v)}
          error={errors.startDate}
        />
        <DateField
          id={`${id}-end-date`}
          label="End Date"
          value={values.endDate}
          onChange={(v) => set('endDate', v)}
          error={errors.endDate}
        />
      </div>
      <fieldset className="grid gap-2">
        <legend className="mb-2 font-medium text-sm">Days of Week</legend>
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
          {DAY_CHOICES.map((day) => (
            <div key={day.value} className="flex items-center gap-2">
              <Checkbox
                id={`${id}-day-${day.value}`}
                checked={values.daysOfWeek.includes(day.value)}
                onCheckedChange={(checked) => toggleDay(day.value, checked === true)}
              />
              <Label htmlFor={`${id}-day-${day.value}`} className="font-normal">
                {day.label}
              </Label>
            </div>
          ))}
        </div>
        {errors.daysOfWeek ? <p className="text-destructive text-sm">{errors.daysOfWeek}</p> : null}
      </fieldset>
      <StatusChoice name={`${id}-status`} value={values.status} onChange={(s) => set('status', s)} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TimeSelect
          id={`${id}-start-time`}
          label="Start Time (optional)"
          value={values.startTime}
          onChange={(v) => set('startTime', v)}
          error={errors.startTime}
        />
        <TimeSelect
          id={`${id}-end-time`}
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
          onChange={(event) => set('notes', event.target.value)}
        />
        {errors.notes ? <p className="text-destructive text-sm">{errors.notes}</p> : null}
      </div>
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
      <p className="text-muted-foreground text-sm" aria-live="polite" data-testid="bulk-day-count">
        {dayCount === 1 ? '1 day selected.' : `${dayCount} days selected.`}
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

function DateField({
  id,
  label,
  value,
  onChange,
  error,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="date"
        value={value}
        required
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error ? (
        <p id={`${id}-error`} className="text-destructive text-sm">
          {error}
        </p>
      ) : null}
    </div>
  );
}
