import { ArrowLeft } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import { BrandLogo } from '@/components/brand-logo';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { useAuth } from '@/features/auth/auth-provider';
import { ChangePasswordForm } from '@/features/password/components/change-password-form';

export default function ChangePasswordRoute() {
  const [, navigate] = useLocation();
  const { user } = useAuth();
  // staff come here from the staff pages and go back there; / is the facilitators' calendar
  const home = user?.role === 'staff' ? '/staff' : '/';
  return (
    <div className="min-h-dvh bg-muted/50 dark:bg-background">
      <main className="mx-auto grid w-full max-w-lg gap-6 px-4 py-6 sm:py-10">
        <div className="flex items-center justify-between gap-3">
          <Button variant="outline" asChild>
            <Link href={home}>
              <ArrowLeft aria-hidden />
              {home === '/staff' ? 'Back to Dashboard' : 'Back to Calendar'}
            </Link>
          </Button>
          <BrandLogo collapse />
        </div>
        <Card>
          <CardHeader>
            <h1 className="font-semibold text-2xl tracking-tight">Change Password</h1>
            <CardDescription>Update your account password for security</CardDescription>
          </CardHeader>
          <CardContent>
            <ChangePasswordForm onChanged={() => navigate(home)} />
          </CardContent>
        </Card>
      </main>
    </div>
  );
}
