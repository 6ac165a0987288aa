import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { DiscoveryCache } from '../modules/microsoft-sign-in/discovery';

declare module 'fastify' {
  interface FastifyInstance {
    /** Sign in with Microsoft: the identity provider's discovery, fetched once per app */
    signInDiscovery: DiscoveryCache;
  }
}

/** What Sign in with Microsoft keeps between requests; its settings live in the database. */
const microsoftSignInPlugin: FastifyPluginAsync = async (app) => {
  app.decorate('signInDiscovery', new DiscoveryCache());
};

export default fp(microsoftSignInPlugin, { name: 'microsoft-sign-in' });
