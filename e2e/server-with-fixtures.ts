/**
 * The e2e server: the real app (buildApp) wired to a SharePoint emulator started in this process, the
 * way `npm run demo` does it. Before it listens it seeds the emulator's portal site with the fixture
 * bookings (calendar spec, SharePoint spec), creates the fixture facilitators with their freelancer
 * IDs, saves SharePoint settings pointing at the emulator and runs one real bookings refresh, so every
 * booking the specs see came in through the connector. Only e2e/serve.mjs starts this file; nothing
 * here is reachable from the product.
 *
 * The emulator listens on E2E_EMULATOR_PORT (chosen in e2e/constants.ts and inherited through
 * serve.mjs), so the specs can drive its `/__emulator/*` control plane (e2e/emulator.ts).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { startTestSmtpServer } from '../src/server/mail/test-smtp';
import { saveSettings } from '../src/server/modules/settings/service';
import { createUser, findUserByUsername } from '../src/server/modules/users/service';
import { portalSettingsFor, startEmulator } from '../src/sharepoint-emulator/index';
import { bookingFields, CALENDAR_USERS, calendarBookings } from './calendar-fixtures';
import { E2E_SMTP_LOGIN } from './constants';
import { SHAREPOINT_USERS, sharePointBookings } from './sharepoint-fixtures';

const emulator = await startEmulator({ port: Number(process.env.E2E_EMULATOR_PORT ?? 0) });
// reminders go to this SMTP server (only once the reminders spec saves settings pointing at
// it); each message is written to E2E_MAIL_DIR for the specs to read (e2e/mailbox.ts)
const mailDir = process.env.E2E_MAIL_DIR;
const mailbox = mailDir
  ? await startTestSmtpServer({
      port: Number(process.env.E2E_SMTP_PORT ?? 0),
      auth: E2E_SMTP_LOGIN,
      onMessage: (mail) => {
        mkdirSync(mailDir, { recursive: true });
        // written aside and renamed, so a reader never sees half a message
        const file = join(mailDir, `${Date.now()}-${randomUUID()}.json`);
        writeFileSync(`${file}.part`, JSON.stringify(mail));
        renameSync(`${file}.part`, file);
      },
    })
  : undefined;
// No generated bookings: the only ones are the fixtures below, so no spec sees strangers' data.
const portal = emulator.control.seedPortalSite({ seed: 'e2e', bookingCount: 0 });
const bookingsList = portal.lists.bookings!;
for (const booking of [...calendarBookings(), ...sharePointBookings()]) {
  emulator.control.addItem(bookingsList, bookingFields(booking));
}

const config = loadConfig({
  ...process.env,
  GRAPH_BASE_URL: emulator.graphBaseUrl,
  AUTHORITY_HOST: emulator.authorityHost,
  // One refresh at start and the ones the specs ask for: a background refresh in the middle of a
  // spec would be joined by its Refresh Bookings click (see RefreshJob) and blur what it checks.
  BOOKINGS_REFRESH_MINUTES: process.env.BOOKINGS_REFRESH_MINUTES ?? '1440',
  // the test SMTP server above listens on loopback, which the portal refuses unless allowed
  SMTP_ALLOWED_NETWORKS: process.env.SMTP_ALLOWED_NETWORKS ?? '127.0.0.1/32',
});
// serve.mjs hands over a snapshot of dist/client in CLIENT_DIR, so a rebuild during the run cannot break pages
const built = await buildApp(config);
const { ctx } = built;

const fixtureUsers = [
  ...Object.values(CALENDAR_USERS).map((user) => ({ ...user, area: null })),
  ...Object.values(SHAREPOINT_USERS),
];
for (const user of fixtureUsers) {
  if (!(await findUserByUsername(ctx.db, user.username))) {
    await createUser(ctx.db, {
      username: user.username,
      password: user.password,
      displayName: user.displayName,
      email: user.username,
      freelancerId: user.freelancerId,
      area: user.area,
      role: 'facilitator',
    });
  }
}

await saveSettings(ctx.db, ctx.appSecret, {
  ...portalSettingsFor(portal, emulator.control.credentials),
  username: '',
  password: '',
});
const refreshed = await ctx.bookingsRefresh.run();
ctx.log.info({ refreshed, emulator: emulator.authorityHost }, 'e2e fixtures: bookings in from the emulator');

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  setTimeout(() => process.exit(1), 10_000).unref();
  await built.close();
  await emulator.close();
  await mailbox?.close();
  if (mailDir) rmSync(mailDir, { recursive: true, force: true });
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

await built.app.listen({ port: config.PORT, host: config.HOST });
