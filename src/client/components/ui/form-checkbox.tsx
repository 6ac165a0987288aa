import { type Control, Controller, type FieldPathByValue, type FieldValues } from 'react-hook-form';
import { Checkbox } from './checkbox';

/** A checkbox for a form's yes-or-no field; its label is the caller's, tied by `id`. */
export function FormCheckbox<T extends FieldValues, Output extends FieldValues>({
  control,
  name,
  id,
}: {
  control: Control<T, unknown, Output>;
  name: FieldPathByValue<T, boolean>;
  id: string;
}) {
  return (
    <Controller<T, FieldPathByValue<T, boolean>, Output>
      control={control}
      name={name}
      render={({ field }) => (
        <Checkbox
          id={id}
          ref={field.ref}
          checked={field.value}
          onCheckedChange={(value) => field.onChange(value === true)}
        />
      )}
    />
  );
}
