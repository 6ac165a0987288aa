import type { PublicUser } from '@shared/schemas/users';
import { ShieldAlert } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { staffLoginHref } from '@/lib/return-path';
import { AppLayout } from './layouts/app-layout';

/**
 * What a staff page shows an account that is not staff: in that account's own shell, what the page
 * is and the ways on.
 */
export default function StaffOnly({ user }: { user: PublicUser }) {
  const name = user.displayName?.trim() || user.username;
  return (
    <AppLayout>
      <div className="flex justify-center py-6">
        <Card className="w-full max-w-md" role="alert">
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <ShieldAlert className="size-5 shrink-0 text-destructive" aria-hidden />
              <h1 className="text-xl">Staff only</h1>
            </CardTitle>
            <CardDescription className="[overflow-wrap:anywhere]">
              This page is only available to staff accounts. You are signed in as {name}, which is not a staff
              account.
            </CardDescription>
          </CardHeader>
          <CardContent className="flex flex-wrap gap-3">
            <Button asChild>
              <Link href="/">Go to your calendar</Link>
            </Button>
            <Button asChild variant="outline">
              <a href={staffLoginHref(`${window.location.pathname}${window.location.search}`)}>
                Sign in as staff
              </a>
            </Button>
          </CardContent>
        </Card>
      </div>
    </AppLayout>
  );
}
