import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { FormField } from '@/components/ui/form';
import { PasswordInput } from '@/components/ui/password-input';

export interface PasswordFieldSpec<T extends FieldValues> {
  name: Path<T>;
  label: string;
  autoComplete: 'current-password' | 'new-password';
}

/**
 * A password form's fields, one under the other: each shows its message after a submit and clears it
 * as soon as the field is edited.
 */
export function PasswordFields<T extends FieldValues>({
  form,
  fields,
}: {
  form: UseFormReturn<T>;
  fields: readonly PasswordFieldSpec<T>[];
}) {
  return fields.map(({ name, label, autoComplete }) => (
    <FormField
      key={name}
      id={name}
      label={label}
      error={form.getFieldState(name, form.formState).error?.message}
    >
      <PasswordInput
        autoComplete={autoComplete}
        {...form.register(name, {
          onChange: () => {
            if (form.getFieldState(name).error) form.clearErrors(name);
          },
        })}
      />
    </FormField>
  ));
}
