import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { createListAnswers, type ListAnswers, requireListDecision } from '../http/list-answers';

declare module 'fastify' {
  interface FastifyInstance {
    /** big lists: answered with 304, or from memory, while their version is unchanged (ADR 0026) */
    lists: ListAnswers;
  }
}

export interface ListCachePluginOptions {
  /** memory for built list answers (default 64 MiB) */
  maxBytes?: number | undefined;
}

const listCachePlugin: FastifyPluginAsync<ListCachePluginOptions> = async (app, options) => {
  app.decorate('lists', createListAnswers(app.database.db, options.maxBytes));
  // every GET answering a list says how it sends it, or the app does not start
  app.addHook('onRoute', requireListDecision);
};

export default fp(listCachePlugin, { name: 'list-cache', dependencies: ['database'] });
