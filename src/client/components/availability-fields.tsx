/**
 * The availability form fields the calendar's day and bulk dialogs and the pattern dialog share:
 * status, a time, and zod issues turned into one message per field.
 */
import { TIME_CHOICES } from '@shared/calendar';
import { AVAILABILITY_STATUSES, type AvailabilityStatus } from '@shared/schemas/availability';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
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

/** First message per field from a zod error, for showing under the inputs. */
export function fieldErrorsOf(issues: readonly { path: PropertyKey[]; message: string }[]) {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? '_');
    errors[key] ??= issue.message;
  }
  return errors;
}
