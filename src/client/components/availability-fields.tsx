/**
 * The availability form fields the calendar's day and bulk dialogs and the pattern dialog share:
 * status, times, notes, dates, weekdays and their error messages.
 */

import { AVAILABILITY_NOTES_MAX, AVAILABILITY_STATUSES, type AvailabilityStatus } from '@shared/availability';
import { TIME_CHOICES, WEEKDAY_NAMES } from '@shared/calendar';
import { type Control, Controller, type FieldValues } from 'react-hook-form';
import { CharacterCount } from '@/components/character-count';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { STATUS_COLOUR_CLASSES, STATUS_LABELS } from '@/lib/availability-status';
import { cn } from '@/lib/utils';

// Radix Select cannot hold "" as an item value; this stands for "no time" and maps back to "".
const NO_TIME = 'none';

export function StatusChoice({
  name,
  value,
  onChange,
}: {
  name: string;
  value: AvailabilityStatus;
  onChange: (status: AvailabilityStatus) => void;
}) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 font-medium text-sm">Status</legend>
      <div className="grid gap-2 sm:grid-cols-3">
        {AVAILABILITY_STATUSES.map((status) => (
          <label
            key={status}
            className={cn(
              'flex cursor-pointer items-center gap-2 rounded-md border px-3 py-2 text-sm has-[:checked]:border-primary has-[:checked]:bg-accent has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50',
            )}
          >
            <input
              type="radio"
              name={name}
              value={status}
              checked={value === status}
              onChange={() => onChange(status)}
              className="size-4 accent-primary outline-none"
            />
            <span
              aria-hidden
              className={cn('size-2.5 shrink-0 rounded-full', STATUS_COLOUR_CLASSES[status])}
            />
            {STATUS_LABELS[status]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** A labelled field holding one text value, with its message when it is in error. */
interface LabelledFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}

/** Marks a control invalid and points it at its message (the FieldError with id `${id}-error`). */
function errorAttributes(id: string, error: string | undefined) {
  return {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
  } as const;
}

export function TimeSelect({ id, label, value, onChange, error }: LabelledFieldProps) {
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Select value={value || NO_TIME} onValueChange={(next) => onChange(next === NO_TIME ? '' : next)}>
        <SelectTrigger id={id} {...errorAttributes(id, error)}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={NO_TIME}>none</SelectItem>
          {TIME_CHOICES.map((choice) => (
            <SelectItem key={choice.value} value={choice.value}>
              {choice.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** A field's message; data-field-error lets a form find (and focus) the first field in error. */
export function FieldError({ id, message }: { id: string; message?: string | undefined }) {
  return message ? (
    <p id={id} className="text-destructive text-sm" data-field-error>
      {message}
    </p>
  ) : null;
}

/** Monday first, as the calendar reads; values are the payloads' 0 (Sunday) … 6 (Saturday). */
export const WEEKDAY_CHOICES = [1, 2, 3, 4, 5, 6, 0].map((value) => ({
  value,
  label: WEEKDAY_NAMES[value]!,
}));

export function WeekdayChoice({
  idPrefix,
  value,
  onChange,
  error,
}: {
  idPrefix: string;
  value: number[];
  onChange: (days: number[]) => void;
  error?: string | undefined;
}) {
  const toggle = (day: number, checked: boolean) =>
    onChange(checked ? [...value, day].sort() : value.filter((d) => d !== day));
  return (
    <fieldset className="grid gap-2" aria-describedby={error ? `${idPrefix}-error` : undefined}>
      <legend className="mb-2 font-medium text-sm">Days of Week</legend>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {WEEKDAY_CHOICES.map((day) => (
          <div key={day.value} className="flex items-center gap-2">
            <Checkbox
              id={`${idPrefix}-${day.value}`}
              checked={value.includes(day.value)}
              onCheckedChange={(checked) => toggle(day.value, checked === true)}
            />
            <Label
              plain
              htmlFor={`${idPrefix}-${day.value}`}
              className="flex items-center gap-2 font-normal leading-none"
            >
              {day.label}
            </Label>
          </div>
        ))}
      </div>
      <FieldError id={`${idPrefix}-error`} message={error} />
    </fieldset>
  );
}

export function DateField({ id, label, value, onChange, error }: LabelledFieldProps) {
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="date"
        value={value}
        required
        onChange={(event) => onChange(event.target.value)}
        {...errorAttributes(id, error)}
      />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

export function NotesField({
  id,
  value,
  onChange,
  error,
  placeholder,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  placeholder?: string;
}) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>Notes (optional)</Label>
      <Textarea
        id={id}
        value={value}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
        {...errorAttributes(id, error)}
      />
      <CharacterCount id={`${id}-count`} length={value.length} max={AVAILABILITY_NOTES_MAX} />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** The values the shared availability fields edit; a form may hold more besides. */
export type AvailabilityFieldValues = {
  status: AvailabilityStatus;
  startTime: string;
  endTime: string;
  notes: string;
};

type AvailabilityFieldErrors = Partial<
  Record<'startTime' | 'endTime' | 'notes', { message?: string | undefined } | undefined>
>;

/**
 * Status, start and end time and notes, bound to a react-hook-form form. `onEdit` runs before a
 * field takes its new value, for a form that clears its messages as the person edits.
 */
export function AvailabilityFormFields<T extends FieldValues & AvailabilityFieldValues>({
  control,
  errors,
  idPrefix,
  notesPlaceholder,
  onEdit,
}: {
  control: Control<T>;
  errors: AvailabilityFieldErrors;
  idPrefix: string;
  notesPlaceholder?: string;
  onEdit?: (field: keyof AvailabilityFieldValues) => void;
}) {
  // TypeScript cannot see that "status" and the rest are paths of every such T; they are
  const fields = control as unknown as Control<AvailabilityFieldValues>;
  const edit =
    <K extends keyof AvailabilityFieldValues>(
      name: K,
      onChange: (value: AvailabilityFieldValues[K]) => void,
    ) =>
    (value: AvailabilityFieldValues[K]) => {
      onEdit?.(name);
      onChange(value);
    };
  return (
    <>
      <Controller
        control={fields}
        name="status"
        render={({ field }) => (
          <StatusChoice
            name={`${idPrefix}-status`}
            value={field.value}
            onChange={edit('status', field.onChange)}
          />
        )}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Controller
          control={fields}
          name="startTime"
          render={({ field }) => (
            <TimeSelect
              id={`${idPrefix}-start-time`}
              label="Start Time (optional)"
              value={field.value}
              onChange={edit('startTime', field.onChange)}
              error={errors.startTime?.message}
            />
          )}
        />
        <Controller
          control={fields}
          name="endTime"
          render={({ field }) => (
            <TimeSelect
              id={`${idPrefix}-end-time`}
              label="End Time (optional)"
              value={field.value}
              onChange={edit('endTime', field.onChange)}
              error={errors.endTime?.message}
            />
          )}
        />
      </div>
      <Controller
        control={fields}
        name="notes"
        render={({ field }) => (
          <NotesField
            id={`${idPrefix}-notes`}
            value={field.value}
            onChange={edit('notes', field.onChange)}
            error={errors.notes?.message}
            placeholder={notesPlaceholder}
          />
        )}
      />
    </>
  );
}
