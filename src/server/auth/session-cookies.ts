import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_HINT_COOKIE } from '../../shared/schemas/auth';
import type { Config } from '../config';
import { SESSION_COOKIE } from './sessions';

/**
 * The cookies of a signed-in browser, set and cleared in one place for every way of signing in:
 * the session itself (HttpOnly) and a hint that scripts may read, carrying no secret, so the client
 * asks who it is only when it may be someone (an anonymous visit then sends nothing that answers 401).
 */
export function sessionCookies(config: Pick<Config, 'COOKIE_SECURE'>) {
  const secureCookie = (request: FastifyRequest) =>
    config.COOKIE_SECURE === 'auto' ? request.protocol === 'https' : config.COOKIE_SECURE === 'true';

  return {
    secureCookie,
    set(request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: Date) {
      const secure = secureCookie(request);
      return reply
        .setCookie(SESSION_COOKIE, token, {
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
        .clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure })
        .clearCookie(SESSION_HINT_COOKIE, { path: '/', sameSite: 'lax', secure });
    },
  };
}
