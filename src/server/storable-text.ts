/**
 * Text PostgreSQL cannot store as sent:
 * - NUL (U+0000): a `text` column refuses it, and the statement fails;
 * - a lone UTF-16 surrogate (`\ud800` in JSON): not Unicode text; the drivers silently store U+FFFD
 *   instead, so what was saved would not be what was sent.
 * Requests with such text are refused (http/text-input.ts); text from SharePoint is cleaned instead.
 */

// a high surrogate not followed by a low one, or a low one not preceded by a high one
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isUnstorableText(text: string): boolean {
  return text.includes('\u0000') || LONE_SURROGATE.test(text);
}

/**
 * Text from elsewhere (SharePoint) made storable: NUL removed, lone surrogates replaced by U+FFFD. One
 * such character in one SharePoint item used to fail the whole bookings refresh or facilitator import
 * with a 500, every time, until someone found and fixed the item.
 */
export function storableText(text: string): string {
  if (!isUnstorableText(text)) return text;
  return text.replaceAll('\u0000', '').replace(new RegExp(LONE_SURROGATE.source, 'g'), '\ufffd');
}
