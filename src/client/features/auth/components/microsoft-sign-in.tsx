import type { MicrosoftSignInPage } from '@shared/schemas/microsoft-sign-in';
import { CircleAlert, LogOut, MailCheck } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useMicrosoftSignInStatus } from '@/lib/microsoft-sign-in-status';
import { invitationFromAddress, startMicrosoftSignIn } from '@/lib/microsoft-start';
import { microsoftErrorMessage } from '../lib/microsoft-errors';

function MicrosoftLogo() {
  return (
    <svg viewBox="0 0 21 21" className="size-4" aria-hidden focusable="false">
      <rect x="1" y="1" width="9" height="9" fill="#f25022" />
      <rect x="11" y="1" width="9" height="9" fill="#7fba00" />
      <rect x="1" y="11" width="9" height="9" fill="#00a4ef" />
      <rect x="11" y="11" width="9" height="9" fill="#ffb900" />
    </svg>
  );
}

/**
 * The Microsoft part of a login page: why the last attempt failed, an invitation being accepted, and
 * the button. Shows nothing when Microsoft sign-in is not offered on this page (unless an error came
 * back, which is always said). Facilitators see it only when staff let them sign in with Microsoft.
 */
export function MicrosoftSignIn({
  showDivider,
  page = 'staff',
}: {
  showDivider: boolean;
  page?: MicrosoftSignInPage;
}) {
  const status = useMicrosoftSignInStatus();
  const params = new URLSearchParams(window.location.search);
  const invitation = invitationFromAddress(window.location);
  const error = microsoftErrorMessage(params.get('microsoftError'));
  const enabled = page === 'staff' ? status.data?.enabled === true : status.data?.facilitatorSignIn === true;
  // the portal session ended; the browser may still be signed in to Microsoft
  const signedOutOfPortalOnly = params.get('signedOut') === 'microsoft';

  return (
    <div className="grid gap-4">
      {error ? (
        <div
          role="alert"
          className="flex items-start gap-2 rounded-md border border-destructive/50 bg-destructive/10 px-3 py-2 text-destructive text-sm"
        >
          <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>{error}</span>
        </div>
      ) : null}
      {enabled && signedOutOfPortalOnly ? (
        <div role="status" className="grid gap-3 rounded-md border bg-accent/40 px-3 py-3 text-sm">
          <p>
            You have signed out of the portal. This browser may still be signed in to your Microsoft account,
            so someone else using it could sign in to the portal as you.
          </p>
          <Button variant="outline" className="w-full" asChild>
            <a href="/api/auth/microsoft/logout">
              <LogOut aria-hidden />
              Also sign out of Microsoft
            </a>
          </Button>
        </div>
      ) : null}
      {enabled && invitation ? (
        <div className="flex items-start gap-2 rounded-md border bg-accent/40 px-3 py-2 text-sm">
          <MailCheck className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>
            {page === 'staff'
              ? 'You have been invited to sign in with Microsoft. Sign in with your work account to link it to your portal account.'
              : 'You have been invited to sign in with Microsoft. Sign in with the Microsoft account the organisation invited as a guest to link it to your portal account. Your password keeps working.'}
          </span>
        </div>
      ) : null}
      {enabled ? (
        <Button variant="outline" className="w-full" onClick={() => startMicrosoftSignIn(invitation, page)}>
          <MicrosoftLogo />
          Sign in with Microsoft
        </Button>
      ) : null}
      {enabled && showDivider ? (
        <div className="flex items-center gap-3 text-muted-foreground text-xs">
          <span className="h-px flex-1 bg-border" />
          or with your password
          <span className="h-px flex-1 bg-border" />
        </div>
      ) : null}
    </div>
  );
}
