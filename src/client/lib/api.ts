/**
 * The one way the client talks to the server: cookies always, a JSON body and
 * content type only when there is a body, and any non-OK response becomes an error whose message is
 * `${status}: ${bodyText || statusText}`.
 */

export class ApiError extends Error {
  readonly status: number;
  readonly body: string;

  constructor(status: number, statusText: string, body: string) {
    super(`${status}: ${body || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

export async function throwIfResNotOk(res: Response): Promise<void> {
  if (!res.ok) {
    const text = await res.text().catch(() => '');
    throw new ApiError(res.status, res.statusText, text);
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Sends a request and returns the response; throws `ApiError` for non-OK statuses. */
export async function apiRequest(method: HttpMethod, url: string, data?: unknown): Promise<Response> {
  const hasBody = data !== undefined;
  const res = await fetch(url, {
    method,
    headers: hasBody ? { 'Content-Type': 'application/json' } : {},
    body: hasBody ? JSON.stringify(data) : undefined,
    credentials: 'include',
  });
  await throwIfResNotOk(res);
  return res;
}

/** Like `apiRequest` but parses the JSON response (undefined for an empty body such as 204). */
export async function apiJson<T>(method: HttpMethod, url: string, data?: unknown): Promise<T> {
  const res = await apiRequest(method, url, data);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** True when fetch itself failed (offline, DNS, connection refused), not an HTTP error. */
export function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError;
}

/**
 * The human message inside an API error for a toast: the server's JSON `message` when there is one,
 * else a short plain-text body, else `fallback`.
 */
export function getErrorMessage(error: unknown, fallback: string): string {
  if (!(error instanceof Error)) return fallback;
  const match = /^\d{3}: ([\s\S]*)$/.exec(error.message);
  if (!match) return fallback;
  const body = (match[1] ?? '').trim();
  if (!body) return fallback;
  if (body.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(body);
      if (parsed && typeof parsed === 'object' && 'message' in parsed) {
        const message = (parsed as { message: unknown }).message;
        if (typeof message === 'string' && message.trim()) return message;
      }
    } catch {
      // not JSON after all; fall through to the plain-text rules
    }
    return fallback;
  }
  // an HTML error page or a long dump is no use in a toast
  if (body.startsWith('<') || body.length > 200) return fallback;
  return body;
}

/**
 * A refused form's messages by field, from the server's `{ message, fieldErrors }` answer (first
 * message per top-level field); anything else becomes one message for the whole form under "_".
 */
export function serverFieldErrors(error: unknown, fallback: string): Record<string, string> {
  if (error instanceof ApiError && error.body.trimStart().startsWith('{')) {
    try {
      const body = JSON.parse(error.body) as { fieldErrors?: Record<string, string[]> };
      const fields: Record<string, string> = {};
      for (const [key, messages] of Object.entries(body.fieldErrors ?? {})) {
        const field = key.split('.')[0]!;
        if (messages[0]) fields[field] ??= messages[0];
      }
      if (Object.keys(fields).length > 0) return fields;
    } catch {
      // not our JSON: one message for the form
    }
  }
  return { _: serverMessage(error, fallback) };
}

/** The server's message for a toast, or `fallback` when the answer had no body to read. */
export function serverMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && !error.body.trim()) return fallback;
  return getErrorMessage(error, fallback);
}
