/**
 * The availability form fields the calendar's day and bulk dialogs and the pattern dialog share:
 * status, times, notes, dates, weekdays and their error messages.
 */
import { TIME_CHOICES, WEEKDAY_NAMES } from '@shared/calendar';
import { AVAILABILITY_STATUSES, type AvailabilityStatus } from '@shared/schemas/availability';
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

export function TimeSelect({
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
    <div className="grid content-start gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Select value={value || NO_TIME} onValueChange={(next) => onChange(next === NO_TIME ? '' : next)}>
        <SelectTrigger
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        >
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
      {error ? (
        // data-field-error: a form focuses the first field in error by finding its message
        <p id={`${id}-error`} className="text-destructive text-sm" data-field-error>
          {error}
        </p>
      ) : null}
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
            <Label htmlFor={`${idPrefix}-${day.value}`} className="font-normal">
              {day.label}
            </Label>
          </div>
        ))}
      </div>
      <FieldError id={`${idPrefix}-error`} message={error} />
    </fieldset>
  );
}

export function DateField({
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
    <div className="grid content-start gap-2">
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
        maxLength={2000}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
