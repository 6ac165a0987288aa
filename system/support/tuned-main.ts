/**
 * The portal process for system tests that need SharePoint's waits compressed: exactly what
 * src/server/main.ts does (loadConfig → buildApp → listen, SIGTERM/SIGINT finish requests in flight),
 * plus the tuning buildApp already accepts for tests (`sharePoint` retry timings and outbox options,
 * `scheduler` drain idle time), read as JSON from AFP_SYSTEM_TUNING. Production waits are seconds
 * to minutes (a failed day comes back after 30 s, a silent call times out after 30 s); a fault suite
 * with a one-minute budget needs the same code paths on a millisecond scale.
 *
 * Started by startTunedPortal (system/support/tuned-portal.ts); nothing in the product imports it.
 */
import { buildApp } from '../../src/server/app';
import { ConfigError, loadConfig } from '../../src/server/config';
import type { PortalTuning } from './tuned-portal';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const tuning = JSON.parse(process.env.AFP_SYSTEM_TUNING ?? '{}') as PortalTuning;
  const built = await buildApp(config, {
    sharePoint: { timings: tuning.timings, outbox: tuning.outbox },
    scheduler: tuning.scheduler ?? {},
  });
  const { app } = built;

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    await built.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());

  await app.listen({ port: config.PORT, host: config.HOST });
}

main().catch((error) => {
  process.stderr.write(
    `The portal could not start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
