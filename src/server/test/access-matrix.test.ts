/**
 * The access matrix: every /api route the app serves, called as anonymous, facilitator A,
 * facilitator B (aiming at A's resources) and staff. Each call must get the status the access rules
 * and the API contract give it, and a refused call must leave every table exactly as it was.
 *
 * The calls and expected statuses are the `matrix` of each route in the route table (route-table.ts),
 * keyed by `METHOD url` and checked against the app's own route list first, so a new route without an
 * entry (or an entry for a route that is gone) fails this file by name.
 *
 * One app and one set of users and sessions per file. The database is dumped once after setup (the
 * baseline); a call that changed anything (an allowed write) is followed by a restore of the baseline,
 * sessions included, so every call starts from the same state and the cookies stay valid.
 */

import { rmSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portalSettingsFor } from '../../sharepoint-emulator/index';
import { passkeys, users } from '../db/schema';
import { makePasswordLink } from '../modules/password-links/service';
import { type ConnectorSetup, setupConnector } from '../sharepoint/test-support';
import { builtClientDir, TEST_METRICS_TOKEN } from './built-client';
import { dumpTables, TABLES, type TableDump, type TableName } from './db-state';
import { startTestEntra, type TestEntra } from './entra-provider';
import { insertBooking, insertOffer, insertOpenSession, offerLinkToken } from './factories';
import { STAFF, type TestApp } from './harness';
import {
  type MatrixCall as Call,
  type Expected,
  type MatrixFixture as Fixture,
  farReplyBy,
  type Method,
  type MatrixPerson as Person,
  ROLES,
  ROUTES,
  type Role,
  signedIn,
  staffOnly,
} from './route-table';

/** Paths no route serves: the guard of their prefix answers first, so probing reveals nothing. */
const UNKNOWN: [Method, string, Expected][] = [];
for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as Method[]) {
  UNKNOWN.push(
    [method, '/api/staff/not-a-route', staffOnly(404)],
    [method, '/api/staff/users/1/extra', staffOnly(404)],
    [method, '/api/admin/not-a-route', staffOnly(404)],
    [method, '/api/admin/scheduler/run', staffOnly(404)],
    [method, '/api/sharepoint/not-a-route', staffOnly(404)],
    [method, '/api/sharepoint/settings/secret', staffOnly(404)],
    [method, '/api/not-a-route', signedIn(404)],
    [method, '/api/users', signedIn(404)],
  );
}
UNKNOWN.push(
  // known paths, methods they do not serve
  ['PATCH', '/api/staff/users/1', staffOnly(404)],
  ['DELETE', '/api/staff/availabilities', staffOnly(404)],
  ['PUT', '/api/sharepoint/settings', staffOnly(404)],
  ['DELETE', '/api/user', signedIn(404)],
  ['PUT', '/api/availability', signedIn(404)],
  ['OPTIONS', '/api/staff/users', staffOnly(404)],
  ['OPTIONS', '/api/user', signedIn(404)],
);

// ---------------------------------------------------------------------------------------------------
// State: dump, compare, restore

type Tables = TableName[];
const TABLE = Object.fromEntries(Object.entries(ROUTES).map(([key, entry]) => [key, entry.matrix]));
const SIGN_IN = new Set(['/api/login', '/api/auth/staff-login', '/api/passkey-sign-in']);
/** Failed sign-ins are counted by design; every other table must stay as it was after a refusal. */
const COUNTED_BY_DESIGN: TableName[] = ['login_throttle'];

let s: ConnectorSetup;
let entra: TestEntra;
const clientDir = builtClientDir();
let t: TestApp;
let f: Fixture;
let baseline: TableDump;
let restores = 0;
const counted = { routeRoles: 0, calls: 0, headCalls: 0, unknownCalls: 0 };

const dump = () => dumpTables(t.ctx.db);

