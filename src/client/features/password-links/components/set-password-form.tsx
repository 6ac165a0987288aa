import { zodResolver } from '@hookform/resolvers/zod';
import { type SetPasswordForm as FormValues, setPasswordForm } from '@shared/schemas/auth';
import type { PublicUser } from '@shared/schemas/users';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { FormError } from '@/components/ui/form';
import { type PasswordFieldSpec, PasswordFields } from '@/components/ui/password-fields';
import { errorMessage } from '@/lib/api';
import { usePasswordLink, useSetPasswordByLink } from '../api/password-links-api';

const fields: PasswordFieldSpec<FormValues>[] = [
  { name: 'newPassword', label: 'New Password', autoComplete: 'new-password' },
  { name: 'confirmPassword', label: 'Confirm New Password', autoComplete: 'new-password' },
];

/**
 * The page a link that sets a password opens (a reset or an invitation): whose account it is, then
 * the new password twice. Setting it signs the person in.
 */
export function SetPasswordPage({
  token,
  onSignedIn,
}: {
  token: string;
  onSignedIn: (user: PublicUser) => void;
}) {
  const link = usePasswordLink(token);
  const mutation = useSetPasswordByLink(token);
  const form = useForm<FormValues>({
    resolver: zodResolver(setPasswordForm),
    defaultValues: { newPassword: '', confirmPassword: '' },
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
  });

  if (!token) return <Notice title="This link is not complete">Open the link from your email again.</Notice>;
  if (link.isPending) return <p className="text-muted-foreground">Checking the link…</p>;
  if (link.error)
    return (
      <Notice title="This link cannot be used">{errorMessage(link.error, 'This link is not valid.')}</Notice>
    );

  const invitation = link.data.purpose === 'invitation';
  const onSubmit = form.handleSubmit((values) =>
    mutation
      .mutateAsync(values.newPassword)
      .then(onSignedIn, (error: unknown) =>
        form.setError('root', { message: errorMessage(error, 'The password could not be set') }),
      ),
  );

  return (
    <Card className="mx-auto w-full max-w-md">
      <CardHeader>
        <h1 className="font-semibold text-2xl tracking-tight">
          {invitation ? 'Choose your password' : 'Set a new password'}
        </h1>
        <CardDescription>
          For the account <strong className="font-medium text-foreground">{link.data.username}</strong>.
          {invitation ? '' : ' Every other place it is signed in will be signed out.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="grid gap-5" aria-label="Set password">
          {/* for password managers: the account the new password belongs to */}
          <input
            type="text"
            name="username"
            autoComplete="username"
            value={link.data.username}
            readOnly
            hidden
          />
          <PasswordFields form={form} fields={fields} />
          <FormError formState={form.formState} />
          <Button
            type="submit"
            className="w-full"
            disabled={form.formState.isSubmitting || mutation.isPending}
          >
            {mutation.isPending ? 'Saving...' : 'Set Password and Sign In'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function Notice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card className="mx-auto w-full max-w-md">
      <CardHeader>
        <h1 className="font-semibold text-xl tracking-tight">{title}</h1>
      </CardHeader>
      <CardContent className="grid gap-4">
        <p role="status">{children}</p>
        <p className="text-sm">
          <a className="font-medium text-primary underline-offset-4 hover:underline" href="/forgot-password">
            Ask for a new link
          </a>
        </p>
      </CardContent>
    </Card>
  );
}
