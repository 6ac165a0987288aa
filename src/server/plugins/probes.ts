import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { probeRoutes } from '../modules/probes/routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** the app has begun to close: the ready probe answers 503 from then on */
    shuttingDown: () => boolean;
  }
}

/** The live and ready probes; readiness reads the client's build and whether the app is closing. */
const probesPlugin: FastifyPluginAsync = async (app) => {
  let shuttingDown = false;
  app.addHook('preClose', async () => {
    shuttingDown = true;
  });
  app.decorate('shuttingDown', () => shuttingDown);
  await app.register(
    probeRoutes({ db: app.database.db, shuttingDown: app.shuttingDown, clientBuilt: app.clientBuilt }),
  );
};

export default fp(probesPlugin, {
  name: 'probes',
  dependencies: ['database', 'sessions-and-access', 'client'],
});
