import type { PublicUser } from '@shared/schemas/users';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { userName } from '../lib/users';

interface DeleteUserDialogProps {
  user: PublicUser | null;
  pending: boolean;
  onCancel: () => void;
  onConfirm: (user: PublicUser) => void;
}

export function DeleteUserDialog({ user, pending, onCancel, onConfirm }: DeleteUserDialogProps) {
  return (
    <AlertDialog open={user !== null} onOpenChange={(open) => !open && !pending && onCancel()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete Facilitator</AlertDialogTitle>
          <AlertDialogDescription>
            {user ? `Are you sure you want to delete ${userName(user)}? This action cannot be undone.` : null}
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>Cancel</AlertDialogCancel>
          {/* a plain button: the dialog stays open until the delete has finished */}
          <Button variant="destructive" disabled={pending} onClick={() => user && onConfirm(user)}>
            {pending ? 'Deleting...' : 'Delete'}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
