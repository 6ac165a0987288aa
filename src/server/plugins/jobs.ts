import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { BookingsRefresher } from '../context';
import { RefreshJob } from '../jobs/refresh-job';
import { type Scheduler, type SchedulerOptions, startScheduler } from '../jobs/scheduler';

declare module 'fastify' {
  interface FastifyInstance {
    /** the bookings refresh, joined by whoever asks while one runs (jobs/refresh-job.ts) */
    bookingsRefresh: BookingsRefresher;
    /** the background jobs, once the app is ready; null while they are off (tests) */
    scheduler: Scheduler | null;
  }
}

export interface JobsPluginOptions {
  /** `false` keeps the background jobs off (tests start their own Scheduler when they need one) */
  scheduler?: false | Partial<SchedulerOptions> | undefined;
}

/**
 * jobs/ is the one orchestrator and nothing imports it: this plugin is where the app gets its handles.
 * The scheduler starts when the app is ready (every route and the context exist by then) and is
 * stopped by BuiltApp.close before the database closes.
 */
const jobsPlugin: FastifyPluginAsync<JobsPluginOptions> = async (app, options) => {
  app.decorate(
    'bookingsRefresh',
    new RefreshJob({
      db: app.database.db,
      database: app.database,
      now: app.now,
      log: app.log,
      sharePoint: app.sharePoint,
    }),
  );
  app.decorate('scheduler', null);
  const { scheduler } = options;
  if (scheduler === false) return;
  app.addHook('onReady', async () => {
    app.scheduler = startScheduler(app.ctx, scheduler ?? {});
  });
};

export default fp(jobsPlugin, {
  name: 'jobs',
  dependencies: ['database', 'sessions-and-access', 'list-cache', 'mailer', 'sharepoint'],
});
