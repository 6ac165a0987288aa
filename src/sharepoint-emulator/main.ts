/**
 * Standalone emulator for the demo and manual testing: `tsx src/sharepoint-emulator/main.ts`.
 * Seeds a demo site whose bookings sit around today, so the portal shows something at once.
 */
import { startEmulator } from './index';

function mondayOf(date: Date): Date {
  const d = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d;
}

const day = (d: Date) => d.toISOString().slice(0, 10);

async function main(): Promise<void> {
  const port = Number(process.env.EMULATOR_PORT ?? 5050);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`Invalid EMULATOR_PORT '${process.env.EMULATOR_PORT}'`);
  const emulator = await startEmulator({ port, host: process.env.EMULATOR_HOST ?? '127.0.0.1' });

  const start = mondayOf(new Date());
  start.setUTCDate(start.getUTCDate() - 14);
  const end = new Date(start);
  end.setUTCDate(end.getUTCDate() + 7 * 12 - 3);
  const seeded = emulator.control.seedPortalSite({
    seed: process.env.EMULATOR_SEED ?? 'demo',
    term: { start: day(start), end: day(end) },
    bookingCount: Number(process.env.EMULATOR_BOOKINGS ?? 200),
  });
  const creds = emulator.control.credentials;

  console.log(
    [
      'SharePoint emulator listening',
      `  GRAPH_BASE_URL  ${emulator.graphBaseUrl}`,
      `  AUTHORITY_HOST  ${emulator.authorityHost}`,
      `  Tenant ID       ${creds.tenantId}`,
      `  Client ID       ${creds.clientId}`,
      `  Client secret   ${creds.clientSecret}`,
      `  Username        ${creds.username}`,
      `  Password        ${creds.password}`,
      `  Site URL        ${seeded.siteUrl}`,
      `  Lists           ${Object.values(seeded.lists)
        .map((l) => l.displayName)
        .join(', ')}`,
      `  Bookings        ${seeded.bookings.length} between ${day(start)} and ${day(end)}`,
      `  Freelancer IDs  ${seeded.facilitators.map((f) => f.freelancerId).join(', ')}`,
      `  Control plane   ${emulator.authorityHost}/__emulator/info`,
    ].join('\n'),
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping the emulator`);
    emulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
