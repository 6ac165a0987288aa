import type { PublicUser } from '@shared/schemas/users';
import { useQueryClient } from '@tanstack/react-query';
import { CircleAlert, Fingerprint } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/api';
import { queryKeys } from '@/lib/query-keys';
import {
  browserHasPasskeyAutofill,
  browserHasPasskeys,
  type PasskeyPage,
  signInWithPasskey,
  usePasskeyStatus,
} from '../api/passkeys-api';
import { passkeyErrorMessage } from '../lib/errors';

/**
 * "Sign in with a passkey" on a login page, and the browser's passkey autofill on its username field
 * (`autocomplete="username webauthn"`) where the browser has it. Shows nothing when the portal or the
 * browser has no passkeys. A passkey signs in to the same session as a password.
 */
export function PasskeySignIn({
  page,
  onSignedIn,
}: {
  page: PasskeyPage;
  onSignedIn: (user: PublicUser) => void;
}) {
  const queryClient = useQueryClient();
  const status = usePasskeyStatus();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const enabled = status.data?.enabled === true && browserHasPasskeys();

  const signedIn = (user: PublicUser) => {
    queryClient.setQueryData(queryKeys.session.all, user);
    onSignedIn(user);
  };
  const failure = page === 'staff' ? 'Invalid credentials' : 'That passkey could not sign you in.';

  // the autofill request waits in the background until a passkey is picked or another ceremony starts
  // biome-ignore lint/correctness/useExhaustiveDependencies: started once per page when passkeys are on
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    void (async () => {
      if (!(await browserHasPasskeyAutofill())) return;
      if (!document.querySelector('input[autocomplete$="webauthn"]')) return;
      try {
        const user = await signInWithPasskey(page, true);
        if (live) signedIn(user);
      } catch (caught) {
        // only a passkey the person picked and the portal refused is worth saying: a browser or
        // device that cannot offer passkeys here (NotSupportedError, before anyone did anything)
        // or a request that was cancelled leaves the page as it was
        if (live && caught instanceof ApiError) setError(passkeyErrorMessage(caught, failure));
      }
    })();
    return () => {
      live = false;
    };
  }, [enabled, page]);

  if (!enabled) return null;

  async function start() {
    setError(null);
    setPending(true);
    try {
      signedIn(await signInWithPasskey(page));
    } catch (caught) {
      setError(passkeyErrorMessage(caught, failure));
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="grid gap-3">
      <div className="flex items-center gap-3 text-muted-foreground text-xs">
        <span className="h-px flex-1 bg-border" />
        or without a password
        <span className="h-px flex-1 bg-border" />
      </div>
      {error ? (
        <div
          role="alert"
          className="flex items-start gap-2 rounded-md border border-destructive/50 bg-destructive/10 px-3 py-2 text-destructive text-sm"
        >
          <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>{error}</span>
        </div>
      ) : null}
      <Button type="button" variant="outline" className="w-full" onClick={start} disabled={pending}>
        <Fingerprint aria-hidden />
        {pending ? 'Waiting for your passkey...' : 'Sign in with a passkey'}
      </Button>
    </div>
  );
}
