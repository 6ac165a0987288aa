/**
 * Scale-out: three portal processes on one PostgreSQL database, every request sent to the
 * next instance in turn (a load balancer without sticky sessions). Sessions, data, the bookings
 * refresh (once per slot, whoever runs it) and the SharePoint outbox (each item created once) must
 * all behave as with one instance. And the embedded database, which is single-process: a second
 * portal on the same DATA_DIR refuses to start instead of corrupting it.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { seedDataDir } from '../e2e/pglite-template.mjs';
import {
  createFacilitators,
  type Facilitator,
  pgQuery,
  RoundRobinClient,
  send,
  sleep,
  waitFor,
} from './support/data';
import { type EmulatedSharePoint, startEmulatedSharePoint } from './support/emulated-sharepoint';
import { ApiClient } from './support/http';
import { type PortalProcess, SYSTEM_STAFF, startPortal } from './support/portal';
import { type PostgresCluster, startPostgres } from './support/postgres';
import { startTunedPortal } from './support/tuned-portal';

const LONG = process.env.AFP_SYSTEM_LONG === '1';
const INSTANCES = 3;

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

// The embedded-database check needs a first portal running on a DATA_DIR; it starts now and runs
// alongside the PostgreSQL tests.
const pgliteDir = mkdtempSync(join(tmpdir(), 'afp-scale-'));
cleanups.push(async () => rmSync(pgliteDir, { recursive: true, force: true }));
const firstOnDataDir = seedDataDir(pgliteDir).then(() =>
  startPortal({ dataDir: pgliteDir, startTimeout: 150_000 }),
);
firstOnDataDir.catch(() => {});
cleanups.push(async () => (await firstOnDataDir).stop('SIGKILL'));

describe('three instances on one PostgreSQL database, no sticky sessions', () => {
  let cluster: PostgresCluster;
  let sharePoint: EmulatedSharePoint;
  let databaseUrl: string;
  let portals: PortalProcess[] = [];
  let urls: string[] = [];
  let staff: RoundRobinClient;
  let people: Facilitator[] = [];

  beforeAll(async () => {
    [cluster, sharePoint] = await Promise.all([startPostgres(), startEmulatedSharePoint('scale-out')]);
    cleanups.push(
      () => cluster.destroy(),
      () => sharePoint.close(),
    );
    databaseUrl = await cluster.createDatabase();
  });

  test('start together on an empty database (migrations and the first staff account once)', async () => {
    const env = {
      ...sharePoint.env,
      OFFICE_HOURS: 'Sun-Sat 00:00-24:00',
      // One slot a day (from midnight): no real slot begins while a test slot is being watched, so
      // each refresh the test counts is one the test made due.
      BOOKINGS_REFRESH_MINUTES: '1440',
      // "bookings refreshed" lines say which instance ran each refresh
      LOG_LEVEL: 'info',
    };
    portals = await Promise.all(
      Array.from({ length: INSTANCES }, () =>
        startTunedPortal({
          databaseUrl,
          env,
          startTimeout: 150_000,
          // The production scheduler with its check every second instead of every 30 s, so the
          // instances race for each refresh slot many times within the test budget.
          tuning: { scheduler: { tickPattern: '* * * * * *', drainIdleMs: 200 } },
        }),
      ),
    );
    for (const portal of portals) cleanups.push(() => portal.stop('SIGKILL'));
    urls = portals.map((p) => p.url);
    staff = new RoundRobinClient(urls);
    expect((await staff.request('POST', '/api/auth/staff-login', SYSTEM_STAFF)).status).toBe(200);
    const users = await staff.request<Array<{ role: string }>>('GET', '/api/staff/users');
    expect(users.status).toBe(200);
    expect(users.body.filter((u) => u.role === 'staff')).toHaveLength(1);
    const applied = await pgQuery<{ n: number }>(
      databaseUrl,
      'select count(*)::int as n from drizzle.__drizzle_migrations',
    );
    expect(applied[0]!.n).toBeGreaterThan(0);
  });

  test('a session made on one instance works on every other; signing out on one ends it everywhere', async () => {
    // Accounts made through one instance, used through the others.
    const staffApi = new ApiClient(urls[1]!);
    staffApi.cookie = staff.cookie;
    people = await createFacilitators(staffApi, 'scale', 3, true);

    const user = new RoundRobinClient(urls);
    const login = await user.requestVia(0, 'POST', '/api/login', {
      username: people[0]!.username,
      password: people[0]!.password,
    });
    expect(login.status).toBe(200);
    const cookie = user.cookie;
    for (let i = 0; i < INSTANCES; i++) {
      const me = await user.requestVia<{ username: string }>(i, 'GET', '/api/user');
      expect(me.status, `instance ${i}`).toBe(200);
      expect(me.body.username).toBe(people[0]!.username);
    }
    expect((await user.requestVia(1, 'POST', '/api/logout')).status).toBe(200);
    // The cookie from before the sign-out, replayed on every instance, opens nothing.
    for (let i = 0; i < INSTANCES; i++) {
      const replay = new ApiClient(urls[i]!);
      replay.cookie = cookie;
      expect((await replay.request('GET', '/api/user')).status, `instance ${i}`).toBe(401);
    }
  });

  test('what one instance writes, the others read', async () => {
    const user = new RoundRobinClient(urls);
    expect(
      (
        await user.requestVia(0, 'POST', '/api/login', {
          username: people[2]!.username,
          password: people[2]!.password,
        })
      ).status,
    ).toBe(200);
    const saved = await user.requestVia(1, 'POST', '/api/availability', {
      date: '2035-03-03',
      status: 'limited',
      startTime: '10:00',
      endTime: '12:00',
      notes: 'written on instance 1',
    });
    expect(saved.status).toBe(200);
    for (let i = 0; i < INSTANCES; i++) {
      const days = await user.requestVia<Array<{ date: string; notes: string }>>(
        i,
        'GET',
        '/api/availability?from=2035-03-01&to=2035-03-31',
      );
      expect(days.body.map((d) => [d.date, d.notes])).toEqual([['2035-03-03', 'written on instance 1']]);
    }
    for (let i = 0; i < INSTANCES; i++) {
      const staffOn = new ApiClient(urls[i]!);
      staffOn.cookie = staff.cookie;
      const grid = await staffOn.request<Array<{ userId: number; notes: string }>>(
        'GET',
        '/api/staff/availabilities?from=2035-03-01&to=2035-03-31',
      );
      expect(grid.body).toEqual([
        expect.objectContaining({ userId: people[2]!.id, notes: 'written on instance 1' }),
      ]);
    }
    // An account staff create on one instance signs in on another at once.
    const created = await staff.requestVia(2, 'POST', '/api/staff/users', {
      username: 'scale-late@example.org',
      password: 'scale-late-password',
    });
    expect(created.status).toBe(201);
    await new ApiClient(urls[0]!).login('scale-late@example.org', 'scale-late-password');
  });

  test('one open session accepted by many facilitators through every instance at once: one winner', async () => {
    const staffApi = new ApiClient(urls[0]!);
    staffApi.cookie = staff.cookie;
    const offerees = await createFacilitators(staffApi, 'offer', 12, true);
    const [session] = await pgQuery<{ id: number }>(
      databaseUrl,
      "insert into bookings (title, date, start_time, end_time, sharepoint_id) values ('Open', '2035-04-04', '09:30', '12:00', 'scale-open-1') returning id",
    );
    const offered = await staff.request<{ offers: Array<{ id: number; userId: number }> }>(
      'POST',
      `/api/staff/sessions/${session!.id}/offers`,
      {
        userIds: offerees.map((p) => p.id),
        replyBy: new Date(Date.now() + 86_400_000).toISOString(),
        confirmNotFree: true,
        // nobody here has a DBS check recorded (a session in 2035 is past any check made today)
        safeguardingOverride: { reason: 'Checks confirmed by phone with the school' },
      },
    );
    expect(offered.status).toBe(201);
    const clients = await Promise.all(
      offerees.map(async (person, i) =>
        new ApiClient(urls[i % INSTANCES]!).login(person.username, person.password),
      ),
    );
    const offerOf = new Map(offered.body.offers.map((o) => [o.userId, o.id]));
    // every acceptance at once, spread over the instances: each waits on the session's row in PostgreSQL
    const answers = await Promise.all(
      offerees.map((person, i) =>
        clients[i]!.request('POST', `/api/offers/${offerOf.get(person.id)}/accept`),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(offerees.length - 1);
    const states = await pgQuery<{ state: string; n: number }>(
      databaseUrl,
      `select state, count(*)::int as n from offers where booking_id = ${session!.id} group by state order by state`,
    );
    expect(states).toEqual([
      { state: 'accepted', n: 1 },
      { state: 'withdrawn', n: offerees.length - 1 },
    ]);
  });

  test('each bookings refresh runs on exactly one instance', async () => {
    const configured = await staff.request('POST', '/api/sharepoint/settings', sharePoint.settings);
    expect(configured.status).toBe(200);
    // every refresh an instance runs ends in one of these two lines, whether SharePoint answered or not
    const refreshLines = () =>
      portals.map(
        (p) =>
          (p.output().match(/"msg":"(bookings refreshed from SharePoint|bookings refresh failed)"/g) ?? [])
            .length,
      );
    const failedRefreshes = () =>
      portals.flatMap((p) =>
        p
          .output()
          .split('\n')
          .filter((line) => line.includes('"bookings refresh failed"')),
      );
    const finishedAt = async () =>
      (
        await pgQuery<{ finished: Date | null; updating: boolean }>(
          databaseUrl,
          "select finished_at as finished, is_updating as updating from scheduler_state where name = 'bookings-refresh'",
        )
      )[0];

    // Slots: the first refresh once SharePoint is configured, then each time the last refresh is
    // made to look a day old, so the next check of all three instances (every second) finds one due.
    const slots = LONG ? 10 : 4;
    const perSlot: number[] = [];
    for (let slot = 0; slot < slots; slot++) {
      const callsBefore = sharePoint.bookingsRefreshCalls();
      const marker = new Date();
      if (slot > 0) {
        await pgQuery(
          databaseUrl,
          "update scheduler_state set finished_at = now() - interval '1 day' where name = 'bookings-refresh'",
        );
      }
      await waitFor(
        `refresh slot ${slot}`,
        async () => {
          const state = await finishedAt();
          return state?.finished && !state.updating && state.finished.getTime() > marker.getTime();
        },
        20_000,
        50,
      ).catch(async (error: Error) => {
        const state = await pgQuery(databaseUrl, 'select * from scheduler_state');
        throw new Error(
          `${error.message}: ${JSON.stringify(state)}\n${portals.map((p) => p.output().slice(-1500)).join('\n---\n')}`,
        );
      });
      // Two more checks of every instance: a second runner of the same slot would show by now.
      await sleep(2200);
      perSlot.push(sharePoint.bookingsRefreshCalls() - callsBefore);
    }
    const lines = refreshLines();
    console.info(
      'scale-out refresh',
      JSON.stringify({ graphDeltaCallsPerSlot: perSlot, refreshesPerInstance: lines }),
      failedRefreshes().join('\n'),
    );
    expect(perSlot).toEqual(Array(slots).fill(1));
    expect(lines.reduce((a, b) => a + b, 0)).toBe(slots);

    // Refresh Bookings pressed on all three at once: one refresh, and all three get its result.
    // SharePoint holds that refresh's read a second, so every press meets it running however late
    // a busy machine lets an instance take its request: a press that comes after a refresh has
    // ended asks for a new one, by design.
    const before = sharePoint.bookingsRefreshCalls();
    const slowRead = sharePoint.emulator.control.addFault({
      method: 'GET',
      path: `*/lists/${sharePoint.lists.bookings}/items/delta`,
      action: { type: 'delay', ms: 1000 },
      times: 1,
    });
    const answers = await Promise.all(
      urls.map((_, i) => staff.requestVia<{ total: number }>(i, 'POST', '/api/staff/bookings/refresh')),
    );
    sharePoint.emulator.control.removeFault(slowRead);
    for (const answer of answers) expect(answer.status).toBe(200);
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(sharePoint.bookingsRefreshCalls() - before).toBe(1);
  });

  test('the outbox is drained once: every availability item is created exactly once', async () => {
    // Slower SharePoint answers keep the drain rounds long, so the instances really do compete.
    sharePoint.emulator.control.setLatency(15);
    const clients = await Promise.all(
      people.map(async (p) => {
        const c = new RoundRobinClient(urls);
        expect(
          (await c.request('POST', '/api/login', { username: p.username, password: p.password })).status,
        ).toBe(200);
        return c;
      }),
    );
    const rounds = LONG ? 4 : 2;
    const bulk = (round: number) => ({
      startDate: '2036-01-01',
      endDate: '2036-03-31',
      daysOfWeek: [1, 2, 3, 4, 5],
      status: round % 2 ? 'available' : 'unavailable',
      notes: `bulk ${round}`,
    });
    // Each facilitator's bulk updates and single days, sent round-robin, all at once.
    await Promise.all(
      clients.map(async (client, i) => {
        for (let round = 0; round < rounds; round++) {
          expect((await client.request('POST', '/api/availability/bulk', bulk(round))).status).toBe(200);
          for (let d = 1; d <= 5; d++) {
            const single = await client.request('POST', '/api/availability', {
              date: `2036-04-0${d}`,
              status: 'limited',
              startTime: '09:00',
              endTime: '11:00',
              notes: `single ${round} ${i}`,
            });
            expect(single.status).toBe(200);
          }
        }
      }),
    );
    await waitFor(
      'the outbox to drain',
      async () =>
        (await pgQuery<{ n: number }>(databaseUrl, 'select count(*)::int as n from sync_outbox'))[0]!.n === 0,
      40_000,
      200,
    );
    sharePoint.emulator.control.setLatency(null);

    const stored = await pgQuery<{ user_id: number; date: string; notes: string }>(
      databaseUrl,
      `select user_id, date::text as date, notes from availability where user_id = any($1) and date >= '2036-01-01'`,
      [people.map((p) => p.id)],
    );
    const idOf = new Map(people.map((p, i) => [p.id, `SCALE-${i + 1}`]));
    const items = sharePoint.availabilityItems();
    for (const row of stored) {
      const found = items.get(`${idOf.get(row.user_id)}|${row.date}`) ?? [];
      expect(found, `${row.user_id} ${row.date}`).toHaveLength(1);
      expect(found[0]!.Notes).toBe(row.notes);
    }
    // No item was ever created twice: every create that succeeded is one item of the list.
    const creates = sharePoint.availabilityCreates();
    expect(creates.created).toBe(sharePoint.availabilityItemCount());
    const drainers = portals.map((p) => p.output().match(/outbox drain failed/g)?.length ?? 0);
    console.info(
      'scale-out outbox',
      JSON.stringify({
        days: stored.length,
        creates,
        items: sharePoint.availabilityItemCount(),
        drainFailuresPerInstance: drainers,
      }),
    );
  });
});

describe('the embedded database is single-process', () => {
  test('a second portal on the same DATA_DIR refuses to start, and the first is unharmed', async () => {
    // The first portal takes DATA_DIR's lock before it opens the database.
    await waitFor(
      'the first portal to lock DATA_DIR',
      async () => existsSync(join(pgliteDir, 'portal.lock')),
      120_000,
      100,
    );
    const second = await startPortal({ dataDir: pgliteDir, startTimeout: 150_000 }).then(
      (portal) => {
        cleanups.push(() => portal.stop('SIGKILL'));
        return null;
      },
      (error: Error) => error.message,
    );
    expect(second, 'the second portal must not start').not.toBeNull();
    expect(second).toMatch(
      /The portal could not start: The database in DATA_DIR .* is in use by a running portal \(pid \d+/,
    );

    const first = await firstOnDataDir;
    expect(first.process.exitCode).toBeNull();
    const staffClient = await new ApiClient(first.url).login(SYSTEM_STAFF.username, SYSTEM_STAFF.password, {
      staff: true,
    });
    const [person] = await createFacilitators(staffClient, 'solo', 1);
    const user = await new ApiClient(first.url).login(person!.username, person!.password);
    expect(
      (await send(user, 'POST', '/api/availability', { date: '2035-05-05', status: 'available' })).status,
    ).toBe(200);
    expect(
      (await send<unknown[]>(user, 'GET', '/api/availability?from=2035-05-01&to=2035-05-31')).body,
    ).toHaveLength(1);
    // A clean stop gives the lock back.
    expect((await first.stop()).code).toBe(0);
    expect(existsSync(join(pgliteDir, 'portal.lock'))).toBe(false);
  });
});
