import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { createListCache, type ListCache } from '../http/list-cache';

declare module 'fastify' {
  interface FastifyInstance {
    /** range lists answered from memory while their version is unchanged (ADR 0008) */
    lists: ListCache;
  }
}

export interface ListCachePluginOptions {
  /** memory for cached range lists (default 64 MiB) */
  maxBytes?: number | undefined;
}

const listCachePlugin: FastifyPluginAsync<ListCachePluginOptions> = async (app, options) => {
  app.decorate('lists', createListCache(app.database.db, options.maxBytes));
};

export default fp(listCachePlugin, { name: 'list-cache', dependencies: ['database'] });
