import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { SharePointConnector, type SharePointRuntimeOptions } from '../sharepoint/connector';

declare module 'fastify' {
  interface FastifyInstance {
    /** the SharePoint adapter: availability outbox, bookings pull, facilitators import, connection test */
    sharePoint: SharePointConnector;
  }
}

const sharePointPlugin: FastifyPluginAsync<SharePointRuntimeOptions> = async (app, options) => {
  const { db } = app.database;
  app.decorate(
    'sharePoint',
    new SharePointConnector({ db, appSecret: app.appSecret, config: app.config, now: app.now }, options),
  );
};

export default fp(sharePointPlugin, { name: 'sharepoint', dependencies: ['database'] });
