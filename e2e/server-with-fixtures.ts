/**
 * The e2e server: the real app (buildApp) plus fixture bookings for the calendar spec, inserted
 * straight into its database before it listens. Only e2e/serve.mjs starts this file; the product has
 * no way to create bookings except the SharePoint pull.
 */
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { seedDemoBookings } from '../src/server/db/seed';
import { createUser, findUserByUsername } from '../src/server/modules/users/service';
import { CALENDAR_USERS, calendarBookings } from './calendar-fixtures';

const config = loadConfig();
// serve.mjs hands over a snapshot of dist/client so a rebuild during the run cannot break pages
const built = await buildApp(config, process.env.CLIENT_DIR ? { clientDir: process.env.CLIENT_DIR } : {});

for (const user of Object.values(CALENDAR_USERS)) {
  if (!(await findUserByUsername(built.ctx.db, user.username))) {
    await createUser(built.ctx.db, {
      username: user.username,
      password: user.password,
      displayName: user.displayName,
      email: user.username,
      freelancerId: '',
      role: 'facilitator',
    });
  }
}
await seedDemoBookings(built.ctx.db, calendarBookings());

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  setTimeout(() => process.exit(1), 10_000).unref();
  await built.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

await built.app.listen({ port: config.PORT, host: config.HOST });
