import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_HINT_COOKIE } from '../../shared/schemas/auth';
import type { Config } from '../config';
import { MICROSOFT_SIGN_IN_COOKIE, SESSION_COOKIE } from './sessions';

/**
 * The cookies of a signed-in browser, set and cleared in one place for every way of signing in:
 * the session itself (HttpOnly) and a hint that scripts may read, carrying no secret, so the client
 * asks who it is only when it may be someone (an anonymous visit then sends nothing that answers 401).
 */
export function sessionCookies(config: Pick<Config, 'COOKIE_SECURE' | 'PUBLIC_URL'>) {
  const always = alwaysSecure(config);
  const secureCookie = (request: FastifyRequest) =>
    always || (config.COOKIE_SECURE === 'auto' && request.protocol === 'https');
  const { session } = cookieNames(config);

  return {
    secureCookie,
    set(request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date) {
      const secure = secureCookie(request);
      return reply
        .setCookie(session, token, {
          path: '/',
          httpOnly: true,
          sameSite: 'lax',
          secure,
          expires: expiresAt,
        })
        .setCookie(SESSION_HINT_COOKIE, '1', {
          path: '/',
          httpOnly: false,
          sameSite: 'lax',
          secure,
          expires: expiresAt,
        });
    },
    clear(request: FastifyRequest, reply: FastifyReply) {
      const secure = secureCookie(request);
      return reply
        .clearCookie(session, { path: '/', httpOnly: true, sameSite: 'lax', secure })
        .clearCookie(SESSION_HINT_COOKIE, { path: '/', sameSite: 'lax', secure });
    },
  };
}

/**
 * Whether the portal is only ever reached over TLS: COOKIE_SECURE=true, or (auto) a PUBLIC_URL on
 * https, where people open it, whatever scheme the proxy in front uses to reach the portal.
 */
export function alwaysSecure(config: Pick<Config, 'COOKIE_SECURE' | 'PUBLIC_URL'>): boolean {
  if (config.COOKIE_SECURE === 'false') return false;
  return config.COOKIE_SECURE === 'true' || Boolean(config.PUBLIC_URL?.startsWith('https://'));
}

/**
 * The names of the cookies that carry a credential. Where the portal is always reached over TLS they
 * carry the browser's prefixes: `__Host-` (Secure, the whole site, never a Domain) for the session,
 * so no subdomain or plain-http page can set or overwrite it; `__Secure-` for the Microsoft sign-in
 * cookie, whose path is the sign-in's own. Elsewhere (plain http, tests) the plain names.
 */
export function cookieNames(config: Pick<Config, 'COOKIE_SECURE' | 'PUBLIC_URL'>) {
  const prefixed = alwaysSecure(config);
  return {
    session: prefixed ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE,
    microsoftSignIn: prefixed ? `__Secure-${MICROSOFT_SIGN_IN_COOKIE}` : MICROSOFT_SIGN_IN_COOKIE,
  };
}
