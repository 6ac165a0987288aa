import { Redirect } from 'wouter';
import { useAuth } from '@/features/auth/auth-provider';
import { FacilitatorLogin } from '@/features/auth/components/facilitator-login';
import { PageSpinner } from '../page-spinner';

export function AuthRoute() {
  const { user, isLoading } = useAuth();
  if (isLoading) return <PageSpinner label="Loading your session" />;
  if (user) return <Redirect to="/" replace />;
  return <FacilitatorLogin />;
}
