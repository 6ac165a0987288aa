/**
 * The portal process for system tests that need SharePoint's waits compressed: src/server/serve.ts,
 * exactly what src/server/main.ts runs, handed the tuning buildApp already accepts for tests
 * (`sharePoint` retry timings and outbox options, `scheduler` waits), read as JSON from
 * AFP_SYSTEM_TUNING. Production waits are seconds to minutes (a failed day comes back after 30 s, a
 * silent call times out after 30 s); a fault suite with a one-minute budget needs the same code
 * paths on a millisecond scale.
 *
 * Started by startTunedPortal (system/support/tuned-portal.ts); nothing in the product imports it.
 */
import { serve } from '../../src/server/serve';
import type { PortalTuning } from './tuned-portal';

const tuning = JSON.parse(process.env.AFP_SYSTEM_TUNING ?? '{}') as PortalTuning;
void serve({
  sharePoint: { timings: tuning.timings, outbox: tuning.outbox },
  scheduler: tuning.scheduler ?? {},
});
