/**
 * Sessions and requests: fixation, logout, idle and absolute expiry, password changes,
 * cross-site refusal for every state-changing route, login throttling per account and per address,
 * security headers on every response, and secrets that never reach a response or a log line.
 *
 * The route lists come from the app itself (`routes`), so a new route is covered, or fails here, without
 * anyone remembering this file. Time is the app's clock (`now`), moved by the tests.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_HINT_COOKIE } from '../../shared/schemas/auth';
import { portalSettingsFor } from '../../sharepoint-emulator/index';
import type { ApiRoute } from '../app';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../auth/sessions';
import { bookings, offers } from '../db/schema';
import { signOfferLink } from '../modules/offers/links';
import { type ConnectorSetup, setupConnector } from '../sharepoint/test-support';
import { dumpTables, TABLES, type TableDump } from '../test/db-state';
import { createTestApp, STAFF, type TestApp } from '../test/harness';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const THROTTLE = {
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
const CROSS_SITE = 'Cross-site requests are not allowed';

// SharePoint secrets, distinctive so any copy of them is found
const SP_CLIENT_SECRET = 'Cl1ent-Secret~Distinct~8c41f0';
const SP_PASSWORD = 'Sp-Passw0rd~Distinct~71be2d';
const SMTP_PASSWORD = 'Smtp-Passw0rd~Distinct~9c41aa';

let clock = Date.now();
const advance = (ms: number) => {
  clock += ms;
};

const logLines: string[] = [];
/** Figures for the closing note, printed after the file. */
const counted = { crossSiteRefused: 0, crossSiteAllowed: 0, headerAnswers: 0, secrets: 0, logLines: 0 };
let clientDir: string;
let s: ConnectorSetup;
/** The main app: registration open, LOG_LEVEL=trace into logLines, a test client build, tight throttle. */
let t: TestApp;
/** COOKIE_SECURE=true and TRUST_PROXY=1 (one proxy in front). */
let secure: TestApp;

interface Person {
  id: number;
  username: string;
  password: string;
}
let a: Person;
let b: Person;
let staffId: number;

type Method = NonNullable<InjectOptions['method']>;
interface Send {
  cookie?: string | undefined;
  payload?: unknown;
  headers?: Record<string, string>;
  address?: string;
}

function send(app: TestApp, method: Method, url: string, options: Send = {}) {
  return app.app.inject({
    method,
    url,
    headers: { ...(options.cookie ? { cookie: options.cookie } : {}), ...options.headers },
    ...(options.payload === undefined ? {} : { payload: options.payload as object }),
    ...(options.address ? { remoteAddress: options.address } : {}),
  });
}

function sessionCookie(response: LightMyRequestResponse) {
  return response.cookies.find((c) => c.name === 'afp_session');
}
function cookieHeader(response: LightMyRequestResponse): string {
  const cookie = sessionCookie(response);
  if (!cookie?.value) throw new Error(`no session cookie in ${response.statusCode} ${response.body}`);
  return `afp_session=${cookie.value}`;
}
const tokenOf = (cookie: string) => cookie.slice('afp_session='.length);

async function signIn(
  person: { username: string; password: string },
  options: Send & { staff?: boolean } = {},
) {
  const response = await send(t, 'POST', options.staff ? '/api/auth/staff-login' : '/api/login', {
    ...options,
    payload: { username: person.username, password: person.password },
  });
  expect(response.statusCode, response.body).toBe(200);
  return cookieHeader(response);
}
const signInStaff = (options: Send = {}) => signIn(STAFF, { ...options, staff: true });
const whoAmI = async (cookie: string, app: TestApp = t) =>
  (await send(app, 'GET', '/api/user', { cookie })).statusCode;

// --- database state, for "nothing changed" ---------------------------------------------------------

const dump = () => dumpTables(t.ctx.db);

async function sessionCount(userId: number): Promise<number> {
  const result = await t.ctx.db.execute(
    sql`select count(*)::int as n from sessions where user_id = ${userId}`,
  );
  return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
}

const urlOf = (route: ApiRoute, id = 999_999, token = 'abc.def') =>
  route.url.replace(':id', String(id)).replace(':token', token);

// -----------------------------------------------------------------------------------------------------

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
      env: { LOG_LEVEL: 'trace', ALLOW_REGISTRATION: 'true', LOGIN_THROTTLE, CLIENT_DIR: clientDir },
      configure: false,
      build: {
        now: () => new Date(clock),
        logStream: { write: (line) => void logLines.push(line) },
      },
    }),
    createTestApp({
      COOKIE_SECURE: 'true',
      TRUST_PROXY: '1',
      ALLOW_REGISTRATION: 'true',
      LOGIN_THROTTLE,
    }),
  ]);
  t = s.t;

  const make = async (username: string, password: string) => {
    const row = await t.createUser({ username, password, displayName: username.split('@')[0] });
    return { id: row.id, username, password };
  };
  a = await make('alice@example.org', 'alice-pass-1');
  b = await make('bob@example.org', 'bob-pass-1');
  const me = await send(t, 'GET', '/api/user', { cookie: await signInStaff() });
  staffId = me.json().id;
}, 240_000);

afterAll(async () => {
  console.log(
    `sessions and requests: ${counted.crossSiteRefused} cross-site requests refused with nothing changed, ` +
      `${counted.crossSiteAllowed} same-origin/non-browser requests let through, ` +
      `${counted.headerAnswers} answers checked for security headers, ` +
      `${counted.secrets} secrets searched for in every response and ${counted.logLines} trace log lines`,
  );
  await s?.close();
  await secure?.close();
  if (clientDir) rmSync(clientDir, { recursive: true, force: true });
});

// -----------------------------------------------------------------------------------------------------

describe('session fixation', () => {
  const CHOSEN = `afp_session=${'A'.repeat(43)}`;

  it.each([
    [
      'POST /api/login',
      () => ({ url: '/api/login', payload: { username: a.username, password: a.password } }),
    ],
    ['POST /api/auth/staff-login', () => ({ url: '/api/auth/staff-login', payload: STAFF })],
    [
      'POST /api/register',
      () => ({
        url: '/api/register',
        payload: { username: `fixed-${clock}@example.org`, password: 'fixed-pass-1' },
      }),
    ],
  ])('%s never keeps or adopts a session id chosen before sign-in', async (_name, build) => {
    const { url, payload } = build();
    const response = await send(t, 'POST', url, { cookie: CHOSEN, payload });
    expect(response.statusCode).toBeLessThan(300);
    const issued = cookieHeader(response);
    expect(issued).not.toBe(CHOSEN);
    expect(await whoAmI(CHOSEN)).toBe(401);
    expect(await t.ctx.sessions.resolve(tokenOf(CHOSEN))).toBeNull();
    expect(await whoAmI(issued)).toBe(200);
  });

  it('gives a new session id at every sign-in; the one the browser held ends, other devices keep theirs', async () => {
    const otherDevice = await signIn(a);
    const first = await signIn(a);
    const second = await signIn(a, { cookie: first });
    const third = await signIn(a, { cookie: second });
    expect(new Set([otherDevice, first, second, third]).size).toBe(4);
    expect(await whoAmI(first)).toBe(401);
    expect(await whoAmI(second)).toBe(401);
    expect(await whoAmI(third)).toBe(200);
    expect(await whoAmI(otherDevice)).toBe(200);
  });

  it("signing in over another user's session ends that session", async () => {
    const bobs = await signIn(b);
    const alices = await signIn(a, { cookie: bobs });
    expect(await whoAmI(bobs)).toBe(401);
    expect((await send(t, 'GET', '/api/user', { cookie: alices })).json().id).toBe(a.id);
  });

  it('a failed sign-in sets no cookie and leaves the current session as it was', async () => {
    const cookie = await signIn(a);
    const before = await sessionCount(a.id);
    const failed = await send(t, 'POST', '/api/login', {
      cookie,
      address: '10.1.0.1',
      payload: { username: a.username, password: 'not-the-password' },
    });
    expect(failed.statusCode).toBe(401);
    expect(failed.headers['set-cookie']).toBeUndefined();
    expect(await sessionCount(a.id)).toBe(before);
    expect(await whoAmI(cookie)).toBe(200);
  });

  it('a password change replaces the session id too', async () => {
    const user = await t.createUser({ username: 'fixation-pw@example.org', password: 'first-pass-1' });
    const cookie = await signIn({ username: user.username, password: 'first-pass-1' });
    const response = await send(t, 'PUT', '/api/user/password', {
      cookie,
      payload: { currentPassword: 'first-pass-1', newPassword: 'second-pass-2' },
    });
    expect(response.statusCode).toBe(200);
    const renewed = cookieHeader(response);
    expect(renewed).not.toBe(cookie);
    expect(await whoAmI(cookie)).toBe(401);
    expect(await whoAmI(renewed)).toBe(200);
  });

  it('treats malformed, oversized, quoted or doubled session cookies as no session (never a 5xx)', async () => {
    const valid = tokenOf(await signIn(a));
    const hostile = [
      'afp_session=',
      'afp_session=%',
      'afp_session=%E0%A4%A',
      `afp_session=${'x'.repeat(6000)}`,
      'afp_session=ünï',
      `afp_session="${valid}"`,
      `AFP_SESSION=${valid}`,
      `afp_session=${valid}%00`,
      `afp_session=${valid.slice(0, -1)}`,
      `afp_session=not-a-session; afp_session=${valid}`,
    ];
    for (const cookie of hostile) {
      const response = await send(t, 'GET', '/api/user', { cookie });
      expect(response.statusCode, cookie.slice(0, 60)).toBe(401);
    }
  });

  it('the database keeps only a keyed hash of each token, and tokens are long and random', async () => {
    const cookies = [await signIn(a), await signIn(b), await signInStaff()];
    const result = await t.ctx.db.execute(sql`select id from sessions`);
    const ids = (result as unknown as { rows: { id: string }[] }).rows.map((row) => row.id);
    for (const cookie of cookies) {
      const token = tokenOf(cookie);
      expect(token).toMatch(/^[A-Za-z0-9_-]{43,}$/);
      expect(ids).not.toContain(token);
      expect(ids.join('\n')).not.toContain(token);
    }
  });
});

