import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { ensureInitialStaff } from '../modules/users/initial-staff';

declare module 'fastify' {
  interface FastifyInstance {
    /** the staff account this start created because none existed, or null */
    createdStaffUsername: string | null;
  }
}

export interface InitialStaffOptions {
  /** receives the one-time generated staff password (default: printed to stdout) */
  onGeneratedStaffPassword?: ((username: string, password: string) => void) | undefined;
}

const printOnce = (username: string, password: string) =>
  process.stdout.write(
    `\nFirst staff account created. Sign in at /staff-login with\n  username: ${username}\n  password: ${password}\nThis password is shown only once; change it after signing in.\n\n`,
  );

/** Someone can always sign in as staff: the first start creates the account (DESIGN.md section 4). */
const initialStaffPlugin: FastifyPluginAsync<InitialStaffOptions> = async (app, options) => {
  const created = await ensureInitialStaff(app.database.db, {
    username: app.config.INITIAL_STAFF_USERNAME,
    password: app.config.INITIAL_STAFF_PASSWORD,
  });
  if (created?.generatedPassword) {
    (options.onGeneratedStaffPassword ?? printOnce)(created.username, created.generatedPassword);
  }
  app.decorate('createdStaffUsername', created?.username ?? null);
};

export default fp(initialStaffPlugin, { name: 'initial-staff', dependencies: ['database'] });