/** The tables that differ, in alphabetical order. */
function differences(a: TableDump, b: TableDump, ignore: TableName[] = []): Tables {
  return TABLES.map(([name]) => name)
    .filter((name) => !ignore.includes(name) && a[name] !== b[name])
    .sort();
}

/**
 * Put the changed tables back as they were (all of them when users changed: deleting users cascades).
 * Delete, not truncate: much faster on small tables in PGlite.
 */
async function restoreBaseline(changed: Tables): Promise<void> {
  restores++;
  const tables = changed.includes('users') ? TABLES : TABLES.filter(([name]) => changed.includes(name));
  await t.ctx.db.transaction(async (tx) => {
    // change_history refuses deletes unless a purge is declared (drizzle/0003_history.sql)
    await tx.execute(sql`set local change_history.purge = 'on'`);
    for (const [name] of [...tables].reverse()) await tx.execute(sql`delete from ${sql.identifier(name)}`);
    for (const [name] of tables) {
      const table = sql.identifier(name);
      await tx.execute(
        sql`insert into ${table} select * from json_populate_recordset(null::${table}, ${baseline[name]}::json)`,
      );
    }
  });
}

function cookieOf(role: Role): string | undefined {
  if (role === 'facilitatorA') return f.a.cookie;
  if (role === 'facilitatorB') return f.b.cookie;
  if (role === 'staff') return f.staff.cookie;
  return undefined;
}

async function send(method: Method, path: string, role: Role, call: Call = {}) {
  const url =
    path.replace(':id', String(call.params?.id ?? '')).replace(':token', call.params?.token ?? '') +
    (call.query ? `?${new URLSearchParams(call.query).toString()}` : '');
  const cookie = cookieOf(role);
  return t.app.inject({
    method,
    url,
    headers: { ...call.headers, ...(cookie ? { cookie } : {}) },
    ...(call.payload ? { payload: call.payload as object } : {}),
  });
}

/**
 * One call as one role: status as expected; a refusal carries a message and changes nothing; an
 * allowed change is undone. Returns a description of what went wrong, or null.
 */
async function check(
  method: Method,
  path: string,
  role: Role,
  expected: number,
  call: Call,
  verify?: (changed: Tables) => void,
): Promise<string | null> {
  const response = await send(method, path, role, call);
  const after = await dump();
  const changed = differences(baseline, after);
  try {
    const problems: string[] = [];
    if (response.statusCode !== expected) {
      problems.push(`status ${response.statusCode}, expected ${expected} (${response.body.slice(0, 160)})`);
    }
    if (response.statusCode >= 400) {
      const meaningful = differences(baseline, after, COUNTED_BY_DESIGN);
      if (meaningful.length > 0) problems.push(`refused but changed: ${meaningful.join(', ')}`);
      if (method !== 'HEAD') {
        const body = response.json() as { message?: unknown };
        if (typeof body.message !== 'string' || body.message === '')
          problems.push('refusal without a message');
        // (public sign-in routes answer their own 401: wrong credentials)
        if (
          response.statusCode === 401 &&
          !SIGN_IN.has(path) &&
          body.message !== 'Please sign in to continue'
        )
          problems.push(`401 says "${String(body.message)}"`);
      }
    } else if (verify && response.statusCode === expected) {
      try {
        verify(changed);
      } catch (error) {
        problems.push(`allowed call, unexpected effect: ${(error as Error).message.split('\n')[0]}`);
      }
    }
    return problems.length > 0 ? `${role}: ${problems.join('; ')}` : null;
  } finally {
    if (changed.length > 0) await restoreBaseline(changed);
  }
}

// ---------------------------------------------------------------------------------------------------

let startedAt = 0;
let readyAt = 0;

