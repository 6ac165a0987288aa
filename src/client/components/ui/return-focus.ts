import { useRef } from 'react';

/**
 * The focus handlers of a modal dialog's content: as it closes, focus goes back to what had it when
 * the dialog opened (a row's action, a grid's cell, the button that asked for a confirmation). Radix
 * gives focus back only to the dialog's own trigger, and most dialogs here are opened by a control of
 * their caller's. A caller's onCloseAutoFocus that prevents the default decides instead.
 */
export function useReturnFocus(
  onOpenAutoFocus: ((event: Event) => void) | undefined,
  onCloseAutoFocus: ((event: Event) => void) | undefined,
) {
  const openedFrom = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus(event: Event) {
      // runs before focus moves in: the element that has it is the one that opened the dialog
      openedFrom.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      onOpenAutoFocus?.(event);
    },
    onCloseAutoFocus(event: Event) {
      onCloseAutoFocus?.(event);
      const opener = openedFrom.current;
      openedFrom.current = null;
      // Nothing to give focus to (the opener left the page, or a click did not focus it, as in
      // Safari): Radix's own handling stands, which focuses the dialog's trigger if it has one.
      if (event.defaultPrevented || !opener?.isConnected || opener === opener.ownerDocument.body) return;
      event.preventDefault();
      opener.focus();
    },
  };
}