describe('logout', () => {
  it.each([
    ['POST', '/api/logout'],
    ['GET', '/api/logout'],
    ['GET', '/api/auth/logout'],
  ] as const)('%s %s: the old cookie is refused by every route afterwards', async (method, url) => {
    for (const who of ['facilitator', 'staff'] as const) {
      const cookie = who === 'staff' ? await signInStaff() : await signIn(a);
      const userId = who === 'staff' ? staffId : a.id;
      const before = await sessionCount(userId);
      const response = await send(t, method, url, { cookie });
      expect(response.statusCode).toBe(method === 'POST' ? 200 : 302);
      const cleared = sessionCookie(response);
      expect(cleared?.value).toBe('');
      expect(cleared?.expires?.getTime() ?? cleared?.maxAge).toBeLessThanOrEqual(Date.now());
      expect(await sessionCount(userId)).toBe(before - 1);

      const stillOpen: string[] = [];
      for (const route of t.routes.filter((r) => r.access !== 'public')) {
        for (const m of route.method === 'GET' ? ['GET', 'HEAD'] : [route.method]) {
          const answer = await send(t, m as Method, urlOf(route, a.id), { cookie, payload: {} });
          if (answer.statusCode !== 401) stillOpen.push(`${m} ${route.url}: ${answer.statusCode}`);
        }
      }
      expect(stillOpen, `${who}: the ended session still opens ${stillOpen.join(', ')}`).toEqual([]);
      // and the link forms of logout with the dead cookie do nothing more than send you to sign in
      expect((await send(t, 'GET', '/api/logout', { cookie })).statusCode).toBe(302);
    }
  });

  it('ends only the session it is called with', async () => {
    const laptop = await signIn(a);
    const phone = await signIn(a);
    await send(t, 'POST', '/api/logout', { cookie: laptop });
    expect(await whoAmI(laptop)).toBe(401);
    expect(await whoAmI(phone)).toBe(200);
  });
});

