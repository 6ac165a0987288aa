import type { PublicUser } from '@shared/schemas/users';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { userName } from '../lib/users';

interface DeleteUserDialogProps {
  user: PublicUser | null;
  pending: boolean;
  onCancel: () => void;
  onConfirm: (user: PublicUser) => void;
}

export function DeleteUserDialog({ user, pending, onCancel, onConfirm }: DeleteUserDialogProps) {
  return (
    <ConfirmDialog
      open={user !== null}
      title="Delete Facilitator"
      description={
        user ? `Are you sure you want to delete ${userName(user)}? This action cannot be undone.` : null
      }
      cancelLabel="Cancel"
      confirmLabel="Delete"
      pendingLabel="Deleting..."
      pending={pending}
      destructive
      onCancel={onCancel}
      onConfirm={() => user && onConfirm(user)}
    />
  );
}
