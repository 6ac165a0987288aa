import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { BrandLogo } from '@/components/brand-logo';
import { ThemeToggle } from '@/components/theme-toggle';
import { currentUserQueryKey } from '@/features/auth/api/auth-api';
import { SetPasswordPage } from '@/features/password-links';

/**
 * /set-password#<token>: the page a reset or invitation email links to; no sign-in needed, the token
 * is the credential. Setting the password signs the person in and takes them home.
 */
export default function SetPasswordRoute() {
  const token = window.location.hash.replace(/^#/, '');
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  return (
    <div className="flex min-h-dvh flex-col bg-muted/50 dark:bg-background">
      <header className="flex items-center justify-between px-4 py-4 sm:px-8">
        <BrandLogo />
        <ThemeToggle />
      </header>
      <main className="flex flex-1 items-center justify-center px-4 pb-10">
        <SetPasswordPage
          token={token}
          onSignedIn={(user) => {
            queryClient.setQueryData(currentUserQueryKey, user);
            navigate(user.role === 'staff' ? '/staff' : '/', { replace: true });
          }}
        />
      </main>
    </div>
  );
}
