import type { PublicUser } from '@shared/schemas/users';
import { Copy } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import {
  useCreateMicrosoftInvitation,
  useFacilitatorMicrosoftSignIn,
  useMicrosoftSignInEnabled,
} from '../api/microsoft-invitation-api';
import { formatMoment, userName } from '../lib/users';

/**
 * Whether an account can be sent an invitation to sign in with Microsoft: not while Microsoft sign-in
 * is not configured, nor for facilitators until staff let facilitators sign in with Microsoft.
 */
export function useMicrosoftInviteAllowed(): (user: PublicUser) => boolean {
  const enabled = useMicrosoftSignInEnabled();
  const facilitatorsAllowed = useFacilitatorMicrosoftSignIn();
  return (user) => enabled && (user.role === 'staff' || facilitatorsAllowed);
}

/**
 * "Invite to sign in with Microsoft" for one account: a single-use link that links whoever signs in
 * with Microsoft through it to this account. Opened from the account's actions. For an account already
 * linked the dialog says so, and the link it makes replaces that Microsoft account (whose owner is
 * emailed).
 */
export function MicrosoftInviteDialog({
  user,
  linked,
  onClose,
}: {
  user: PublicUser | null;
  linked: boolean;
  onClose: () => void;
}) {
  const create = useCreateMicrosoftInvitation();
  const linkId = useId();
  // each opening starts without a link: the last one is forgotten as the dialog closes
  const [shownFor, setShownFor] = useState<number | null>(null);
  if ((user?.id ?? null) !== shownFor) {
    setShownFor(user?.id ?? null);
    create.reset();
  }
  const name = user ? userName(user) : '';
  const isStaff = user?.role === 'staff';

  const invitation = create.data;
  async function copy() {
    if (!invitation) return;
    try {
      await navigator.clipboard.writeText(invitation.link);
      toast({ title: 'Invitation link copied' });
    } catch {
      toast({ title: 'Select the link and copy it', variant: 'destructive' });
    }
  }

  return (
    <Dialog open={user !== null} onOpenChange={(open) => (open ? null : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Invite to sign in with Microsoft</DialogTitle>
          <DialogDescription>
            {isStaff
              ? `The link lets ${name} sign in with their Microsoft work account from now on.`
              : `The link lets ${name} sign in with the Microsoft account your organisation invited as a guest, as well as with their password.`}{' '}
            It works once and links whoever opens it to this account, so send it only to {name}.
          </DialogDescription>
        </DialogHeader>
        {linked && !invitation ? (
          <p className="rounded-md border border-warning bg-warning/10 px-3 py-2 text-sm">
            {name}'s account is already linked to a Microsoft account. A new link replaces it: whoever uses
            the link signs in as {name} from then on, the sessions the current Microsoft account opened end,
            and {name} is told by email.
          </p>
        ) : null}
        {invitation ? (
          <div className="grid gap-2">
            <Label htmlFor={linkId}>Invitation link</Label>
            <div className="flex gap-2">
              <Input id={linkId} readOnly value={invitation.link} onFocus={(e) => e.target.select()} />
              <Button variant="outline" onClick={copy} aria-label="Copy the invitation link">
                <Copy aria-hidden />
                Copy
              </Button>
            </div>
            <p className="text-muted-foreground text-sm">
              Valid until {formatMoment(invitation.expiresAt)}. A new link replaces this one.
            </p>
          </div>
        ) : create.isError ? (
          <p role="alert" className="text-destructive text-sm">
            {errorMessage(create.error, 'The invitation could not be created')}
          </p>
        ) : null}
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
          {invitation || !user ? null : (
            <Button
              onClick={() => create.mutate({ userId: user.id, replaceIdentity: linked })}
              disabled={create.isPending}
            >
              {create.isPending
                ? 'Creating...'
                : linked
                  ? 'Create a link that replaces it'
                  : 'Create invitation link'}
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
