/**
 * Escape while a dialog and a toast are both open. Radix gives Escape to the layer opened last, and a
 * toast that appears over a dialog (a save error, say) is such a layer, so the first Escape used to
 * close the toast and leave the dialog. The person is working in the dialog: Escape closes it first,
 * and the toast stays until it times out or is dismissed itself.
 */

/** Marks the control that closes a dialog, sheet or alert dialog the way its own Escape would. */
export const ESCAPE_CLOSE_ATTRIBUTE = 'data-escape-close';

/** A toast's `onEscapeKeyDown`: with focus in a dialog, close the dialog and keep the toast. */
export function passEscapeToDialog(event: KeyboardEvent) {
  const target = event.target instanceof Element ? event.target : null;
  const dialog = target?.closest('[role="dialog"], [role="alertdialog"]');
  const close = dialog?.querySelector<HTMLElement>(`[${ESCAPE_CLOSE_ATTRIBUTE}]`);
  if (!close) return;
  event.preventDefault();
  close.click();
}
