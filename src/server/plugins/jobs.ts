import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { RefreshJob } from '../jobs/refresh-job';
import { DEFAULT_SCHEDULER_OPTIONS, type Scheduler, startScheduler } from '../jobs/scheduler';
import type { BookingsRefresher } from '../modules/scheduler/service';

declare module 'fastify' {
  interface FastifyInstance {
    /** the bookings refresh, joined by whoever asks while one runs (jobs/refresh-job.ts) */
    bookingsRefresh: BookingsRefresher;
    /** the background jobs, once the app is ready; null while they are off (tests) */
    scheduler: Scheduler | null;
  }
}

/**
 * jobs/ is the one orchestrator and nothing imports it: this plugin is where the app gets its handles.
 * The scheduler starts when the app is ready (every route and the context exist by then) and is
 * stopped by BuiltApp.close before the database closes.
 */
const jobsPlugin: FastifyPluginAsync = async (app) => {
  app.decorate(
    'bookingsRefresh',
    new RefreshJob({
      db: app.database.db,
      database: app.database,
      now: app.now,
      log: app.log,
      sharePoint: app.sharePoint,
      config: app.config,
      appSecret: app.appSecret,
      mailer: app.mailer,
      push: app.push,
    }),
  );
  app.decorate('scheduler', null);
  // off for tests, which start their own Scheduler when they need one
  const { BACKGROUND_JOBS, BACKGROUND_JOBS_TICK, SHAREPOINT_OUTBOX } = app.config;
  if (!BACKGROUND_JOBS) return;
  app.addHook('onReady', async () => {
    app.scheduler = startScheduler(app.ctx, {
      tickPattern: BACKGROUND_JOBS_TICK,
      drainIdleMs: SHAREPOINT_OUTBOX.idleMs ?? DEFAULT_SCHEDULER_OPTIONS.drainIdleMs,
      // the drain loop asks again at once when a round claimed a full batch
      drainBatchSize: SHAREPOINT_OUTBOX.batchSize ?? DEFAULT_SCHEDULER_OPTIONS.drainBatchSize,
    });
  });
};

export default fp(jobsPlugin, {
  name: 'jobs',
  dependencies: ['database', 'sessions-and-access', 'list-answers', 'mailer', 'push', 'sharepoint'],
});
