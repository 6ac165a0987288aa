/**
 * Load: the real portal process under a loopback load for a fixed time, then proof that nothing
 * acknowledged was lost or duplicated.
 *
 *   npm run load -- [--duration 30] [--facilitators 20] [--staff 4] [--db pglite|postgres|both]
 *                   [--instances 1] [--in-flight 2] [--max-in-flight 32] [--think ms] [--warmup 2] [--no-sharepoint]
 *                   [--abusers 1]
 *
 * Each run: a SharePoint emulator in this process (the portal's GRAPH_BASE_URL / AUTHORITY_HOST point
 * at it), one or more portal processes on a fresh database (PGlite in a temporary DATA_DIR, or a
 * PostgreSQL database: DATABASE_URL when given, else a throwaway cluster), staff and facilitator
 * accounts created through the staff API, bookings added to the emulator's Bookings list and brought
 * in by the real refresh (POST /api/staff/bookings/refresh). Then, after a warm-up (`--warmup`
 * seconds of the same load, checked but not timed: a fresh process is slow on its first requests),
 * for `duration` seconds:
 *  - every facilitator (a virtual user with its own session) saves availability: single days, bulk
 *    saves of two to five days, and single saves on booked days (those must answer 409 and are never
 *    counted as acknowledged). Every save carries new values (a sequence number in the notes), and a
 *    user never has two writes in flight for the same day, so "the last acknowledged value" of a day
 *    is well defined;
 *  - every staff user reads the month grid as the dashboard does (availabilities, bookings and users
 *    at once), the month's notes, and now and then writes a note.
 * In-flight requests are bounded per virtual user (`--in-flight` lanes each) and in total.
 * With `--abusers n`, n more facilitators (accounts without a freelancer ID, so nothing of theirs goes
 * to SharePoint) loop 800-day bulk updates back to back on their own lanes, outside the in-flight cap,
 * and carry on through 429s without waiting: the request budgets must keep everyone else's times.
 * Their requests are counted apart (`abuse` in the report) and their days are not checked.
 *
 * Afterwards: the outbox is left to drain and the emulator's Availability list must hold exactly one
 * item per saved day with the day's values; the portals are stopped (SIGTERM, exit code 0) and the
 * database is read directly: every acknowledged day-write present exactly once with the LAST
 * acknowledged value, no row where nothing was acknowledged, no outbox rows left, every acknowledged
 * note present. Errors are every answer that is neither the expected status nor the expected 409, and
 * every network failure.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { DEFAULT_BUDGETS } from '../src/server/http/budgets';
import { eachDay, endOfMonth, isWeekday, selectBulkDays } from '../src/shared/calendar';
import { BOOKED_DAY_MESSAGE } from '../src/shared/schemas/availability';
import { defaultColumns, type RunningEmulator, startEmulator } from '../src/sharepoint-emulator/index';
import { createRng } from '../src/sharepoint-emulator/random';
import type { ListInfo } from '../src/sharepoint-emulator/types';
import { ApiClient } from './support/http';
import { emptyDataDir, type PortalProcess, SYSTEM_STAFF, startPortal } from './support/portal';
import { type PostgresCluster, startPostgres } from './support/postgres';
import { type PortalTuning, startTunedPortal } from './support/tuned-portal';

// ---------------------------------------------------------------------------------------------------
// Options and report

export interface LoadOptions {
  db: 'pglite' | 'postgres';
  /** PostgreSQL only: use this (empty, dedicated) database instead of a throwaway cluster */
  databaseUrl?: string;
  durationSeconds: number;
  facilitators: number;
  staff: number;
  /** portal processes sharing the database (PostgreSQL only); virtual users are spread over them */
  instances?: number;
  /** requests in flight per virtual user (default 2) */
  perUserInFlight?: number;
  /** requests in flight in total (default 32) */
  maxInFlight?: number;
  /** the month everyone works on, `yyyy-MM` (default 2026-05) */
  month?: string;
  bookingsPerFacilitator?: number;
  /** run tuned portal processes (short SharePoint waits), see system/support/tuned-portal.ts */
  tuning?: PortalTuning;
  /** Availability list's Title column unique, as the portal's default setup has it (default true). With
   * false, a create sent twice leaves two items behind instead of a 409: duplicates become visible. */
  uniqueKeys?: boolean;
  /** wait for the outbox to drain and compare the Availability list (default true) */
  checkSharePoint?: boolean;
  /** how long the outbox may take to drain after the load (default 60 s) */
  drainTimeoutMs?: number;
  /** The first seconds of the timed phase run the same load but are not timed (a fresh process
   * compiles and warms its caches on its first requests); their answers are checked all the same.
   * Default 2. */
  warmupSeconds?: number;
  /** pause of each lane between two operations (default 0: back to back) */
  thinkMs?: number;
  /** Runs alongside the timed phase (fault injection), which lasts at least `durationSeconds` and
   * until this has finished; faults and outage are cleared afterwards. */
  during?: (context: { emulator: RunningEmulator }) => Promise<void>;
  /** progress lines (default: none) */
  log?: (line: string) => void;
  /** facilitators looping 800-day bulk updates, ignoring 429s (default 0) */
  abusers?: number;
}

/** The abusers' requests: how many, how many were written and how many refused (429). */
export interface AbuseFigures {
  abusers: number;
  requests: number;
  accepted: number;
  limited: number;
  /** days the accepted updates wrote */
  daysWritten: number;
  p50: number;
  /** any other answer or network failure */
  other: number;
}

export interface KindFigures {
  kind: string;
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  /** answers that were not the expected ones (network failures included) */
  errors: number;
}

export interface LoadReport {
  db: 'pglite' | 'postgres';
  instances: number;
  facilitators: number;
  staff: number;
  perUserInFlight: number;
  maxInFlight: number;
  /** from the first request of the timed phase to the last answer */
  elapsedSeconds: number;
  kinds: KindFigures[];
  total: KindFigures;
  expected409: number;
  /** the three slowest requests, with when they started (seconds into the timed phase) */
  slowest: Array<{ kind: string; ms: number; at: number }>;
  /** requests of the warm-up seconds before the timed phase (checked, not timed) */
  warmup: { seconds: number; requests: number; maxMs: number };
  /** the abusive facilitators' requests, when there were any */
  abuse?: AbuseFigures;
  /** unexpected answers and network failures, with a few examples */
  errors: number;
  errorSamples: string[];
  /** acknowledged (2xx) write requests and the day-writes in them */
  acknowledgedRequests: number;
  acknowledgedDayWrites: number;
  /** distinct (user, date) with at least one acknowledged write */
  acknowledgedDays: number;
  /** days whose last write had an unknown outcome (network failure): either value is accepted */
  uncertainDays: number;
  /** acknowledged days missing in the database */
  lost: number;
  /** days holding something else than their last acknowledged value */
  stale: number;
  /** (user, date) with more than one row */
  duplicated: number;
  /** rows where no write was acknowledged or attempted (booked days included) */
  phantom: number;
  outboxLeft: number;
  notesAcknowledged: number;
  notesMissing: number;
  /** exit codes of the portal processes after SIGTERM */
  exitCodes: Array<number | null>;
  sharePoint?: SharePointFigures;
  problems: string[];
}

