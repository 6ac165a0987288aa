import { lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { PageSpinner } from './page-spinner';
import { ProtectedRoute } from './protected-route';
import { AuthRoute } from './routes/auth';
import { NotFoundRoute } from './routes/not-found';
import { StaffLoginRoute } from './routes/staff-login';

// the signed-in pages load on demand so the login pages stay small
const HomeRoute = lazy(() => import('./routes/home'));
const SettingsRoute = lazy(() => import('./routes/settings'));
const ChangePasswordRoute = lazy(() => import('./routes/change-password'));
const StaffDashboardRoute = lazy(() => import('./routes/staff-dashboard'));
const StaffUsersRoute = lazy(() => import('./routes/staff-users'));

export function AppRouter() {
  return (
    <Suspense fallback={<PageSpinner />}>
      <Switch>
        <ProtectedRoute path="/" component={HomeRoute} />
        <ProtectedRoute path="/settings" component={SettingsRoute} />
        <ProtectedRoute path="/change-password" component={ChangePasswordRoute} />
        <Route path="/auth" component={AuthRoute} />
        <Route path="/staff-login" component={StaffLoginRoute} />
        <Route path="/staff" component={StaffDashboardRoute} />
        <Route path="/staff-dashboard" component={StaffDashboardRoute} />
        <Route path="/staff/users" component={StaffUsersRoute} />
        <Route component={NotFoundRoute} />
      </Switch>
    </Suspense>
  );
}
