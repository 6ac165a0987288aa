import { PATTERN_FREQUENCIES, type PatternFrequency } from '@shared/schemas/patterns';
import type { ReactNode } from 'react';
import { FREQUENCY_LABELS } from '../lib/pattern-format';

const choiceClasses =
  'flex cursor-pointer items-center gap-2 rounded-md border px-3 py-2 text-sm has-[:checked]:border-primary has-[:checked]:bg-accent has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50';

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
