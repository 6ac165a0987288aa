import type { PublicUser } from '@shared/schemas/users';
import { Copy, KeyRound } from 'lucide-react';
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
import { getErrorMessage } from '@/lib/api';
import {
  useCreateMicrosoftInvitation,
  useFacilitatorMicrosoftSignIn,
  useMicrosoftSignInEnabled,
} from '../api/microsoft-invitation-api';
import { userName } from '../lib/users';

const formatExpiry = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * "Invite to sign in with Microsoft" for one account: a single-use link that links whoever signs in
 * with Microsoft through it to this account. Hidden while Microsoft sign-in is not configured, and
 * for facilitators until staff let facilitators sign in with Microsoft. For an account already linked
 * the dialog says so, and the link it makes replaces that Microsoft account (whose owner is emailed).
 */
export function MicrosoftInviteButton({ user, linked }: { user: PublicUser; linked: boolean }) {
  const enabled = useMicrosoftSignInEnabled();
  const facilitatorsAllowed = useFacilitatorMicrosoftSignIn();
  const create = useCreateMicrosoftInvitation();
  const [open, setOpen] = useState(false);
  const linkId = useId();
  const name = userName(user);
  const isStaff = user.role === 'staff';
  if (!enabled || (!isStaff && !facilitatorsAllowed)) return null;

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
    <>
      <Button
        variant="ghost"
        size="icon-sm"
        aria-label={`Invite ${name} to sign in with Microsoft`}
        title="Invite to sign in with Microsoft"
        onClick={() => {
          create.reset();
          setOpen(true);
        }}
      >
        <KeyRound aria-hidden />
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
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
                Valid until {formatExpiry(invitation.expiresAt)}. A new link replaces this one.
              </p>
            </div>
          ) : create.isError ? (
            <p role="alert" className="text-destructive text-sm">
              {getErrorMessage(create.error, 'The invitation could not be created')}
            </p>
          ) : null}
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)}>
              Close
            </Button>
            {invitation ? null : (
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
    </>
  );
}
