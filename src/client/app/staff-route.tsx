import type { PublicUser } from '@shared/schemas/users';
import { useQueryClient } from '@tanstack/react-query';
import { ShieldAlert } from 'lucide-react';
import { type ComponentType, useEffect } from 'react';
import { Link, Route, useLocation } from 'wouter';
import { BrandLogo } from '@/components/brand-logo';
import { ThemeToggle } from '@/components/theme-toggle';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { currentUserQueryKey } from '@/features/auth/api/auth-api';
import { useAuth } from '@/features/auth/auth-provider';
import { ApiError } from '@/lib/api';
import { staffLoginHref } from '@/lib/return-path';
import { PageSpinner } from './page-spinner';
import { usePageShown } from './use-page-shown';

const here = () => `${window.location.pathname}${window.location.search}`;

/**
 * A staff page. Signed out, it sends the person to the staff login, which brings them back here.
 * Signed in with another account (a facilitator), it says the page is for staff and where to go,
 * rather than drawing a page whose every request the server refuses (ADR 72). Staff rights
 * themselves stay the server's to check (spec section 6).
 */
export function StaffRoute({ path, component: Component }: { path: string; component: ComponentType }) {
  return (
    <Route path={path}>
      <StaffGuard component={Component} />
    </Route>
  );
}

function StaffGuard({ component: Component }: { component: ComponentType }) {
  const { user, isLoading } = useAuth();
  const [, navigate] = useLocation();
  useSignInAgainOnExpiry();
  const signedOut = !isLoading && !user;
  useEffect(() => {
    if (signedOut) navigate(staffLoginHref(here()), { replace: true });
  }, [signedOut, navigate]);
  const pageShown = usePageShown(!isLoading && Boolean(user));
  if (isLoading || signedOut || !pageShown) return <PageSpinner label="Loading your session" />;
  if (user && user.role !== 'staff') return <StaffOnly user={user} />;
  return <Component />;
}

/** What a staff page shows an account that is not staff: what it is, and the ways on. */
function StaffOnly({ user }: { user: PublicUser }) {
  const name = user.displayName?.trim() || user.username;
  return (
    <div className="flex min-h-dvh flex-col bg-muted/50 dark:bg-background">
      <header className="flex items-center justify-between px-4 py-4 sm:px-8">
        <Link
          href="/"
          className="rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
        >
          <BrandLogo collapse />
        </Link>
        <ThemeToggle />
      </header>
      <main className="flex flex-1 items-center justify-center px-4 pb-10">
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
              <a href={staffLoginHref(here())}>Sign in as staff</a>
            </Button>
          </CardContent>
        </Card>
      </main>
    </div>
  );
}

/**
 * A session that ends while a staff page is open (it expired, or was signed out elsewhere) makes
 * the page's requests answer 401. Rather than showing that answer, the person is signed out here
 * and taken to the staff login, which returns them to this page.
 */
function useSignInAgainOnExpiry() {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  useEffect(() => {
    const expired = (error: unknown) => error instanceof ApiError && error.status === 401;
    const signInAgain = () => {
      const target = staffLoginHref(here());
      queryClient.setQueryData(currentUserQueryKey, null);
      navigate(target, { replace: true });
    };
    const stopQueries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error' && expired(event.action.error))
        signInAgain();
    });
    const stopMutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error' && expired(event.action.error))
        signInAgain();
    });
    return () => {
      stopQueries();
      stopMutations();
    };
  }, [queryClient, navigate]);
}
