/**
 * Where to go back to after signing in. Only a path on this site is accepted: an absolute URL,
 * a protocol-relative `//host` or a `/\host` (which browsers read as `//host`) would let a link to
 * the login page send someone to another site once they have signed in. The path is judged as the
 * browser will read it, after dot segments are resolved: `/.//evil.example` becomes `//evil.example`.
 */
export function safeReturnPath(
  value: string | null | undefined,
  origin: string = window.location.origin,
): string | null {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  // control characters and backslashes have no place in the portal's own paths
  // biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point of the check
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return null;
  try {
    const url = new URL(value, origin);
    if (url.origin !== origin) return null;
    // resolved, the path must still be one path on this site, never `//host`
    if (url.pathname.startsWith('//')) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

/**
 * The staff login address that brings the person back to `path` afterwards. The dashboard is where
 * a login goes anyway, and the login page is never a place to come back to (a signed-out page can
 * notice twice, the second time with the login already in the address bar).
 */
export function staffLoginHref(path: string): string {
  const back = safeReturnPath(path);
  const noWayBack = !back || back === '/staff' || back.split(/[?#]/)[0] === '/staff-login';
  return noWayBack ? '/staff-login' : `/staff-login?next=${encodeURIComponent(back)}`;
}