beforeAll(async () => {
  startedAt = Date.now();
  const portalUrl = 'http://127.0.0.1:9';
  entra = await startTestEntra({ portalUrl });
  s = await setupConnector({
    seed: { seed: 'matrix', bookingCount: 12, facilitatorCount: 4 },
    env: {
      PUBLIC_URL: portalUrl,
      CLIENT_DIR: clientDir,
      METRICS_TOKEN: TEST_METRICS_TOKEN,
      ENTRA_TENANT_ID: entra.tenantId,
      ENTRA_CLIENT_ID: entra.clientId,
      ENTRA_CLIENT_SECRET: entra.clientSecret,
      ENTRA_AUTHORITY_HOST: entra.authorityHost,
    },
  });
  t = s.t;
  const person = async (username: string, password: string): Promise<Person> => {
    const row = await t.createUser({ username, password, displayName: username.split('@')[0] });
    return { id: row.id, username, password, cookie: await t.login(username, password) };
  };
  const a = await person('alice@example.org', 'alice-pass-1');
  const b = await person('bob@example.org', 'bob-pass-1');
  const staffCookie = await t.loginStaff();
  const me = await t.app.inject({ url: '/api/user', headers: { cookie: staffCookie } });
  const staff: Person = { id: me.json().id, ...STAFF, cookie: staffCookie };

  const freeDate = '2026-03-02';
  const bookedDate = '2026-03-04';
  // A's own saves (availability + outbox rows), a booking on A's booked day, a note about A
  for (const date of [freeDate, '2026-03-03']) {
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/availability',
      headers: { cookie: a.cookie },
      payload: { date, status: 'available', notes: 'A can work' },
    });
    expect(saved.statusCode).toBe(200);
  }
  await insertBooking(t.ctx.db, {
    userId: a.id,
    title: 'School visit',
    date: bookedDate,
    sharePointId: 'matrix-booking-1',
  });
  const note = await t.app.inject({
    method: 'POST',
    url: '/api/staff/notes',
    headers: { cookie: staffCookie },
    payload: { facilitatorId: a.id, date: freeDate, note: 'About A', priority: 'normal' },
  });
  expect(note.statusCode).toBe(201);

  const { clientSecret: _secret, ...settings } = portalSettingsFor(s.portal, s.emu.control.credentials);
  // A's calendar feed is on
  const feed = await t.app.inject({
    method: 'POST',
    url: '/api/calendar-feed',
    headers: { cookie: a.cookie },
  });
  expect(feed.statusCode).toBe(200);
  const feedToken = /\/api\/calendar-feed\/(.+)\.ics$/.exec(feed.json().path)![1]!;
  // an open session two months ahead, offered to A (who has a freelancer ID) until a month ahead
  await t.ctx.db.update(users).set({ freelancerId: 'matrix-a' }).where(eq(users.id, a.id));
  const sessionDate = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
  const open = await insertOpenSession(t.ctx.db, {
    title: 'Open session',
    date: sessionDate,
    sharePointId: 'matrix-open-1',
  });
  const offered = await insertOffer(t.ctx.db, {
    bookingId: open.id,
    userId: a.id,
    replyBy: new Date(farReplyBy()),
    linkNonce: 'matrix-link',
    offeredBy: staff.id,
    // A has no safeguarding records; staff offered anyway, with a reason, so A may accept
    safeguardingState: 'missing',
    safeguardingOverrideReason: 'Checks seen on paper',
  });
  const offerToken = offerLinkToken(t.ctx.appSecret, offered);
  const [aRow] = await t.ctx.db.select().from(users).where(eq(users.id, a.id));
  const passwordLinkToken = await makePasswordLink(t.ctx.db, aRow!, 'reset', t.ctx.now());
  // A's passkey (made for real by the ceremonies in passkeys.test.ts; here only its row matters)
  const [passkey] = await t.ctx.db
    .insert(passkeys)
    .values({
      credentialId: 'matrix-a-passkey',
      userId: a.id,
      publicKey: 'pQ',
      name: 'Phone',
      rpId: '127.0.0.1',
    })
    .returning();
  f = {
    a,
    b,
    staff,
    freeDate,
    bookedDate,
    noteId: note.json().id,
    settings,
    feedToken,
    sessionId: open.id,
    offerId: offered.id,
    offerToken,
    passwordLinkToken,
    entraTenantId: entra.tenantId,
    passkeyId: passkey!.id,
  };
  baseline = await dump();
  readyAt = Date.now();
}, 240_000);

