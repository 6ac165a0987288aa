import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { AppContext } from '../context';

declare module 'fastify' {
  interface FastifyInstance {
    /** the decorators above, gathered once for services and jobs, which take no Fastify types */
    ctx: AppContext;
  }
}

const contextPlugin: FastifyPluginAsync = async (app) => {
  const ctx: AppContext = {
    config: app.config,
    database: app.database,
    db: app.database.db,
    appSecret: app.appSecret,
    sessions: app.sessions,
    loginThrottle: app.loginThrottle,
    limits: app.limits,
    log: app.log,
    lists: app.lists,
    now: app.now,
    bookingsRefresh: app.bookingsRefresh,
    sharePoint: app.sharePoint,
    mailer: app.mailer,
    push: app.push,
    signInDiscovery: app.signInDiscovery,
  };
  app.decorate('ctx', ctx);
};

export default fp(contextPlugin, {
  name: 'context',
  dependencies: [
    'database',
    'sessions-and-access',
    'list-answers',
    'mailer',
    'push',
    'sharepoint',
    'microsoft-sign-in',
    'jobs',
  ],
});
