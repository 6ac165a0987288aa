import { Redirect } from 'wouter';
import { useAuth } from '@/features/auth/auth-provider';
import { FacilitatorLogin } from '@/features/auth/components/facilitator-login';
import { PasskeySignIn } from '@/features/passkeys';
import { PageSpinner } from '../page-spinner';

/** The facilitator login; signed in, the person's own home: staff (who may sign in here too) their dashboard. */
export default function AuthRoute() {
  const { user, isLoading } = useAuth();
  if (isLoading) return <PageSpinner label="Loading your session" />;
  if (user) return <Redirect to={user.role === 'staff' ? '/staff' : '/'} replace />;
  // a passkey sign-in sets the session, and the redirect above follows
  return <FacilitatorLogin passkey={<PasskeySignIn page="facilitator" onSignedIn={() => {}} />} />;
}
