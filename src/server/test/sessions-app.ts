/**
 * The app the session and request security suites (src/server/http/sessions-*.test.ts) stand on:
 * registration open, LOG_LEVEL=trace into `logLines`, a stand-in client build, a tight login throttle
 * and the app's clock (`clock`) moved by the tests; SharePoint is played by the emulator (not
 * configured). Two facilitators, A and B. With `secure`, a second app with COOKIE_SECURE=true and
 * TRUST_PROXY=1 (one proxy in front).
 *
 * Each suite file calls `sessionsApp` once at its top: it registers the hooks that start and stop
 * the apps, so the files run apart (and in parallel) from the same starting point.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import type { ApiRoute } from '../app';
import { type ConnectorSetup, setupConnector } from '../sharepoint/test-support';
import { TEST_METRICS_TOKEN } from './built-client';
import { dumpTables } from './db-state';
import { createTestApp, STAFF, type TestApp } from './harness';

export const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;
export const THROTTLE = {
  perAccountAddress: 3,
  perAddress: 6,
  perAccount: 5,
  accountPauseMs: MINUTE,
  windowMs: 10 * MINUTE,
  blockMs: 10 * MINUTE,
};
/** THROTTLE as the LOGIN_THROTTLE setting */
const LOGIN_THROTTLE = Object.entries(THROTTLE)
  .map(([name, value]) => `${name}=${value}`)
  .join(',');
export const CROSS_SITE = 'Cross-site requests are not allowed';

export interface Person {
  id: number;
  username: string;
  password: string;
}

export type Method = NonNullable<InjectOptions['method']>;
export interface Send {
  cookie?: string | undefined;
  payload?: unknown;
  headers?: Record<string, string>;
  address?: string;
}

export function send(app: TestApp, method: Method, url: string, options: Send = {}) {
  return app.app.inject({
    method,
    url,
    headers: { ...(options.cookie ? { cookie: options.cookie } : {}), ...options.headers },
    ...(options.payload === undefined ? {} : { payload: options.payload as object }),
    ...(options.address ? { remoteAddress: options.address } : {}),
  });
}

/** The session cookie an answer set: `__Host-afp_session` where the app is always on TLS, else plain. */
export function sessionCookie(response: LightMyRequestResponse) {
  return response.cookies.find((c) => c.name === 'afp_session' || c.name === '__Host-afp_session');
}
export function cookieHeader(response: LightMyRequestResponse): string {
  const cookie = sessionCookie(response);
  if (!cookie?.value) throw new Error(`no session cookie in ${response.statusCode} ${response.body}`);
  return `${cookie.name}=${cookie.value}`;
}
export const tokenOf = (cookie: string) => cookie.slice(cookie.indexOf('=') + 1);

/** A route's path with its `:id` and `:token` filled in (unknown ones unless given). */
export const urlOf = (route: ApiRoute, id = 999_999, token = 'abc.def') =>
  route.url.replace(':id', String(id)).replace(':token', token);

export interface SessionsApp {
  /** the emulator and the main app */
  readonly s: ConnectorSetup;
  readonly t: TestApp;
  /** COOKIE_SECURE=true and TRUST_PROXY=1; only with `secure` */
  readonly secure: TestApp;
  readonly a: Person;
  readonly b: Person;
  readonly staffId: number;
  /** what the main app's logger wrote */
  readonly logLines: string[];
  /** the main app's clock, in epoch milliseconds */
  clock: number;
  advance(ms: number): void;
  signIn(
    person: { username: string; password: string },
    options?: Send & { staff?: boolean },
  ): Promise<string>;
  signInStaff(options?: Send): Promise<string>;
  /** the status of GET /api/user with this cookie */
  whoAmI(cookie: string, app?: TestApp): Promise<number>;
  dump(): ReturnType<typeof dumpTables>;
  sessionCount(userId: number): Promise<number>;
}

export function sessionsApp(options: { secure?: boolean } = {}): SessionsApp {
  let clock = Date.now();
  const logLines: string[] = [];
  let clientDir: string | undefined;
  let s: ConnectorSetup | undefined;
  let t: TestApp | undefined;
  let secure: TestApp | undefined;
  let a: Person | undefined;
  let b: Person | undefined;
  let staffId = 0;
  const ready = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`${name} is not set up (sessionsApp)`);
    return value;
  };

  const world: SessionsApp = {
    get s() {
      return ready(s, 's');
    },
    get t() {
      return ready(t, 't');
    },
    get secure() {
      return ready(secure, 'secure (sessionsApp({ secure: true }))');
    },
    get a() {
      return ready(a, 'a');
    },
    get b() {
      return ready(b, 'b');
    },
    get staffId() {
      return staffId;
    },
    logLines,
    get clock() {
      return clock;
    },
    set clock(value: number) {
      clock = value;
    },
    advance(ms) {
      clock += ms;
    },
    async signIn(person, signInOptions = {}) {
      const response = await send(
        world.t,
        'POST',
        signInOptions.staff ? '/api/auth/staff-login' : '/api/login',
        { ...signInOptions, payload: { username: person.username, password: person.password } },
      );
      expect(response.statusCode, response.body).toBe(200);
      return cookieHeader(response);
    },
    signInStaff: (signInOptions = {}) => world.signIn(STAFF, { ...signInOptions, staff: true }),
    whoAmI: async (cookie, app = world.t) => (await send(app, 'GET', '/api/user', { cookie })).statusCode,
    dump: () => dumpTables(world.t.ctx.db),
    async sessionCount(userId) {
      const result = await world.t.ctx.db.execute(
        sql`select count(*)::int as n from sessions where user_id = ${userId}`,
      );
      return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
    },
  };

  beforeAll(async () => {
    // A stand-in client build, so the page and asset answers are checked whether or not dist/ is built.
    clientDir = mkdtempSync(join(tmpdir(), 'afp-client-'));
    await mkdir(join(clientDir, 'assets'));
    writeFileSync(
      join(clientDir, 'index.html'),
      '<!doctype html><title>Facilitator Availability Calendar</title>',
    );
    writeFileSync(join(clientDir, 'assets', 'app-3f9a1c.js'), 'console.log("portal");');

    // both apps at once: on a busy machine each start (migrations) takes a while
    [s, secure] = await Promise.all([
      setupConnector({
        seed: { seed: 'sessions', bookingCount: 8, facilitatorCount: 3 },
        env: {
          LOG_LEVEL: 'trace',
          ALLOW_REGISTRATION: 'true',
          LOGIN_THROTTLE,
          CLIENT_DIR: clientDir,
          METRICS_TOKEN: TEST_METRICS_TOKEN,
        },
        configure: false,
        build: {
          now: () => new Date(clock),
          logStream: { write: (line) => void logLines.push(line) },
        },
      }),
      options.secure
        ? createTestApp({
            COOKIE_SECURE: 'true',
            TRUST_PROXY: '1',
            ALLOW_REGISTRATION: 'true',
            LOGIN_THROTTLE,
          })
        : undefined,
    ]);
    t = s.t;

    const make = async (username: string, password: string) => {
      const row = await s!.t.createUser({ username, password, displayName: username.split('@')[0] });
      return { id: row.id, username, password };
    };
    a = await make('alice@example.org', 'alice-pass-1');
    b = await make('bob@example.org', 'bob-pass-1');
    const me = await send(s.t, 'GET', '/api/user', { cookie: await world.signInStaff() });
    staffId = me.json().id;
  }, 240_000);

  afterAll(async () => {
    await s?.close();
    await secure?.close();
    if (clientDir) rmSync(clientDir, { recursive: true, force: true });
  });

  return world;
}
