import { errorResponse } from '@shared/schemas/error-response';
import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { noteReadAnswer } from './offline-state';

/**
 * The one way the client talks to the server. Every request goes through `apiJson`: cookies always,
 * a JSON body and its content type only when there is a body, the answer's JSON back (undefined for
 * an empty answer such as 204). A non-OK answer becomes an `ApiError`, its body read once with the
 * server's error schema. A file to save goes through `downloadFile`.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A refused request. Its `message` is `${status}: ${body text || status text}`, as the product
 * promises for every non-success answer; components read the status, the server's message and its
 * messages by field instead of that text.
 */
export class ApiError extends Error {
  readonly status: number;
  /** The server's message for people; null when the answer was not the server's error shape. */
  readonly serverMessage: string | null;
  /** Every field the server refused, by path, with its messages (empty when none). */
  readonly fields: Readonly<Record<string, readonly string[]>>;

  constructor(
    status: number,
    text: string,
    body: { message: string; fieldErrors?: Record<string, string[]> } | null,
  ) {
    super(`${status}: ${text}`);
    this.name = 'ApiError';
    this.status = status;
    this.serverMessage = body?.message.trim() ? body.message : null;
    this.fields = body?.fieldErrors ?? {};
  }

  /** The first message of each refused top-level field (`a.b` counts for `a`). */
  fieldMessages(): Record<string, string> {
    const found: Record<string, string> = {};
    for (const [path, messages] of Object.entries(this.fields)) {
      const field = path.split('.')[0] ?? path;
      if (messages[0]) found[field] ??= messages[0];
    }
    return found;
  }
}

async function errorFrom(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => '');
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // not the server's JSON (a proxy's page): the status is all there is
  }
  const parsed = errorResponse.safeParse(json);
  return new ApiError(res.status, text || res.statusText, parsed.success ? parsed.data : null);
}

async function send(method: HttpMethod, url: string, data: unknown, signal?: AbortSignal): Promise<Response> {
  const hasBody = data !== undefined;
  // a GET carries no header of its own, so it matches the read its page's HTML preloaded
  const res = await fetch(url, {
    method,
    headers: hasBody ? { 'Content-Type': 'application/json' } : {},
    body: hasBody ? JSON.stringify(data) : undefined,
    credentials: 'include',
    signal,
  });
  if (!res.ok) throw await errorFrom(res);
  // a read the service worker answered from its kept copy says so (the offline banner)
  if (method === 'GET') noteReadAnswer(res.headers);
  return res;
}

/** Sends a request and returns its JSON answer; throws `ApiError` for a non-OK status. */
export async function apiJson<T>(
  method: HttpMethod,
  url: string,
  data?: unknown,
  options: { signal?: AbortSignal } = {},
): Promise<T> {
  const res = await send(method, url, data, options.signal);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The filename the server gave in Content-Disposition, or the fallback. */
export function filenameFrom(disposition: string | null, fallback: string): string {
  const match = /filename="([^"]+)"/.exec(disposition ?? '');
  return match?.[1] ?? fallback;
}

/**
 * Fetches a file with the session cookie and hands it to the browser as a download; returns its
 * name. Fetching first (rather than following a link) lets a refusal show as a message instead of a
 * downloaded error page.
 */
export async function downloadFile(url: string, fallbackName: string): Promise<string> {
  const res = await send('GET', url, undefined);
  const blob = await res.blob();
  const name = filenameFrom(res.headers.get('content-disposition'), fallbackName);
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // give the browser a moment to start the download before the object URL goes
  window.setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return name;
}

/** True when fetch itself failed (offline, DNS, connection refused), not an HTTP error. */
export function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError;
}

/** The server's message for people (a toast, an alert), or `fallback` when it gave none. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;
}

/**
 * A refused form's messages by field (the first per top-level field); when no field was named, one
 * message for the whole form under "_".
 */
export function errorFields(error: unknown, fallback: string): Record<string, string> {
  const fields = error instanceof ApiError ? error.fieldMessages() : {};
  return Object.keys(fields).length > 0 ? fields : { _: errorMessage(error, fallback) };
}

/**
 * A refused form's messages onto the form (react-hook-form's `setError`): each under the field the
 * server named, a message for no field under `root`.
 */
export function showRefusal<T extends FieldValues>(
  setError: UseFormSetError<T>,
  error: unknown,
  fallback: string,
): void {
  for (const [field, message] of Object.entries(errorFields(error, fallback)))
    setError(field === '_' ? 'root' : (field as FieldPath<T>), { type: 'server', message });
}
