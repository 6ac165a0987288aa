import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { ensureInitialStaff } from '../modules/users/initial-staff';

declare module 'fastify' {
  interface FastifyInstance {
    /** the staff account this start created because none existed, or null */
    createdStaffUsername: string | null;
    /**
     * The password generated for that account (when the configuration named none), handed out once:
     * buildApp takes it for whoever started the app to show, and nothing keeps it afterwards.
     */
    takeGeneratedStaffPassword(): string | null;
  }
}

/** Someone can always sign in as staff: the first start creates the account. */
const initialStaffPlugin: FastifyPluginAsync = async (app) => {
  const created = await ensureInitialStaff(app.database.db, {
    username: app.config.INITIAL_STAFF_USERNAME,
    password: app.config.INITIAL_STAFF_PASSWORD,
  });
  app.decorate('createdStaffUsername', created?.username ?? null);
  let generated = created?.generatedPassword ?? null;
  app.decorate('takeGeneratedStaffPassword', () => {
    const password = generated;
    generated = null;
    return password;
  });
};

export default fp(initialStaffPlugin, { name: 'initial-staff', dependencies: ['database'] });
