import type { PublicUser } from '@shared/schemas/users';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api';
import { usePasswordInvitation, useSendPasswordInvitation } from '../api/password-invitation-api';
import { userName } from '../lib/users';

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * "Invite to set a password" for one account: emails its owner a single-use link where they choose
 * their own password, and shows whether they were invited, when and by whom, and whether they joined.
 */
export function PasswordInviteDialog({ user, onClose }: { user: PublicUser | null; onClose: () => void }) {
  const status = usePasswordInvitation(user?.id ?? null);
  const send = useSendPasswordInvitation(user?.id ?? null);
  const name = user ? userName(user) : '';
  const state = status.data;

  let summary = 'Loading…';
  if (status.error) summary = errorMessage(status.error, 'The invitation could not be read');
  else if (state?.joinedAt) summary = `Joined on ${when(state.joinedAt)}.`;
  else if (state?.invitedAt)
    summary = `Invited on ${when(state.invitedAt)}${state.invitedBy ? ` by ${state.invitedBy}` : ''}; not joined yet. The link works until ${when(state.expiresAt ?? state.invitedAt)}.`;
  else if (state)
    summary = state.hasPassword ? 'Not invited: the account has a password.' : 'Not invited yet.';

  return (
    <Dialog open={user !== null} onOpenChange={(open) => (open ? null : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Invite to set a password</DialogTitle>
          <DialogDescription>
            Emails {name} a link, to {state?.email ?? 'the address on the account'}, where they choose their
            own password. It works once, for 7 days; sending again replaces the earlier link.
          </DialogDescription>
        </DialogHeader>
        <p role="status" className="text-sm">
          {summary}
        </p>
        {send.data?.emailError ? (
          <p role="alert" className="text-destructive text-sm">
            The email was not sent: {send.data.emailError}
          </p>
        ) : send.isError ? (
          <p role="alert" className="text-destructive text-sm">
            {errorMessage(send.error, 'The invitation could not be sent')}
          </p>
        ) : null}
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
          <Button onClick={() => send.mutate()} disabled={!state || send.isPending}>
            {send.isPending ? 'Sending...' : state?.invitedAt ? 'Send again' : 'Send invitation'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
