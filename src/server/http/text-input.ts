import type { FastifyRequest } from 'fastify';
import { badRequest } from '../errors';
import { isUnstorableText } from '../storable-text';

/**
 * Requests carrying text PostgreSQL cannot store (NUL, lone surrogates: see storable-text.ts) are
 * refused for every route before validation (found by the fuzz suite: they ended as 500s from the
 * database, on /api/login and /api/register too). A 400 names the field, and nothing is written.
 */
export const UNSTORABLE_TEXT_MESSAGE = 'Text must not contain NUL characters or invalid Unicode';

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
