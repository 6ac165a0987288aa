import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { currentUserQueryKey } from '@/features/auth/api/auth-api';
import { SetPasswordPage } from '@/features/password-links';
import { PublicPage } from '../layouts/public-page';

/**
 * /set-password#<token>: the page a reset or invitation email links to; no sign-in needed, the token
 * is the credential. Setting the password signs the person in and takes them home.
 */
export default function SetPasswordRoute() {
  const token = window.location.hash.replace(/^#/, '');
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return (
    <PublicPage>
      <SetPasswordPage
        token={token}
        onSignedIn={(user) => {
          queryClient.setQueryData(currentUserQueryKey, user);
          navigate(user.role === 'staff' ? '/staff' : '/', { replace: true });
        }}
      />
    </PublicPage>
  );
}
