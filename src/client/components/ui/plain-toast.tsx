import { XIcon } from 'lucide-react';
import { cn } from '@/lib/utils';
import type { ToastItem } from './use-toast';

/**
 * A toast drawn without the toast library, for when the library's own code could not be loaded
 * (the connection dropped, or a deploy removed the old files). It sits where toasts sit and is an
 * alert, so it is read out; it has no timer, as a message the page could not otherwise show should
 * not vanish unread. Its close button or the next toast takes it away.
 */
function PlainToast({ toast, onClose }: { toast: ToastItem; onClose: () => void }) {
  return (
    <div
      role="alert"
      data-slot="plain-toast"
      data-variant={toast.variant ?? 'default'}
      className={cn(
        'fixed inset-x-4 top-4 z-[100] grid gap-1 rounded-md border bg-background p-4 pr-10 text-foreground shadow-lg sm:top-auto sm:bottom-4 sm:left-auto sm:w-[388px]',
        toast.variant === 'destructive' && 'border-destructive border-l-4',
        toast.variant === 'success' && 'border-success border-l-4',
      )}
    >
      {toast.title ? <p className="font-semibold text-sm">{toast.title}</p> : null}
      {toast.description ? <p className="text-sm">{toast.description}</p> : null}
      <button
        type="button"
        aria-label="Close"
        onClick={onClose}
        className="absolute top-2 right-2 rounded-md p-1 opacity-80 outline-none hover:opacity-100 focus-visible:ring-[3px] focus-visible:ring-ring/60"
      >
        <XIcon className="size-4" aria-hidden />
      </button>
    </div>
  );
}

export { PlainToast };
