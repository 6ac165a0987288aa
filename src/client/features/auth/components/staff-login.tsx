import { zodResolver } from '@hookform/resolvers/zod';
import { type StaffLoginBody, staffLoginBody } from '@shared/schemas/login';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, CircleAlert, ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation } from 'wouter';
import { BrandLogo } from '@/components/brand-logo';
import { ThemeToggle } from '@/components/theme-toggle';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { errorMessage, isNetworkError } from '@/lib/api';
import { useMicrosoftSignInStatus } from '@/lib/microsoft-sign-in-status';
import { safeReturnPath } from '@/lib/return-path';
import { currentUserQueryKey, staffLogin } from '../api/auth-api';
import { MicrosoftSignIn } from './microsoft-sign-in';

/** The staff login screen at /staff-login; `passkey`: the page's passkey sign-in, under the form. */
export function StaffLogin({ passkey }: { passkey?: ReactNode }) {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const { register, handleSubmit, formState, setError } = useForm<StaffLoginBody>({
    resolver: zodResolver(staffLoginBody),
    defaultValues: { username: '', password: '' },
    // one message for the form, shown above it until the next submit: nothing to focus
    shouldFocusError: false,
    reValidateMode: 'onSubmit',
  });
  const { errors } = formState;
  const error = errors.username?.message ?? errors.password?.message ?? errors.root?.message;
  // the organisation may have turned staff passwords off once Microsoft sign-in works
  const passwordsOff = useMicrosoftSignInStatus().data?.staffPasswordSignIn === false;

  async function signIn(body: StaffLoginBody) {
    try {
      const user = await staffLogin(body);
      queryClient.setQueryData(currentUserQueryKey, user);
      // back to the staff page that sent them here, if any (only a path on this site)
      navigate(safeReturnPath(new URLSearchParams(window.location.search).get('next')) ?? '/staff');
    } catch (failure) {
      const message = isNetworkError(failure)
        ? 'Network error - please try again'
        : errorMessage(failure, 'Invalid credentials');
      setError('root', { message });
    }
  }

  return (
    <div className="flex min-h-dvh flex-col bg-muted/50 dark:bg-background">
      <header className="flex items-center justify-between px-4 py-4 sm:px-8">
        <BrandLogo />
        <ThemeToggle />
      </header>
      <main className="flex flex-1 items-center justify-center px-4 pb-10">
        <Card className="w-full max-w-md">
          <CardHeader className="items-center text-center">
            <span className="mx-auto mb-2 flex size-12 items-center justify-center rounded-full bg-accent text-accent-foreground">
              <ShieldCheck className="size-6" aria-hidden />
            </span>
            <h1 className="font-semibold text-2xl tracking-tight">Staff Login</h1>
            <CardDescription>Sign in to manage facilitator schedules and accounts.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-5">
            <MicrosoftSignIn showDivider={!passwordsOff} />
            {passwordsOff ? null : (
              <form
                onSubmit={handleSubmit(signIn)}
                noValidate
                className="grid gap-5"
                aria-label="Staff sign in"
              >
                {error ? (
                  <div
                    role="alert"
                    className="flex items-start gap-2 rounded-md border border-destructive/50 bg-destructive/10 px-3 py-2 text-destructive text-sm"
                  >
                    <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
                    <span>{error}</span>
                  </div>
                ) : null}
                <FormField id="staff-username" label="Username">
                  <Input
                    autoComplete="username webauthn"
                    autoCapitalize="none"
                    spellCheck={false}
                    {...register('username')}
                  />
                </FormField>
                <FormField id="staff-password" label="Password">
                  <PasswordInput autoComplete="current-password" {...register('password')} />
                </FormField>
                <Button type="submit" className="w-full" disabled={formState.isSubmitting}>
                  {formState.isSubmitting ? 'Signing in...' : 'Sign In'}
                </Button>
                <p className="text-center text-sm">
                  <Link
                    href="/forgot-password?staff"
                    className="font-medium text-primary underline-offset-4 hover:underline"
                  >
                    Forgot your password?
                  </Link>
                </p>
              </form>
            )}
            {passkey}
            <div className="mt-1 border-t pt-4 text-center text-sm">
              <Link
                href="/auth"
                className="inline-flex items-center gap-1.5 font-medium text-primary underline-offset-4 hover:underline"
              >
                <ArrowLeft className="size-4" aria-hidden />
                Back to facilitator login
              </Link>
            </div>
          </CardContent>
        </Card>
      </main>
    </div>
  );
}
