import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { probeRoutes } from '../modules/probes/routes';

/** The live and ready probes; readiness reads the client's build and whether the app is closing. */
const probesPlugin: FastifyPluginAsync = async (app) => {
  let shuttingDown = false;
  app.addHook('preClose', async () => {
    shuttingDown = true;
  });
  await app.register(
    probeRoutes({ db: app.database.db, shuttingDown: () => shuttingDown, clientBuilt: app.clientBuilt }),
  );
};

export default fp(probesPlugin, {
  name: 'probes',
  dependencies: ['database', 'sessions-and-access', 'client'],
});