describe('expiry (the app clock moves)', () => {
  it('ends a session left unused for the idle time; using it keeps it alive', async () => {
    const cookie = await signIn(a);
    advance(SESSION_IDLE_MS - MINUTE);
    expect(await whoAmI(cookie)).toBe(200);
    advance(SESSION_IDLE_MS - MINUTE);
    expect(await whoAmI(cookie)).toBe(200);
    advance(SESSION_IDLE_MS + MINUTE);
    expect(await whoAmI(cookie)).toBe(401);
    // every route refuses it, not just /api/user
    expect((await send(t, 'GET', '/api/availability', { cookie })).statusCode).toBe(401);
  });

  it('records use at most every few minutes (reads do not become writes)', async () => {
    const cookie = await signIn(b);
    const lastSeen = async () => {
      const result = await t.ctx.db.execute(
        sql`select last_seen_at::text as at from sessions where user_id = ${b.id} order by last_seen_at desc limit 1`,
      );
      return (result as unknown as { rows: { at: string }[] }).rows[0]!.at;
    };
    const first = await lastSeen();
    advance(2 * MINUTE);
    expect(await whoAmI(cookie)).toBe(200);
    expect(await lastSeen()).toBe(first);
    advance(4 * MINUTE);
    expect(await whoAmI(cookie)).toBe(200);
    expect(await lastSeen()).not.toBe(first);
  });

  it('ends a session at its absolute lifetime however much it is used', async () => {
    const signedInAt = clock;
    const response = await send(t, 'POST', '/api/login', {
      payload: { username: a.username, password: a.password },
    });
    const cookie = cookieHeader(response);
    // the browser is told the same lifetime
    expect(sessionCookie(response)?.expires?.getTime()).toBe(
      signedInAt + SESSION_ABSOLUTE_MS - (signedInAt % 1000),
    );
    while (clock + 2 * DAY < signedInAt + SESSION_ABSOLUTE_MS) {
      advance(2 * DAY);
      expect(await whoAmI(cookie)).toBe(200);
    }
    clock = signedInAt + SESSION_ABSOLUTE_MS - MINUTE;
    expect(await whoAmI(cookie)).toBe(200);
    advance(MINUTE + 1000);
    expect(await whoAmI(cookie)).toBe(401);
  });

  it('purges expired sessions from the table', async () => {
    const cookie = await signIn(b);
    advance(SESSION_IDLE_MS + MINUTE);
    expect(await t.ctx.sessions.purgeExpired()).toBeGreaterThan(0);
    expect(await t.ctx.sessions.resolve(tokenOf(cookie))).toBeNull();
    const result = await t.ctx.db.execute(sql`select count(*)::int as n from sessions`);
    expect((result as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
  });
});

describe('password changes end other sessions', () => {
  it('changing your own password ends your other sessions and keeps you signed in here', async () => {
    const user = await t.createUser({ username: 'quinn@example.org', password: 'quinn-pass-1' });
    const other = await signIn({ username: user.username, password: 'quinn-pass-1' });
    const mine = await signIn({ username: user.username, password: 'quinn-pass-1' });
    const response = await send(t, 'PUT', '/api/user/password', {
      cookie: mine,
      payload: { currentPassword: 'quinn-pass-1', newPassword: 'quinn-pass-2' },
    });
    expect(response.statusCode).toBe(200);
    const renewed = cookieHeader(response);
    expect(await whoAmI(other)).toBe(401);
    expect(await whoAmI(mine)).toBe(401);
    expect(await whoAmI(renewed)).toBe(200);
    expect(await sessionCount(user.id)).toBe(1);
    const old = await send(t, 'POST', '/api/login', {
      address: '10.2.0.1',
      payload: { username: user.username, password: 'quinn-pass-1' },
    });
    expect(old.statusCode).toBe(401);
    await signIn({ username: user.username, password: 'quinn-pass-2' });
  });

  it('staff setting their own password on the users page stay signed in here and nowhere else', async () => {
    const boss = await t.createUser({ username: 'boss@example.org', password: 'boss-pass-1', role: 'staff' });
    const elsewhere = await signIn({ username: boss.username, password: 'boss-pass-1' }, { staff: true });
    const here = await signIn({ username: boss.username, password: 'boss-pass-1' }, { staff: true });
    const response = await send(t, 'PUT', `/api/staff/users/${boss.id}`, {
      cookie: here,
      payload: { version: boss.version, username: boss.username, password: 'boss-pass-2' },
    });
    expect(response.statusCode).toBe(200);
    expect(await whoAmI(here)).toBe(200);
    expect(await whoAmI(elsewhere)).toBe(401);
  });

  it('a wrong current password changes nothing', async () => {
    const cookie = await signIn(b);
    const other = await signIn(b);
    const before = await dump();
    const response = await send(t, 'PUT', '/api/user/password', {
      cookie,
      payload: { currentPassword: a.password, newPassword: 'stolen-pass-9' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['set-cookie']).toBeUndefined();
    // only the failure count moves (next test)
    const { login_throttle: _before, ...rest } = before;
    const { login_throttle: _after, ...restAfter } = await dump();
    expect(restAfter).toEqual(rest);
    expect(await whoAmI(other)).toBe(200);
  });

  it('wrong current passwords count like failed sign-ins (a borrowed session cannot guess on)', async () => {
    const user = await t.createUser({ username: 'guessed@example.org', password: 'guessed-pass-1' });
    const cookie = await signIn({ username: user.username, password: 'guessed-pass-1' });
    const change = (currentPassword: string) =>
      send(t, 'PUT', '/api/user/password', {
        cookie,
        address: '10.10.0.1',
        payload: { currentPassword, newPassword: 'guessed-pass-2' },
      });
    for (let i = 0; i < THROTTLE.perAccountAddress; i++) {
      expect((await change(`guess-${i}-x`)).statusCode).toBe(400);
    }
    const paused = await change('guessed-pass-1');
    expect(paused.statusCode).toBe(429);
    expect(Number(paused.headers['retry-after'])).toBeGreaterThan(0);
    // the same account and address limit as sign-in
    const samePlace = await send(t, 'POST', '/api/login', {
      address: '10.10.0.1',
      payload: { username: user.username, password: 'guessed-pass-1' },
    });
    expect(samePlace.statusCode).toBe(429);
    advance(THROTTLE.blockMs + 1000);
    expect((await change('guessed-pass-1')).statusCode).toBe(200);
  });
});

// -----------------------------------------------------------------------------------------------------
// Cross-site requests

interface Fixture {
  aCookie: string;
  staffCookie: string;
  noteId: number;
  /** an open session, A's live offer of it and that offer's email link */
  sessionId: number;
  offerId: number;
  offerToken: string;
}
type Target = { who: 'anonymous' | 'a' | 'staff'; payload?: unknown; id?: number; token?: string };

/** A request each state-changing route would carry out, if nothing refused it. */
const VALID: Record<string, (f: Fixture) => Target> = {
  'POST /api/login': () => ({ who: 'anonymous', payload: { username: a.username, password: a.password } }),
  'POST /api/auth/staff-login': () => ({ who: 'anonymous', payload: STAFF }),
  'POST /api/register': () => ({
    who: 'anonymous',
    payload: { username: 'csrf-new@example.org', password: 'csrf-pass-1' },
  }),
  'POST /api/logout': () => ({ who: 'a' }),
  'GET /api/logout': () => ({ who: 'a' }),
  'GET /api/auth/logout': () => ({ who: 'staff' }),
  'PUT /api/user/password': () => ({
    who: 'a',
    payload: { currentPassword: a.password, newPassword: 'csrf-pass-2' },
  }),
  'POST /api/staff/users': () => ({
    who: 'staff',
    payload: { username: 'csrf-user@example.org', password: 'csrf-pass-1', role: 'staff' },
  }),
  'PUT /api/staff/users/:id': () => ({
    who: 'staff',
    id: a.id,
    payload: { version: 1, username: a.username, password: 'csrf-pass-3', role: 'staff' },
  }),
  'DELETE /api/staff/users/:id': () => ({ who: 'staff', id: a.id }),
  'POST /api/staff/users/:id/unlock': () => ({ who: 'staff', id: a.id }),
  'POST /api/availability': () => ({ who: 'a', payload: { date: '2026-12-01', status: 'unavailable' } }),
  'POST /api/availability/bulk': () => ({
    who: 'a',
    payload: {
      startDate: '2026-12-01',
      endDate: '2026-12-31',
      daysOfWeek: [1, 2, 3, 4, 5],
      status: 'unavailable',
    },
  }),
  'POST /api/sharepoint/sync-all': () => ({ who: 'a', payload: {} }),
  'POST /api/staff/bookings/refresh': () => ({ who: 'staff' }),
  'POST /api/staff/availability': () => ({
    who: 'staff',
    payload: { userId: a.id, date: '2026-12-02', status: 'limited' },
  }),
  'POST /api/staff/notes': () => ({
    who: 'staff',
    payload: { facilitatorId: a.id, date: '2026-12-02', note: 'csrf' },
  }),
  'PUT /api/staff/notes/:id': (f) => ({
    who: 'staff',
    id: f.noteId,
    payload: { note: 'csrf edit', priority: 'urgent' },
  }),
  'DELETE /api/staff/notes/:id': (f) => ({ who: 'staff', id: f.noteId }),
  'POST /api/sharepoint/settings': () => ({
    who: 'staff',
    payload: {
      siteUrl: 'https://evil.example/sites/x',
      availabilityListName: 'A',
      bookingsListName: 'B',
      password: 'csrf',
    },
  }),
  'POST /api/sharepoint/test-connection-with-credentials': () => ({
    who: 'staff',
    payload: { siteUrl: 'https://evil.example/sites/x', availabilityListName: 'A', bookingsListName: 'B' },
  }),
  'POST /api/staff/facilitators/import': () => ({ who: 'staff' }),
  'POST /api/sharepoint/columns': () => ({
    who: 'staff',
    payload: { siteUrl: 'https://evil.example/sites/x', availabilityListName: 'A', bookingsListName: 'B' },
  }),
  // SharePoint's change notifications come from Graph, never a browser: a cross-site browser request is refused
  'POST /api/sharepoint/notifications': () => ({
    who: 'anonymous',
    payload: { value: [{ subscriptionId: 'sub', clientState: 'guess' }] },
  }),
  // Sign in with Microsoft (not configured here: only the cross-site guard is under test)
  'GET /api/auth/microsoft/start': () => ({ who: 'anonymous' }),
  'GET /api/auth/microsoft/logout': () => ({ who: 'staff' }),
  'PUT /api/staff/microsoft-sign-in': () => ({
    who: 'staff',
    payload: {
      staffPasswordSignIn: true,
      tenantId: 'evil.example',
      clientId: '00000000-0000-4000-8000-000000000666',
      clientSecret: 'csrf',
    },
  }),
  'POST /api/staff/microsoft-sign-in/test': () => ({ who: 'staff', payload: { tenantId: 'evil.example' } }),
  'POST /api/staff/users/:id/microsoft-invitation': () => ({ who: 'staff', id: a.id }),
  'DELETE /api/staff/users/:id/microsoft-identity': () => ({ who: 'staff', id: a.id }),
  // recurring patterns (the caller's own), email reminders (staff)
  'POST /api/availability/pattern/preview': () => ({
    who: 'a',
    payload: {
      startDate: '2026-12-01',
      endDate: '2026-12-31',
      daysOfWeek: [1, 3],
      status: 'limited',
      everyWeeks: 2,
    },
  }),
  'POST /api/availability/pattern': () => ({
    who: 'a',
    payload: {
      startDate: '2026-12-01',
      endDate: '2026-12-31',
      daysOfWeek: [1, 3],
      status: 'limited',
      everyWeeks: 2,
    },
  }),
  'PUT /api/staff/reminders/settings': () => ({
    who: 'staff',
    payload: {
      host: 'smtp.evil.example',
      port: 587,
      security: 'starttls',
      username: 'csrf',
      password: 'csrf',
      fromAddress: 'portal@evil.example',
      autoEnabled: false,
      autoDay: 1,
      autoMonth: 'next',
    },
  }),
  'POST /api/staff/reminders/send': () => ({ who: 'staff', payload: { month: '2026-12' } }),
  // calendar feed (the caller's own)
  'POST /api/calendar-feed': () => ({ who: 'a' }),
  'POST /api/calendar-feed/rotate': () => ({ who: 'a' }),
  'DELETE /api/calendar-feed': () => ({ who: 'a' }),
  // safeguarding (staff)
  'PUT /api/staff/safeguarding/policy': () => ({
    who: 'staff',
    payload: { dbsMonths: 1, updateServiceMonths: 1, warningDays: 0, checkTypes: [] },
  }),
  'PUT /api/staff/users/:id/safeguarding': () => ({
    who: 'staff',
    id: a.id,
    payload: { dbs: null, checks: [], version: 0 },
  }),
  // offers: staff make sessions and offers; A answers in the portal; anybody holding the link answers by it
  'POST /api/staff/sessions': () => ({
    who: 'staff',
    payload: {
      date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
      startTime: '13:00',
      endTime: '15:00',
      schoolName: 'CSRF School',
    },
  }),
  'POST /api/staff/sessions/:id/offers': (f) => ({
    who: 'staff',
    id: f.sessionId,
    payload: {
      userIds: [a.id],
      replyBy: new Date(Date.now() + 86_400_000).toISOString(),
      confirmNotFree: true,
    },
  }),
  'POST /api/staff/offers/:id/withdraw': (f) => ({ who: 'staff', id: f.offerId }),
  'POST /api/offers/:id/seen': (f) => ({ who: 'a', id: f.offerId }),
  'POST /api/offers/:id/accept': (f) => ({ who: 'a', id: f.offerId }),
  'POST /api/offers/:id/decline': (f) => ({ who: 'a', id: f.offerId, payload: { reason: 'csrf' } }),
  'POST /api/offer-links/:token/accept': (f) => ({ who: 'anonymous', token: f.offerToken }),
  'POST /api/offer-links/:token/decline': (f) => ({ who: 'anonymous', token: f.offerToken, payload: {} }),
};

/** What another site's page can make a browser send. */
const HOSTILE: [string, Record<string, string>][] = [
  ['Origin of another site', { origin: 'https://evil.example' }],
  ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
  ['Sec-Fetch-Site: same-site (a sibling subdomain)', { 'sec-fetch-site': 'same-site' }],
  ['Origin: null (sandboxed frame, data: URL)', { origin: 'null' }],
  ['Origin of our host on another port', { host: 'portal.example', origin: 'https://portal.example:8443' }],
  [
    'cross-site even with our Origin',
    { host: 'portal.example', origin: 'https://portal.example', 'sec-fetch-site': 'cross-site' },
  ],
  [
    'X-Forwarded-Host naming the other site (proxy not trusted)',
    { origin: 'https://evil.example', 'x-forwarded-host': 'evil.example' },
  ],
];

/** What the portal's own pages and non-browser clients send. */
const FRIENDLY: [string, Record<string, string>][] = [
  ['Sec-Fetch-Site: same-origin', { 'sec-fetch-site': 'same-origin' }],
  ['Origin of this host', { host: 'portal.example', origin: 'http://portal.example' }],
  [
    'both, as a browser sends them',
    { host: 'portal.example', origin: 'http://portal.example', 'sec-fetch-site': 'same-origin' },
  ],
  ['neither (curl, scripts)', {}],
];

describe('cross-site requests', () => {
  let f: Fixture;
  const changing = () => t.routes.filter((route) => route.changesState);

  beforeAll(async () => {
    const staffCookie = await signInStaff();
    const note = await send(t, 'POST', '/api/staff/notes', {
      cookie: staffCookie,
      payload: { facilitatorId: a.id, date: '2026-12-01', note: 'About A' },
    });
    const sessionDate = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
    const [open] = await t.ctx.db
      .insert(bookings)
      .values({
        title: 'Open',
        date: sessionDate,
        startTime: '09:30',
        endTime: '12:00',
        sharePointId: 'csrf-open',
      })
      .returning({ id: bookings.id });
    const replyBy = new Date(Date.now() + 30 * 86_400_000);
    const [offered] = await t.ctx.db
      .insert(offers)
      .values({ bookingId: open!.id, userId: a.id, replyBy, linkNonce: 'csrf-link' })
      .returning({ id: offers.id });
    f = {
      aCookie: await signIn(a),
      staffCookie,
      noteId: note.json().id,
      sessionId: open!.id,
      offerId: offered!.id,
      offerToken: signOfferLink(t.ctx.appSecret, {
        offerId: offered!.id,
        nonce: 'csrf-link',
        expiresAt: replyBy.getTime(),
      }),
    };
  });

  const cookieFor = (who: Target['who']) =>
    who === 'a' ? f.aCookie : who === 'staff' ? f.staffCookie : undefined;

  it('has a would-be-successful request for every state-changing route', () => {
    const served = changing().map((route) => `${route.method} ${route.url}`);
    expect(
      served.filter((key) => !(key in VALID)),
      'state-changing routes without a request here',
    ).toEqual([]);
    expect(
      Object.keys(VALID).filter((key) => !served.includes(key)),
      'requests for routes that are gone',
    ).toEqual([]);
  });

  it('refuses every state-changing route, by every method, from another site, and nothing changes', async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const route of changing()) {
      const target = VALID[`${route.method} ${route.url}`]!(f);
      const methods = [route.method, ...(route.method === 'GET' ? ['HEAD'] : [])];
      for (const method of methods) {
        for (const [label, headers] of HOSTILE) {
          const before = await dump();
          const response = await send(t, method as Method, urlOf(route, target.id, target.token), {
            cookie: cookieFor(target.who),
            payload: target.payload,
            headers,
          });
          checked++;
          counted.crossSiteRefused++;
          const after = await dump();
          if (response.statusCode !== 403)
            failures.push(`${method} ${route.url} [${label}]: ${response.statusCode}`);
          else if (method !== 'HEAD' && response.json().message !== CROSS_SITE)
            failures.push(`${method} ${route.url} [${label}]: ${response.body}`);
          const changed = TABLES.map(([name]) => name).filter((name) => before[name] !== after[name]);
          if (changed.length)
            failures.push(`${method} ${route.url} [${label}]: changed ${changed.join(', ')}`);
        }
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(changing().length * HOSTILE.length);
    // the sessions it tried to end are alive
    expect(await whoAmI(f.aCookie)).toBe(200);
    expect(await whoAmI(f.staffCookie)).toBe(200);
  });

  it('refuses other methods and unknown paths from another site before anything else answers', async () => {
    const paths = [
      ...new Set(changing().map((route) => urlOf(route))),
      '/api/staff/not-a-route',
      '/api/not-a-route',
      '/not-api',
    ];
    const failures: string[] = [];
    for (const path of paths) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        const response = await send(t, method, path, {
          cookie: f.staffCookie,
          payload: {},
          headers: { 'sec-fetch-site': 'cross-site' },
        });
        if (response.statusCode !== 403 || response.json().message !== CROSS_SITE)
          failures.push(`${method} ${path}: ${response.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('lets reads through: another site cannot read the answer (no CORS), and links must work', async () => {
    for (const route of t.routes.filter((r) => !r.changesState)) {
      const response = await send(t, 'GET', urlOf(route), {
        cookie: f.staffCookie,
        headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      });
      expect(response.statusCode, route.url).not.toBe(403);
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it.each(FRIENDLY)('lets every state-changing route through with %s', async (_label, headers) => {
    // inert requests (bad input, unknown ids, throwaway sessions): only the cross-site guard is under test
    const refused: string[] = [];
    for (const route of changing()) {
      const target = VALID[`${route.method} ${route.url}`]!(f);
      const isLogout = route.url.includes('logout');
      const cookie = isLogout ? await signIn(b) : cookieFor(target.who);
      const response = await send(t, route.method as Method, urlOf(route), {
        cookie,
        payload:
          isLogout || route.url.endsWith('/refresh') || route.url.endsWith('/import')
            ? undefined
            : { userId: 'x' },
        headers,
      });
      counted.crossSiteAllowed++;
      if (response.statusCode === 403) refused.push(`${route.method} ${route.url}: ${response.body}`);
    }
    expect(refused).toEqual([]);
  });

  it('a real save from the portal page works (same-origin headers as Chromium sends them)', async () => {
    const response = await send(t, 'POST', '/api/availability', {
      cookie: f.aCookie,
      payload: { date: '2026-12-03', status: 'limited' },
      headers: { host: 'portal.example', origin: 'https://portal.example', 'sec-fetch-site': 'same-origin' },
    });
    expect(response.statusCode).toBe(200);
  });

  it('honours X-Forwarded-Host for the Origin check only behind a trusted proxy', async () => {
    const staffCookie = cookieHeader(await send(secure, 'POST', '/api/auth/staff-login', { payload: STAFF }));
    const viaProxy = await send(secure, 'POST', '/api/staff/notes', {
      cookie: staffCookie,
      payload: { facilitatorId: 999_999, date: '2026-12-01', note: 'x' },
      headers: {
        host: '10.0.0.5:5000',
        'x-forwarded-host': 'portal.example',
        'x-forwarded-proto': 'https',
        origin: 'https://portal.example',
      },
    });
    expect(viaProxy.json().message).not.toBe(CROSS_SITE);
    const spoofed = await send(t, 'POST', '/api/staff/notes', {
      cookie: f.staffCookie,
      payload: { facilitatorId: a.id, date: '2026-12-01', note: 'x' },
      headers: {
        host: '10.0.0.5:5000',
        'x-forwarded-host': 'portal.example',
        'x-forwarded-proto': 'https',
        origin: 'https://portal.example',
      },
    });
    expect(spoofed.statusCode).toBe(403);
  });
});

// -----------------------------------------------------------------------------------------------------

describe('login throttling (per account and per address)', () => {
  const attempt = (username: string, password: string, address: string, url = '/api/login', headers = {}) =>
    send(t, 'POST', url, { payload: { username, password }, address, headers });

  it('pauses an account for the address that failed on it, never for the owner elsewhere', async () => {
    const victim = await t.createUser({ username: 'victim@example.org', password: 'victim-pass-1' });
    // the account is the same however the name is typed
    for (const name of ['victim@example.org', 'VICTIM@example.org', ' Victim@Example.org ']) {
      expect((await attempt(name, 'wrong-guess-1', '10.3.0.1')).statusCode).toBe(401);
    }
    let before: Omit<TableDump, 'login_throttle'> | undefined;
    for (const url of ['/api/login', '/api/login', '/api/auth/staff-login']) {
      const blocked = await attempt(victim.username, 'victim-pass-1', '10.3.0.1', url);
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBe(THROTTLE.blockMs / 1000);
      expect(blocked.json().message).toBe('Too many failed sign-in attempts. Try again in 10 minutes.');
      expect(blocked.headers['set-cookie']).toBeUndefined();
      // refused before the password check: no session, nothing else changes
      const { login_throttle: _counts, ...now } = await dump();
      if (before) expect(now).toEqual(before);
      before = now;
    }
    // the owner, from another address, is not stopped by someone else's failures
    expect((await attempt(victim.username, 'victim-pass-1', '10.3.0.2')).statusCode).toBe(200);
    // other accounts, even from the failing address, are not affected
    expect((await attempt(a.username, a.password, '10.3.0.1')).statusCode).toBe(200);

    advance(4 * MINUTE);
    const later = await attempt(victim.username, 'victim-pass-1', '10.3.0.1');
    expect(later.statusCode).toBe(429);
    expect(Number(later.headers['retry-after'])).toBe(6 * 60);

    advance(6 * MINUTE + 1000);
    expect((await attempt(victim.username, 'victim-pass-1', '10.3.0.1')).statusCode).toBe(200);
  });

  it('an attacker failing without end from one address never stops the owner from another', async () => {
    const owner = await t.createUser({ username: 'besieged@example.org', password: 'besieged-pass-1' });
    const attacker = '10.11.0.1';
    // far past every account limit, and on through the pauses, for longer than any window
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < THROTTLE.perAccount * 2; i++) {
        expect([401, 429]).toContain(
          (await attempt(owner.username, `guess-${round}-${i}`, attacker)).statusCode,
        );
      }
      expect((await attempt(owner.username, 'besieged-pass-1', attacker)).statusCode).toBe(429);
      const elsewhere = await attempt(owner.username, 'besieged-pass-1', `10.11.1.${round + 1}`);
      expect(elsewhere.statusCode).toBe(200);
      advance(THROTTLE.windowMs / 2);
    }
  });

  it('failures from many addresses only briefly slow the addresses that failed; a fresh one signs in', async () => {
    const owner = await t.createUser({ username: 'sprayed@example.org', password: 'sprayed-pass-1' });
    // every address stays under its own limit, the account goes far past its limit
    for (let i = 0; i < THROTTLE.perAccount * 3; i++) {
      const address = `10.12.0.${i + 1}`;
      for (let j = 0; j < THROTTLE.perAccountAddress - 1; j++)
        await attempt(owner.username, 'guess-x1', address);
    }
    const slowed = await attempt(owner.username, 'sprayed-pass-1', '10.12.0.1');
    expect(slowed.statusCode).toBe(429);
    // short and capped
    expect(Number(slowed.headers['retry-after'])).toBeLessThanOrEqual(THROTTLE.accountPauseMs / 1000);
    expect((await attempt(owner.username, 'sprayed-pass-1', '10.12.1.1')).statusCode).toBe(200);
    advance(THROTTLE.accountPauseMs + 1000);
    expect((await attempt(owner.username, 'sprayed-pass-1', '10.12.0.1')).statusCode).toBe(200);
  });

  it('staff clear the pauses of an account; the address limit stays', async () => {
    const user = await t.createUser({ username: 'locked-out@example.org', password: 'locked-pass-1' });
    const address = '10.13.0.1';
    for (let i = 0; i < THROTTLE.perAccountAddress; i++) await attempt(user.username, 'guess-x1', address);
    expect((await attempt(user.username, 'locked-pass-1', address)).statusCode).toBe(429);
    const staffCookie = await t.loginStaff();
    const facilitatorCookie = await signIn(a);
    const unlockUrl = `/api/staff/users/${user.id}/unlock`;
    expect((await send(t, 'POST', unlockUrl, { cookie: facilitatorCookie })).statusCode).toBe(403);
    expect((await send(t, 'POST', unlockUrl)).statusCode).toBe(401);
    expect(
      (await send(t, 'POST', '/api/staff/users/999999/unlock', { cookie: staffCookie })).statusCode,
    ).toBe(404);
    const unlocked = await send(t, 'POST', unlockUrl, { cookie: staffCookie });
    expect(unlocked.statusCode).toBe(200);
    expect(unlocked.json()).toEqual({ message: 'Sign-in pauses cleared for locked-out@example.org' });
    expect((await attempt(user.username, 'locked-pass-1', address)).statusCode).toBe(200);
  });

  it('pauses an address after repeated failures across accounts; other addresses are not affected', async () => {
    for (let i = 0; i < THROTTLE.perAddress; i++) {
      expect((await attempt(`nobody-${i}@example.org`, 'wrong-guess-1', '10.4.0.1')).statusCode).toBe(401);
    }
    const blocked = await attempt(a.username, a.password, '10.4.0.1');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(
      (await attempt(STAFF.username, STAFF.password, '10.4.0.1', '/api/auth/staff-login')).statusCode,
    ).toBe(429);
    // X-Forwarded-For is not believed without TRUST_PROXY
    expect(
      (await attempt(a.username, a.password, '10.4.0.1', '/api/login', { 'x-forwarded-for': '10.4.0.2' }))
        .statusCode,
    ).toBe(429);
    expect((await attempt(a.username, a.password, '10.4.0.2')).statusCode).toBe(200);

    advance(THROTTLE.blockMs + 1000);
    expect((await attempt(a.username, a.password, '10.4.0.1')).statusCode).toBe(200);
  });

  it("a success clears the account's count, never the address's", async () => {
    const user = await t.createUser({ username: 'kim@example.org', password: 'kim-pass-1' });
    const address = '10.5.0.1';
    for (let i = 0; i < THROTTLE.perAccountAddress - 1; i++) {
      await attempt(user.username, 'wrong-guess', address);
    }
    expect((await attempt(user.username, 'kim-pass-1', address)).statusCode).toBe(200);
    for (let i = 0; i < THROTTLE.perAccountAddress - 1; i++) {
      expect((await attempt(user.username, 'wrong-guess', address)).statusCode).toBe(401);
    }
    expect((await attempt(user.username, 'kim-pass-1', address)).statusCode).toBe(200);
    // the address has now failed perAddress - 2 times; two more failures pause it
    await attempt('someone-else@example.org', 'wrong-guess', address);
    expect((await attempt(user.username, 'kim-pass-1', address)).statusCode).toBe(200);
    await attempt('someone-else@example.org', 'wrong-guess', address);
    expect((await attempt(user.username, 'kim-pass-1', address)).statusCode).toBe(429);
  });

  it('limits guesses sent in parallel too: exactly the allowance is checked, the rest get 429', async () => {
    const user = await t.createUser({ username: 'parallel@example.org', password: 'parallel-pass-1' });
    // one account from one address at once
    const onAccount = await Promise.all(
      Array.from({ length: 20 }, (_, i) => attempt(user.username, `guess-${i}`, '10.8.0.1')),
    );
    const accountStatuses = onAccount.map((r) => r.statusCode).sort();
    expect(accountStatuses.filter((s) => s === 401)).toHaveLength(THROTTLE.perAccountAddress);
    expect(accountStatuses.filter((s) => s === 429)).toHaveLength(20 - THROTTLE.perAccountAddress);
    // one address, many accounts at once
    const fromAddress = await Promise.all(
      Array.from({ length: 20 }, (_, i) => attempt(`spray-${i}@example.org`, 'guess-1', '10.9.0.1')),
    );
    expect(fromAddress.filter((r) => r.statusCode === 401)).toHaveLength(THROTTLE.perAddress);
    expect(fromAddress.filter((r) => r.statusCode === 429)).toHaveLength(20 - THROTTLE.perAddress);
    for (const refused of [...onAccount, ...fromAddress].filter((r) => r.statusCode === 429)) {
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    advance(THROTTLE.blockMs + 1000);
    expect((await attempt(user.username, 'parallel-pass-1', '10.8.0.1')).statusCode).toBe(200);
  });

  it('behind one trusted proxy, a forged X-Forwarded-For does not change the address the limits count', async () => {
    // The proxy appends the address it saw to whatever the client sent: only that last hop is believed.
    const client = '203.0.113.40';
    const viaProxy = (forged: string, payload: unknown) =>
      send(secure, 'POST', '/api/auth/staff-login', {
        payload,
        headers: { 'x-forwarded-for': `${forged}, ${client}` },
      });
    for (let i = 0; i < THROTTLE.perAddress; i++) {
      const guess = { username: `forger-${i}@example.org`, password: 'wrong-guess' };
      expect((await viaProxy(`198.18.0.${i + 1}`, guess)).statusCode).toBe(401);
    }
    // a fresh forged address does not escape the pause of the real one
    expect((await viaProxy('198.18.1.1', STAFF)).statusCode).toBe(429);
    // another real client behind the same proxy is not affected
    const other = await send(secure, 'POST', '/api/auth/staff-login', {
      payload: STAFF,
      headers: { 'x-forwarded-for': '198.18.1.1, 203.0.113.41' },
    });
    expect(other.statusCode).toBe(200);
  });

  it('uses the forwarded address behind a trusted proxy, so one client cannot pause everyone', async () => {
    const viaProxy = (address: string, payload: unknown) =>
      send(secure, 'POST', '/api/auth/staff-login', { payload, headers: { 'x-forwarded-for': address } });
    for (let i = 0; i < THROTTLE.perAddress; i++) {
      expect(
        (await viaProxy('203.0.113.7', { username: `x${i}@example.org`, password: 'wrong-guess' }))
          .statusCode,
      ).toBe(401);
    }
    expect((await viaProxy('203.0.113.7', STAFF)).statusCode).toBe(429);
    expect((await viaProxy('203.0.113.8', STAFF)).statusCode).toBe(200);
  });
});

// -----------------------------------------------------------------------------------------------------
// Security headers

function hardened(response: LightMyRequestResponse, where: string, api: boolean): string[] {
  const problems: string[] = [];
  const csp = String(response.headers['content-security-policy'] ?? '');
  if (!csp.includes("frame-ancestors 'none'"))
    problems.push(`${where}: CSP without frame-ancestors 'none' (${csp})`);
  if (!/default-src 'self'/.test(csp)) problems.push(`${where}: CSP without default-src 'self'`);
  if (/script-src[^;]*'unsafe-inline'/.test(csp)) problems.push(`${where}: CSP allows inline scripts`);
  if (response.headers['x-content-type-options'] !== 'nosniff') problems.push(`${where}: no nosniff`);
  if (!response.headers['referrer-policy']) problems.push(`${where}: no Referrer-Policy`);
  if (response.headers['x-powered-by'] !== undefined) problems.push(`${where}: X-Powered-By`);
  // list answers may be kept by the browser alone, revalidated by their ETag every time (ADR 26)
  const revalidatedList =
    response.headers['cache-control'] === 'private, no-cache' && typeof response.headers.etag === 'string';
  if (api && response.headers['cache-control'] !== 'no-store' && !revalidatedList)
    problems.push(`${where}: cache-control ${String(response.headers['cache-control'])}`);
  return problems;
}

describe('security headers', () => {
  it('are on every answer of every route, for every role, whatever the status', async () => {
    const staffCookie = await signInStaff();
    const cookies: Record<string, () => Promise<string | undefined>> = {
      anonymous: async () => undefined,
      facilitatorA: async () => signIn(a),
      facilitatorB: async () => signIn(b),
      staff: async () => signInStaff(),
    };
    const aCookie = await signIn(a);
    const bCookie = await signIn(b);
    const problems: string[] = [];
    const statuses = new Set<number>();
    let answers = 0;
    for (const route of t.routes) {
      for (const [role, fresh] of Object.entries(cookies)) {
        const endsSession = route.url.includes('logout') || route.url === '/api/user/password';
        const cookie = endsSession
          ? await fresh()
          : role === 'facilitatorA'
            ? aCookie
            : role === 'facilitatorB'
              ? bCookie
              : role === 'staff'
                ? staffCookie
                : undefined;
        for (const method of route.method === 'GET' ? ['GET', 'HEAD'] : [route.method]) {
          // unknown ids and incomplete bodies: nothing is changed, every kind of answer is seen
          const response = await send(t, method as Method, urlOf(route), {
            cookie,
            payload: route.changesState && method !== 'GET' ? {} : undefined,
          });
          answers++;
          counted.headerAnswers++;
          statuses.add(response.statusCode);
          problems.push(
            ...hardened(response, `${method} ${route.url} as ${role} (${response.statusCode})`, true),
          );
          for (const setCookie of [response.headers['set-cookie'] ?? []].flat()) {
            // the sign-in hint is readable by scripts on purpose, and may only ever say "1"
            const hint = setCookie.startsWith(`${SESSION_HINT_COOKIE}=`);
            if (hint ? !/^afp_signed_in=1?;/.test(setCookie) : !/HttpOnly/.test(setCookie))
              problems.push(`${method} ${route.url} as ${role}: weak cookie ${setCookie}`);
            if (!/SameSite=Lax/.test(setCookie) || !/Path=\//.test(setCookie))
              problems.push(`${method} ${route.url} as ${role}: weak cookie ${setCookie}`);
          }
        }
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
    expect([...statuses].sort()).toEqual(expect.arrayContaining([200, 302, 400, 401, 403, 404, 409]));
    expect(answers).toBeGreaterThan(t.routes.length * 4);
  });

  it('are on pages, assets, the API reader and every kind of error', async () => {
    const staffCookie = await signInStaff();
    const cases: [string, InjectOptions, number, boolean][] = [
      ['the single-page app', { url: '/' }, 200, false],
      ['a client-side route', { url: '/staff/users' }, 200, false],
      ['a static asset', { url: '/assets/app-3f9a1c.js' }, 200, false],
      ['a POST to a page', { method: 'POST', url: '/staff', payload: {} }, 404, false],
      ['an unknown API path', { url: '/api/not-a-route', headers: { cookie: staffCookie } }, 404, true],
      ['signed out', { url: '/api/staff/users' }, 401, true],
      ['not staff', { url: '/api/staff/users', headers: { cookie: await signIn(b) } }, 403, true],
      [
        'bad JSON',
        {
          method: 'POST',
          url: '/api/login',
          payload: '{"username":',
          headers: { 'content-type': 'application/json' },
        },
        400,
        true,
      ],
      [
        'a body over the limit',
        {
          method: 'POST',
          url: '/api/login',
          payload: JSON.stringify({ username: 'x'.repeat(300 * 1024), password: 'abcdefg' }),
          headers: { 'content-type': 'application/json' },
        },
        413,
        true,
      ],
      [
        'an unsupported content type',
        {
          method: 'POST',
          url: '/api/login',
          payload: '<x/>',
          headers: { 'content-type': 'application/xml' },
        },
        415,
        true,
      ],
      [
        'cross-site refusal',
        { method: 'POST', url: '/api/logout', headers: { 'sec-fetch-site': 'cross-site' } },
        403,
        true,
      ],
      ['the API reader', { url: '/api/docs' }, 200, true],
      ['the API reader, trailing slash', { url: '/api/docs/' }, 200, true],
      ['the API reader document', { url: '/api/docs/json' }, 200, true],
      ['OPTIONS', { method: 'OPTIONS', url: '/api/user' }, 401, true],
    ];
    const problems: string[] = [];
    for (const [label, request, status, api] of cases) {
      const response = await t.app.inject(request);
      counted.headerAnswers++;
      if (response.statusCode !== status)
        problems.push(`${label}: status ${response.statusCode}, expected ${status}`);
      problems.push(...hardened(response, label, api));
    }
    expect(problems, problems.join('\n')).toEqual([]);
    const asset = await t.app.inject({ url: '/assets/app-3f9a1c.js' });
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('are on a 429 and on a 5xx answer too', async () => {
    for (let i = 0; i < THROTTLE.perAccountAddress; i++) {
      await send(t, 'POST', '/api/login', {
        payload: { username: 'headers-429@example.org', password: 'wrong-guess' },
        address: '10.6.0.1',
      });
    }
    const tooMany = await send(t, 'POST', '/api/login', {
      payload: { username: 'headers-429@example.org', password: 'wrong-guess' },
      address: '10.6.0.1',
    });
    expect(tooMany.statusCode).toBe(429);
    expect(hardened(tooMany, '429', true)).toEqual([]);

    // a real fault: the notes table is briefly gone
    const staffCookie = await signInStaff();
    await t.ctx.db.execute(sql`alter table staff_notes rename to staff_notes_away`);
    try {
      const broken = await send(t, 'GET', '/api/staff/notes?date=2026-12-01', { cookie: staffCookie });
      expect(broken.statusCode).toBe(500);
      expect(broken.json()).toEqual({ message: 'Something went wrong on our side. Please try again.' });
      expect(hardened(broken, '500', true)).toEqual([]);
    } finally {
      await t.ctx.db.execute(sql`alter table staff_notes_away rename to staff_notes`);
    }
  });

  it('session cookies are HttpOnly, SameSite=Lax and Secure exactly when they should be', async () => {
    const issue = async (app: TestApp, headers: Record<string, string> = {}) => {
      const out: string[] = [];
      const collect = (response: LightMyRequestResponse) => {
        const cookies = [response.headers['set-cookie'] ?? []].flat();
        // every session cookie comes with its sign-in hint (same flags bar HttpOnly, value "1" or "")
        const hints = cookies.filter((c) => c.startsWith(`${SESSION_HINT_COOKIE}=`));
        const sessions = cookies.filter((c) => !hints.includes(c));
        expect(hints).toHaveLength(sessions.length);
        for (const hint of hints) {
          expect(hint).toMatch(/^afp_signed_in=1?;/);
          expect(hint).not.toMatch(/HttpOnly/);
          expect(hint).toMatch(/SameSite=Lax/);
          expect(/; Secure/.test(hint)).toBe(/; Secure/.test(sessions[0]!));
        }
        out.push(...sessions);
        return response;
      };
      const user = await app.createUser({
        username: `cookie-${out.length}-${clock}@example.org`,
        password: 'cookie-pass-1',
      });
      const login = collect(
        await send(app, 'POST', '/api/login', {
          payload: { username: user.username, password: 'cookie-pass-1' },
          headers,
        }),
      );
      collect(await send(app, 'POST', '/api/auth/staff-login', { payload: STAFF, headers }));
      collect(
        await send(app, 'POST', '/api/register', {
          payload: { username: `reg-${clock}-${Math.random()}@example.org`, password: 'cookie-pass-1' },
          headers,
        }),
      );
      const changed = collect(
        await send(app, 'PUT', '/api/user/password', {
          cookie: cookieHeader(login),
          payload: { currentPassword: 'cookie-pass-1', newPassword: 'cookie-pass-2' },
          headers,
        }),
      );
      collect(await send(app, 'POST', '/api/logout', { cookie: cookieHeader(changed), headers }));
      expect(out).toHaveLength(5);
      return out;
    };

    for (const cookie of await issue(t, { 'x-forwarded-proto': 'https' })) {
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      // COOKIE_SECURE=auto over plain HTTP, and X-Forwarded-Proto is not believed without TRUST_PROXY
      expect(cookie).not.toMatch(/Secure/);
    }
    for (const cookie of await issue(secure)) {
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      expect(cookie).toMatch(/; Secure/);
    }
    // HSTS only where TLS is promised
    expect((await send(secure, 'GET', '/api/health')).headers['strict-transport-security']).toBeDefined();
    expect((await send(t, 'GET', '/api/health')).headers['strict-transport-security']).toBeUndefined();
  });
});

// -----------------------------------------------------------------------------------------------------

describe('secrets never in responses or logs', () => {
  it('keeps SharePoint secrets, passwords and session tokens out of every answer and log line (LOG_LEVEL=trace)', async () => {
    logLines.length = 0;
    const bodies: string[] = [];
    const tokens = new Set<string>();
    const record = (response: LightMyRequestResponse) => {
      const { 'set-cookie': setCookie, ...headers } = response.headers;
      bodies.push(response.body, JSON.stringify(headers));
      const issued = sessionCookie(response)?.value;
      if (issued) tokens.add(issued);
      return response;
    };
    const go = async (method: Method, url: string, options: Send = {}) =>
      record(await send(t, method, url, options));

    const c = s.emu.control.credentials;
    s.emu.control.setCredentials({
      clients: [{ clientId: c.clientId, clientSecret: SP_CLIENT_SECRET }],
      users: [{ username: 'sync@contoso.org', password: SP_PASSWORD }],
    });
    const passwords = {
      alice: 'Alice-Secret-Pass-5521',
      aliceNew: 'Alice-Newer-Pass-9917',
      created: 'Created-User-Pass-3380',
      reset: 'Reset-By-Staff-Pass-4406',
      wrongGuess: 'Wrong-Guess-Pass-1177',
      wrongSecret: 'Wrong-Client-Secret-6643',
    };
    const user = await t.createUser({ username: 'secretive@example.org', password: passwords.alice });

    const staffCookie = cookieHeader(
      await go('POST', '/api/auth/staff-login', { payload: STAFF, address: '10.7.0.1' }),
    );
    await go('POST', '/api/login', {
      payload: { username: user.username, password: passwords.wrongGuess },
      address: '10.7.0.1',
    });
    await go('POST', '/api/auth/staff-login', {
      payload: { username: STAFF.username, password: passwords.wrongGuess },
      address: '10.7.0.1',
    });
    let userCookie = cookieHeader(
      await go('POST', '/api/login', {
        payload: { username: user.username, password: passwords.alice },
        address: '10.7.0.1',
      }),
    );
    userCookie = cookieHeader(
      await go('PUT', '/api/user/password', {
        cookie: userCookie,
        payload: { currentPassword: passwords.alice, newPassword: passwords.aliceNew },
      }),
    );
    await go('PUT', '/api/user/password', {
      cookie: userCookie,
      payload: { currentPassword: passwords.wrongGuess, newPassword: passwords.reset },
    });
    const created = await go('POST', '/api/staff/users', {
      cookie: staffCookie,
      payload: { username: 'made-by-staff@example.org', password: passwords.created },
    });
    await go('PUT', `/api/staff/users/${created.json().id}`, {
      cookie: staffCookie,
      payload: {
        version: created.json().version,
        username: 'made-by-staff@example.org',
        password: passwords.reset,
      },
    });

    const { clientSecret: _secret, ...site } = portalSettingsFor(s.portal, c);
    const settings = { ...site, username: 'sync@contoso.org' };
    const tested = await go('POST', '/api/sharepoint/test-connection-with-credentials', {
      cookie: staffCookie,
      payload: { ...settings, clientSecret: SP_CLIENT_SECRET, password: SP_PASSWORD },
    });
    expect(tested.json().success).toBe(true);
    const wrong = await go('POST', '/api/sharepoint/test-connection-with-credentials', {
      cookie: staffCookie,
      payload: { ...settings, clientSecret: passwords.wrongSecret, password: passwords.wrongSecret },
    });
    expect(wrong.json().success).toBe(false);
    const saved = await go('POST', '/api/sharepoint/settings', {
      cookie: staffCookie,
      payload: { ...settings, clientSecret: SP_CLIENT_SECRET, password: SP_PASSWORD },
    });
    expect(saved.statusCode).toBe(200);
    expect((await go('POST', '/api/staff/bookings/refresh', { cookie: staffCookie })).statusCode).toBe(200);
    await go('POST', '/api/staff/facilitators/import', { cookie: staffCookie });
    await go('POST', '/api/sharepoint/test-connection-with-credentials', {
      cookie: staffCookie,
      payload: settings,
    });
    await go('POST', '/api/availability', {
      cookie: userCookie,
      payload: { date: '2026-12-07', status: 'available' },
    });
    await go('POST', '/api/sharepoint/sync-all', { cookie: userCookie, payload: {} });
    // the email settings hold a password too; sending fails (nothing listens) and is logged
    const smtp = await go('PUT', '/api/staff/reminders/settings', {
      cookie: staffCookie,
      payload: {
        host: '127.0.0.1',
        port: 9,
        security: 'none',
        username: 'mailer',
        password: SMTP_PASSWORD,
        fromAddress: 'portal@example.org',
        autoEnabled: false,
        autoDay: 1,
        autoMonth: 'next',
      },
    });
    expect(smtp.statusCode, smtp.body).toBe(200);
    await go('POST', '/api/staff/reminders/send', { cookie: staffCookie, payload: { month: '2026-12' } });

    // the public calendar feed is read with a live token (staff's own feed)
    const feed = await go('POST', '/api/calendar-feed', { cookie: staffCookie });
    const feedPath = (feed.json() as { path: string }).path;

    // a session to read offers of, and a live email link to one (read, never answered, by GET)
    const [someBooking] = await t.ctx.db.select({ id: bookings.id }).from(bookings).limit(1);
    const linkReplyBy = new Date(t.ctx.now().getTime() + 86_400_000);
    const [linked] = await t.ctx.db
      .insert(offers)
      .values({
        bookingId: someBooking!.id,
        userId: user.id,
        replyBy: linkReplyBy,
        linkNonce: 'secrets-link',
      })
      .returning({ id: offers.id });
    const offerToken = signOfferLink(t.ctx.appSecret, {
      offerId: linked!.id,
      nonce: 'secrets-link',
      expiresAt: linkReplyBy.getTime(),
    });

    // every GET route, as staff, as the facilitator and signed out
    for (const route of t.routes.filter((r) => r.method === 'GET' && !r.url.includes('logout'))) {
      if (route.url.endsWith('/:token.ics')) {
        for (const cookie of [staffCookie, userCookie, undefined])
          expect((await go('GET', feedPath, { cookie })).statusCode, route.url).toBe(200);
        continue;
      }
      const queries: Record<string, string> = {
        '/api/staff/notes': '?date=2026-12-01&view=month',
        '/api/staff/history': `?userId=${user.id}&date=2026-12-07`,
        '/api/staff/free': '?date=2026-12-07',
        '/api/staff/completeness': '?month=2026-12',
        '/api/staff/export': '?format=csv&from=2026-11-01&to=2026-12-31',
      };
      const query = queries[route.url] ?? (route.schema.querystring ? '?from=2026-11-01&to=2026-12-31' : '');
      // a person's history is read for the accounts whose passwords changed above
      const ids =
        route.url === '/api/staff/users/:id/history'
          ? [user.id, created.json().id]
          : route.url === '/api/staff/users/:id/safeguarding'
            ? [user.id]
            : route.url.startsWith('/api/staff/sessions/:id')
              ? [someBooking!.id]
              : [undefined];
      for (const id of ids)
        for (const cookie of [staffCookie, userCookie, undefined]) {
          const response = await go('GET', `${urlOf(route, id, offerToken)}${query}`, { cookie });
          // the Microsoft sign-in steps send the browser on (to Microsoft, or back with a reason)
          if (cookie === staffCookie && route.access !== 'user')
            expect(response.statusCode, route.url).toBe(
              route.url.startsWith('/api/auth/microsoft/') ? 302 : 200,
            );
        }
    }
    await go('GET', '/api/docs/json');
    await go('GET', '/api/logout', { cookie: userCookie });
    await go('POST', '/api/logout', { cookie: staffCookie });

    const stored = await t.ctx.db.execute(
      sql`select password_hash as v from users where password_hash is not null
          union all select client_secret_encrypted from sharepoint_settings where client_secret_encrypted is not null
          union all select password_encrypted from sharepoint_settings where password_encrypted is not null
          union all select token_hash from calendar_feeds union all select token_encrypted from calendar_feeds
          union all select smtp_password_encrypted from reminder_settings where smtp_password_encrypted is not null`,
    );
    const storedSecrets = (stored as unknown as { rows: { v: string }[] }).rows.map((row) => row.v);
    expect(storedSecrets.length).toBeGreaterThanOrEqual(4);

    const forbidden: [string, string][] = [
      ['SharePoint client secret', SP_CLIENT_SECRET],
      ['SharePoint password', SP_PASSWORD],
      ['SMTP password', SMTP_PASSWORD],
      ...Object.entries(passwords).map(([name, value]) => [`password ${name}`, value] as [string, string]),
      ['staff password', STAFF.password],
      ...[...tokens].map((token, i) => [`session token #${i + 1}`, token] as [string, string]),
      ...storedSecrets.map((value, i) => [`stored hash or ciphertext #${i + 1}`, value] as [string, string]),
    ];
    expect(tokens.size).toBeGreaterThanOrEqual(3);
    // the capture works: trace-level request lines and the settings log line are there
    expect(logLines.length).toBeGreaterThan(50);
    expect(logLines.some((line) => line.includes('incoming request'))).toBe(true);
    expect(logLines.some((line) => line.includes('SharePoint settings saved'))).toBe(true);

    const leaks: string[] = [];
    for (const [name, secret] of forbidden) {
      if (bodies.some((body) => body.includes(secret))) leaks.push(`${name} in a response`);
      const line = logLines.find((l) => l.includes(secret));
      if (line) leaks.push(`${name} in the log: ${line.slice(0, 300)}`);
    }
    expect(leaks, leaks.join('\n')).toEqual([]);
    // A feed's token is its URL (its owner is shown it), so it may be in answers but never in the log.
    const feedToken = feedPath.replace(/^.*\//, '').replace(/\.ics$/, '');
    expect(feedToken.length).toBeGreaterThan(20);
    expect(logLines.some((line) => line.includes('/api/calendar-feed/[redacted].ics'))).toBe(true);
    expect(logLines.find((line) => line.includes(feedToken))).toBeUndefined();
    counted.secrets = forbidden.length;
    counted.logLines = logLines.length;
  });
});
