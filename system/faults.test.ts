/**
 * Faults, against the real portal process (src/server/main.ts):
 *  - SIGKILL in the middle of a bulk update, then a restart on the same data: the update is all or
 *    nothing, its outbox rows match, the portal starts cleanly (embedded database and PostgreSQL);
 *  - PostgreSQL restarted, and stopped for three seconds, under load: the same portal process keeps
 *    serving, answers 503 while the database is away (never a crash, a hang or a sign-out), recovers
 *    by itself, and loses no acknowledged write, SharePoint delivery included;
 *  - SIGTERM: requests in flight finish with 2xx, new connections are refused, exit code 0.
 *
 * Short form for CI (two kills per database). AFP_SYSTEM_LONG=1: six kills per database.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../src/server/errors';
import { addDays } from '../src/shared/calendar';
import {
  createFacilitators,
  type Facilitator,
  type Outcome,
  pgQuery,
  send,
  sleep,
  waitFor,
  withPgliteDir,
} from './support/data';
import { type EmulatedSharePoint, startEmulatedSharePoint } from './support/emulated-sharepoint';
import { ApiClient } from './support/http';
import {
  emptyDataDir,
  type PortalOptions,
  type PortalProcess,
  SYSTEM_STAFF,
  startPortal,
} from './support/portal';
import { type PostgresCluster, startPostgres } from './support/postgres';

const LONG = process.env.AFP_SYSTEM_LONG === '1';
const KILLS = LONG ? 6 : 2;

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

/** A portal process that is killed at the end of the file whatever happens. */
async function portalOn(options: PortalOptions): Promise<PortalProcess> {
  // A first start applies every migration (and runs initdb where no template could be made): slow
  // on a busy machine.
  // These tests write whole years as one person again and again on purpose: no day-write budget.
  const env = { REQUEST_BUDGETS: 'dayWrites=100000000', ...options.env };
  const portal = await startPortal({ startTimeout: 150_000, ...options, env });
  cleanups.push(() => portal.stop('SIGKILL'));
  return portal;
}

async function staffOn(portal: PortalProcess): Promise<ApiClient> {
  return new ApiClient(portal.url).login(SYSTEM_STAFF.username, SYSTEM_STAFF.password, { staff: true });
}

// ---------------------------------------------------------------------------------------------
// SIGKILL during a bulk update

/** Two years of every weekday: 730 days in one transaction, with as many outbox rows. */
const BULK_RANGE = { startDate: '2030-01-01', endDate: '2031-12-31' };
const BULK_DAYS = 730;
const STATUSES = ['available', 'limited', 'unavailable'] as const;

function bulkRound(round: number) {
  const status = STATUSES[round % STATUSES.length]!;
  return {
    ...BULK_RANGE,
    daysOfWeek: [0, 1, 2, 3, 4, 5, 6],
    status,
    startTime: status === 'limited' ? '09:00' : '',
    endTime: status === 'limited' ? '13:00' : '',
    notes: `round ${round}`,
  };
}

interface DayRow {
  date: string;
  status: string;
  notes: string;
}

/** Which round the facilitator's 730 days hold; fails unless every day holds the same one. */
function roundHeld(days: DayRow[]): number {
  expect(days).toHaveLength(BULK_DAYS);
  const notes = [...new Set(days.map((d) => d.notes))];
  expect(notes, 'every day of the bulk update holds the same round (all or nothing)').toHaveLength(1);
  const round = Number(notes[0]!.replace('round ', ''));
  const expected = bulkRound(round);
  for (const day of days) expect(day.status).toBe(expected.status);
  return round;
}

