import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { OUTBOX_NAMES, RETRY_NAMES } from '../config';
import { SharePointConnector } from '../sharepoint/connector';
import type { OutboxOptions } from '../sharepoint/outbox-worker';
import type { RetryTimings } from '../sharepoint/retry';

// every name SHAREPOINT_RETRY and SHAREPOINT_OUTBOX accept is one of the adapter's options
RETRY_NAMES satisfies readonly (keyof RetryTimings)[];
OUTBOX_NAMES satisfies readonly (keyof OutboxOptions | 'idleMs')[];

declare module 'fastify' {
  interface FastifyInstance {
    /** the SharePoint adapter: availability outbox, bookings pull, facilitators import, connection test */
    sharePoint: SharePointConnector;
  }
}

const sharePointPlugin: FastifyPluginAsync = async (app) => {
  const { db } = app.database;
  const { config } = app;
  // idleMs is the drain loop's (plugins/jobs.ts), not the worker's
  const { idleMs: _drainLoopWait, ...outbox } = config.SHAREPOINT_OUTBOX;
  app.decorate(
    'sharePoint',
    new SharePointConnector(
      {
        db,
        appSecret: app.appSecret,
        config,
        now: app.now,
        countFailure: (area, kind) => app.metrics.sharePointErrors.inc({ area, kind }),
      },
      { timings: config.SHAREPOINT_RETRY, outbox },
    ),
  );
};

export default fp(sharePointPlugin, { name: 'sharepoint', dependencies: ['database', 'metrics'] });
