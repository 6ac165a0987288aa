import { Slot } from 'radix-ui';
import type * as React from 'react';
import type { FieldErrors, FieldValues, FormState, Resolver } from 'react-hook-form';
import { onDemand, portalUpdatedSinceOpened } from '@/lib/on-demand';
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

/** What a form says when its rules could not be loaded (see rulesOnDemand). */
const RULES_NOT_LOADED = 'This form could not be checked. Check your connection and try again.';
/** What it says instead when they are gone because the portal was updated since the page opened. */
const RULES_GONE = 'The portal has been updated. Reload the page to continue.';

/** A form's rules that load when the form is first used (see rulesOnDemand). */
interface RulesOnDemand<T extends FieldValues> {
  /** The form's resolver: it waits for the rules the first time it runs. */
  resolver: Resolver<T>;
  /** Starts loading the rules; the form calls it as focus first enters it. */
  prefetch: () => void;
}

/**
 * A form's validation rules kept out of its page's file (ADR 69). The rules are the shared zod
 * schemas, and zod with the schemas it builds as it loads is about a quarter of a page's file, all
 * evaluated before the page's first render. A form drawn with its page (rather than a dialog whose
 * whole code loads on demand) takes its resolver from here: the module holding it is loaded as
 * focus first enters the form, and at the latest when the form first validates, which is on submit.
 * If it cannot be loaded, the form is not sent: the check answers with a form-wide error, which the
 * form shows beside its buttons (FormError), and the next check asks for the rules again. The form
 * keeps its buttons disabled while a submit is being checked, as the first one may wait for them.
 */
function rulesOnDemand<T extends FieldValues>(importResolver: () => Promise<Resolver<T>>): RulesOnDemand<T> {
  const rules = onDemand(importResolver);
  return {
    resolver: async (values, context, options) => {
      let resolve: Resolver<T>;
      try {
        resolve = rules.loaded() ?? (await rules.load());
      } catch {
        // form-wide, so the submit stops without marking a field; a field re-checked as it changes
        // after such a submit reads only its own error, so nothing on screen changes then
        const message = (await portalUpdatedSinceOpened()) ? RULES_GONE : RULES_NOT_LOADED;
        const errors = { root: { type: 'rules', message } } as FieldErrors<T>;
        return { values: {}, errors };
      }
      return resolve(values, context, options);
    },
    prefetch: rules.prefetch,
  };
}

export { FormDescription, FormError, FormField, FormMessage, rulesOnDemand };
