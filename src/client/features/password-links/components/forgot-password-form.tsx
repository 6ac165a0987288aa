import { zodResolver } from '@hookform/resolvers/zod';
import { type ForgotPasswordBody, forgotPasswordBody } from '@shared/schemas/auth';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { FormError, FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api';
import { useRequestPasswordReset } from '../api/password-links-api';

/** Asks for a link to set a new password; says the same whether or not the account exists. */
export function ForgotPasswordForm() {
  const mutation = useRequestPasswordReset();
  const form = useForm<ForgotPasswordBody>({
    resolver: zodResolver(forgotPasswordBody),
    defaultValues: { username: '' },
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
  });
  const { errors } = form.formState;

  if (mutation.data) {
    return (
      <p role="status" className="text-sm">
        {mutation.data.message}
      </p>
    );
  }

  const onSubmit = form.handleSubmit((values) =>
    mutation
      .mutateAsync(values)
      .catch((error: unknown) =>
        form.setError('root', { message: errorMessage(error, 'The link could not be asked for') }),
      ),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5" aria-label="Forgotten password">
      <FormField id="forgot-username" label="Username" error={errors.username?.message}>
        <Input
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          {...form.register('username', {
            onChange: () => {
              if (form.formState.errors.username) form.clearErrors('username');
            },
          })}
        />
      </FormField>
      <FormError formState={form.formState} />
      <Button type="submit" className="w-full" disabled={form.formState.isSubmitting || mutation.isPending}>
        {mutation.isPending ? 'Sending...' : 'Email me a link'}
      </Button>
    </form>
  );
}
