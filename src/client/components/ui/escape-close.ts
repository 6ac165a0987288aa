/**
 * Escape while a dialog and a toast are both open. Radix gives Escape to the layer opened last, and a
 * toast that appears over a dialog (a save error, say) is such a layer, so the first Escape used to
 * close the toast and leave the dialog. The person is working in the dialog: Escape closes it first,
 * and the toast stays until it times out or is dismissed itself.
 */

/** Marks the control that closes a dialog, sheet or alert dialog the way its own Escape would. */
export const ESCAPE_CLOSE_ATTRIBUTE = 'data-escape-close';

const OPEN_DIALOG = '[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]';

/**
 * A toast's `onEscapeKeyDown`: while a dialog is open, close the dialog and keep the toast. Focus
 * may be on the page body rather than in the dialog (the pressed Save button was disabled while
 * saving), so the dialog is the one focus is in, else the last one opened; Escape pressed on a toast
 * itself still closes that toast.
 */
export function passEscapeToDialog(event: KeyboardEvent) {
  const target = event.target instanceof Element ? event.target : null;
  if (target?.closest('[data-slot="toast"]')) return;
  const dialog = target?.closest(OPEN_DIALOG) ?? [...document.querySelectorAll(OPEN_DIALOG)].at(-1);
  const close = dialog?.querySelector<HTMLElement>(`[${ESCAPE_CLOSE_ATTRIBUTE}]`);
  if (!close) return;
  event.preventDefault();
  close.click();
}
