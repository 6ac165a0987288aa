import type { FastifyReply, FastifyRequest } from 'fastify';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/**
 * Refuse state-changing requests sent by another site. Browsers tell us with Sec-Fetch-Site; older
 * ones only with Origin, which must then be this portal's origin exactly: scheme, host and port
 * (http://portal and https://portal:8443 are other sites to a browser). That is PUBLIC_URL's origin
 * when it is set, else the request's own (request.protocol and request.host follow X-Forwarded-*
 * only with TRUST_PROXY). Requests with neither header come from non-browser clients, which cannot
 * carry a victim's cookies.
 */
export function crossSiteGuard(publicUrl: string | undefined) {
  const publicOrigin = publicUrl ? originOf(publicUrl) : null;
  return async function refuseCrossSite(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const changesState =
      !SAFE_METHODS.has(request.method) || request.routeOptions.config?.changesState === true;
    if (!changesState) return;
    const fetchSite = request.headers['sec-fetch-site'];
    if (typeof fetchSite === 'string') {
      if (fetchSite === 'same-origin' || fetchSite === 'none') return;
      await reply.code(403).send({ message: 'Cross-site requests are not allowed' });
      return;
    }
    const origin = request.headers.origin;
    if (typeof origin !== 'string') return;
    const expected = publicOrigin ?? originOf(`${request.protocol}://${request.host}`);
    const actual = originOf(origin);
    if (actual && expected && actual === expected) return;
    await reply.code(403).send({ message: 'Cross-site requests are not allowed' });
  };
}
