import { XIcon } from 'lucide-react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import type * as React from 'react';
import { cn } from '@/lib/utils';
import { ESCAPE_CLOSE_ATTRIBUTE } from './escape-close';
import { useReturnFocus } from './return-focus';

const Dialog = DialogPrimitive.Root;
const DialogTrigger = DialogPrimitive.Trigger;
const DialogClose = DialogPrimitive.Close;
const DialogPortal = DialogPrimitive.Portal;

function DialogOverlay({ className, ...props }: React.ComponentProps<typeof DialogPrimitive.Overlay>) {
  return (
    <DialogPrimitive.Overlay
      data-slot="dialog-overlay"
      className={cn('fixed inset-0 z-50 bg-black/50', className)}
      {...props}
    />
  );
}

/** How wide a dialog may grow from the small breakpoint up; a phone always gets the screen's width. */
const DIALOG_WIDTH = {
  sm: 'sm:max-w-sm',
  md: 'sm:max-w-md',
  lg: 'sm:max-w-lg',
  xl: 'sm:max-w-xl',
  '2xl': 'sm:max-w-2xl',
  wide: 'sm:max-w-2xl lg:max-w-5xl',
} as const;

/**
 * A modal dialog; focus goes back to what opened it as it closes (useReturnFocus). It opens with focus
 * on its first control, or with `focusDialog` on the dialog itself: a form whose first control is a
 * text or date field would otherwise open a phone's keyboard or picker over the form before it is read.
 */
function DialogContent({
  className,
  children,
  showCloseButton = true,
  width = 'lg',
  focusDialog = false,
  onOpenAutoFocus,
  onCloseAutoFocus,
  ...props
}: React.ComponentProps<typeof DialogPrimitive.Content> & {
  showCloseButton?: boolean;
  width?: keyof typeof DIALOG_WIDTH;
  focusDialog?: boolean;
}) {
  const focus = useReturnFocus((event) => {
    onOpenAutoFocus?.(event);
    if (!focusDialog || event.defaultPrevented) return;
    event.preventDefault();
    // the event is dispatched on the dialog's content element
    if (event.target instanceof HTMLElement) event.target.focus();
  }, onCloseAutoFocus);
  return (
    <DialogPortal>
      <DialogOverlay />
      <DialogPrimitive.Content
        data-slot="dialog-content"
        {...focus}
        className={cn(
          'fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-full max-w-[calc(100%-2rem)] -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto rounded-lg border bg-background p-6 shadow-lg outline-none',
          DIALOG_WIDTH[width],
          className,
        )}
        {...props}
      >
        {children}
        {showCloseButton ? (
          <DialogPrimitive.Close
            {...{ [ESCAPE_CLOSE_ATTRIBUTE]: '' }}
            className="absolute top-4 right-4 rounded-xs opacity-70 outline-none transition-opacity hover:opacity-100 focus-visible:ring-[3px] focus-visible:ring-ring/50 [&_svg]:size-4"
          >
            <XIcon aria-hidden />
            <span className="sr-only">Close</span>
          </DialogPrimitive.Close>
        ) : (
          <DialogPrimitive.Close hidden {...{ [ESCAPE_CLOSE_ATTRIBUTE]: '' }} />
        )}
      </DialogPrimitive.Content>
    </DialogPortal>
  );
}

function DialogHeader({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="dialog-header"
      className={cn('flex flex-col gap-2 text-center sm:text-left', className)}
      {...props}
    />
  );
}

function DialogFooter({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="dialog-footer"
      className={cn('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)}
      {...props}
    />
  );
}

function DialogTitle({ className, ...props }: React.ComponentProps<typeof DialogPrimitive.Title>) {
  return (
    <DialogPrimitive.Title
      data-slot="dialog-title"
      // a long name in the title wraps rather than widening the dialog past the screen
      className={cn('font-semibold text-lg leading-tight [overflow-wrap:anywhere]', className)}
      {...props}
    />
  );
}

function DialogDescription({
  className,
  ...props
}: React.ComponentProps<typeof DialogPrimitive.Description>) {
  return (
    <DialogPrimitive.Description
      data-slot="dialog-description"
      className={cn('text-muted-foreground text-sm [overflow-wrap:anywhere]', className)}
      {...props}
    />
  );
}

export {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogOverlay,
  DialogPortal,
  DialogTitle,
  DialogTrigger,
};
