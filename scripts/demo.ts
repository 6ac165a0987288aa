/**
 * `npm run demo`: the portal on a fresh embedded database next to a seeded local SharePoint emulator,
 * so a newcomer sees bookings, areas and availability within a minute. Nothing here is used in
 * production; it drives the same services the API does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { saveDay } from '../src/server/modules/availability/service';
import { recordImportedAccounts } from '../src/server/modules/facilitators-import/service';
import { saveRecords } from '../src/server/modules/safeguarding/service';
import { saveSettings } from '../src/server/modules/settings/service';
import { listUsers, updateUser } from '../src/server/modules/users/service';
import { addDays, addMonths, selectBulkDays, todayIn } from '../src/shared/calendar';
import type { AvailabilityStatus } from '../src/shared/schemas/availability';
import { portalSettingsFor, startEmulator } from '../src/sharepoint-emulator/index';

const STAFF = { username: 'staff@demo.example', password: 'demo-staff-pass' };
const FACILITATOR_PASSWORD = 'demo-pass-123';
const AREAS = ['North', 'South', 'East', 'West'];

/**
 * Where the demo's database lives: `DATA_DIR` when set (kept afterwards, like the portal's), otherwise
 * a fresh temporary folder that is removed again when the demo stops, so runs do not pile up there.
 */
function demoDataDir(): { dataDir: string; temporary: boolean } {
  const configured = process.env.DATA_DIR?.trim();
  if (configured) return { dataDir: configured, temporary: false };
  return { dataDir: mkdtempSync(join(tmpdir(), 'afp-demo-')), temporary: true };
}

const { dataDir, temporary } = demoDataDir();
function removeTemporaryData() {
  if (temporary) rmSync(dataDir, { recursive: true, force: true });
}
// However the process ends (Ctrl-C while seeding, an error, a signal from elsewhere), the temporary
// database goes with it; rmSync is synchronous, so it also runs in the 'exit' event.
process.on('exit', removeTemporaryData);
let stopping: (() => Promise<void>) | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) void stopping().finally(() => process.exit(0));
    else process.exit(0);
  });
}

async function main() {
  const emulator = await startEmulator({ port: Number(process.env.EMULATOR_PORT ?? 5050) });
  const port = Number(process.env.PORT ?? 5000);
  const config = loadConfig({
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    GRAPH_BASE_URL: emulator.graphBaseUrl,
    AUTHORITY_HOST: emulator.authorityHost,
    INITIAL_STAFF_USERNAME: STAFF.username,
    INITIAL_STAFF_PASSWORD: STAFF.password,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  });
  const today = todayIn(config.ORG_TIMEZONE);

  // A term of bookings around today: two weeks back, ten weeks ahead.
  const seeded = emulator.control.seedPortalSite({
    seed: 'demo',
    facilitatorCount: 12,
    bookingCount: 240,
    term: { start: addDays(today, -14), end: addDays(today, 70) },
    // columns named as real tenants name them, so every demo run goes through the column mapping
    columnNames: 'tenant',
  });
  const facilitatorList = seeded.lists.facilitators!;
  // The emulator's facilitators get areas so the staff filters have something to show.
  for (const [index, facilitator] of seeded.facilitators.entries()) {
    const item = emulator.control
      .items(facilitatorList)
      .find((i) => String(i.fields.Freelancer_x0020_ID) === facilitator.freelancerId);
    if (item) emulator.control.updateItem(facilitatorList, item.id, { Area: AREAS[index % AREAS.length]! });
  }

  const built = await buildApp(config);
  const { ctx } = built;
  await saveSettings(ctx.db, ctx.appSecret, portalSettingsFor(seeded, emulator.control.credentials));

  await ctx.sharePoint.importFacilitators(recordImportedAccounts(null));
  const facilitators = (await listUsers(ctx.db)).filter((u) => u.role === 'facilitator');
  const staffUser = (await listUsers(ctx.db)).find((u) => u.role === 'staff')!;
  const statuses: AvailabilityStatus[] = ['available', 'available', 'limited', 'unavailable'];
  for (const [index, user] of facilitators.entries()) {
    await updateUser(ctx.db, user.id, { ...user, password: FACILITATOR_PASSWORD });
    // Some availability this month and next, different for each person.
    const days = selectBulkDays(addDays(today, -7), addDays(today, 35), [1, 2, 3, 4, 5]);
    for (const [d, date] of days.entries()) {
      if ((d + index) % 3 === 0) continue;
      const status = statuses[(d * 7 + index) % statuses.length]!;
      await saveDay(
        ctx,
        {
          userId: user.id,
          date,
          status,
          startTime: status === 'limited' ? '09:00' : '',
          endTime: status === 'limited' ? '13:00' : '',
          notes: '',
        },
        { id: staffUser.id, mayOverrideBookings: true, via: 'staff' },
      ).catch(() => {});
    }
  }
  // Safeguarding records: most facilitators' DBS checks count; one is due soon, one has expired and
  // the last has none recorded, so every badge and Who is free's rule show something.
  for (const [index, user] of facilitators.entries()) {
    if (index === facilitators.length - 1) continue;
    const issueDate =
      index === 0
        ? addDays(addMonths(today, -36), 14)
        : index === 1
          ? addMonths(today, -40)
          : addDays(today, -60 - index * 30);
    await saveRecords(
      ctx.db,
      user.id,
      {
        dbs: {
          certificateNumber: String(100_000_000_000 + index * 7919),
          issueDate,
          enhancedWithBarredList: true,
          onUpdateService: false,
          statusCheckedOn: null,
          checkedBy: 'Demo office',
        },
        checks: [],
        version: 0,
      },
      staffUser.id,
      today,
    );
  }
  const refreshed = await ctx.bookingsRefresh.run();

  await built.app.listen({ port, host: config.HOST });
  const address = built.app.server.address();
  const listening = typeof address === 'object' && address ? address.port : port;
  const lines = [
    '',
    'Arts Facilitator Portal demo',
    `  Portal          http://localhost:${listening}`,
    `  Staff           ${STAFF.username} / ${STAFF.password}  (sign in at /staff-login)`,
    `  Facilitators    password ${FACILITATOR_PASSWORD} for each of:`,
    ...facilitators
      .slice(0, 12)
      .map((u) => `                  ${u.username}  (${u.displayName ?? ''}, ${u.area ?? 'no area'})`),
    `  Bookings        ${refreshed.total} from the emulator (${refreshed.unmatched ?? 0} not matched to anyone)`,
    `  SharePoint      emulator at ${emulator.graphBaseUrl} (Refresh Bookings works at once)`,
    temporary
      ? `  Data            ${dataDir} (a fresh database, removed when the demo stops)`
      : `  Data            ${dataDir} (DATA_DIR, kept when the demo stops)`,
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);

  stopping = async () => {
    await built.close();
    await emulator.close();
  };
}

main().catch((error) => {
  process.stderr.write(`The demo could not start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
