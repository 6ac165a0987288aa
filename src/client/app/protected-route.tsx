import type { ComponentType } from 'react';
import { Redirect, Route } from 'wouter';
import { useAuth } from '@/features/auth/auth-provider';
import { PageSpinner } from './page-spinner';
import { usePageShown } from './use-page-shown';

/** The signed-in guard: loading → spinner; signed in → the page; signed out → /auth. */
export function ProtectedRoute({ path, component: Component }: { path: string; component: ComponentType }) {
  return (
    <Route path={path}>
      <Guard component={Component} />
    </Route>
  );
}

function Guard({ component: Component }: { component: ComponentType }) {
  const { user, isLoading } = useAuth();
  const pageShown = usePageShown(!isLoading && Boolean(user));
  if (isLoading) return <PageSpinner label="Loading your session" />;
  if (!user) return <Redirect to="/auth" replace />;
  if (!pageShown) return <PageSpinner label="Loading your session" />;
  return <Component />;
}