async function daysThroughApi(client: ApiClient): Promise<DayRow[]> {
  const days: DayRow[] = [];
  for (const [from, to] of [
    ['2030-01-01', '2030-12-31'],
    ['2031-01-01', '2031-12-31'],
  ]) {
    const response = await send<DayRow[]>(
      client,
      'GET',
      `/api/availability?from=${from}&to=${to}`,
      undefined,
      60_000,
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    days.push(...response.body);
  }
  return days;
}

interface KillRecord {
  round: number;
  moment: string;
  /** ms after the request was sent */
  killedAfterMs: number;
  answeredBeforeKill: boolean;
  committed: boolean;
  restartMs: number;
}

interface Engine {
  name: string;
  start(): Promise<PortalProcess>;
  /**
   * Waits for the moment to kill the portal during the request in flight; returns its name, or null
   * when the request ended first.
   */
  killMoment(inFlight: Promise<Outcome>, kill: number, typicalMs: number): Promise<string | null>;
}

interface SigkillResult {
  kills: KillRecord[];
  committedRounds: number[];
  portal: PortalProcess;
  person: Facilitator;
}

function settled(promise: Promise<unknown>): () => boolean {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  return () => done;
}

async function sigkillScenario(engine: Engine): Promise<SigkillResult> {
  let portal = await engine.start();
  const [person] = await createFacilitators(await staffOn(portal), `kill-${engine.name}`, 1);
  let facilitator = await new ApiClient(portal.url).login(person!.username, person!.password);

  const committedRounds: number[] = [];
  const durations: number[] = [];
  let round = 0;
  // Three acknowledged rounds first: the baseline, and how long one takes here.
  for (; round < 3; round++) {
    const outcome = await send(facilitator, 'POST', '/api/availability/bulk', bulkRound(round), 60_000);
    expect(outcome.status, JSON.stringify(outcome.body)).toBe(200);
    expect(outcome.body).toEqual({ updated: BULK_DAYS, skippedBookedDates: [] });
    durations.push(outcome.ms);
    committedRounds.push(round);
  }
  const typicalMs = durations.sort((a, b) => a - b)[1]!;

  const kills: KillRecord[] = [];
  for (let attempt = 0; kills.length < KILLS && attempt < KILLS * 4; attempt++, round++) {
    const sentAt = performance.now();
    const inFlight = send(facilitator, 'POST', '/api/availability/bulk', bulkRound(round), 60_000);
    const moment = await engine.killMoment(inFlight, kills.length, typicalMs);
    if (!moment) {
      // The update finished before the moment came: an ordinary acknowledged round; try again.
      expect((await inFlight).status).toBe(200);
      committedRounds.push(round);
      continue;
    }
    portal.process.kill('SIGKILL');
    const killedAfterMs = performance.now() - sentAt;
    expect((await portal.exited).signal).toBe('SIGKILL');
    const answeredBeforeKill = (await inFlight).status === 200;

    const restartStarted = performance.now();
    portal = await engine.start();
    const restartMs = performance.now() - restartStarted;
    // It started cleanly: nothing at warning level or above on its way up.
    expect(portal.output(), 'the restarted portal logged nothing alarming').not.toMatch(/"level":[456]0/);
    // The session made before the kill still works: it lives in the database, not the process.
    const cookie = facilitator.cookie;
    facilitator = new ApiClient(portal.url);
    facilitator.cookie = cookie;
    const held = roundHeld(await daysThroughApi(facilitator));
    if (answeredBeforeKill) expect(held, 'an acknowledged update survives').toBe(round);
    else expect([committedRounds.at(-1), round], 'last committed round, or the killed one').toContain(held);
    const committed = held === round;
    if (committed) committedRounds.push(round);
    kills.push({
      round,
      moment,
      killedAfterMs: Math.round(killedAfterMs),
      answeredBeforeKill,
      committed,
      restartMs: Math.round(restartMs),
    });
  }
  expect(kills).toHaveLength(KILLS);

  // And the restarted portal works normally: one more acknowledged round.
  const after = await send(facilitator, 'POST', '/api/availability/bulk', bulkRound(round), 60_000);
  expect(after.status).toBe(200);
  committedRounds.push(round);
  expect(roundHeld(await daysThroughApi(facilitator))).toBe(round);
  return { kills, committedRounds, portal, person: person! };
}

/** Outbox rows per day of the facilitator: one per committed round, for every one of the 730 days. */
function expectOutboxRows(rows: Array<{ date: string; n: number }>, committedRounds: number) {
  expect(rows).toHaveLength(BULK_DAYS);
  for (const row of rows) expect(Number(row.n), row.date).toBe(committedRounds);
}

const OUTBOX_PER_DAY_SQL = `select o.date::text as date, count(*)::int as n from sync_outbox o
  join users u on u.id = o.user_id where u.username = $1 group by o.date`;

// ---------------------------------------------------------------------------------------------
// SIGTERM

async function gracefulShutdown(
  portal: PortalProcess,
  person: Facilitator,
  label: string,
  waitUntilInFlight: (outputBefore: number) => Promise<void>,
): Promise<number[]> {
  const facilitator = await new ApiClient(portal.url).login(person.username, person.password);
  const staff = await staffOn(portal);
  // The year the staff grid reads is filled first, so the read is big whatever commits first.
  expect((await send(facilitator, 'POST', '/api/availability/bulk', bulkRound(99), 60_000)).status).toBe(200);
  // Slow work in flight: two big bulk saves and the staff grid for a year.
  const outputBefore = portal.output().length;
  const inFlight = [
    send(facilitator, 'POST', '/api/availability/bulk', bulkRound(100), 60_000),
    send(staff, 'GET', '/api/staff/availabilities?from=2030-01-01&to=2030-12-31', undefined, 60_000),
    send(facilitator, 'POST', '/api/availability/bulk', bulkRound(101), 60_000),
  ];
  await waitUntilInFlight(outputBefore);
  const signalledAt = performance.now();
  portal.process.kill('SIGTERM');
  // A new connection is refused as soon as the listener has closed.
  const refused = await waitFor(
    'the listener to close',
    () =>
      new Promise<string | false>((resolve) => {
        const socket = createConnection({ host: '127.0.0.1', port: portal.port });
        socket.once('connect', () => {
          socket.destroy();
          resolve(false);
        });
        // A connection that reaches the listener in the moment it closes is accepted by the kernel
        // and then reset; only a refusal shows the listener is gone.
        socket.once('error', (error: NodeJS.ErrnoException) =>
          resolve(error.code === 'ECONNRESET' ? false : (error.code ?? 'error')),
        );
      }),
    5_000,
    20,
  );
  expect(refused).toBe('ECONNREFUSED');
  const outcomes = await Promise.all(inFlight);
  const exit = await portal.exited;
  const exitMs = performance.now() - signalledAt;
  for (const outcome of outcomes)
    expect(outcome.status, outcome.error ?? JSON.stringify(outcome.body)).toBe(200);
  // A year of every facilitator with days in it.
  const gridRows = (outcomes[1]!.body as unknown[]).length;
  expect(gridRows % 365 === 0 && gridRows >= 365, `${gridRows} grid rows`).toBe(true);
  expect(exit, portal.output().slice(-4000)).toEqual({ code: 0, signal: null });
  expect(exitMs).toBeLessThan(15_000);
  console.info(
    `${label} SIGTERM: ${outcomes.length} requests in flight answered 200, new connections refused, exit 0 after ${Math.round(exitMs)} ms`,
  );
  return [99, 100, 101];
}

// ---------------------------------------------------------------------------------------------

describe('embedded database (DATA_DIR)', () => {
  let dataDir = '';
  let result: SigkillResult | undefined;
  beforeAll(async () => {
    dataDir = await emptyDataDir('afp-faults-');
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  });

  /** The WAL segments' sizes and times: they change only when a transaction commits. */
  const walState = () => {
    const wal = join(dataDir, 'pglite', 'pg_wal');
    return readdirSync(wal)
      .filter((name) => /^[0-9A-F]{24}$/.test(name))
      .map((name) => {
        const stat = statSync(join(wal, name));
        return `${name}:${stat.size}:${stat.mtimeMs}`;
      })
      .join(',');
  };

  test('SIGKILL during a bulk update: all or nothing after the restart', async () => {
    result = await sigkillScenario({
      name: 'pglite',
      // Debug level logs each request as it is read (the SIGTERM test waits for that).
      start: () => portalOn({ dataDir, env: { LOG_LEVEL: 'debug' } }),
      async killMoment(inFlight, kill, typicalMs) {
        // No second process may open the embedded database, so its files are watched instead.
        const done = settled(inFlight);
        if (kill % 2 === 0) {
          // Inside the transaction, before its commit: 40% of a typical update after sending.
          await sleep(typicalMs * 0.4);
          return done() ? null : 'in the transaction (timed)';
        }
        // At the commit: the moment the write-ahead log starts to change (checked every 2 ms).
        const before = walState();
        while (!done()) {
          if (walState() !== before) return 'as the commit reaches the write-ahead log';
          await sleep(2);
        }
        return null;
      },
    });
    console.info('pglite SIGKILL', JSON.stringify(result.kills));
  });

  test('SIGTERM finishes requests in flight; the outbox then matches every committed round', async () => {
    if (!result) throw new Error('needs the portal of the previous test');
    const { portal, person, committedRounds } = result;
    committedRounds.push(
      ...(await gracefulShutdown(portal, person, 'pglite', async (outputBefore) => {
        // PGlite runs inside the portal's process: nothing outside sees a transaction start, but
        // the portal logs each request it has read. (One still in the listen queue when the
        // listener closes is refused, as it would be on any server.)
        await waitFor(
          'the portal to read the three requests',
          async () =>
            (
              portal
                .output()
                .slice(outputBefore)
                .match(/"msg":"incoming request"/g) ?? []
            ).length >= 3,
          20_000,
          10,
        );
      })),
    );
    // The outbox, read from the database files once the portal has stopped.
    const rows = await withPgliteDir(
      dataDir,
      async (db) => (await db.query<{ date: string; n: number }>(OUTBOX_PER_DAY_SQL, [person.username])).rows,
    );
    expectOutboxRows(rows, committedRounds.length);
  });
});

// ---------------------------------------------------------------------------------------------

describe('PostgreSQL', () => {
  let cluster: PostgresCluster;
  let sharePoint: EmulatedSharePoint;
  let databaseUrl: string;
  let portal: PortalProcess;
  let loadPeople: Facilitator[] = [];

  beforeAll(async () => {
    [cluster, sharePoint] = await Promise.all([startPostgres(), startEmulatedSharePoint('faults')]);
    cleanups.push(
      () => cluster.destroy(),
      () => sharePoint.close(),
    );
    databaseUrl = await cluster.createDatabase();
  });

  test('SIGKILL during a bulk update: all or nothing after the restart, outbox rows match', async () => {
    const watcher = new pg.Client({ connectionString: databaseUrl });
    watcher.on('error', () => {});
    await watcher.connect();
    cleanups.push(() => watcher.end());
    const result = await sigkillScenario({
      name: 'pg',
      start: () => portalOn({ databaseUrl, env: sharePoint.env }),
      async killMoment(inFlight, kill, typicalMs) {
        // Seen from PostgreSQL: the bulk transaction has written rows (it has a transaction id) and
        // has not committed. Killed there, all of it must roll back.
        const done = settled(inFlight);
        while (!done()) {
          const { rows } = await watcher.query(
            `select 1 from pg_stat_activity where datname = current_database()
             and backend_xid is not null and pid <> pg_backend_pid()`,
          );
          if (rows.length === 0) continue;
          if (kill % 2 === 0) return 'at its first write';
          await sleep(typicalMs * 0.15);
          return done() ? null : 'deeper into the transaction';
        }
        return null;
      },
    });
    console.info('pg SIGKILL', JSON.stringify(result.kills));
    for (const kill of result.kills) expect(kill.committed).toBe(false);
    expectOutboxRows(
      await pgQuery(databaseUrl, OUTBOX_PER_DAY_SQL, [result.person.username]),
      result.committedRounds.length,
    );
    await watcher.end();
    portal = result.portal;
    // Done with these: the facilitator has no freelancer ID, so the rows would only be skipped.
    await pgQuery(databaseUrl, 'delete from sync_outbox where user_id = $1', [result.person.id]);
  });

  test('PostgreSQL restarted and stopped under load: the same process recovers, nothing acknowledged is lost', async () => {
    const pid = portal.process.pid;
    const staff = await staffOn(portal);
    await sharePoint.configure(staff);
    loadPeople = await createFacilitators(staff, 'outage', 3, true);
    const clients = await Promise.all(
      loadPeople.map((p) => new ApiClient(portal.url).login(p.username, p.password)),
    );

    type Phase = 'up' | 'restarting' | 'down' | 'starting' | 'recovered';
    let phase: Phase = 'up';
    interface Answer {
      phase: Phase;
      at: number;
      what: string;
      outcome: Outcome<{ message?: string }>;
      write?: { userId: number; date: string; notes: string };
    }
    const answers: Answer[] = [];
    let running = true;
    const writer = async (client: ApiClient, person: Facilitator, index: number) => {
      for (let n = 0; running; n++) {
        const write = { userId: person.id, date: addDays('2036-01-01', n), notes: `w${index}-${n}` };
        const requestPhase = phase;
        const outcome = await send<{ message?: string }>(client, 'POST', '/api/availability', {
          date: write.date,
          status: STATUSES[n % 3],
          notes: write.notes,
        });
        answers.push({ phase: requestPhase, at: performance.now(), what: 'save a day', outcome, write });
        if (outcome.status !== 200) await sleep(50);
      }
    };
    const reader = async (client: ApiClient, path: string) => {
      while (running) {
        const requestPhase = phase;
        const outcome = await send<{ message?: string }>(client, 'GET', path);
        answers.push({ phase: requestPhase, at: performance.now(), what: `GET ${path}`, outcome });
        if (outcome.status !== 200) await sleep(50);
      }
    };
    const loops = [
      ...clients.map((client, i) => writer(client, loadPeople[i]!, i)),
      reader(staff, '/api/staff/availabilities?from=2036-01-01&to=2036-12-31'),
      reader(clients[0]!, '/api/user'),
    ];
    const firstSuccessAfter = async (t: number) => {
      try {
        return await waitFor(
          'a successful request after the database came back',
          async () => answers.find((r) => r.at > t && r.outcome.status === 200)?.at,
          15_000,
          20,
        );
      } catch (error) {
        running = false;
        const recent = answers.slice(-6).map((r) => `${r.what} ${r.outcome.status} ${r.outcome.error ?? ''}`);
        throw new Error(`${(error as Error).message}\n${recent.join('\n')}\n${portal.output().slice(-3000)}`);
      }
    };

    await sleep(LONG ? 5000 : 1500);
    phase = 'restarting';
    await cluster.restart();
    const restartedAt = performance.now();
    phase = 'recovered';
    const afterRestartMs = (await firstSuccessAfter(restartedAt)) - restartedAt;
    await sleep(LONG ? 3000 : 500);

    phase = 'down';
    await cluster.stop();
    await sleep(3000);
    phase = 'starting';
    await cluster.start();
    const startedAt = performance.now();
    phase = 'recovered';
    const afterStartMs = (await firstSuccessAfter(startedAt)) - startedAt;
    await sleep(LONG ? 5000 : 1500);
    running = false;
    await Promise.all(loops);

    // The same process served throughout.
    expect(portal.process.pid).toBe(pid);
    expect(portal.process.exitCode, portal.output()).toBeNull();
    expect(portal.process.signalCode, portal.output()).toBeNull();

    const byStatus: Record<number, number> = {};
    for (const r of answers) byStatus[r.outcome.status] = (byStatus[r.outcome.status] ?? 0) + 1;
    for (const r of answers) {
      // Never a hang or a dropped connection, never a sign-out: the only failure is a clean 503.
      const about = `${r.what} while ${r.phase}: ${r.outcome.error ?? JSON.stringify(r.outcome.body)}`;
      expect([200, 503], about).toContain(r.outcome.status);
      if (r.outcome.status === 503) {
        expect(r.outcome.contentType, about).toMatch(/^application\/json/);
        expect(r.outcome.body, about).toEqual({ message: DATABASE_UNAVAILABLE_MESSAGE });
      }
    }
    expect(byStatus[503] ?? 0, 'the outage was seen').toBeGreaterThan(0);
    expect(afterRestartMs).toBeLessThan(5_000);
    expect(afterStartMs).toBeLessThan(5_000);

    // Sessions made before the outage still work.
    for (const client of [staff, ...clients])
      expect((await send(client, 'GET', '/api/user')).status).toBe(200);

    // Every acknowledged write is in the database ...
    const acknowledged = answers.filter((r) => r.write && r.outcome.status === 200).map((r) => r.write!);
    const stored = await pgQuery<{ user_id: number; date: string; notes: string }>(
      databaseUrl,
      'select user_id, date::text as date, notes from availability where user_id = any($1)',
      [loadPeople.map((p) => p.id)],
    );
    const storedNotes = new Map(stored.map((r) => [`${r.user_id}|${r.date}`, r.notes]));
    const lost = acknowledged.filter((w) => storedNotes.get(`${w.userId}|${w.date}`) !== w.notes);
    expect(lost, 'acknowledged writes missing from the database').toEqual([]);

    // ... and reaches SharePoint exactly once, as the database holds it: the scheduler's outbox
    // drain (its advisory-lock connection included) lived through the outage.
    await waitFor(
      'the outbox to drain',
      async () =>
        (await pgQuery<{ n: number }>(databaseUrl, 'select count(*)::int as n from sync_outbox'))[0]!.n === 0,
      30_000,
      250,
    ).catch(async (error: Error) => {
      const left = await pgQuery(
        databaseUrl,
        'select user_id, date::text, next_attempt_at, last_error from sync_outbox limit 5',
      );
      throw new Error(`${error.message}: ${JSON.stringify(left)}\n${portal.output().slice(-3000)}`);
    });
    const items = sharePoint.availabilityItems();
    const freelancerIdOf = new Map(loadPeople.map((p, i) => [p.id, `OUTAGE-${i + 1}`]));
    for (const row of stored) {
      const found = items.get(`${freelancerIdOf.get(row.user_id)}|${row.date}`) ?? [];
      expect(found, `${row.user_id} ${row.date}`).toHaveLength(1);
      expect(found[0]!.Notes).toBe(row.notes);
    }
    expect([...items.keys()].filter((k) => k.startsWith('OUTAGE-'))).toHaveLength(stored.length);
    // A bookings refresh (the refresh job's lock connection) works again too.
    expect((await send(staff, 'POST', '/api/staff/bookings/refresh')).status).toBe(200);

    console.info(
      'pg outage',
      JSON.stringify({
        answers: answers.length,
        byStatus,
        firstSuccessAfterRestartMs: Math.round(afterRestartMs),
        firstSuccessAfterStartMs: Math.round(afterStartMs),
        slowestAnswerMs: Math.round(Math.max(...answers.map((r) => r.outcome.ms))),
        acknowledgedWrites: acknowledged.length,
        lost: lost.length,
        inSharePointOnceEach: stored.length,
      }),
    );
  });

  test('SIGTERM finishes requests in flight, refuses new connections, exits 0', async () => {
    await gracefulShutdown(portal, loadPeople[0]!, 'pg', async () => {
      // The first bulk save has begun writing.
      await waitFor(
        'the bulk update to be in its transaction',
        async () =>
          (
            await pgQuery(
              databaseUrl,
              `select 1 from pg_stat_activity where datname = current_database() and backend_xid is not null
               and pid <> pg_backend_pid()`,
            )
          ).length > 0,
        10_000,
        5,
      );
    });
  });
});
