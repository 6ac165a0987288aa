/**
 * SharePoint outages and throttling under load. The load engine (system/load.ts) runs facilitators
 * saving and staff reading against real portal processes whose outbox delivers to the SharePoint
 * emulator in this process, while a fault script makes the emulator answer 503s, throttle with 429
 * and Retry-After, lose the answers of creates it stored, never answer, answer too late, drop
 * connections, expire tokens and go away entirely. After the faults clear and the outbox drains, the
 * Availability list must hold exactly one item per saved (facilitator, day) with the values the
 * database holds, which must be each day's last acknowledged write.
 *
 * The list's Title column is NOT unique here, unlike the portal's default setup: a create sent twice then
 * leaves two items instead of being refused with 409, so a duplicate cannot hide.
 *
 * The portals run with compressed SharePoint waits (system/support/tuned-portal.ts): the same retry
 * ladders, leases and backoff as production, in tens of milliseconds instead of seconds.
 */
import { afterAll, describe, expect, test } from 'vitest';
import type { RunningEmulator } from '../src/sharepoint-emulator/index';
import { failures, formatReport, type LoadOptions, runLoad } from './load';
import { FAST_PORTAL_TUNING } from './support/tuned-portal';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One kind of trouble after another, each kept until the portal has actually run into it (or a few
 * seconds have passed), then a clean service. Driven by what the emulator saw, not by the clock, so
 * a slow machine delays the script instead of letting faults expire unused.
 */
async function faultScript({ emulator }: { emulator: RunningEmulator }): Promise<void> {
  const c = emulator.control;
  const fired = (id: number) => {
    const rule = c.faults().find((f) => f.id === id);
    return rule ? rule.fired : Number.POSITIVE_INFINITY; // a counted rule is removed once used up
  };
  const until = async (done: () => boolean, atMostMs: number, atLeastMs = 0) => {
    const started = Date.now();
    while (Date.now() - started < atLeastMs || (!done() && Date.now() - started < atMostMs)) await sleep(25);
  };
  const outageHits = () => c.requests().filter((r) => r.fault === 'outage').length;

  // Creates SharePoint stored but whose answer never arrived: retried blindly, they duplicate.
  const lostCreates = [
    c.addFault({
      method: 'POST',
      path: '*/items',
      times: 3,
      action: { type: 'timeoutAfterStoring', mode: 'destroy' },
    }),
    c.addFault({
      method: 'POST',
      path: '*/items',
      times: 1,
      action: { type: 'timeoutAfterStoring', mode: 'hang' },
    }),
  ];
  await until(() => lostCreates.every((id) => fired(id) > 0), 5000);
  // Overload: a burst of 503s on item calls, and dropped connections.
  const overload = [
    c.addFault({ path: '*/items*', times: 8, action: { type: 'status', status: 503 } }),
    c.addFault({ path: '*/items*', times: 2, action: { type: 'destroy' } }),
  ];
  await until(() => overload.every((id) => fired(id) > 0), 4000);
  // Throttling: every call answers 429 with Retry-After for a while.
  const throttle = c.addFault({
    path: '*',
    times: 'always',
    action: { type: 'status', status: 429, retryAfter: 0.3 },
  });
  // After the burst of 503s the outbox waits out its backoff before it calls again; on a busy
  // machine that wait and the next calls took longer than 4 s, and the throttle expired unused.
  await until(() => fired(throttle) >= 4, 15_000, 800);
  c.removeFault(throttle);
  // Calls that never answer (nothing stored), updates slow to answer, and updates SharePoint
  // applies only after the portal gave up waiting (2.5 s against a 1.5 s timeout): the retry
  // succeeds, and the late copy must not overwrite anything newer when it finally lands.
  const slow = [
    c.addFault({ method: 'PATCH', path: '*/fields', times: 1, action: { type: 'hang' } }),
    c.addFault({ method: 'PATCH', path: '*/fields', times: 1, action: { type: 'delay', ms: 300 } }),
    c.addFault({ method: 'PATCH', path: '*/fields', times: 2, action: { type: 'delay', ms: 2500 } }),
  ];
  await until(() => slow.every((id) => fired(id) > 0), 5000);
  // An outage: every call (the token endpoint too) answers 503 with Retry-After, tokens expire
  // meanwhile, then the service stops listening altogether.
  const before = outageHits();
  await c.setOutage({ mode: 'status', status: 503, retryAfter: 0.5 });
  c.expireTokens();
  await until(() => outageHits() - before >= 3, 4000, 1000);
  await c.setOutage({ mode: 'refuse' });
  await sleep(800);
  await c.setOutage(false);
}

const BASE: Omit<LoadOptions, 'db'> = {
  durationSeconds: 4,
  warmupSeconds: 0,
  facilitators: 5,
  staff: 1,
  perUserInFlight: 1,
  thinkMs: 60,
  maxInFlight: 16,
  tuning: FAST_PORTAL_TUNING,
  uniqueKeys: false,
  drainTimeoutMs: 20_000,
  during: faultScript,
};

const printed: string[] = [];
afterAll(() => {
  if (printed.length > 0) process.stdout.write(`\n${printed.join('\n\n')}\n`);
});

function expectFaultsHit(hit: Record<string, number>) {
  const kinds = Object.keys(hit);
  for (const fault of [
    'timeoutAfterStoring',
    'status 503',
    'status 429',
    'destroy',
    'hang',
    'delay',
    'outage',
  ]) {
    expect(
      kinds.some((k) => k.startsWith(fault)),
      `fault ${fault} was hit (${kinds.join(', ')})`,
    ).toBe(true);
  }
}

describe('SharePoint faults during load: one item per saved day, last values, nothing lost', () => {
  test('PGlite, one portal', async () => {
    const report = await runLoad({ ...BASE, db: 'pglite' });
    printed.push(formatReport(report));
    expect(failures(report)).toEqual([]);
    expectFaultsHit(report.sharePoint!.faultsHit);
  });

  test('PostgreSQL, two portals draining the same outbox', async () => {
    const report = await runLoad({ ...BASE, db: 'postgres', instances: 2 });
    printed.push(formatReport(report));
    expect(failures(report)).toEqual([]);
    expectFaultsHit(report.sharePoint!.faultsHit);
  });
});
