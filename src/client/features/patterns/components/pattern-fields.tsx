import { PATTERN_FREQUENCIES, type PatternFrequency } from '@shared/schemas/patterns';
import type { ReactNode } from 'react';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { DAY_CHOICES, FREQUENCY_LABELS } from '../lib/pattern-format';

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