afterAll(async () => {
  console.log(
    `access matrix: ${counted.routeRoles} routes × roles checked (${Object.keys(TABLE).length} routes × ${ROLES.length} roles); ` +
      `${counted.calls} calls with variants, ${counted.headCalls} HEAD twins, ${counted.unknownCalls} unknown-path probes; ` +
      `${restores} baseline restores; setup ${((readyAt - startedAt) / 1000).toFixed(1)} s, checks ${((Date.now() - readyAt) / 1000).toFixed(1)} s`,
  );
  await s?.close();
  await entra?.close();
  rmSync(clientDir, { recursive: true, force: true });
});

describe('access matrix', () => {
  it('has exactly one entry for every route the app serves', () => {
    const served = t.routes.map((route) => `${route.method} ${route.url}`);
    const missing = served.filter((key) => !(key in TABLE));
    const stale = Object.keys(TABLE).filter((key) => !served.includes(key));
    expect(missing, `routes without an entry in the access matrix: ${missing.join(', ')}`).toEqual([]);
    expect(stale, `entries for routes the app does not serve: ${stale.join(', ')}`).toEqual([]);
    expect(new Set(served).size).toBe(served.length);
  });

  it('agrees with each route’s declared access', () => {
    // the table's expectations and the route's own `config.access` must tell the same story
    const wrong: string[] = [];
    for (const route of t.routes) {
      const variants = TABLE[`${route.method} ${route.url}`];
      if (!variants) continue;
      for (const { expect: e, name } of variants) {
        const anonymousRefused = e.anonymous === 401;
        const facilitatorsRefused = e.facilitatorA === 403 && e.facilitatorB === 403;
        if (route.access !== 'public' && !anonymousRefused)
          wrong.push(`${route.url} (${name}): ${route.access} but anonymous ${e.anonymous}`);
        if (route.access === 'staff' && !facilitatorsRefused)
          wrong.push(`${route.url} (${name}): staff-only but a facilitator is let in`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it.each(Object.entries(TABLE))('%s', async (key, variants) => {
    const [method, path] = key.split(' ') as [Method, string];
    const failures: string[] = [];
    for (const variant of variants) {
      for (const role of ROLES) {
        const call = variant.call(f, role);
        const expected = variant.expect[role];
        const verify = variant.verify ? (changed: Tables) => variant.verify?.(f, role, changed) : undefined;
        const problem = await check(method, path, role, expected, call, verify);
        counted.calls++;
        if (problem) failures.push(`[${variant.name}] ${problem}`);
        if (method === 'GET') {
          // Fastify answers HEAD for every GET route: the same guard must hold there
          const head = await check('HEAD', path, role, expected, call);
          counted.headCalls++;
          if (head) failures.push(`[HEAD, ${variant.name}] ${head}`);
        }
      }
    }
    counted.routeRoles += ROLES.length;
    expect(failures, failures.join('\n')).toEqual([]);
  });

  it.each(UNKNOWN)('%s %s (no such route)', async (method, path, expected) => {
    const failures: string[] = [];
    for (const role of ROLES) {
      const call = method === 'GET' || method === 'OPTIONS' ? {} : { payload: { userId: f.a.id } };
      const problem = await check(method, path, role, expected[role], call);
      counted.unknownCalls++;
      if (problem) failures.push(problem);
    }
    expect(failures, failures.join('\n')).toEqual([]);
  });

  it('ends where it started: the baseline is intact and every cookie still works', async () => {
    expect(differences(baseline, await dump())).toEqual([]);
    for (const role of ['facilitatorA', 'facilitatorB', 'staff'] as const) {
      expect((await send('GET', '/api/user', role)).statusCode).toBe(200);
    }
  });
});
