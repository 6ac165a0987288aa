import { TIME_CHOICES } from '@shared/calendar';
import { AVAILABILITY_STATUSES, type AvailabilityStatus } from '@shared/schemas/availability';
import { PATTERN_FREQUENCIES, type PatternFrequency } from '@shared/schemas/patterns';
import type { ReactNode } from 'react';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { cn } from '@/lib/utils';
import { DAY_CHOICES, FREQUENCY_LABELS, STATUS_DOT_CLASSES, STATUS_LABELS } from '../lib/pattern-format';

// Radix Select cannot hold "" as an item value; this stands for "no time" and maps back to "".
const NO_TIME = 'none';

const choiceClasses =
  'flex cursor-pointer items-center gap-2 rounded-md border px-3 py-2 text-sm has-[:checked]:border-primary has-[:checked]:bg-accent has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50';

export function FieldError({ id, message }: { id: string; message?: string | undefined }) {
  return message ? (
    <p id={id} className="text-destructive text-sm" data-field-error>
      {message}
    </p>
  ) : null;
}

function RadioCards<T extends string | number>({
  legend,
  name,
  options,
  value,
  onChange,
  renderLabel,
}: {
  legend: string;
  name: string;
  options: readonly T[];
  value: T;
  onChange: (value: T) => void;
  renderLabel: (option: T) => ReactNode;
}) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-2 font-medium text-sm">{legend}</legend>
      <div className="grid gap-2 sm:grid-cols-3">
        {options.map((option) => (
          <label key={String(option)} className={choiceClasses}>
            <input
              type="radio"
              name={name}
              value={String(option)}
              checked={value === option}
              onChange={() => onChange(option)}
              className="size-4 accent-primary outline-none"
            />
            {renderLabel(option)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function FrequencyChoice({
  name,
  value,
  onChange,
}: {
  name: string;
  value: PatternFrequency;
  onChange: (value: PatternFrequency) => void;
}) {
  return (
    <RadioCards
      legend="Repeat"
      name={name}
      options={PATTERN_FREQUENCIES}
      value={value}
      onChange={onChange}
      renderLabel={(option) => FREQUENCY_LABELS[option]}
    />
  );
}

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
    <RadioCards
      legend="Status"
      name={name}
      options={AVAILABILITY_STATUSES}
      value={value}
      onChange={onChange}
      renderLabel={(status) => (
        <>
          <span aria-hidden className={cn('size-2.5 shrink-0 rounded-full', STATUS_DOT_CLASSES[status])} />
          {STATUS_LABELS[status]}
        </>
      )}
    />
  );
}

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
        {DAY_CHOICES.map((day) => (
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
          <SelectItem value={NO_TIME}>No time</SelectItem>
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