export interface SharePointFigures {
  /** items in the Availability list for the run's facilitators */
  items: number;
  expected: number;
  missing: number;
  duplicated: number;
  stale: number;
  extra: number;
  /** from the end of the load until the list matched and every day was marked synced */
  drainSeconds: number;
  drained: boolean;
  /** Graph calls the emulator answered with a fault, by fault */
  faultsHit: Record<string, number>;
  /** per portal process: rounds it logged as failed deliveries (shows which processes drained) */
  failedRoundsLogged: number[];
  graphCalls: number;
}

// ---------------------------------------------------------------------------------------------------
// Small tools

class Semaphore {
  private free: number;
  private readonly waiting: Array<() => void> = [];
  constructor(size: number) {
    this.free = size;
  }
  async acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface DayValues {
  status: 'available' | 'limited' | 'unavailable';
  startTime: string;
  endTime: string;
  notes: string;
}

const STATUSES = ['available', 'limited', 'unavailable'] as const;
const TIMES: Array<[string, string]> = [
  ['', ''],
  ['09:00', '15:00'],
  ['10:30', '12:00'],
  ['13:00', '20:00'],
  ['07:00', '09:30'],
];

const sameValues = (a: DayValues, b: DayValues) =>
  a.status === b.status && a.startTime === b.startTime && a.endTime === b.endTime && a.notes === b.notes;

const show = (v: DayValues) => `${v.status} ${v.startTime}-${v.endTime} "${v.notes}"`;

// ---------------------------------------------------------------------------------------------------
// Timed requests

interface Answer {
  status: number;
  body: unknown;
}

/** One request with the virtual user's cookie; a network failure or timeout comes back as a string. */
async function send(
  baseUrl: string,
  cookie: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer | string> {
  try {
    const response = await fetch(baseUrl + path, {
      method,
      headers: {
        cookie,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // keep the text
    }
    return { status: response.status, body: parsed };
  } catch (error) {
    return `network: ${error instanceof Error ? `${error.name} ${error.message}` : String(error)}`;
  }
}

class Recorder {
  readonly latencies = new Map<string, number[]>();
  readonly errorsByKind = new Map<string, number>();
  errors = 0;
  expected409 = 0;
  readonly errorSamples: string[] = [];
  /** the slowest requests: kind, latency and when they started (seconds into the phase) */
  slowest: Array<{ kind: string; ms: number; at: number }> = [];
  /** requests started before this instant (performance.now()) are warm-up: checked, not timed */
  measureFrom = Number.POSITIVE_INFINITY;
  warmup = { requests: 0, maxMs: 0 };
  constructor(
    private readonly limiter: Semaphore,
    private readonly kinds: string[],
  ) {
    for (const kind of kinds) this.latencies.set(kind, []);
  }

  /** Send under the global cap and time it (time spent waiting for the cap is not latency). */
  async timed(
    kind: string,
    baseUrl: string,
    cookie: string,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<Answer | string> {
    await this.limiter.acquire();
    const started = performance.now();
    try {
      return await send(baseUrl, cookie, method, path, body);
    } finally {
      const ms = performance.now() - started;
      this.limiter.release();
      this.record(kind, started, ms);
    }
  }

  private record(kind: string, started: number, ms: number) {
    if (started < this.measureFrom) {
      this.warmup.requests++;
      this.warmup.maxMs = Math.max(this.warmup.maxMs, ms);
      return;
    }
    const list = this.latencies.get(kind) ?? [];
    list.push(ms);
    this.latencies.set(kind, list);
    if (this.slowest.length < 3 || ms > this.slowest[this.slowest.length - 1]!.ms) {
      this.slowest.push({ kind, ms, at: (started - this.measureFrom) / 1000 });
      this.slowest.sort((a, b) => b.ms - a.ms);
      this.slowest.length = Math.min(this.slowest.length, 3);
    }
  }

  error(kind: string, what: string): void {
    this.errors++;
    this.errorsByKind.set(kind, (this.errorsByKind.get(kind) ?? 0) + 1);
    if (this.errorSamples.length < 12) this.errorSamples.push(`${kind}: ${what}`);
  }

  figures(elapsedSeconds: number): { kinds: KindFigures[]; total: KindFigures } {
    const one = (kind: string, values: number[], errors: number): KindFigures => {
      const sorted = [...values].sort((a, b) => a - b);
      return {
        kind,
        requests: sorted.length,
        perSecond: sorted.length / elapsedSeconds,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        max: sorted[sorted.length - 1] ?? 0,
        errors,
      };
    };
    const kinds = this.kinds.map((kind) =>
      one(kind, this.latencies.get(kind) ?? [], this.errorsByKind.get(kind) ?? 0),
    );
    const total = one('all requests', [...this.latencies.values()].flat(), this.errors);
    return { kinds, total };
  }
}

const KIND = {
  save: 'save day',
  booked: 'save booked day (409)',
  bulk: 'bulk save (2-5 days)',
  gridAvailability: 'staff availabilities (month)',
  gridBookings: 'staff bookings (month)',
  gridUsers: 'staff users',
  notesList: 'staff notes (month)',
  noteCreate: 'staff note create',
} as const;

// ---------------------------------------------------------------------------------------------------
// The run

interface Facilitator {
  id: number;
  username: string;
  password: string;
  displayName: string;
  freelancerId: string;
  booked: Set<string>;
  free: string[];
  baseUrl: string;
  cookie: string;
  /** days with a write in flight (never two at once for one day) */
  busy: Set<string>;
  /** days whose last write had an unknown outcome: never written again */
  tainted: Set<string>;
}

interface StaffUser {
  baseUrl: string;
  cookie: string;
}

interface Ledger {
  /** last acknowledged write per `userId|date`, with its sequence number */
  last: Map<string, { values: DayValues; seq: number }>;
  /** writes with an unknown outcome after the last acknowledged one */
  uncertain: Map<string, DayValues[]>;
  /** when each write of a day was acknowledged (performance.now()) and its sequence number */
  ackedAt: Map<string, Array<[number, number]>>;
  acknowledgedRequests: number;
  acknowledgedDayWrites: number;
  notes: Map<number, string>;
  problems: string[];
}

interface Environment {
  emulator: RunningEmulator;
  availabilityList: ListInfo;
  bookingsList: ListInfo;
  siteUrl: string;
  portals: PortalProcess[];
  databaseUrl?: string;
  dataDir?: string;
  cluster?: PostgresCluster;
}

async function startEnvironment(options: LoadOptions): Promise<Environment> {
  const emulator = await startEmulator();
  const portal = emulator.control.seedPortalSite({
    seed: 'load',
    bookingCount: 0,
    omitLists: ['availability'],
  });
  const availabilityList = emulator.control.createList(portal.site.id, {
    displayName: 'Availability',
    columns: defaultColumns().availability.map((column) =>
      column.name === 'Title'
        ? { ...column, indexed: true, enforceUniqueValues: options.uniqueKeys ?? true }
        : column,
    ),
  });
  const environment: Environment = {
    emulator,
    availabilityList,
    bookingsList: portal.lists.bookings!,
    siteUrl: portal.siteUrl,
    portals: [],
  };
  try {
    if (options.db === 'postgres') {
      if (options.databaseUrl) {
        environment.databaseUrl = options.databaseUrl;
      } else {
        environment.cluster = await startPostgres();
        environment.databaseUrl = await environment.cluster.createDatabase();
      }
    } else {
      environment.dataDir = await emptyDataDir('afp-load-');
    }
    const instances = options.db === 'postgres' ? (options.instances ?? 1) : 1;
    const env = {
      GRAPH_BASE_URL: emulator.graphBaseUrl,
      AUTHORITY_HOST: emulator.authorityHost,
      OFFICE_HOURS: 'Sun-Sat 00:00-24:00',
      ORG_TIMEZONE: 'Europe/London',
    };
    // One after the other: simultaneous first starts racing over migrations are the scale-out
    // suite's subject, not this one's.
    for (let i = 0; i < instances; i++) {
      const portalOptions = {
        ...(environment.dataDir ? { dataDir: environment.dataDir } : {}),
        ...(environment.databaseUrl ? { databaseUrl: environment.databaseUrl } : {}),
        env,
        // a first start (every migration, and a new cluster where no template could be made) can
        // take a minute on a busy shared machine
        startTimeout: 150_000,
      };
      environment.portals.push(
        options.tuning
          ? await startTunedPortal({ ...portalOptions, tuning: options.tuning })
          : await startPortal(portalOptions),
      );
    }
  } catch (error) {
    await stopEnvironment(environment);
    throw error;
  }
  return environment;
}

async function stopEnvironment(environment: Environment): Promise<void> {
  for (const portal of environment.portals) await portal.stop('SIGKILL').catch(() => {});
  await environment.emulator.close().catch(() => {});
  await environment.cluster?.destroy().catch(() => {});
  if (environment.dataDir) rmSync(environment.dataDir, { recursive: true, force: true });
}

async function inBatches<T>(items: T[], size: number, task: (item: T, index: number) => Promise<void>) {
  for (let i = 0; i < items.length; i += size) {
    await Promise.all(items.slice(i, i + size).map((item, j) => task(item, i + j)));
  }
}

/** Accounts through the staff API, bookings through the emulator and the real refresh, sessions. */
async function seedAccounts(
  options: LoadOptions,
  environment: Environment,
  days: string[],
  random: () => number,
): Promise<{ admin: ApiClient; facilitators: Facilitator[]; staff: StaffUser[]; abusers: StaffUser[] }> {
  const { emulator, portals } = environment;
  const admin = await new ApiClient(portals[0]!.url).login(SYSTEM_STAFF.username, SYSTEM_STAFF.password, {
    staff: true,
  });
  const credentials = emulator.control.credentials;
  const settings = await admin.request('POST', '/api/sharepoint/settings', {
    siteUrl: environment.siteUrl,
    availabilityListName: environment.availabilityList.displayName,
    bookingsListName: environment.bookingsList.displayName,
    facilitatorListName: '',
    schoolsListName: '',
    tenantId: credentials.tenantId,
    clientId: credentials.clientId,
    clientSecret: credentials.clientSecret,
  });
  if (settings.status !== 200) throw new Error(`saving SharePoint settings: ${settings.status}`);

  const run = Date.now().toString(36);
  const weekdays = days.filter(isWeekday);
  const perUser = Math.min(options.bookingsPerFacilitator ?? 4, weekdays.length);
  const facilitators: Facilitator[] = [];
  await inBatches(
    Array.from({ length: options.facilitators }, (_, i) => i),
    4,
    async (i) => {
      const username = `load-${run}-f${i}@example.org`;
      const password = `load-password-${i}`;
      const freelancerId = `L${run}-${i}`;
      const displayName = `Load Facilitator ${i}`;
      const created = await admin.request<{ id: number }>('POST', '/api/staff/users', {
        username,
        password,
        displayName,
        freelancerId,
        area: ['North', 'South', 'East'][i % 3],
        role: 'facilitator',
      });
      if (created.status !== 201) throw new Error(`creating ${username}: ${created.status}`);
      const booked = new Set<string>();
      while (booked.size < perUser) booked.add(weekdays[Math.floor(random() * weekdays.length)]!);
      facilitators[i] = {
        id: created.body.id,
        username,
        password,
        displayName,
        freelancerId,
        booked,
        free: days.filter((d) => !booked.has(d)),
        baseUrl: portals[i % portals.length]!.url,
        cookie: '',
        busy: new Set(),
        tainted: new Set(),
      };
    },
  );

  for (const f of facilitators) {
    for (const date of f.booked) {
      emulator.control.addItem(environment.bookingsList, {
        Title: `Load workshop ${f.freelancerId} ${date}`,
        FreelancerID: f.freelancerId,
        SessionDate: date,
        StartTime: '09:30',
        EndTime: '12:00',
        SchoolID: 'SCH001',
        Status: 'Confirmed',
      });
    }
  }
  const refreshed = await admin.request('POST', '/api/staff/bookings/refresh');
  if (refreshed.status !== 200) {
    throw new Error(`bookings refresh: ${refreshed.status} ${JSON.stringify(refreshed.body)}`);
  }
  const listed = await admin.request<Array<{ userId: number | null; date: string }>>(
    'GET',
    `/api/staff/bookings?from=${days[0]}&to=${days[days.length - 1]}`,
  );
  const seen = new Set(listed.body.map((b) => `${b.userId}|${b.date}`));
  for (const f of facilitators) {
    for (const date of f.booked) {
      if (!seen.has(`${f.id}|${date}`)) throw new Error(`booking ${f.freelancerId} ${date} did not arrive`);
    }
  }

  await inBatches(facilitators, 4, async (f) => {
    const client = await new ApiClient(f.baseUrl).login(f.username, f.password);
    f.cookie = client.cookie;
  });

  const staff: StaffUser[] = [];
  await inBatches(
    Array.from({ length: options.staff }, (_, i) => i),
    4,
    async (i) => {
      const username = `load-${run}-s${i}@example.org`;
      const password = `load-staff-password-${i}`;
      const created = await admin.request('POST', '/api/staff/users', {
        username,
        password,
        displayName: `Load Staff ${i}`,
        role: 'staff',
      });
      if (created.status !== 201) throw new Error(`creating ${username}: ${created.status}`);
      const baseUrl = portals[i % portals.length]!.url;
      const client = await new ApiClient(baseUrl).login(username, password, { staff: true });
      staff[i] = { baseUrl, cookie: client.cookie };
    },
  );
  const abusers: StaffUser[] = [];
  for (let i = 0; i < (options.abusers ?? 0); i++) {
    const username = `load-${run}-a${i}@example.org`;
    const password = `load-abuser-password-${i}`;
    const created = await admin.request('POST', '/api/staff/users', {
      username,
      password,
      displayName: `Load Abuser ${i}`,
      role: 'facilitator',
    });
    if (created.status !== 201) throw new Error(`creating ${username}: ${created.status}`);
    const baseUrl = portals[i % portals.length]!.url;
    const client = await new ApiClient(baseUrl).login(username, password);
    abusers.push({ baseUrl, cookie: client.cookie });
  }
  return { admin, facilitators, staff, abusers };
}

interface TimedPhase {
  recorder: Recorder;
  ledger: Ledger;
  elapsedSeconds: number;
  abuse?: AbuseFigures;
}

/** 800 days from here on (MAX_BULK_DAYS), far from the month everyone else works on. */
const ABUSE_FROM = '2030-01-01';
const ABUSE_TO = '2032-03-10';
/** days in one abusive bulk update */
const ABUSE_DAYS = 800;

async function timedPhase(
  options: LoadOptions,
  environment: Environment,
  people: { facilitators: Facilitator[]; staff: StaffUser[]; abusers: StaffUser[] },
  days: string[],
  random: () => number,
): Promise<TimedPhase> {
  const perUser = options.perUserInFlight ?? 2;
  const recorder = new Recorder(new Semaphore(options.maxInFlight ?? 32), Object.values(KIND));
  const ledger: Ledger = {
    last: new Map(),
    uncertain: new Map(),
    ackedAt: new Map(),
    acknowledgedRequests: 0,
    acknowledgedDayWrites: 0,
    notes: new Map(),
    problems: [],
  };
  let seq = 0;
  const firstDay = days[0]!;
  const lastDay = days[days.length - 1]!;
  const warmupMs = (options.warmupSeconds ?? 2) * 1000;
  const started = performance.now() + warmupMs;
  recorder.measureFrom = started;
  const endsAt = started + options.durationSeconds * 1000;
  let duringDone = !options.during;
  const running = () => performance.now() < endsAt || !duringDone;
  const think = () => (options.thinkMs ? sleep(options.thinkMs * (0.5 + random())) : undefined);

  const valuesFor = (f: Facilitator, n: number): DayValues => {
    const [startTime, endTime] = TIMES[n % TIMES.length]!;
    return { status: STATUSES[n % STATUSES.length]!, startTime, endTime, notes: `load ${f.id} #${n}` };
  };

  const acknowledge = (f: Facilitator, date: string, values: DayValues, n: number) => {
    const key = `${f.id}|${date}`;
    const previous = ledger.last.get(key);
    if (previous && previous.seq > n) ledger.problems.push(`acknowledgements out of order for ${key}`);
    ledger.last.set(key, { values, seq: n });
    ledger.ackedAt.set(key, [...(ledger.ackedAt.get(key) ?? []), [performance.now(), n]]);
    ledger.uncertain.delete(key);
    ledger.acknowledgedDayWrites++;
  };
  const unknownOutcome = (f: Facilitator, dates: string[], values: DayValues) => {
    for (const date of dates) {
      const key = `${f.id}|${date}`;
      ledger.uncertain.set(key, [...(ledger.uncertain.get(key) ?? []), values]);
      f.tainted.add(date);
    }
  };
  const freeDays = (f: Facilitator) => f.free.filter((d) => !f.busy.has(d) && !f.tainted.has(d));

  async function saveOne(f: Facilitator) {
    const candidates = freeDays(f);
    if (candidates.length === 0) return sleep(5);
    const date = candidates[Math.floor(random() * candidates.length)]!;
    const n = ++seq;
    const values = valuesFor(f, n);
    f.busy.add(date);
    try {
      const answer = await recorder.timed(KIND.save, f.baseUrl, f.cookie, 'POST', '/api/availability', {
        date,
        ...values,
      });
      if (typeof answer === 'string') {
        recorder.error(KIND.save, answer);
        unknownOutcome(f, [date], values);
      } else if (answer.status === 200) {
        ledger.acknowledgedRequests++;
        acknowledge(f, date, values, n);
        const saved = answer.body as DayValues & { date: string; userId: number };
        if (!sameValues(saved, values) || saved.date !== date || saved.userId !== f.id) {
          recorder.error(KIND.save, `the answer shows ${JSON.stringify(saved)} for ${date} ${show(values)}`);
        }
      } else {
        recorder.error(KIND.save, `${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
        // a 4xx changed nothing; anything else may have
        if (answer.status >= 500) unknownOutcome(f, [date], values);
      }
    } finally {
      f.busy.delete(date);
    }
  }

  async function saveBooked(f: Facilitator) {
    const booked = [...f.booked];
    const date = booked[Math.floor(random() * booked.length)]!;
    const n = ++seq;
    const answer = await recorder.timed(KIND.booked, f.baseUrl, f.cookie, 'POST', '/api/availability', {
      date,
      ...valuesFor(f, n),
    });
    if (typeof answer === 'string') return recorder.error(KIND.booked, answer);
    const message = (answer.body as { message?: unknown } | null)?.message;
    if (answer.status === 409 && message === BOOKED_DAY_MESSAGE) recorder.expected409++;
    else recorder.error(KIND.booked, `booked day answered ${answer.status} ${JSON.stringify(answer.body)}`);
  }

  async function saveBulk(f: Facilitator) {
    for (let tries = 0; tries < 5; tries++) {
      const startIndex = Math.floor(random() * days.length);
      const span = 2 + Math.floor(random() * 4);
      const startDate = days[startIndex]!;
      const endDate = days[Math.min(days.length - 1, startIndex + span - 1)]!;
      const daysOfWeek =
        random() < 0.6 ? [0, 1, 2, 3, 4, 5, 6] : [0, 1, 2, 3, 4, 5, 6].filter(() => random() < 0.6);
      if (daysOfWeek.length === 0) continue;
      const selected = selectBulkDays(startDate, endDate, daysOfWeek);
      const toWrite = selected.filter((d) => !f.booked.has(d));
      const skipped = selected.filter((d) => f.booked.has(d));
      if (selected.length === 0 || toWrite.some((d) => f.busy.has(d) || f.tainted.has(d))) continue;
      const n = ++seq;
      const values = valuesFor(f, n);
      for (const d of toWrite) f.busy.add(d);
      try {
        const answer = await recorder.timed(
          KIND.bulk,
          f.baseUrl,
          f.cookie,
          'POST',
          '/api/availability/bulk',
          { startDate, endDate, daysOfWeek, ...values },
        );
        if (typeof answer === 'string') {
          recorder.error(KIND.bulk, answer);
          unknownOutcome(f, toWrite, values);
        } else if (answer.status === 200) {
          const result = answer.body as { updated: number; skippedBookedDates: string[] };
          ledger.acknowledgedRequests++;
          if (
            result.updated !== toWrite.length ||
            JSON.stringify(result.skippedBookedDates) !== JSON.stringify(skipped)
          ) {
            recorder.error(
              KIND.bulk,
              `bulk ${startDate}..${endDate} ${daysOfWeek} answered ${JSON.stringify(result)}, expected ${toWrite.length} written and ${JSON.stringify(skipped)} skipped`,
            );
            unknownOutcome(f, toWrite, values);
          } else {
            for (const d of toWrite) acknowledge(f, d, values, n);
          }
        } else {
          recorder.error(KIND.bulk, `${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
          if (answer.status >= 500) unknownOutcome(f, toWrite, values);
        }
      } finally {
        for (const d of toWrite) f.busy.delete(d);
      }
      return;
    }
    await saveOne(f);
  }

  async function facilitatorLane(f: Facilitator) {
    while (running()) {
      const r = random();
      if (r < 0.15 && f.booked.size > 0) await saveBooked(f);
      else if (r < 0.4) await saveBulk(f);
      else await saveOne(f);
      await think();
    }
  }

  /** A read that started after a write was acknowledged must show that write or a newer one. */
  function checkFreshness(rows: Array<{ userId: number; date: string; notes: string }>, readStarted: number) {
    const shown = new Map(rows.map((r) => [`${r.userId}|${r.date}`, r.notes]));
    for (const [key, acks] of ledger.ackedAt) {
      let required = 0;
      for (const [at, n] of acks) if (at < readStarted && n > required) required = n;
      if (required === 0) continue;
      const notes = shown.get(key);
      const seen = Number(/#(\d+)$/.exec(notes ?? '')?.[1] ?? 0);
      if (seen < required) {
        recorder.error(
          KIND.gridAvailability,
          `stale read: ${key} showed ${notes === undefined ? 'nothing' : `"${notes}"`}, write #${required} was acknowledged before the read`,
        );
      }
    }
  }

  async function staffLane(s: StaffUser, index: number) {
    const range = `from=${firstDay}&to=${lastDay}`;
    for (let round = 0; running(); round++) {
      const expectOk = (kind: string, answer: Answer | string, status = 200): answer is Answer => {
        if (typeof answer === 'string') {
          recorder.error(kind, answer);
          return false;
        }
        if (answer.status !== status) {
          recorder.error(kind, `${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
          return false;
        }
        return true;
      };
      // The dashboard asks for the three at once.
      const readStarted = performance.now();
      const [grid, bookings, users] = await Promise.all([
        recorder.timed(
          KIND.gridAvailability,
          s.baseUrl,
          s.cookie,
          'GET',
          `/api/staff/availabilities?${range}`,
        ),
        recorder.timed(KIND.gridBookings, s.baseUrl, s.cookie, 'GET', `/api/staff/bookings?${range}`),
        recorder.timed(KIND.gridUsers, s.baseUrl, s.cookie, 'GET', '/api/staff/users'),
      ]);
      if (expectOk(KIND.gridAvailability, grid)) {
        const rows = grid.body as Array<{ userId: number; date: string }>;
        const keys = new Set(rows.map((r) => `${r.userId}|${r.date}`));
        if (keys.size !== rows.length) recorder.error(KIND.gridAvailability, 'the grid listed a day twice');
        checkFreshness(rows as Array<{ userId: number; date: string; notes: string }>, readStarted);
      }
      expectOk(KIND.gridBookings, bookings);
      expectOk(KIND.gridUsers, users);
      const notes = await recorder.timed(
        KIND.notesList,
        s.baseUrl,
        s.cookie,
        'GET',
        `/api/staff/notes?date=${firstDay}&view=month`,
      );
      expectOk(KIND.notesList, notes);
      if (round % 4 === 3 && people.facilitators.length > 0) {
        const f = people.facilitators[Math.floor(random() * people.facilitators.length)]!;
        const text = `load note ${index}/${round} ${++seq}`;
        const created = await recorder.timed(
          KIND.noteCreate,
          s.baseUrl,
          s.cookie,
          'POST',
          '/api/staff/notes',
          {
            facilitatorId: f.id,
            date: days[Math.floor(random() * days.length)],
            note: text,
            priority: (['normal', 'high', 'urgent'] as const)[round % 3],
          },
        );
        if (expectOk(KIND.noteCreate, created, 201))
          ledger.notes.set((created.body as { id: number }).id, text);
      }
      await think();
    }
  }

  const abuse: AbuseFigures = {
    abusers: people.abusers.length,
    requests: 0,
    accepted: 0,
    limited: 0,
    daysWritten: 0,
    p50: 0,
    other: 0,
  };
  const abuseTimes: number[] = [];
  // No think time, no cap, no respect for Retry-After: whatever the budgets let through is written.
  // On a slow machine the run can end before the budget is spent: an abuser then keeps going until
  // it has been refused once, bounded by the requests two windows' budget allows.
  const abuseCap = Math.ceil((2 * DEFAULT_BUDGETS.dayWrites.max) / ABUSE_DAYS) + 2;
  async function abuserLane(a: StaffUser, lane: number) {
    for (let n = 0; running() || (abuse.limited === 0 && n < abuseCap); n++) {
      const started = performance.now();
      const answer = await send(a.baseUrl, a.cookie, 'POST', '/api/availability/bulk', {
        startDate: ABUSE_FROM,
        endDate: ABUSE_TO,
        daysOfWeek: [0, 1, 2, 3, 4, 5, 6],
        status: STATUSES[(n + lane) % STATUSES.length],
        notes: `abuse ${lane} #${n}`,
      });
      if (started < recorder.measureFrom) continue;
      abuse.requests++;
      abuseTimes.push(performance.now() - started);
      if (typeof answer === 'string') abuse.other++;
      else if (answer.status === 200) {
        abuse.accepted++;
        abuse.daysWritten += (answer.body as { updated: number }).updated;
      } else if (answer.status === 429) abuse.limited++;
      else abuse.other++;
    }
  }

  const lanes: Promise<unknown>[] = [];
  for (const f of people.facilitators) for (let i = 0; i < perUser; i++) lanes.push(facilitatorLane(f));
  people.abusers.forEach((a) => {
    for (let i = 0; i < perUser; i++) lanes.push(abuserLane(a, i));
  });
  people.staff.forEach((s, i) => {
    lanes.push(staffLane(s, i));
  });
  const faults = options.during?.({ emulator: environment.emulator }).finally(() => {
    duringDone = true;
  });
  await Promise.all(lanes);
  await faults;
  const elapsedSeconds = (performance.now() - started) / 1000;
  abuse.p50 = percentile(
    abuseTimes.sort((x, y) => x - y),
    50,
  );
  return { recorder, ledger, elapsedSeconds, ...(people.abusers.length > 0 ? { abuse } : {}) };
}

interface DayRow extends DayValues {
  userId: number;
  date: string;
  synced: boolean;
}

/** Compare the Availability list with what the database holds for the run's facilitators. */
function compareSharePoint(
  environment: Environment,
  facilitators: Facilitator[],
  rows: DayRow[],
): Omit<SharePointFigures, 'drainSeconds' | 'drained' | 'faultsHit' | 'graphCalls' | 'failedRoundsLogged'> {
  const byFreelancer = new Map(facilitators.map((f) => [f.freelancerId, f]));
  const byId = new Map(facilitators.map((f) => [f.id, f]));
  const items = environment.emulator.control
    .items(environment.availabilityList)
    .filter((item) => byFreelancer.has(String(item.fields.FreelancerID ?? '')));
  const itemsByKey = new Map<string, typeof items>();
  for (const item of items) {
    const key = String(item.fields.Title ?? '');
    itemsByKey.set(key, [...(itemsByKey.get(key) ?? []), item]);
  }
  const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));
  const label = (status: string) => status.charAt(0).toUpperCase() + status.slice(1);
  let missing = 0;
  let duplicated = 0;
  let stale = 0;
  const expectedKeys = new Set<string>();
  for (const row of rows) {
    const f = byId.get(row.userId);
    if (!f) continue;
    const key = `${f.freelancerId}|${row.date}`;
    expectedKeys.add(key);
    const found = itemsByKey.get(key) ?? [];
    if (found.length === 0) {
      missing++;
      continue;
    }
    if (found.length > 1) duplicated++;
    const fields = found[0]!.fields;
    const matches =
      text(fields.Status) === label(row.status) &&
      text(fields.StartTime) === row.startTime &&
      text(fields.EndTime) === row.endTime &&
      text(fields.Notes) === row.notes &&
      text(fields.Day) === row.date &&
      text(fields.FacilitatorName) === f.displayName;
    if (!matches || found.some((item) => item !== found[0] && item.fields.Notes !== fields.Notes)) stale++;
  }
  const extra = [...itemsByKey.keys()].filter((key) => !expectedKeys.has(key)).length;
  return { items: items.length, expected: expectedKeys.size, missing, duplicated, stale, extra };
}

async function staffRows(admin: ApiClient, days: string[], ids: Set<number>): Promise<DayRow[]> {
  const answer = await admin.request<
    Array<DayValues & { userId: number; date: string; syncedToSharePoint: boolean }>
  >('GET', `/api/staff/availabilities?from=${days[0]}&to=${days[days.length - 1]}`);
  if (answer.status !== 200) throw new Error(`reading the grid: ${answer.status}`);
  return answer.body
    .filter((r) => ids.has(r.userId))
    .map((r) => ({
      userId: r.userId,
      date: r.date,
      status: r.status,
      startTime: r.startTime,
      endTime: r.endTime,
      notes: r.notes,
      synced: r.syncedToSharePoint,
    }));
}

/** Until every day is marked synced and the list matches the days (or the time is up). */
async function waitForDrain(
  environment: Environment,
  admin: ApiClient,
  facilitators: Facilitator[],
  days: string[],
  timeoutMs: number,
): Promise<{ drained: boolean; seconds: number }> {
  const started = performance.now();
  const ids = new Set(facilitators.map((f) => f.id));
  for (;;) {
    const rows = await staffRows(admin, days, ids);
    const compared = compareSharePoint(environment, facilitators, rows);
    const drained =
      rows.every((r) => r.synced) &&
      compared.missing + compared.duplicated + compared.stale + compared.extra === 0;
    const seconds = (performance.now() - started) / 1000;
    if (drained) return { drained, seconds };
    if (seconds * 1000 > timeoutMs) return { drained: false, seconds };
    await sleep(200);
  }
}

interface DatabaseState {
  rows: DayRow[];
  counts: Map<string, number>;
  outboxLeft: number;
  notes: Map<number, string>;
}

/** Read the database directly; for PGlite the portal processes must have stopped. */
async function readDatabase(environment: Environment, userIds: number[]): Promise<DatabaseState> {
  const ids = `{${userIds.join(',')}}`;
  const queries = {
    rows: `select user_id, date::text as date, status, start_time, end_time, notes, synced_to_sharepoint
             from availability where user_id = any($1::int[])`,
    counts: `select user_id, date::text as date, count(*)::int as n
               from availability where user_id = any($1::int[]) group by user_id, date`,
    outbox: 'select count(*)::int as n from sync_outbox where user_id = any($1::int[])',
    notes: 'select id, note from staff_notes where facilitator_id = any($1::int[])',
  };
  type Row = Record<string, unknown>;
  let run: (sql: string) => Promise<Row[]>;
  let close: () => Promise<void>;
  if (environment.databaseUrl) {
    const client = new pg.Client({ connectionString: environment.databaseUrl });
    await client.connect();
    run = async (sql) => (await client.query(sql, [ids])).rows as Row[];
    close = () => client.end();
  } else {
    const db = new PGlite(join(environment.dataDir!, 'pglite'));
    await db.waitReady;
    run = async (sql) => (await db.query<Row>(sql, [ids])).rows;
    close = () => db.close();
  }
  try {
    const rows = (await run(queries.rows)).map((r) => ({
      userId: Number(r.user_id),
      date: String(r.date),
      status: r.status as DayValues['status'],
      startTime: String(r.start_time),
      endTime: String(r.end_time),
      notes: String(r.notes),
      synced: Boolean(r.synced_to_sharepoint),
    }));
    const counts = new Map((await run(queries.counts)).map((r) => [`${r.user_id}|${r.date}`, Number(r.n)]));
    const outboxLeft = Number((await run(queries.outbox))[0]?.n ?? 0);
    const notes = new Map((await run(queries.notes)).map((r) => [Number(r.id), String(r.note)]));
    return { rows, counts, outboxLeft, notes };
  } finally {
    await close();
  }
}

export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  const runStarted = performance.now();
  const log = (line: string) =>
    options.log?.(`${((performance.now() - runStarted) / 1000).toFixed(1).padStart(5)} s  ${line}`);
  const month = options.month ?? '2026-05';
  const days = eachDay(`${month}-01`, endOfMonth(`${month}-01`));
  const random = createRng(20_260_501);
  const checkSharePoint = options.checkSharePoint ?? true;

  log(`starting ${options.db} with ${options.instances ?? 1} portal process(es)`);
  const environment = await startEnvironment(options);
  try {
    log('seeding accounts and bookings');
    const people = await seedAccounts(options, environment, days, random);
    environment.emulator.control.clearRequests();

    log(`load for ${options.durationSeconds} s`);
    const phase = await timedPhase(options, environment, people, days, random);
    environment.emulator.control.clearFaults();
    await environment.emulator.control.setOutage(false);
    const faultsHit: Record<string, number> = {};
    const graphRequests = environment.emulator.control.requests();
    for (const request of graphRequests) {
      if (request.fault) faultsHit[request.fault] = (faultsHit[request.fault] ?? 0) + 1;
    }

    let drain: { drained: boolean; seconds: number } | undefined;
    if (checkSharePoint) {
      log('waiting for the outbox to drain');
      drain = await waitForDrain(
        environment,
        people.admin,
        people.facilitators,
        days,
        options.drainTimeoutMs ?? 60_000,
      );
    }

    log('stopping the portal process(es)');
    const exitCodes: Array<number | null> = [];
    for (const portal of environment.portals) exitCodes.push((await portal.stop('SIGTERM')).code);

    const state = await readDatabase(
      environment,
      people.facilitators.map((f) => f.id),
    );
    const { ledger, recorder } = phase;
    const problems = [...ledger.problems];
    const byKey = new Map(state.rows.map((r) => [`${r.userId}|${r.date}`, r]));
    let lost = 0;
    let stale = 0;
    for (const [key, { values }] of ledger.last) {
      const row = byKey.get(key);
      if (!row) {
        lost++;
        if (problems.length < 20) problems.push(`lost: ${key} ${show(values)}`);
        continue;
      }
      const allowed = [values, ...(ledger.uncertain.get(key) ?? [])];
      if (!allowed.some((v) => sameValues(v, row))) {
        stale++;
        if (problems.length < 20)
          problems.push(`stale: ${key} holds ${show(row)}, last acknowledged ${show(values)}`);
      }
    }
    let phantom = 0;
    for (const row of state.rows) {
      const key = `${row.userId}|${row.date}`;
      if (ledger.last.has(key)) continue;
      const possible = ledger.uncertain.get(key) ?? [];
      if (!possible.some((v) => sameValues(v, row))) {
        phantom++;
        if (problems.length < 20) problems.push(`phantom: ${key} holds ${show(row)}`);
      }
    }
    const duplicated = [...state.counts.values()].filter((n) => n > 1).length;
    let notesMissing = 0;
    for (const [id, text] of ledger.notes) if (state.notes.get(id) !== text) notesMissing++;

    let sharePoint: SharePointFigures | undefined;
    if (checkSharePoint && drain) {
      sharePoint = {
        ...compareSharePoint(environment, people.facilitators, state.rows),
        drained: drain.drained,
        drainSeconds: drain.seconds,
        faultsHit,
        graphCalls: graphRequests.length,
        failedRoundsLogged: environment.portals.map(
          (p) => p.output().split('availability delivery to SharePoint failed').length - 1,
        ),
      };
    }

    const { kinds, total } = recorder.figures(phase.elapsedSeconds);
    return {
      db: options.db,
      instances: environment.portals.length,
      facilitators: options.facilitators,
      staff: options.staff,
      perUserInFlight: options.perUserInFlight ?? 2,
      maxInFlight: options.maxInFlight ?? 32,
      elapsedSeconds: phase.elapsedSeconds,
      ...(phase.abuse ? { abuse: phase.abuse } : {}),
      kinds,
      total,
      expected409: recorder.expected409,
      slowest: recorder.slowest,
      warmup: { seconds: options.warmupSeconds ?? 2, ...recorder.warmup },
      errors: recorder.errors,
      errorSamples: recorder.errorSamples,
      acknowledgedRequests: ledger.acknowledgedRequests,
      acknowledgedDayWrites: ledger.acknowledgedDayWrites,
      acknowledgedDays: ledger.last.size,
      uncertainDays: ledger.uncertain.size,
      lost,
      stale,
      duplicated,
      phantom,
      outboxLeft: state.outboxLeft,
      notesAcknowledged: ledger.notes.size,
      notesMissing,
      exitCodes,
      ...(sharePoint ? { sharePoint } : {}),
      problems,
    };
  } finally {
    await stopEnvironment(environment);
  }
}

// ---------------------------------------------------------------------------------------------------
// Printing

const pad = (value: string, width: number, right = false) =>
  right ? value.padStart(width) : value.padEnd(width);

export function formatReport(report: LoadReport): string {
  const name = report.db === 'pglite' ? 'PGlite' : 'PostgreSQL';
  const lines = [
    `${name}, ${report.instances} portal process${report.instances > 1 ? 'es' : ''}: ${report.facilitators} facilitators, ${report.staff} staff, ` +
      `≤${report.perUserInFlight} in flight per user, ≤${report.maxInFlight} in total, ${report.elapsedSeconds.toFixed(1)} s`,
    `  ${pad('request kind', 30)}${pad('requests', 10, true)}${pad('req/s', 9, true)}${pad('p50 ms', 9, true)}${pad('p99 ms', 9, true)}${pad('max ms', 9, true)}${pad('errors', 8, true)}`,
  ];
  for (const k of [...report.kinds, report.total]) {
    lines.push(
      `  ${pad(k.kind, 30)}${pad(String(k.requests), 10, true)}${pad(k.perSecond.toFixed(1), 9, true)}` +
        `${pad(k.p50.toFixed(1), 9, true)}${pad(k.p99.toFixed(1), 9, true)}${pad(k.max.toFixed(1), 9, true)}${pad(String(k.errors), 8, true)}`,
    );
  }
  lines.push(
    `  warm-up before timing: ${report.warmup.seconds} s, ${report.warmup.requests} requests (checked like the rest), slowest ${report.warmup.maxMs.toFixed(0)} ms`,
    `  slowest: ${report.slowest.map((r) => `${r.kind} ${r.ms.toFixed(0)} ms at +${r.at.toFixed(1)} s`).join('; ')}`,
    `  expected 409s (booked days): ${report.expected409}   unexpected errors: ${report.errors}`,
    `  writes acknowledged: ${report.acknowledgedRequests} requests, ${report.acknowledgedDayWrites} day-writes, ${report.acknowledgedDays} distinct days` +
      (report.uncertainDays ? ` (${report.uncertainDays} with an unknown last outcome)` : ''),
    `  writes lost: ${report.lost}   stale: ${report.stale}   duplicated: ${report.duplicated}   phantom: ${report.phantom}   outbox rows left: ${report.outboxLeft}`,
    `  notes acknowledged: ${report.notesAcknowledged}, missing: ${report.notesMissing}   exit codes after SIGTERM: ${report.exitCodes.join(', ')}`,
  );
  if (report.sharePoint) {
    const s = report.sharePoint;
    const faults = Object.entries(s.faultsHit)
      .map(([fault, n]) => `${fault} ×${n}`)
      .join(', ');
    lines.push(
      `  SharePoint: ${s.items} items for ${s.expected} saved days; missing ${s.missing}, duplicated ${s.duplicated}, stale ${s.stale}, extra ${s.extra}; ` +
        `${s.drained ? `drained ${s.drainSeconds.toFixed(1)} s after the load` : `NOT drained after ${s.drainSeconds.toFixed(1)} s`}; ${s.graphCalls} Graph calls` +
        (faults
          ? `; faults hit: ${faults}; failed rounds logged per process: ${s.failedRoundsLogged.join(', ')}`
          : ''),
    );
  }
  if (report.abuse) {
    const a = report.abuse;
    lines.push(
      `  abusive facilitators: ${a.abusers}, looping 800-day bulk updates: ${a.requests} requests (p50 ${a.p50.toFixed(1)} ms), ` +
        `${a.accepted} written (${a.daysWritten} days), ${a.limited} refused with 429, ${a.other} other answers`,
    );
  }
  for (const sample of report.errorSamples) lines.push(`  error: ${sample}`);
  for (const problem of report.problems) lines.push(`  problem: ${problem}`);
  return lines.join('\n');
}

/** Everything that must be zero (or equal) for a run to count as clean; empty when it is. */
export function failures(report: LoadReport): string[] {
  const out: string[] = [];
  if (report.errors > 0) out.push(`${report.errors} unexpected errors`);
  if (report.lost > 0) out.push(`${report.lost} acknowledged writes lost`);
  if (report.stale > 0) out.push(`${report.stale} days not holding their last acknowledged value`);
  if (report.duplicated > 0) out.push(`${report.duplicated} days stored twice`);
  if (report.phantom > 0) out.push(`${report.phantom} rows nobody acknowledged`);
  if (report.notesMissing > 0) out.push(`${report.notesMissing} acknowledged notes missing`);
  if (report.problems.length > 0 && report.lost + report.stale + report.phantom === 0) {
    out.push(...report.problems);
  }
  if (report.exitCodes.some((code) => code !== 0)) out.push(`exit codes ${report.exitCodes.join(', ')}`);
  if (report.acknowledgedDayWrites === 0) out.push('no write was acknowledged');
  const s = report.sharePoint;
  if (s) {
    if (report.outboxLeft > 0) out.push(`${report.outboxLeft} outbox rows left`);
    if (!s.drained) out.push('the outbox did not drain');
    if (s.missing + s.duplicated + s.stale + s.extra > 0) {
      out.push(
        `SharePoint list: ${s.missing} missing, ${s.duplicated} duplicated, ${s.stale} stale, ${s.extra} extra`,
      );
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// CLI

async function cli() {
  const args = process.argv.slice(2);
  const option = (name: string, fallback: string) => {
    const index = args.indexOf(`--${name}`);
    return index >= 0 && args[index + 1] !== undefined ? args[index + 1]! : fallback;
  };
  const number = (name: string, fallback: number) => {
    const value = Number(option(name, String(fallback)));
    if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
    return value;
  };
  const which = option('db', 'both');
  if (!['pglite', 'postgres', 'both'].includes(which))
    throw new Error('--db must be pglite, postgres or both');
  const base = {
    durationSeconds: number('duration', 30),
    facilitators: number('facilitators', 20),
    staff: number('staff', 4),
    perUserInFlight: number('in-flight', 2),
    maxInFlight: number('max-in-flight', 32),
    thinkMs: args.includes('--think') ? number('think', 100) : 0,
    warmupSeconds: args.includes('--warmup') ? Number(option('warmup', '2')) : 2,
    checkSharePoint: !args.includes('--no-sharepoint'),
    abusers: args.includes('--abusers') ? Number(option('abusers', '1')) : 0,
    log: (line: string) => process.stderr.write(`[load] ${line}\n`),
  };
  const dbs = which === 'both' ? (['pglite', 'postgres'] as const) : [which as 'pglite' | 'postgres'];
  let failed = false;
  for (const db of dbs) {
    const report = await runLoad({
      ...base,
      db,
      ...(db === 'postgres' ? { instances: number('instances', 1) } : {}),
      ...(db === 'postgres' && process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
    });
    process.stdout.write(`\n${formatReport(report)}\n`);
    const bad = failures(report);
    if (bad.length > 0) {
      failed = true;
      process.stdout.write(`  FAILED: ${bad.join('; ')}\n`);
    }
  }
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  cli().catch((error) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
