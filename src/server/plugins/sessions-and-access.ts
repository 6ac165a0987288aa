import fastifyCookie from '@fastify/cookie';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { cookieNames } from '../auth/session-cookies';
import { createSessionStore, type SessionStore } from '../auth/sessions';
import { createLoginThrottle, DEFAULT_THROTTLE, type LoginThrottle } from '../auth/throttle';
import { type Access, enforceAccess, requireDeclaredAccess } from '../http/access';
import { crossSiteGuard } from '../http/cross-site';
import { createRequestLimits, type RequestLimits, registerRequestLimits } from '../http/request-limits';

/** One registered /api route, as the access and fuzz suites enumerate them. */
export interface ApiRoute {
  method: string;
  url: string;
  access: Access;
  /** The zod schemas the route declared (body, querystring, params). */
  schema: { body?: unknown; querystring?: unknown; params?: unknown };
  changesState: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionStore;
    loginThrottle: LoginThrottle;
    /** request budgets shared by every instance; routes name theirs in `config.rateLimit` */
    limits: RequestLimits;
    /** every /api route with the access it declared, in registration order (HEAD twins left out) */
    apiRoutes: ApiRoute[];
  }
}

/**
 * Who is asking, and whether they may: the session cookie, the cross-site refusal, each route's
 * declared access (`config.access`, the only access table) and the request budgets.
 */
const sessionsAndAccessPlugin: FastifyPluginAsync = async (app) => {
  const { db } = app.database;
  // Sessions and the login throttle keep time by the app's clock, so expiry and pauses follow `now`.
  app.decorate('sessions', createSessionStore(db, app.appSecret, app.now));
  app.decorate(
    'loginThrottle',
    createLoginThrottle(db, { ...DEFAULT_THROTTLE, ...app.config.LOGIN_THROTTLE }, app.now),
  );
  const limits = createRequestLimits(db, app.config.REQUEST_BUDGETS, app.now);
  app.decorate('limits', limits);

  app.addHook('onRoute', requireDeclaredAccess);
  const routes: ApiRoute[] = [];
  app.decorate('apiRoutes', routes);
  app.addHook('onRoute', (route) => {
    // /metrics is the one route outside /api (where Prometheus looks); it declares its access too
    if ((!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) && route.url !== '/metrics')
      return;
    const access = route.config?.access;
    if (!access) return;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      routes.push({
        method,
        url: route.url,
        access,
        schema: {
          body: route.schema?.body,
          querystring: route.schema?.querystring,
          params: route.schema?.params,
        },
        changesState: method !== 'GET' || route.config?.changesState === true,
      });
    }
  });

  await app.register(fastifyCookie);
  app.decorateRequest('user', null);
  app.decorateRequest('sessionToken', null);
  app.addHook('onRequest', crossSiteGuard(app.config.PUBLIC_URL));
  const sessionCookie = cookieNames(app.config).session;
  app.addHook('onRequest', async (request) => {
    const token = request.cookies[sessionCookie];
    if (!token || request.routeOptions.config.sessionless) return;
    const session = await app.sessions.resolve(token);
    if (session) {
      request.user = session.user;
      request.sessionToken = token;
    }
  });
  // Access is decided as soon as the session is known, before the body is read or validated: a caller
  // who may not use a route learns nothing about its input rules (400s) and cannot make us parse a body.
  app.addHook('onRequest', enforceAccess);
  // before any route: it gives state-changing routes without a budget of their own the write budget
  await registerRequestLimits(app, limits);
};

export default fp(sessionsAndAccessPlugin, {
  name: 'sessions-and-access',
  dependencies: ['database', 'http'],
});
