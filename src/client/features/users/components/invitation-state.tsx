import type { AccountInvitation } from '@shared/schemas/auth';
import { MailCheck } from 'lucide-react';
import { Button } from '@/components/ui/button';

const day = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { dateStyle: 'medium' });

/**
 * An account's way in, under its name in the users table: invited when (or expired), joined when,
 * or no password yet; with "Send again" (or "Invite") where an invitation is what it needs.
 */
export function InvitationState({
  state,
  now,
  onSend,
}: {
  state: AccountInvitation | undefined;
  now: Date;
  onSend: () => void;
}) {
  if (!state) return null;
  let words: string | null = null;
  let action: string | null = null;
  if (state.joinedAt) words = `Joined ${day(state.joinedAt)}`;
  else if (state.invitedAt && state.expiresAt && new Date(state.expiresAt) > now && !state.hasPassword) {
    words = `Invited ${day(state.invitedAt)}`;
    action = 'Send again';
  } else if (state.invitedAt && !state.hasPassword) {
    words = 'Invitation expired';
    action = 'Send again';
  } else if (!state.hasPassword) {
    words = 'No password yet';
    action = 'Invite';
  }
  if (!words) return null;
  return (
    <span
      className="mt-1 flex flex-wrap items-center gap-2 font-normal text-xs"
      data-testid="user-invitation"
    >
      <span className="inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-muted-foreground">
        <MailCheck className="size-3" aria-hidden />
        {words}
      </span>
      {action ? (
        <Button type="button" variant="link" size="sm" className="h-auto p-0 text-xs" onClick={onSend}>
          {action}
        </Button>
      ) : null}
    </span>
  );
}
