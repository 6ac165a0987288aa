import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { createListAnswers, type ListAnswers, requireListDecision } from '../http/list-answers';

declare module 'fastify' {
  interface FastifyInstance {
    /** big lists: answered with 304, or from memory, while their version is unchanged (ADR 0026) */
    lists: ListAnswers;
  }
}

const listCachePlugin: FastifyPluginAsync = async (app) => {
  app.decorate('lists', createListAnswers(app.database.db, app.config.LIST_CACHE_BYTES, app.log));
  // every GET answering a list says how it sends it, or the app does not start
  app.addHook('onRoute', requireListDecision);
};

export default fp(listCachePlugin, { name: 'list-cache', dependencies: ['database'] });
