import { ArrowLeft } from 'lucide-react';
import { Link } from 'wouter';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { ForgotPasswordForm } from '@/features/password-links';
import { PublicPage } from '../layouts/public-page';

/** /forgot-password (?staff from the staff login): ask for a link to set a new password. */
export default function ForgotPasswordRoute() {
  const staff = new URLSearchParams(window.location.search).has('staff');
  return (
    <PublicPage>
      <Card className="w-full max-w-md">
        <CardHeader>
          <h1 className="font-semibold text-2xl tracking-tight">Forgot your password?</h1>
          <CardDescription>
            Enter your username. We will email a link to set a new password to the address on your account.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          <ForgotPasswordForm />
          <div className="border-t pt-4 text-center text-sm">
            <Link
              href={staff ? '/staff-login' : '/auth'}
              className="inline-flex items-center gap-1.5 font-medium text-primary underline-offset-4 hover:underline"
            >
              <ArrowLeft className="size-4" aria-hidden />
              {staff ? 'Back to staff login' : 'Back to login'}
            </Link>
          </div>
        </CardContent>
      </Card>
    </PublicPage>
  );
}
