import { useQueryClient } from '@tanstack/react-query';
import { type ComponentType, lazy, useEffect } from 'react';
import { Route, useLocation } from 'wouter';
import { currentUserQueryKey } from '@/features/auth/api/auth-api';
import { useAuth } from '@/features/auth/auth-provider';
import { ApiError } from '@/lib/api';
import { staffLoginHref } from '@/lib/return-path';
import { PageSpinner } from './page-spinner';
import { usePageShown } from './use-page-shown';

const here = () => `${window.location.pathname}${window.location.search}`;

// drawn only for an account that is not staff: its code (the facilitator shell) loads then, so the
// login pages, which carry this guard, stay small
const StaffOnly = lazy(() => import('./staff-only'));

/**
 * A staff page. Signed out, it sends the person to the staff login, which brings them back here.
 * Signed in with another account (a facilitator), it says the page is for staff and where to go,
 * rather than drawing a page whose every request the server refuses (ADR 78). Staff rights
 * themselves stay the server's to check.
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
