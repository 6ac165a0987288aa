import { SESSION_HINT_COOKIE } from '@shared/sign-in';

/**
 * Whether this browser may be signed in: the server sets a script-readable hint beside its HttpOnly
 * session cookie. Without it the visitor is anonymous for certain, so the app neither asks for the
 * session nor prefetches a calendar (each would be a 401 that the browser logs as an error).
 */
export function maySignedIn(): boolean {
  return document.cookie.split(';').some((part) => part.trim().startsWith(`${SESSION_HINT_COOKIE}=1`));
}

/** The session turned out to be over (expired, or ended elsewhere): stop hinting at it. */
export function forgetSessionHint(): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the hint is a plain cookie the server set; expiring it is the one way to drop it
  document.cookie = `${SESSION_HINT_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
}
