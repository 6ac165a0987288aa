import { zodResolver } from '@hookform/resolvers/zod';
import { type LoginBody, loginBody } from '@shared/schemas/login';
import { CalendarCheck, CalendarDays, ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'wouter';
import { BrandLogo } from '@/components/brand-logo';
import { ThemeToggle } from '@/components/theme-toggle';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { FormField } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { useAuth } from '../auth-provider';
import { MicrosoftSignIn } from './microsoft-sign-in';

const highlights = [
  {
    Icon: CalendarCheck,
    title: 'Mark Availability',
    text: 'Tell us day by day when you can run sessions: available, limited or unavailable, with times and notes.',
  },
  {
    Icon: CalendarDays,
    title: 'View Bookings',
    text: 'See the school sessions you are booked on in a clear monthly calendar, with the venue and time.',
  },
];

/**
 * The facilitator login screen at /auth. `passkey`: the page's passkey sign-in, shown under the
 * password form (the username field offers passkeys in its suggestions where the browser can).
 */
export function FacilitatorLogin({ passkey }: { passkey?: ReactNode }) {
  const { loginMutation } = useAuth();
  // errors appear on submit, then follow every keystroke; the first field in error takes focus
  const { register, handleSubmit, formState } = useForm<LoginBody>({
    resolver: zodResolver(loginBody),
    defaultValues: { username: '', password: '' },
  });
  const { errors } = formState;

  return (
    <div className="grid min-h-dvh lg:grid-cols-2">
      <div className="flex flex-col">
        <header className="flex items-center justify-between px-4 py-4 sm:px-8">
          <BrandLogo />
          <ThemeToggle />
        </header>
        <main className="flex flex-1 items-center justify-center px-4 pb-10 sm:px-8">
          <Card className="w-full max-w-md">
            <CardHeader>
              <h1 className="font-semibold text-2xl leading-tight tracking-tight">
                Welcome to the Arts Facilitator Portal
              </h1>
              <CardDescription>Sign in to mark your availability and see your bookings.</CardDescription>
            </CardHeader>
            <CardContent className="grid gap-5">
              <MicrosoftSignIn showDivider page="facilitator" />
              <form
                onSubmit={handleSubmit((body) => loginMutation.mutate(body))}
                noValidate
                className="grid gap-5"
                aria-label="Facilitator sign in"
              >
                <FormField id="username" label="Username" error={errors.username?.message}>
                  <Input
                    autoComplete="username webauthn"
                    autoCapitalize="none"
                    spellCheck={false}
                    {...register('username')}
                  />
                </FormField>
                <FormField id="password" label="Password" error={errors.password?.message}>
                  <PasswordInput autoComplete="current-password" {...register('password')} />
                </FormField>
                <Button type="submit" className="w-full" disabled={loginMutation.isPending}>
                  {loginMutation.isPending ? 'Signing in...' : 'Sign In'}
                </Button>
                <p className="text-center text-sm">
                  <Link
                    href="/forgot-password"
                    className="font-medium text-primary underline-offset-4 hover:underline"
                  >
                    Forgot your password?
                  </Link>
                </p>
                <p className="text-center text-muted-foreground text-sm">
                  Contact your administrator if you have trouble logging in.
                </p>
              </form>
              {passkey}
              <div className="mt-1 border-t pt-4 text-center text-sm">
                <Link
                  href="/staff-login"
                  className="inline-flex items-center gap-1.5 font-medium text-primary underline-offset-4 hover:underline"
                >
                  <ShieldCheck className="size-4" aria-hidden />
                  Staff login
                </Link>
              </div>
            </CardContent>
          </Card>
        </main>
      </div>
      <aside
        aria-label="About the portal"
        className="relative hidden overflow-hidden bg-primary text-primary-foreground lg:flex lg:flex-col lg:justify-center lg:px-14"
      >
        <div
          aria-hidden
          className="absolute -top-24 -right-24 size-80 rounded-full bg-primary-foreground/10"
        />
        <div
          aria-hidden
          className="absolute -bottom-32 -left-16 size-96 rounded-full bg-primary-foreground/5"
        />
        <div className="relative max-w-lg">
          <h2 className="font-semibold text-3xl leading-tight tracking-tight">
            Your sessions and schedule, in one place
          </h2>
          <p className="mt-3 text-lg opacity-90">
            Keep the team up to date with when you can work, and see where you are booked next.
          </p>
          <ul className="mt-10 grid gap-6">
            {highlights.map(({ Icon, title, text }) => (
              <li key={title} className="flex gap-4">
                <span className="flex size-11 shrink-0 items-center justify-center rounded-lg bg-primary-foreground/15">
                  <Icon className="size-6" aria-hidden />
                </span>
                <div>
                  <h3 className="font-semibold text-lg">{title}</h3>
                  <p className="mt-1 opacity-90">{text}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      </aside>
    </div>
  );
}
