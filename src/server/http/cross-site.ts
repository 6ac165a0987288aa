import type { FastifyReply, FastifyRequest } from 'fastify';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuse state-changing requests sent by another site. Browsers tell us with Sec-Fetch-Site; older
 * ones only with Origin, which must then name this host. Requests with neither header come from
 * non-browser clients, which cannot carry a victim's cookies.
 */
export async function refuseCrossSite(request: FastifyRequest, reply: FastifyReply): Promise<void> {
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
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    originHost = '';
  }
  // request.host honours X-Forwarded-Host only when TRUST_PROXY is set
  if (originHost && originHost === request.host) return;
  await reply.code(403).send({ message: 'Cross-site requests are not allowed' });
}
