import { lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { currentUserQueryKey, readCurrentUser } from '@/features/auth/api/auth-api';
import { prefetchFirstMonth } from '@/features/availability-calendar/api/calendar-reads';
import { queryClient } from '@/lib/query-client';
import { maySignedIn } from '@/lib/session-hint';
import { lazyPage } from './lazy-page';
import { PageSpinner } from './page-spinner';
import { ProtectedRoute } from './protected-route';
import { NotFoundRoute } from './routes/not-found';
import { StaffRoute } from './staff-route';

// every page loads on demand: a page carries only its own code (the login pages their forms', the
// signed-in pages none of the login pages')
const AuthRoute = lazyPage(() => import('./routes/auth'));
const StaffLoginRoute = lazyPage(() => import('./routes/staff-login'));
const HomeRoute = lazyPage(() => import('./routes/home'));
const SettingsRoute = lazyPage(() => import('./routes/settings'));
const ChangePasswordRoute = lazyPage(() => import('./routes/change-password'));
const StaffDashboardRoute = lazyPage(() => import('./routes/staff-dashboard'));
const StaffUsersRoute = lazyPage(() => import('./routes/staff-users'));
const StaffFreeRoute = lazyPage(() => import('./routes/staff-free'));
const StaffCompletenessRoute = lazyPage(() => import('./routes/staff-completeness'));
const StaffSessionsRoute = lazyPage(() => import('./routes/staff-sessions'));
const StaffAssuranceRoute = lazyPage(() => import('./routes/staff-assurance'));
const OffersRoute = lazyPage(() => import('./routes/offers'));
// opened from an e-mail by anyone, signed in or not: nothing of it to start early
const OfferLinkRoute = lazy(() => import('./routes/offer-link'));
// reached from a login page or an email, signed in or not
const ForgotPasswordRoute = lazy(() => import('./routes/forgot-password'));
const SetPasswordRoute = lazy(() => import('./routes/set-password'));

// The page the app opens on gets the session, its data and its code fetched at once, not one after
// the other (no request waterfalls; a guarded page renders only once /api/user answers).
// They are asked for in that order: the browser gives a host six connections and the page code is
// two dozen files, so the small API reads go first rather than queue behind it.
const startPath = window.location.pathname;
const pageCode: Record<string, { preload: () => Promise<unknown> }> = {
  '/': HomeRoute,
  '/settings': SettingsRoute,
  '/change-password': ChangePasswordRoute,
  '/offers': OffersRoute,
  '/staff': StaffDashboardRoute,
  '/staff-dashboard': StaffDashboardRoute,
  '/staff/users': StaffUsersRoute,
  '/staff/free': StaffFreeRoute,
  '/staff/completeness': StaffCompletenessRoute,
  '/staff/sessions': StaffSessionsRoute,
  '/staff/assurance': StaffAssuranceRoute,
};
// an anonymous visitor is sent to a login page: nothing of theirs to fetch
const signedIn = maySignedIn();
// the session read, settled either way: the guards ask again and show what went wrong
const session = queryClient
  .fetchQuery({ queryKey: currentUserQueryKey, queryFn: readCurrentUser })
  .catch(() => null);
if (signedIn && startPath === '/') prefetchFirstMonth(queryClient, session);
if (signedIn && (startPath === '/staff' || startPath === '/staff-dashboard')) {
  // the staff API code in its own chunk, so the login pages do not carry it
  void import('./staff-prefetch').then((staff) => staff.prefetchStaffDashboard());
}
if (signedIn) void pageCode[startPath]?.preload();
// an anonymous visitor is sent to a login page: the staff login from a staff page, else the facilitators'
else if (startPath !== '/offer-link')
  void (startPath.startsWith('/staff') ? StaffLoginRoute : AuthRoute).preload();

export function AppRouter() {
  return (
    <Suspense fallback={<PageSpinner />}>
      <Switch>
        <ProtectedRoute path="/" component={HomeRoute} />
        <ProtectedRoute path="/settings" component={SettingsRoute} />
        <ProtectedRoute path="/change-password" component={ChangePasswordRoute} />
        <ProtectedRoute path="/offers" component={OffersRoute} />
        <Route path="/offer-link" component={OfferLinkRoute} />
        <Route path="/forgot-password" component={ForgotPasswordRoute} />
        <Route path="/set-password" component={SetPasswordRoute} />
        <Route path="/auth" component={AuthRoute} />
        <Route path="/staff-login" component={StaffLoginRoute} />
        <StaffRoute path="/staff" component={StaffDashboardRoute} />
        <StaffRoute path="/staff-dashboard" component={StaffDashboardRoute} />
        <StaffRoute path="/staff/users" component={StaffUsersRoute} />
        <StaffRoute path="/staff/free" component={StaffFreeRoute} />
        <StaffRoute path="/staff/completeness" component={StaffCompletenessRoute} />
        <StaffRoute path="/staff/sessions" component={StaffSessionsRoute} />
        <StaffRoute path="/staff/assurance" component={StaffAssuranceRoute} />
        <Route component={NotFoundRoute} />
      </Switch>
    </Suspense>
  );
}
