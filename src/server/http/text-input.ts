import type { FastifyRequest } from 'fastify';
import { badRequest } from '../errors';

/**
 * Text PostgreSQL cannot store, refused for every route before validation (found by the fuzz suite):
 * - NUL (U+0000): a `text` column refuses it, so a name, note or setting containing `\u0000` made the
 *   database throw and the request end as a 500 (on /api/login and /api/register too, anonymously);
 * - a lone UTF-16 surrogate (`\ud800` in JSON): not Unicode text; the drivers silently stored U+FFFD
 *   instead, so what was saved was not what was sent.
 * Either is a 400 naming the field, and nothing is written.
 */
export const UNSTORABLE_TEXT_MESSAGE = 'Text must not contain NUL characters or invalid Unicode';

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

interface Visit {
  value: unknown;
  key: string;
  parent: Visit | undefined;
}

/** The path of the first unstorable string in a parsed body, query or params, or undefined. */
export function findUnstorableText(root: unknown): string | undefined {
  // Iterative: a body may nest ten thousand levels deep.
  const stack: Visit[] = [{ value: root, key: '', parent: undefined }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const { value } = visit;
    if (typeof value === 'string') {
      if (isUnstorableText(value)) return pathOf(visit);
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i], key: String(i), parent: visit });
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) stack.push({ value: child, key, parent: visit });
    }
  }
  return undefined;
}

function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | undefined = visit; at?.parent; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.') || '_';
}

/** preValidation hook. */
export async function refuseUnstorableText(request: FastifyRequest): Promise<void> {
  for (const part of [request.params, request.query, request.body]) {
    const path = findUnstorableText(part);
    if (path !== undefined) throw badRequest(UNSTORABLE_TEXT_MESSAGE, { [path]: [UNSTORABLE_TEXT_MESSAGE] });
  }
}
