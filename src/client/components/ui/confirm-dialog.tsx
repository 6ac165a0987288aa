import type * as React from 'react';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from './alert-dialog';
import { Button } from './button';

/**
 * A question before a change that cannot be taken back: its title, what it does, anything more to
 * read (`children`), and two choices. It opens on the harmless one and stays open while `pending`
 * (the confirmed change on its way), its choices disabled.
 */
export function ConfirmDialog({
  open,
  title,
  description,
  children,
  cancelLabel,
  confirmLabel,
  pendingLabel,
  pending = false,
  destructive = false,
  className,
  descriptionClassName,
  onCancel,
  onConfirm,
}: {
  open: boolean;
  title: React.ReactNode;
  description: React.ReactNode;
  children?: React.ReactNode;
  cancelLabel: string;
  confirmLabel: string;
  pendingLabel?: string;
  pending?: boolean;
  destructive?: boolean;
  className?: string;
  descriptionClassName?: string;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <AlertDialog open={open} onOpenChange={(next) => !next && !pending && onCancel()}>
      <AlertDialogContent className={className}>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription className={descriptionClassName}>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        {children}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>{cancelLabel}</AlertDialogCancel>
          {/* a plain button: the dialog stays open until the confirmed change has gone through */}
          <Button
            type="button"
            variant={destructive ? 'destructive' : 'default'}
            disabled={pending}
            onClick={onConfirm}
          >
            {pending && pendingLabel ? pendingLabel : confirmLabel}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
