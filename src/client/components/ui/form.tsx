import { Slot } from 'radix-ui';
import type * as React from 'react';
import type { FieldValues, FormState } from 'react-hook-form';
import { cn } from '@/lib/utils';
import { Label } from './label';

interface FormFieldProps {
  /** The control's id; the label, description and message are tied to it. */
  id: string;
  label: React.ReactNode;
  error?: string | undefined;
  description?: React.ReactNode;
  className?: string;
  /** Exactly one control (Input, PasswordInput, Textarea, SelectTrigger...); it receives id and aria props. */
  children: React.ReactElement;
}

/** Label + control + hint + error message, wired together for assistive technology. */
function FormField({ id, label, error, description, className, children }: FormFieldProps) {
  const descriptionId = `${id}-description`;
  const messageId = `${id}-message`;
  const describedBy = [description ? descriptionId : null, error ? messageId : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div data-slot="form-field" className={cn('grid gap-2', className)}>
      <Label htmlFor={id} className={cn(error && 'text-destructive')}>
        {label}
      </Label>
      <Slot.Root id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy || undefined}>
        {children}
      </Slot.Root>
      {description ? <FormDescription id={descriptionId}>{description}</FormDescription> : null}
      {error ? <FormMessage id={messageId}>{error}</FormMessage> : null}
    </div>
  );
}

function FormDescription({ className, ...props }: React.ComponentProps<'p'>) {
  return (
    <p data-slot="form-description" className={cn('text-muted-foreground text-sm', className)} {...props} />
  );
}

function FormMessage({ className, ...props }: React.ComponentProps<'p'>) {
  return (
    <p
      data-slot="form-message"
      className={cn('font-medium text-destructive text-sm', className)}
      {...props}
    />
  );
}

/**
 * A problem with the form as a whole rather than one field (react-hook-form's `errors.root`). Keyed
 * by the submit count, so the same problem after another submit is a new alert that screen readers
 * announce again.
 */
function FormError<T extends FieldValues>({
  formState,
  className,
}: {
  formState: FormState<T>;
  className?: string;
}) {
  const message = formState.errors.root?.message;
  if (!message) return null;
  return (
    <FormMessage key={formState.submitCount} role="alert" className={className}>
      {message}
    </FormMessage>
  );
}

/**
 * The first message among a field's errors, however deep: a list field's rules come back per item
 * (`checkTypes.2`), a section's per field (`dbs.issueDate`), and the form shows one per field.
 */
function firstMessage(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const own = (error as { message?: unknown }).message;
  if (typeof own === 'string' && own) return own;
  for (const [key, inner] of Object.entries(error)) {
    if (key === 'ref') continue;
    const found = firstMessage(inner);
    if (found) return found;
  }
  return undefined;
}

export { FormDescription, FormError, FormField, FormMessage, firstMessage };
