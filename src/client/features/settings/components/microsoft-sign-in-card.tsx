import { KeyRound, LogIn } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api';
import {
  linkMyAccount,
  useMicrosoftSignInSettings,
  useSaveMicrosoftSignInSettings,
} from '../api/microsoft-sign-in-api';

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <div className="grid gap-0.5 sm:grid-cols-[12rem_1fr] sm:gap-3">
      <dt className="text-muted-foreground text-sm">{label}</dt>
      <dd className="break-all font-mono text-sm">{value || '—'}</dd>
    </div>
  );
}

/**
 * Sign in with Microsoft on the settings page: what is configured (from the environment; the client
 * secret is never shown), linking your own account, and the switch for staff passwords.
 */
export function MicrosoftSignInCard({ currentUserId }: { currentUserId: number | undefined }) {
  const settings = useMicrosoftSignInSettings();
  const save = useSaveMicrosoftSignInSettings();
  const [allowPasswords, setAllowPasswords] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [linking, setLinking] = useState(false);
  const checkboxId = useId();
  const errorId = useId();

  useEffect(() => {
    if (settings.data) setAllowPasswords(settings.data.staffPasswordSignIn);
  }, [settings.data]);

  const data = settings.data;
  async function onSave() {
    setError(null);
    try {
      await save.mutateAsync({ staffPasswordSignIn: allowPasswords });
      toast({ title: 'Sign-in settings saved' });
    } catch (caught) {
      setError(getErrorMessage(caught, 'The sign-in settings could not be saved'));
    }
  }
  async function onLink() {
    if (!currentUserId) return;
    setLinking(true);
    setError(null);
    try {
      await linkMyAccount(currentUserId);
    } catch (caught) {
      setError(getErrorMessage(caught, 'Could not start linking your account'));
      setLinking(false);
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <KeyRound className="size-5" aria-hidden />
          <h2 className="text-lg">Sign in with Microsoft</h2>
        </CardTitle>
        <CardDescription>
          Staff sign in with their Microsoft 365 work account, under your organisation's own multi-factor and
          conditional-access rules.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        {settings.isPending ? (
          <Skeleton className="h-24 w-full" />
        ) : settings.isError || !data ? (
          <p role="alert" className="text-destructive text-sm">
            {getErrorMessage(settings.error, 'The sign-in settings could not be loaded')}
          </p>
        ) : (
          <>
            {data.configured ? null : (
              <p className="text-sm">
                Not configured. Set <code>ENTRA_TENANT_ID</code>, <code>ENTRA_CLIENT_ID</code>,{' '}
                <code>ENTRA_CLIENT_SECRET</code> and <code>PUBLIC_URL</code> on the server (see the README).
              </p>
            )}
            <dl className="grid gap-2">
              <Detail label="Directory (tenant) ID" value={data.tenantId} />
              <Detail label="Application (client) ID" value={data.clientId} />
              <Detail label="Redirect URI" value={data.redirectUri} />
              <Detail label="Staff app role" value={data.staffRole || 'Not used: invitations decide'} />
              <Detail label="Staff linked to Microsoft" value={String(data.linkedStaff)} />
            </dl>
            {data.configured && !data.youAreLinked ? (
              <div className="flex flex-wrap items-center gap-3">
                <Button variant="outline" onClick={onLink} disabled={linking || !currentUserId}>
                  <LogIn aria-hidden />
                  {linking ? 'Opening Microsoft...' : 'Link my Microsoft account'}
                </Button>
                <span className="text-muted-foreground text-sm">Your account is not linked yet.</span>
              </div>
            ) : null}
            <div className="grid gap-2">
              <div className="flex items-start gap-3">
                <Checkbox
                  id={checkboxId}
                  checked={allowPasswords}
                  disabled={!data.configured}
                  aria-describedby={error ? errorId : undefined}
                  onCheckedChange={(checked) => setAllowPasswords(checked === true)}
                />
                <div className="grid gap-1">
                  <Label htmlFor={checkboxId}>Staff may also sign in with a password</Label>
                  <p className="text-muted-foreground text-sm">
                    Turn this off once Microsoft sign-in works. Your own account must be linked first, so
                    somebody can always get in. Facilitators keep their passwords.
                  </p>
                </div>
              </div>
              {error ? (
                <p id={errorId} role="alert" className="text-destructive text-sm">
                  {error}
                </p>
              ) : null}
            </div>
            <div>
              <Button
                onClick={onSave}
                disabled={!data.configured || save.isPending || allowPasswords === data.staffPasswordSignIn}
              >
                {save.isPending ? 'Saving...' : 'Save sign-in settings'}
              </Button>
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}
