/**
 * SharePoint connector figures against the in-process emulator (npx tsx bench/sharepoint.ts):
 * a full refresh of BENCH_BOOKINGS bookings (default 20,000) and a delta refresh of 20 changes with
 * 50 ms added latency per call, outbox delivery of 1,000 availability changes (without and with the
 * latency), and a run re-sending 1,000 days SharePoint already holds (it must write nothing). The
 * lists carry tenant-style column names, so the column mapping is part of every figure.
 */
import { performance } from 'node:perf_hooks';
import { bulkUpdate } from '../src/server/modules/availability/service';
import { saveSettings } from '../src/server/modules/settings/service';
import { createTestApp } from '../src/server/test/harness';
import { startEmulator } from '../src/sharepoint-emulator';

const LATENCY_MS = 50;
const BOOKINGS = Number(process.env.BENCH_BOOKINGS ?? 20_000);

async function main() {
  const emu = await startEmulator();
  const portal = emu.control.seedPortalSite({
    seed: 'bench',
    bookingCount: BOOKINGS,
    facilitatorCount: 200,
    cancelledRatio: 0.05,
    columnNames: 'tenant',
  });
  const t = await createTestApp({
    GRAPH_BASE_URL: emu.graphBaseUrl,
    AUTHORITY_HOST: emu.authorityHost,
    SHAREPOINT_OUTBOX: 'batchSize=200',
  });
  const c = emu.control.credentials;
  await saveSettings(t.ctx.db, t.ctx.appSecret, {
    siteUrl: portal.siteUrl,
    availabilityListName: 'Availability',
    bookingsListName: 'Bookings',
    facilitatorListName: 'Facilitators',
    schoolsListName: 'Schools',
    tenantId: c.tenantId,
    clientId: c.clientId,
    clientSecret: c.clientSecret,
  });
  const connector = t.ctx.sharePoint;
  // Accounts for 150 of the 200 freelancers, so matching has work to do.
  for (const f of portal.facilitators.slice(0, 150)) {
    await t.createUser({
      username: f.email,
      displayName: f.name,
      freelancerId: f.freelancerId,
      password: 'bench-password',
    });
  }
  const lines: string[] = [];
  const report = (label: string, ms: number, extra: string) => {
    const line = `${label.padEnd(46)} ${(ms / 1000).toFixed(2).padStart(7)} s   ${extra}`;
    lines.push(line);
    console.log(line);
  };

  emu.control.setLatency(LATENCY_MS);
  emu.control.clearRequests();
  let started = performance.now();
  const full = await connector.refreshBookings();
  report(
    `Full refresh, ${BOOKINGS.toLocaleString('en-GB')} items, +${LATENCY_MS} ms/call`,
    performance.now() - started,
    `${emu.control.requestCount()} calls; added ${full.added}, total ${full.total}, unmatched ${full.unmatched}`,
  );

  // 20 changes: 10 edits, 5 deletions, 5 new items
  const items = emu.control.items(portal.lists.bookings!);
  for (const item of items.slice(0, 10))
    emu.control.updateItem(portal.lists.bookings!, item.id, { StartTime: '10:15' });
  for (const item of items.slice(100, 105)) emu.control.deleteItem(portal.lists.bookings!, item.id);
  for (let i = 0; i < 5; i++) {
    emu.control.addItem(portal.lists.bookings!, {
      Title: `Bench extra ${i}`,
      Freelancer_x0020_ID: portal.facilitators[i]!.freelancerId,
      Session_x0020_Date: `2026-05-1${i}`,
      School_x0020_ID: 'SCH001',
      Booking_x0020_Status: 'Confirmed',
    });
  }
  emu.control.clearRequests();
  started = performance.now();
  const delta = await connector.refreshBookings();
  report(
    `Delta refresh, 20 changes, +${LATENCY_MS} ms/call`,
    performance.now() - started,
    `${emu.control.requestCount()} calls; mode ${delta.mode}, +${delta.added} ~${delta.updated} -${delta.removed}`,
  );

  // 1,000 availability changes: 50 facilitators × 20 weekdays
  const outboxRun = async (latency: number, month: string, label = '') => {
    emu.control.setLatency(latency || null);
    const people = portal.facilitators.slice(0, 50);
    for (const f of people) {
      const [user] = await t.ctx.db.query.users.findMany({
        where: (u, { eq }) => eq(u.freelancerId, f.freelancerId),
      });
      await bulkUpdate(
        t.ctx,
        {
          userId: user!.id,
          startDate: `2026-${month}-01`,
          endDate: `2026-${month}-28`,
          daysOfWeek: [1, 2, 3, 4, 5],
          status: 'limited',
          startTime: '09:00',
          endTime: '15:00',
          notes: 'bench',
        },
        { id: user!.id, mayOverrideBookings: true, via: 'staff' },
      );
    }
    const queued = await t.ctx.db.$count((await import('../src/server/db/schema')).syncOutbox);
    emu.control.clearRequests();
    started = performance.now();
    let delivered = 0;
    let unchanged = 0;
    for (;;) {
      const r = await connector.drainOutbox();
      delivered += r.delivered;
      unchanged += r.unchanged;
      if (r.claimed === 0) break;
    }
    const writes =
      emu.control.requestCount({ method: 'PATCH' }) + emu.control.requestCount({ method: 'POST' });
    report(
      `Outbox, ${queued} ${label || 'changes'}${latency ? `, +${latency} ms/call` : ''}`,
      performance.now() - started,
      `${emu.control.requestCount()} calls, ${writes} writes; ${delivered} days delivered (${unchanged} already held)`,
    );
  };
  await outboxRun(0, '09'); // September 2026: 20 weekdays
  await outboxRun(LATENCY_MS, '10'); // October: new items again
  await outboxRun(0, '09', 'days saved again unchanged'); // September once more: nothing to write

  await t.close();
  await emu.close();
  return lines;
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
