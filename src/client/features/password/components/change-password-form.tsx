import { zodResolver } from '@hookform/resolvers/zod';
import type { ChangePasswordForm as FormValues } from '@shared/schemas/auth';
import { changePasswordForm } from '@shared/schemas/auth';
import { useEffect, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { FormError } from '@/components/ui/form';
import { type PasswordFieldSpec, PasswordFields } from '@/components/ui/password-fields';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { useChangePassword } from '../api/change-password';

/** Go home 1.5 s after a successful change. */
export const REDIRECT_DELAY_MS = 1500;

const fields: PasswordFieldSpec<FormValues>[] = [
  { name: 'currentPassword', label: 'Current Password', autoComplete: 'current-password' },
  { name: 'newPassword', label: 'New Password', autoComplete: 'new-password' },
  { name: 'confirmPassword', label: 'Confirm New Password', autoComplete: 'new-password' },
];

// the shared rules, including "must differ from current" overriding the other new-password messages
const resolver = zodResolver(changePasswordForm);

const empty: FormValues = { currentPassword: '', newPassword: '', confirmPassword: '' };

export function ChangePasswordForm({ onChanged }: { onChanged: () => void }) {
  const mutation = useChangePassword();
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const form = useForm<FormValues>({
    resolver,
    defaultValues: empty,
    // errors only appear on submit and leave as soon as their field is edited
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
  });

  useEffect(
    () => () => {
      if (redirectTimer.current) clearTimeout(redirectTimer.current);
    },
    [],
  );

  const onSubmit = form.handleSubmit((values) => {
    mutation.mutate(
      { currentPassword: values.currentPassword, newPassword: values.newPassword },
      {
        onSuccess: () => {
          toast({
            title: 'Password updated',
            description: 'Your password has been changed successfully. Redirecting to homepage...',
            variant: 'success',
          });
          form.reset(empty);
          redirectTimer.current = setTimeout(onChanged, REDIRECT_DELAY_MS);
        },
        onError: (error) => {
          toast({
            title: 'Error',
            description: errorMessage(error, 'Failed to change password'),
            variant: 'destructive',
          });
        },
      },
    );
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5" aria-label="Change password">
      <PasswordFields form={form} fields={fields} />
      <FormError formState={form.formState} />
      <Button
        type="submit"
        className="w-full sm:w-auto sm:justify-self-start"
        disabled={form.formState.isSubmitting || mutation.isPending}
      >
        {mutation.isPending ? 'Changing...' : 'Change Password'}
      </Button>
    </form>
  );
}
