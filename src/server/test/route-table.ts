/**
 * Every /api route the app serves, listed once, with what each route-wide suite needs of it:
 * - `access` and `changesState`: who may call it and whether a cross-site request must be refused,
 *   as the route declares them (`config.access`, method); route-table.test.ts checks that the app and
 *   this table agree, route by route, and that neither has a route the other lacks;
 * - `matrix`: the calls the access matrix makes as each role and the status each must get
 *   (access-matrix.test.ts);
 * - `fuzz` and `fuzzGroup`: one request the fuzzer's callers may make, which its mutations start
 *   from, and the fuzz file that fuzzes the route (fuzz-*.test.ts);
 * - `crossSite`, for every state-changing route: a request that would succeed if nothing refused it
 *   (http/sessions-cross-site.test.ts).
 * A new route is one new entry here. Samples are functions of each suite's fixtures, so they name the
 * users, days and tokens the suite made.
 */
import { expect } from 'vitest';
import { addDays } from '../../shared/calendar';
import type { ApiRoute } from '../app';
import { TEST_METRICS_TOKEN } from './built-client';
import type { TableName } from './db-state';
import { STAFF } from './harness';

// ---------------------------------------------------------------------------------------------------
// The access matrix: roles, calls and the statuses they must get

export type Role = 'anonymous' | 'facilitatorA' | 'facilitatorB' | 'staff';
export const ROLES: Role[] = ['anonymous', 'facilitatorA', 'facilitatorB', 'staff'];
export type Expected = Record<Role, number>;
export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'OPTIONS';

export interface MatrixPerson {
  id: number;
  username: string;
  password: string;
  cookie: string;
}

export interface MatrixFixture {
  a: MatrixPerson;
  b: MatrixPerson;
  staff: MatrixPerson;
  /** a day A has availability on (no booking) */
  freeDate: string;
  /** a day A has a confirmed booking on */
  bookedDate: string;
  /** a staff note about A */
  noteId: number;
  /** the saved SharePoint settings, as a settings body (secrets blank: keep the stored ones) */
  settings: Record<string, string>;
  /** the token of A's calendar feed (turned on in setup) */
  feedToken: string;
  /** an open session (a booking without a facilitator) and A's live offer of it, with its email link */
  sessionId: number;
  offerId: number;
  offerToken: string;
  /** a live link that sets A's password (a reset) */
  passwordLinkToken: string;
  /** the tenant of the test identity provider Sign in with Microsoft is configured against */
  entraTenantId: string;
  /** A's passkey (its row id) */
  passkeyId: number;
}

/** What one call sends; `params.id` fills `:id`. */
export interface MatrixCall {
  payload?: Record<string, unknown>;
  query?: Record<string, string>;
  params?: { id?: number; token?: string };
  /** headers besides the role's cookie (a bearer token) */
  headers?: Record<string, string>;
}

export interface MatrixVariant {
  /** what this variant tries, when a route has several */
  name: string;
  call: (f: MatrixFixture, role: Role) => MatrixCall;
  expect: Expected;
  /** checks after an allowed call (the baseline is restored afterwards) */
  verify?: (f: MatrixFixture, role: Role, changed: TableName[]) => void;
}

// ---------------------------------------------------------------------------------------------------
// Expected statuses

export const everyone = (status: number): Expected => ({
  anonymous: status,
  facilitatorA: status,
  facilitatorB: status,
  staff: status,
});
/** staff-only routes: signed out 401, any facilitator 403 */
export const staffOnly = (staff: number): Expected => ({
  anonymous: 401,
  facilitatorA: 403,
  facilitatorB: 403,
  staff,
});
/**
 * Self-service routes aimed at A (userId of A): only A may. B is refused, and so is staff, because on
 * these routes "the user is the session's; a userId for anybody else is 403" (staff use /api/staff).
 */
export const onlyA = (a: number): Expected => ({
  anonymous: 401,
  facilitatorA: a,
  facilitatorB: 403,
  staff: 403,
});
/** any signed-in user, for themselves */
export const signedIn = (status: number): Expected => ({
  anonymous: 401,
  facilitatorA: status,
  facilitatorB: status,
  staff: status,
});

export const one = (
  call: MatrixVariant['call'],
  expect: Expected,
  verify?: MatrixVariant['verify'],
): MatrixVariant[] => [{ name: 'valid request', call, expect, verify }];

// ---------------------------------------------------------------------------------------------------
// What the matrix calls send

const range = (f: MatrixFixture) => ({ from: f.freeDate, to: f.bookedDate });
const dayBody = (f: MatrixFixture, date: string) => ({
  userId: f.a.id,
  date,
  status: 'limited',
  startTime: '09:00',
  endTime: '12:00',
  notes: 'matrix',
});
const safeguardingBody = (version: number) => ({
  dbs: {
    certificateNumber: '001234567890',
    issueDate: '2025-09-01',
    enhancedWithBarredList: true,
    onUpdateService: false,
    statusCheckedOn: null,
    checkedBy: 'Office',
  },
  checks: [],
  version,
});
/** WebAuthn answers in the right shape that no ceremony of the server's asked for. */
const forgedRegistration = {
  id: 'Zm9yZ2Vk',
  rawId: 'Zm9yZ2Vk',
  type: 'public-key',
  response: { clientDataJSON: 'e30', attestationObject: 'oA' },
  clientExtensionResults: {},
};
const forgedAssertion = {
  id: 'Zm9yZ2Vk',
  rawId: 'Zm9yZ2Vk',
  type: 'public-key',
  response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' },
  clientExtensionResults: {},
};
/** A real 1×1 PNG. */
const TINY_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const loginAs = (p: MatrixPerson) => ({ username: p.username, password: p.password });

/** A reply-by time a month from now, before the matrix fixture's open session (two months from now). */
export function farReplyBy(): string {
  return new Date(Date.now() + 30 * 86_400_000).toISOString();
}

/** A browser's push subscription on a public https push service (a literal address: no look-up). */
export function pushSubscriptionSample() {
  return {
    endpoint: 'https://93.184.215.14/push/matrix-device',
    keys: {
      p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
      auth: 'tBHItJI5svbpez7KI4CCXg',
    },
  };
}

const preferencesSample = () => ({
  channels: {
    'offer-new': 'push',
    'offer-ended': 'both',
    'booking-changed': 'none',
    'availability-reminder': 'email',
    'safeguarding-expiring': 'both',
  },
  quietHours: { start: '22:00', end: '07:00' },
});

// ---------------------------------------------------------------------------------------------------
// The fuzzer: callers, request parts and the fixtures its samples name

export type FuzzCaller = 'anonymous' | 'facilitator' | 'staff';
export type FuzzParts = {
  /** headers every case of the route sends (a bearer token) */
  headers?: Record<string, string>;
  body?: Record<string, unknown>;
  query?: Record<string, string>;
  params?: Record<string, string>;
};
/** The fuzz files: each fuzzes the routes of one group. */
export type FuzzGroup = 'accounts' | 'calendar' | 'sharepoint' | 'offers';
export const FUZZ_GROUPS: FuzzGroup[] = ['accounts', 'calendar', 'sharepoint', 'offers'];

interface FuzzAccount {
  id: number;
  username: string;
  password: string;
  freelancerId: string | null;
}

/** What the fuzz samples name; read at every case (several move as accepted cases change things). */
export interface FuzzFixture {
  staff: FuzzAccount;
  facilitator: FuzzAccount;
  /** accounts the login routes are fuzzed against (the throttle may lock them, never the callers) */
  loginTarget: FuzzAccount;
  staffLoginTarget: FuzzAccount;
  /** a facilitator the offer cases offer the open session to */
  offeree: FuzzAccount;
  callerAccount(caller: FuzzCaller): FuzzAccount;
  /** the caller's own id, as text */
  ownId(caller: FuzzCaller): string;
  /** a username not used before */
  unique(prefix: string): string;
  /** the account that delete and edit cases aim at, its version, and the number in its name */
  victimId: number;
  victimVersion: number;
  victimSeq: number;
  /** a staff note that edit and delete cases aim at */
  noteId: number;
  /** the facilitator's safeguarding records' version */
  safeguardingVersion: number;
  /** the facilitator's first booked day, and a weekday near it with no booking */
  bookedDay: string;
  freeDay: string;
  range(): { from: string; to: string };
  emulatorSettings(): Record<string, string>;
  fuzzMailSettings(): Record<string, unknown>;
  /** an open session (no facilitator), the facilitator's live offer of it and its email link */
  openSessionDate: string;
  openSession: { id: number };
  facilitatorOffer: { id: number };
  offerToken: string;
  offerReplyBy(): Date;
  /** the test identity provider's tenant */
  entra: { tenantId: string };
  /** the token of a calendar feed whose owner no case aims at */
  feedToken: string;
  /** a link that sets the password of an account no other case aims at (used once, then refused) */
  passwordLinkToken: string;
  /** that account's id (it has an email address, so it can be invited) */
  linkOwnerId: number;
  /** the caller's own passkey (its id), a registration answer to a challenge kept for the caller, and a
   * sign-in answer to a kept challenge (passkey-fixtures.ts puts them back before every case) */
  passkeyId(caller: FuzzCaller): string;
  passkeyRegistration(caller: FuzzCaller): object;
  passkeySignIn: object;
}

// ---------------------------------------------------------------------------------------------------
// Cross-site requests

export interface CrossSiteFixture {
  /** facilitator A */
  a: { id: number; username: string; password: string };
  aCookie: string;
  staffCookie: string;
  noteId: number;
  /** an open session, A's live offer of it and that offer's email link */
  sessionId: number;
  offerId: number;
  offerToken: string;
  /** a live link that sets A's password */
  passwordLinkToken: string;
}
export type CrossSiteTarget = {
  who: 'anonymous' | 'a' | 'staff';
  payload?: unknown;
  id?: number;
  token?: string;
};

// ---------------------------------------------------------------------------------------------------
// The table

export interface RouteEntry {
  access: ApiRoute['access'];
  changesState: boolean;
  fuzzGroup: FuzzGroup;
  matrix: MatrixVariant[];
  fuzz: (x: FuzzFixture, caller: FuzzCaller) => FuzzParts;
  /** state-changing routes only */
  crossSite?: (x: CrossSiteFixture) => CrossSiteTarget;
}

/** The school's assurance, as a page or as a PDF: the same questions, the same answers. */
const assuranceCases: Pick<RouteEntry, 'matrix' | 'fuzz'> = {
  matrix: [
    {
      name: 'a range at one school',
      call: (f) => ({ query: { ...range(f), school: 'Hill School' } }),
      expect: staffOnly(200),
    },
    { name: 'no session or range', call: () => ({ query: {} }), expect: staffOnly(400) },
    {
      name: 'a session that does not exist',
      call: () => ({ query: { bookingId: '999999' } }),
      expect: staffOnly(404),
    },
  ],
  fuzz: (x) => ({ query: { ...x.range(), school: 'Hill School' } }),
};

export const routeKey = (route: Pick<ApiRoute, 'method' | 'url'>) => `${route.method} ${route.url}`;

/** Where the app's routes and this table disagree, one line each (none: they agree). */
export function routeTableProblems(routes: readonly ApiRoute[]): string[] {
  const problems: string[] = [];
  const served = routes.map(routeKey);
  for (const key of served) if (!(key in ROUTES)) problems.push(`${key}: served, not in the route table`);
  for (const key of Object.keys(ROUTES))
    if (!served.includes(key)) problems.push(`${key}: in the route table, not served`);
  if (new Set(served).size !== served.length) problems.push('a route is served twice');
  for (const route of routes) {
    const entry = ROUTES[routeKey(route)];
    if (!entry) continue;
    if (entry.access !== route.access)
      problems.push(`${routeKey(route)}: access ${route.access}, the table says ${entry.access}`);
    if (entry.changesState !== route.changesState)
      problems.push(
        `${routeKey(route)}: changesState ${route.changesState}, the table says ${entry.changesState}`,
      );
    if (route.changesState && !entry.crossSite)
      problems.push(`${routeKey(route)}: state-changing, without a cross-site request`);
    if (!route.changesState && entry.crossSite)
      problems.push(`${routeKey(route)}: a cross-site request for a route that changes nothing`);
  }
  return problems;
}

export const ROUTES: Record<string, RouteEntry> = {
  'GET /api/openapi.json': {
    access: 'public',
    changesState: false,
    fuzzGroup: 'accounts',
    matrix: one(() => ({}), everyone(200)),
    fuzz: () => ({}),
  },
  'GET /api/health': {
    access: 'public',
    changesState: false,
    fuzzGroup: 'accounts',
    matrix: one(() => ({}), everyone(200)),
    fuzz: () => ({}),
  },
  'GET /api/health/live': {
    access: 'public',
    changesState: false,
    fuzzGroup: 'accounts',
    matrix: one(() => ({}), everyone(200)),
    fuzz: () => ({}),
  },
  'GET /api/health/ready': {
    access: 'public',
    changesState: false,
    fuzzGroup: 'accounts',
    // the suites serve a built client (built-client.ts) from a migrated database
    matrix: one(() => ({}), everyone(200)),
    fuzz: () => ({}),
  },
  'GET /metrics': {
    access: 'public',
    changesState: false,
    fuzzGroup: 'accounts',
    // METRICS_TOKEN is set in the suites: its bearer is answered whoever else they are (a session
    // without it is refused: metrics.test.ts)
    matrix: one(() => ({ headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` } }), everyone(200)),
    fuzz: () => ({ headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` } }),
  },
  'POST /api/login': {
    access: 'public',
    changesState: true,
    fuzzGroup: 'accounts',
    matrix: [
      {
        // B tries A's account with a password B knows (B's own): refused, and B stays signed in.
        name: "A's credentials (B: A's username, B's password)",
        call: (f, role) => ({
          payload:
            role === 'facilitatorB' ? { username: f.a.username, password: f.b.password } : loginAs(f.a),
        }),
        expect: { anonymous: 200, facilitatorA: 200, facilitatorB: 401, staff: 200 },
        verify: (_f, _role, changed) => {
          // a new session for A; whoever was signed in on this cookie is not any more
          expect(changed).toContain('sessions');
        },
      },
    ],
    fuzz: (x) => ({ body: { username: x.loginTarget.username, password: x.loginTarget.password } }),
    crossSite: (x) => ({ who: 'anonymous', payload: { username: x.a.username, password: x.a.password } }),
  },
  'POST /api/auth/staff-login': {
    access: 'public',
    changesState: true,
    fuzzGroup: 'accounts',
    matrix: [
      {
        name: "staff credentials for staff, A's credentials for the others",
        call: (f, role) => ({
          payload:
            role === 'staff'
              ? STAFF
              : role === 'facilitatorB'
                ? { username: f.a.username, password: f.b.password }
                : loginAs(f.a),
        }),
        // a facilitator's right password is still "Invalid credentials" here
        expect: { anonymous: 401, facilitatorA: 401, facilitatorB: 401, staff: 200 },
      },
    ],
    fuzz: (x) => ({
      body: { username: x.staffLoginTarget.username, password: x.staffLoginTarget.password },
    }),
    crossSite: () => ({ who: 'anonymous', payload: STAFF }),
  },
  'POST /api/register': {
    access: 'public',
    changesState: true,
    fuzzGroup: 'accounts',
    matrix: [
      {
        name: "a new account (B: A's username)",
        call: (f, role) => ({
          payload: {
            username: role === 'facilitatorB' ? f.a.username : `new-${role}@example.org`,
            password: 'new-pass-123',
          },
        }),
        // ALLOW_REGISTRATION is off: closed to everyone, and a taken name is not revealed (403, not 409)
        expect: everyone(403),
      },
    ],
    fuzz: (x) => ({
      body: {
        username: x.unique('reg'),
        password: 'register-pass-1',
        displayName: 'New',
        email: 'n@example.org',
      },
    }),
    crossSite: () => ({
      who: 'anonymous',
      payload: { username: 'csrf-new@example.org', password: 'csrf-pass-1' },
    }),
  },
  'POST /api/logout': {
    access: 'public',
    changesState: true,
    fuzzGroup: 'accounts',
    matrix: one(
      () => ({}),
      everyone(200),
      (_f, role, changed) => {
        // only the caller's own session ends (anonymous: none)
        if (role === 'anonymous') expect(changed).toEqual([]);
        else expect(changed).toEqual(['sessions']);
      },
    ),
    fuzz: () => ({}),
    crossSite: () => ({ who: 'a' }),
  },
  'GET /api/logout': {
    access: 'public',
    changesState: true,
    fuzzGroup: 'accounts',
    matrix: one(() => ({}), everyone(302)),
    fuzz: () => ({}),
    crossSite: () => ({ who: 'a' }),
  },
  'GET /api/auth/logout': {
    access: 'public',
    changesState: true,
    fuzzGroup: 'accounts',
    matrix: one(() => ({}), everyone(302)),
    fuzz: () => ({}),
    crossSite: () => ({ who: 'staff' }),
  },
  'GET /api/user': {
    access: 'user',
    changesState: false,
    fuzzGroup: 'accounts',
    matrix: one(() => ({}), signedIn(200)),
    fuzz: () => ({}),
  },
  'PUT /api/user/password': {
    access: 'user',
    changesState: true,
    fuzzGroup: 'accounts',
    matrix: [
      {
        name: "own password (B: A's current password)",
        call: (f, role) => ({
          payload: {
            currentPassword:
              role === 'staff' ? f.staff.password : role === 'facilitatorB' ? f.a.password : f.a.password,
            newPassword: 'brand-new-pass-1',
          },
        }),
        // B cannot use A's password: it is checked against B's own (400 "Current password is incorrect")
        expect: { anonymous: 401, facilitatorA: 200, facilitatorB: 400, staff: 200 },
      },
    ],
    fuzz: (x, caller) => ({
      body: { currentPassword: x.callerAccount(caller).password, newPassword: 'a-new-password-9' },
    }),
    crossSite: (x) => ({
      who: 'a',
      payload: { currentPassword: x.a.password, newPassword: 'csrf-pass-2' },
    }),
  },
  'GET /api/staff/users': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'accounts',
    matrix: [
      { name: 'every account', call: () => ({}), expect: staffOnly(200) },
      {
        name: 'a page of a search',
        call: () => ({ query: { limit: '2', search: 'a' } }),
        expect: staffOnly(200),
      },
      {
        name: 'a page of those missing safeguarding records',
        call: () => ({ query: { limit: '2', safeguarding: 'missing' } }),
        expect: staffOnly(200),
      },
      {
        name: 'a safeguarding state that does not exist',
        call: () => ({ query: { safeguarding: 'fine' } }),
        expect: staffOnly(400),
      },
    ],
    fuzz: () => ({ query: { limit: '2', search: 'example', safeguarding: 'missing' } }),
  },
  'POST /api/staff/users': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'accounts',
    matrix: [
      {
        name: 'a new account',
        call: () => ({ payload: { username: 'new-user@example.org', password: 'new-pass-123' } }),
        expect: staffOnly(201),
      },
      {
        name: "A's username again",
        call: (f) => ({ payload: { username: f.a.username.toUpperCase(), password: 'new-pass-123' } }),
        expect: staffOnly(409),
      },
      {
        name: 'a staff account',
        call: () => ({ payload: { username: 'boss@example.org', password: 'new-pass-123', role: 'staff' } }),
        expect: staffOnly(201),
      },
    ],
    fuzz: (x) => ({
      body: {
        username: x.unique('new'),
        password: 'created-pass-1',
        displayName: 'Created',
        email: 'created@example.org',
        freelancerId: 'FZ-1',
        area: 'North',
        role: 'facilitator',
      },
    }),
    crossSite: () => ({
      who: 'staff',
      payload: { username: 'csrf-user@example.org', password: 'csrf-pass-1', role: 'staff' },
    }),
  },
  'PUT /api/staff/users/:id': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'accounts',
    matrix: [
      {
        name: "edit A (and reset A's password)",
        call: (f) => ({
          params: { id: f.a.id },
          // version 1: A as the fixtures made it (every call starts from that state)
          payload: { version: 1, username: f.a.username, displayName: 'Renamed', password: 'reset-pass-1' },
        }),
        expect: staffOnly(200),
        // a password set by staff signs A out everywhere and turns A's calendar feed off
        verify: (_f, _role, changed) =>
          expect(changed).toEqual(['calendar_feeds', 'change_history', 'sessions', 'users']),
      },
      {
        name: "give A B's username",
        call: (f) => ({ params: { id: f.a.id }, payload: { version: 1, username: f.b.username } }),
        expect: staffOnly(409),
      },
      {
        name: 'make A staff',
        call: (f) => ({
          params: { id: f.a.id },
          payload: { version: 1, username: f.a.username, role: 'staff' },
        }),
        expect: staffOnly(200),
      },
      {
        name: 'an account that does not exist',
        call: () => ({ params: { id: 999_999 }, payload: { version: 1, username: 'ghost@example.org' } }),
        expect: staffOnly(404),
      },
    ],
    fuzz: (x) => ({
      params: { id: String(x.victimId) },
      body: {
        version: x.victimVersion,
        username: `fuzz-victim-${x.victimSeq}@example.org`,
        displayName: 'Victim',
        email: 'victim@example.org',
        freelancerId: 'FZ-2',
        area: 'South',
        role: 'facilitator',
      },
    }),
    crossSite: (x) => ({
      who: 'staff',
      id: x.a.id,
      payload: { version: 1, username: x.a.username, password: 'csrf-pass-3', role: 'staff' },
    }),
  },
  'POST /api/staff/users/:id/unlock': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'accounts',
    matrix: [
      {
        name: "clear A's sign-in pauses",
        call: (f) => ({ params: { id: f.a.id } }),
        expect: staffOnly(200),
      },
      { name: 'nobody', call: () => ({ params: { id: 999_999 } }), expect: staffOnly(404) },
    ],
    fuzz: (x) => ({ params: { id: String(x.victimId) } }),
    crossSite: (x) => ({ who: 'staff', id: x.a.id }),
  },
  'GET /api/staff/password-invitations': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'accounts',
    matrix: one(() => ({}), staffOnly(200)),
    fuzz: () => ({}),
  },
  'GET /api/staff/users/:id/password-invitation': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'accounts',
    matrix: [
      { name: "A's invitation", call: (f) => ({ params: { id: f.a.id } }), expect: staffOnly(200) },
      { name: 'nobody', call: () => ({ params: { id: 999_999 } }), expect: staffOnly(404) },
    ],
    fuzz: (x) => ({ params: { id: String(x.victimId) } }),
  },
  'POST /api/staff/users/:id/password-invitation': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'accounts',
    matrix: [
      // A has no email address: the invitation has nowhere to go (sent ones: password-links.test.ts)
      { name: 'invite A', call: (f) => ({ params: { id: f.a.id } }), expect: staffOnly(409) },
      { name: 'nobody', call: () => ({ params: { id: 999_999 } }), expect: staffOnly(404) },
    ],
    fuzz: (x) => ({ params: { id: String(x.linkOwnerId) } }),
    crossSite: (x) => ({ who: 'staff', id: x.a.id }),
  },
  'DELETE /api/staff/users/:id': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'accounts',
    matrix: [
      { name: 'A', call: (f) => ({ params: { id: f.a.id } }), expect: staffOnly(204) },
      { name: 'the caller', call: (f) => ({ params: { id: f.staff.id } }), expect: staffOnly(400) },
      { name: 'nobody', call: () => ({ params: { id: 999_999 } }), expect: staffOnly(404) },
    ],
    fuzz: (x) => ({ params: { id: String(x.victimId) } }),
    crossSite: (x) => ({ who: 'staff', id: x.a.id }),
  },
  'POST /api/staff/users/:id/deactivate': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'accounts',
    matrix: [
      {
        name: 'A leaves',
        call: (f) => ({ params: { id: f.a.id } }),
        expect: staffOnly(200),
        // A is signed out and A's live offer is withdrawn, at once
        verify: (_f, _role, changed) =>
          expect(changed).toEqual(['change_history', 'offers', 'sessions', 'users']),
      },
      { name: 'the caller', call: (f) => ({ params: { id: f.staff.id } }), expect: staffOnly(400) },
      { name: 'nobody', call: () => ({ params: { id: 999_999 } }), expect: staffOnly(404) },
    ],
    fuzz: (x) => ({ params: { id: String(x.victimId) } }),
    crossSite: (x) => ({ who: 'staff', id: x.a.id }),
  },
  'POST /api/staff/users/:id/reactivate': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'accounts',
    matrix: [
      // A is active in the fixtures (reactivation itself: retention.test.ts)
      { name: 'A, still active', call: (f) => ({ params: { id: f.a.id } }), expect: staffOnly(409) },
      { name: 'nobody', call: () => ({ params: { id: 999_999 } }), expect: staffOnly(404) },
    ],
    fuzz: (x) => ({ params: { id: String(x.victimId) } }),
    crossSite: (x) => ({ who: 'staff', id: x.a.id }),
  },
  'POST /api/staff/users/:id/erase': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'accounts',
    matrix: [
      {
        name: 'erase A',
        call: (f) => ({ params: { id: f.a.id }, payload: { reason: 'Asked for erasure by letter' } }),
        expect: staffOnly(200),
      },
      {
        name: 'a reason naming A',
        call: (f) => ({ params: { id: f.a.id }, payload: { reason: `Request from ${f.a.username}` } }),
        expect: staffOnly(400),
      },
      {
        name: 'no reason',
        call: (f) => ({ params: { id: f.a.id }, payload: { reason: ' ' } }),
        expect: staffOnly(400),
      },
      {
        name: 'the caller',
        call: (f) => ({ params: { id: f.staff.id }, payload: { reason: 'Asked for erasure' } }),
        expect: staffOnly(400),
      },
      {
        name: 'nobody',
        call: () => ({ params: { id: 999_999 }, payload: { reason: 'Asked for erasure' } }),
        expect: staffOnly(404),
      },
    ],
    fuzz: (x) => ({ params: { id: String(x.victimId) }, body: { reason: 'Asked for erasure by email' } }),
    crossSite: (x) => ({ who: 'staff', id: x.a.id, payload: { reason: 'Asked for erasure' } }),
  },
  'GET /api/staff/erasures': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'accounts',
    matrix: one(() => ({}), staffOnly(200)),
    fuzz: () => ({}),
  },
  'GET /api/staff/retention': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'accounts',
    matrix: one(() => ({}), staffOnly(200)),
    fuzz: () => ({}),
  },
  'PUT /api/staff/retention': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'accounts',
    matrix: [
      {
        name: 'shorter periods',
        call: () => ({ payload: { certificateMonths: 3, anonymiseMonths: 6, recordsYears: 2 } }),
        expect: staffOnly(200),
        verify: (_f, _role, changed) => expect(changed).toEqual(['change_history', 'retention_settings']),
      },
      {
        name: 'anonymised before the number is shortened',
        call: () => ({ payload: { certificateMonths: 12, anonymiseMonths: 6, recordsYears: 2 } }),
        expect: staffOnly(400),
      },
    ],
    fuzz: () => ({ body: { certificateMonths: 6, anonymiseMonths: 12, recordsYears: 6 } }),
    crossSite: () => ({
      who: 'staff',
      payload: { certificateMonths: 3, anonymiseMonths: 6, recordsYears: 2 },
    }),
  },
  'GET /api/staff/retention/preview': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'accounts',
    matrix: one(() => ({}), staffOnly(200)),
    fuzz: () => ({}),
  },
  'GET /api/availability': {
    access: 'user',
    changesState: false,
    fuzzGroup: 'calendar',
    matrix: one((f) => ({ query: { ...range(f), userId: String(f.a.id) } }), onlyA(200)),
    fuzz: (x, caller) => ({ query: { ...x.range(), userId: x.ownId(caller) } }),
  },
  'POST /api/availability': {
    access: 'user',
    changesState: true,
    fuzzGroup: 'calendar',
    matrix: [
      {
        name: "A's free day",
        call: (f) => ({ payload: dayBody(f, f.freeDate) }),
        expect: onlyA(200),
        verify: (_f, _role, changed) =>
          expect(changed).toEqual(['availability', 'change_history', 'sync_outbox', 'users']),
      },
      {
        name: "A's booked day",
        call: (f) => ({ payload: dayBody(f, f.bookedDate) }),
        // the booking lock: 409 with the booked-day message, nothing written
        expect: onlyA(409),
      },
    ],
    fuzz: (x, caller) => ({
      body: {
        userId: x.callerAccount(caller).id,
        date: x.freeDay,
        status: 'limited',
        startTime: '09:00',
        endTime: '17:00',
        notes: 'Mornings only',
      },
    }),
    crossSite: () => ({ who: 'a', payload: { date: '2026-12-01', status: 'unavailable' } }),
  },
  'POST /api/availability/bulk': {
    access: 'user',
    changesState: true,
    fuzzGroup: 'calendar',
    matrix: one(
      (f) => ({
        payload: {
          userId: f.a.id,
          startDate: f.freeDate,
          endDate: f.bookedDate,
          daysOfWeek: [1, 2, 3, 4, 5],
          status: 'unavailable',
        },
      }),
      onlyA(200),
    ),
    fuzz: (x, caller) => ({
      body: {
        userId: x.callerAccount(caller).id,
        startDate: addDays(x.bookedDay, -7),
        endDate: addDays(x.bookedDay, 7),
        daysOfWeek: [1, 2, 3, 4, 5],
        status: 'available',
        startTime: '10:00',
        endTime: '15:00',
        notes: 'Bulk',
      },
    }),
    crossSite: () => ({
      who: 'a',
      payload: {
        startDate: '2026-12-01',
        endDate: '2026-12-31',
        daysOfWeek: [1, 2, 3, 4, 5],
        status: 'unavailable',
      },
    }),
  },
  'POST /api/sharepoint/sync-all': {
    access: 'user',
    changesState: true,
    fuzzGroup: 'sharepoint',
    matrix: one((f) => ({ payload: { userId: f.a.id } }), onlyA(200)),
    fuzz: (x, caller) => ({ body: { userId: x.callerAccount(caller).id } }),
    crossSite: () => ({ who: 'a', payload: {} }),
  },
  'GET /api/bookings': {
    access: 'user',
    changesState: false,
    fuzzGroup: 'calendar',
    matrix: one((f) => ({ query: { ...range(f), userId: String(f.a.id) } }), onlyA(200)),
    fuzz: (x, caller) => ({ query: { ...x.range(), userId: x.ownId(caller) } }),
  },
  'GET /api/staff/bookings': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'calendar',
    matrix: one((f) => ({ query: range(f) }), staffOnly(200)),
    fuzz: (x) => ({ query: x.range() }),
  },
  'POST /api/staff/bookings/refresh': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'sharepoint',
    matrix: one(() => ({}), staffOnly(200)),
    fuzz: () => ({}),
    crossSite: () => ({ who: 'staff' }),
  },
  'GET /api/staff/availabilities': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'calendar',
    matrix: one((f) => ({ query: range(f) }), staffOnly(200)),
    fuzz: (x) => ({ query: x.range() }),
  },
  'GET /api/staff/grid': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'calendar',
    matrix: [
      { name: 'first page', call: (f) => ({ query: range(f) }), expect: staffOnly(200) },
      {
        name: 'some facilitators, an area and a search',
        call: (f) => ({ query: { ...range(f), only: `${f.a.id},${f.b.id}`, area: 'North', search: 'a' } }),
        expect: staffOnly(200),
      },
    ],
    fuzz: (x, caller) => ({ query: { ...x.range(), only: x.ownId(caller), limit: '2' } }),
  },
  'POST /api/staff/availability': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'calendar',
    matrix: [
      // staff may change a booked day
      {
        name: "A's booked day",
        call: (f) => ({ payload: dayBody(f, f.bookedDate) }),
        expect: staffOnly(200),
      },
    ],
    fuzz: (x) => ({
      body: {
        userId: x.facilitator.id,
        date: x.bookedDay,
        status: 'unavailable',
        startTime: '',
        endTime: '',
        notes: '',
      },
    }),
    crossSite: (x) => ({
      who: 'staff',
      payload: { userId: x.a.id, date: '2026-12-02', status: 'limited' },
    }),
  },
  'GET /api/staff/notes': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'calendar',
    matrix: one((f) => ({ query: { date: f.freeDate, view: 'month' } }), staffOnly(200)),
    fuzz: (x) => ({ query: { date: x.bookedDay, view: 'week' } }),
  },
  'POST /api/staff/notes': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'calendar',
    matrix: [
      {
        name: 'a note about A',
        call: (f) => ({
          payload: { facilitatorId: f.a.id, date: f.freeDate, note: 'Matrix note', priority: 'high' },
        }),
        expect: staffOnly(201),
      },
      {
        name: 'a blank note',
        call: (f) => ({ payload: { facilitatorId: f.a.id, date: f.freeDate, note: '   ' } }),
        expect: staffOnly(400),
      },
    ],
    fuzz: (x) => ({
      body: {
        facilitatorId: x.facilitator.id,
        date: `${x.freeDay}T09:30:00.000Z`,
        note: 'Call first',
        priority: 'high',
      },
    }),
    crossSite: (x) => ({
      who: 'staff',
      payload: { facilitatorId: x.a.id, date: '2026-12-02', note: 'csrf' },
    }),
  },
  'PUT /api/staff/notes/:id': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'calendar',
    matrix: [
      {
        name: 'the note about A',
        call: (f) => ({ params: { id: f.noteId }, payload: { note: 'Edited', priority: 'urgent' } }),
        expect: staffOnly(200),
      },
      {
        name: 'a note that does not exist',
        call: () => ({ params: { id: 999_999 }, payload: { note: 'Edited' } }),
        expect: staffOnly(404),
      },
    ],
    fuzz: (x) => ({
      params: { id: String(x.noteId) },
      body: { note: 'Edited', priority: 'urgent', date: x.freeDay },
    }),
    crossSite: (x) => ({
      who: 'staff',
      id: x.noteId,
      payload: { note: 'csrf edit', priority: 'urgent' },
    }),
  },
  'DELETE /api/staff/notes/:id': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'calendar',
    matrix: [
      { name: 'the note about A', call: (f) => ({ params: { id: f.noteId } }), expect: staffOnly(204) },
      {
        name: 'a note that does not exist',
        call: () => ({ params: { id: 999_999 } }),
        expect: staffOnly(404),
      },
    ],
    fuzz: (x) => ({ params: { id: String(x.noteId) } }),
    crossSite: (x) => ({ who: 'staff', id: x.noteId }),
  },
  'GET /api/sharepoint/settings': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'sharepoint',
    matrix: one(() => ({}), staffOnly(200)),
    fuzz: () => ({}),
  },
  'POST /api/sharepoint/settings': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'sharepoint',
    matrix: one(
      (f) => ({ payload: { ...f.settings, bookingsListName: 'Bookings', username: 'changed@example.org' } }),
      staffOnly(200),
    ),
    fuzz: (x) => ({ body: x.emulatorSettings() }),
    crossSite: () => ({
      who: 'staff',
      payload: {
        siteUrl: 'https://evil.example/sites/x',
        availabilityListName: 'A',
        bookingsListName: 'B',
        password: 'csrf',
      },
    }),
  },
  'POST /api/sharepoint/test-connection-with-credentials': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'sharepoint',
    matrix: one(
      (f) => ({ payload: f.settings }),
      staffOnly(200),
      (_f, _role, changed) => expect(changed).toEqual([]),
    ),
    fuzz: (x) => ({ body: x.emulatorSettings() }),
    crossSite: () => ({
      who: 'staff',
      payload: { siteUrl: 'https://evil.example/sites/x', availabilityListName: 'A', bookingsListName: 'B' },
    }),
  },
  'POST /api/sharepoint/columns': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'sharepoint',
    matrix: one(
      (f) => ({ payload: f.settings }),
      staffOnly(200),
      (_f, _role, changed) => expect(changed).toEqual([]),
    ),
    fuzz: (x) => ({ body: x.emulatorSettings() }),
    crossSite: () => ({
      who: 'staff',
      payload: { siteUrl: 'https://evil.example/sites/x', availabilityListName: 'A', bookingsListName: 'B' },
    }),
  },
  'GET /api/admin/scheduler/status': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'sharepoint',
    matrix: one(() => ({}), staffOnly(200)),
    fuzz: () => ({}),
  },
  'POST /api/staff/facilitators/import': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'sharepoint',
    matrix: one(() => ({}), staffOnly(200)),
    fuzz: () => ({}),
    crossSite: () => ({ who: 'staff' }),
  },
  'POST /api/availability/pattern/preview': {
    access: 'user',
    changesState: true,
    fuzzGroup: 'calendar',
    // every 2 weeks on Mondays and Wednesdays of March 2026 (A's booked day, Wed 4 March, is skipped)
    matrix: one(
      (f) => ({
        payload: {
          userId: f.a.id,
          startDate: f.freeDate,
          endDate: '2026-03-31',
          everyWeeks: 2,
          daysOfWeek: [1, 3],
          status: 'limited',
        },
      }),
      onlyA(200),
      // a preview reads only
      (_f, _role, changed) => expect(changed).toEqual([]),
    ),
    fuzz: (x, caller) => ({
      body: {
        userId: x.callerAccount(caller).id,
        startDate: addDays(x.bookedDay, -10),
        endDate: addDays(x.bookedDay, 40),
        everyWeeks: 2,
        daysOfWeek: [1, 3, 5],
        status: 'limited',
        startTime: '09:00',
        endTime: '12:00',
        notes: 'Fortnightly',
      },
    }),
    // recurring patterns (the caller's own), email reminders (staff)
    crossSite: () => ({
      who: 'a',
      payload: {
        startDate: '2026-12-01',
        endDate: '2026-12-31',
        daysOfWeek: [1, 3],
        status: 'limited',
        everyWeeks: 2,
      },
    }),
  },
  'POST /api/availability/pattern': {
    access: 'user',
    changesState: true,
    fuzzGroup: 'calendar',
    matrix: one(
      (f) => ({
        payload: {
          userId: f.a.id,
          startDate: f.freeDate,
          endDate: '2026-03-31',
          everyWeeks: 2,
          daysOfWeek: [1, 3],
          status: 'limited',
          notes: 'matrix pattern',
        },
      }),
      onlyA(200),
      (_f, _role, changed) =>
        expect(changed).toEqual(['availability', 'change_history', 'sync_outbox', 'users']),
    ),
    fuzz: (x, caller) => ({
      body: {
        userId: x.callerAccount(caller).id,
        startDate: addDays(x.bookedDay, -10),
        endDate: addDays(x.bookedDay, 40),
        everyWeeks: 4,
        daysOfWeek: [1, 2, 3, 4, 5],
        status: 'unavailable',
        startTime: '',
        endTime: '',
        notes: 'Every 4 weeks',
      },
    }),
    crossSite: () => ({
      who: 'a',
      payload: {
        startDate: '2026-12-01',
        endDate: '2026-12-31',
        daysOfWeek: [1, 3],
        status: 'limited',
        everyWeeks: 2,
      },
    }),
  },
  'GET /api/staff/free': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'calendar',
    matrix: [
      {
        name: "A's free day, in a window, everyone shown",
        call: (f) => ({ query: { date: f.freeDate, from: '09:00', to: '12:00', include: 'all' } }),
        expect: staffOnly(200),
        verify: (_f, _role, changed) => expect(changed).toEqual([]),
      },
      {
        name: 'a page of everyone shown',
        call: (f) => ({ query: { date: f.freeDate, include: 'all', limit: '1' } }),
        expect: staffOnly(200),
      },
      {
        name: 'a cursor it did not give',
        call: (f) => ({ query: { date: f.freeDate, cursor: 'not-a-cursor' } }),
        expect: staffOnly(400),
      },
      {
        name: 'a window that ends before it starts',
        call: (f) => ({ query: { date: f.freeDate, from: '12:00', to: '09:00' } }),
        // the access check comes first: a facilitator learns nothing about the input rules
        expect: staffOnly(400),
      },
    ],
    fuzz: (x) => ({
      query: {
        date: x.bookedDay,
        from: '09:00',
        to: '12:00',
        areas: 'North,South',
        include: 'all',
        limit: '2',
      },
    }),
  },
  'GET /api/staff/completeness': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'calendar',
    matrix: [
      { name: 'a month', call: () => ({ query: { month: '2026-03' } }), expect: staffOnly(200) },
      {
        name: 'a month in one area',
        call: () => ({ query: { month: '2026-03', area: 'North' } }),
        expect: staffOnly(200),
      },
      {
        name: 'a page by status, the other way',
        call: () => ({ query: { month: '2026-03', sort: 'status', direction: 'descending', limit: '1' } }),
        expect: staffOnly(200),
      },
      {
        name: 'a month that does not exist',
        call: () => ({ query: { month: '2026-13' } }),
        expect: staffOnly(400),
      },
    ],
    fuzz: (x) => ({
      query: {
        month: x.freeDay.slice(0, 7),
        area: 'North',
        sort: 'count',
        direction: 'descending',
        limit: '2',
      },
    }),
  },
  'GET /api/staff/reminders/settings': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'sharepoint',
    matrix: one(() => ({}), staffOnly(200)),
    fuzz: () => ({}),
  },
  'PUT /api/staff/reminders/settings': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'sharepoint',
    matrix: [
      {
        name: 'a mail server (never used: nothing is sent here)',
        call: () => ({
          payload: {
            host: 'smtp.portal.invalid',
            port: 9,
            security: 'none',
            username: 'mailer',
            password: 'matrix-mail-pass',
            fromAddress: 'portal@example.org',
            autoEnabled: false,
            autoDay: 5,
            autoMonth: 'next',
          },
        }),
        expect: staffOnly(200),
        verify: (_f, _role, changed) => expect(changed).toEqual(['change_history', 'reminder_settings']),
      },
      {
        // the operator allows no private network here: refused on save, naming the host
        name: 'a mail server on loopback',
        call: () => ({
          payload: {
            host: '127.0.0.1',
            port: 25,
            security: 'none',
            fromAddress: 'portal@example.org',
            autoEnabled: false,
            autoDay: 5,
            autoMonth: 'next',
          },
        }),
        expect: staffOnly(400),
      },
      {
        name: 'day 29',
        call: () => ({
          payload: {
            host: '',
            port: 25,
            security: 'none',
            fromAddress: '',
            autoEnabled: false,
            autoDay: 29,
            autoMonth: 'next',
          },
        }),
        expect: staffOnly(400),
      },
    ],
    fuzz: (x) => ({
      body: { ...x.fuzzMailSettings(), autoEnabled: true, autoDay: 28 },
    }),
    crossSite: () => ({
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
  },
  'POST /api/staff/reminders/send': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'sharepoint',
    // email is not set up in this suite: a send is refused (409) before anything is tried; reminders
    // are about months within a year of this one, so the month is this one whatever the date
    matrix: one(() => ({ payload: { month: new Date().toISOString().slice(0, 7) } }), staffOnly(409)),
    // the facilitator has marked nothing this month, so is missing: the first accepted case emails them
    // (at fuzzSmtp)
    fuzz: (x) => ({
      body: { month: new Date().toISOString().slice(0, 7), userIds: [x.facilitator.id] },
    }),
    crossSite: () => ({ who: 'staff', payload: { month: new Date().toISOString().slice(0, 7) } }),
  },
  'GET /api/push/key': {
    access: 'user',
    changesState: false,
    fuzzGroup: 'calendar',
    matrix: one(() => ({}), signedIn(200)),
    fuzz: () => ({}),
  },
  'POST /api/push/subscription': {
    access: 'user',
    changesState: true,
    fuzzGroup: 'calendar',
    // the caller's own device only (no user id is taken); a public https endpoint, named by address so
    // no look-up is made
    matrix: one(
      () => ({ payload: pushSubscriptionSample() }),
      signedIn(200),
      (_f, _role, changed) => expect(changed).toEqual(['push_subscriptions']),
    ),
    fuzz: () => ({ body: pushSubscriptionSample() }),
    crossSite: () => ({ who: 'a', payload: pushSubscriptionSample() }),
  },
  'DELETE /api/push/subscription': {
    access: 'user',
    changesState: true,
    fuzzGroup: 'calendar',
    // nobody's device is subscribed in the fixtures: nothing to remove, for anyone
    matrix: one(
      () => ({ payload: { endpoint: pushSubscriptionSample().endpoint } }),
      signedIn(200),
      (_f, _role, changed) => expect(changed).toEqual([]),
    ),
    fuzz: () => ({ body: { endpoint: pushSubscriptionSample().endpoint } }),
    crossSite: () => ({ who: 'a', payload: { endpoint: pushSubscriptionSample().endpoint } }),
  },
  'GET /api/notifications/preferences': {
    access: 'user',
    changesState: false,
    fuzzGroup: 'calendar',
    matrix: one(() => ({}), signedIn(200)),
    fuzz: () => ({}),
  },
  'PUT /api/notifications/preferences': {
    access: 'user',
    changesState: true,
    fuzzGroup: 'calendar',
    matrix: one(
      () => ({ payload: preferencesSample() }),
      signedIn(200),
      (_f, _role, changed) =>
        expect(changed).toEqual(['notification_preferences', 'notification_quiet_hours']),
    ),
    fuzz: () => ({ body: preferencesSample() }),
    crossSite: () => ({ who: 'a', payload: preferencesSample() }),
  },
  'GET /api/push/status': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'calendar',
    matrix: one(() => ({}), staffOnly(200)),
    fuzz: () => ({}),
  },
  'GET /api/calendar-feed': {
    access: 'user',
    changesState: false,
    fuzzGroup: 'calendar',
    // Managing a feed acts on the caller's own feed only (no user id is taken); A's is on, B's and staff's off.
    matrix: one(() => ({}), signedIn(200)),
    fuzz: () => ({}),
  },
  'POST /api/calendar-feed': {
    access: 'user',
    changesState: true,
    fuzzGroup: 'calendar',
    matrix: one(
      () => ({}),
      signedIn(200),
      // A's feed is on already and keeps its URL; the others get one
      (_f, role, changed) => expect(changed).toEqual(role === 'facilitatorA' ? [] : ['calendar_feeds']),
    ),
    fuzz: () => ({}),
    // calendar feed (the caller's own)
    crossSite: () => ({ who: 'a' }),
  },
  'POST /api/calendar-feed/rotate': {
    access: 'user',
    changesState: true,
    fuzzGroup: 'calendar',
    matrix: one(
      () => ({}),
      // only a feed that is on can be rotated: B's and staff's are off (404), whatever A's is
      { anonymous: 401, facilitatorA: 200, facilitatorB: 404, staff: 404 },
      (_f, _role, changed) => expect(changed).toEqual(['calendar_feeds']),
    ),
    fuzz: () => ({}),
    crossSite: () => ({ who: 'a' }),
  },
  'DELETE /api/calendar-feed': {
    access: 'user',
    changesState: true,
    fuzzGroup: 'calendar',
    matrix: one(
      () => ({}),
      signedIn(204),
      (_f, role, changed) => expect(changed).toEqual(role === 'facilitatorA' ? ['calendar_feeds'] : []),
    ),
    fuzz: () => ({}),
    crossSite: () => ({ who: 'a' }),
  },
  'GET /api/calendar-feed/:token.ics': {
    access: 'public',
    changesState: false,
    fuzzGroup: 'calendar',
    // Public but token-checked: calendar apps send no cookie, so the token in the URL is the credential.
    // Whoever holds A's URL gets A's bookings (sessions change nothing); any other token is 404 for all.
    matrix: [
      { name: "A's token", call: (f) => ({ params: { token: f.feedToken } }), expect: everyone(200) },
      {
        name: 'a token that is not live',
        call: () => ({ params: { token: 'A'.repeat(43) } }),
        expect: everyone(404),
      },
    ],
    // Public, token-checked. The token belongs to an account of its own, with an id far from every id
    // the fuzzer aims at, so no case deletes it (callers' own feeds are rotated and revoked by cases).
    fuzz: (x) => ({ params: { token: x.feedToken } }),
  },
  'POST /api/sharepoint/notifications': {
    access: 'public',
    changesState: true,
    fuzzGroup: 'sharepoint',
    // Anonymous by nature: SharePoint sends no cookie. The handshake echoes its token to anyone; a
    // notification without the subscription's clientState is refused for everyone, signed in or not.
    matrix: [
      {
        name: 'the validation handshake',
        call: () => ({ query: { validationToken: 'Validation: matrix' } }),
        expect: everyone(200),
      },
      {
        name: 'a notification without the clientState',
        call: () => ({ payload: { value: [{ subscriptionId: 'sub', clientState: 'guess' }] } }),
        expect: everyone(403),
      },
    ],
    fuzz: () => ({ query: { validationToken: 'Validation: fuzz' } }),
    // SharePoint's change notifications come from Graph, never a browser: a cross-site browser request is refused
    crossSite: () => ({
      who: 'anonymous',
      payload: { value: [{ subscriptionId: 'sub', clientState: 'guess' }] },
    }),
  },
  'GET /api/staff/export': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'calendar',
    matrix: [
      {
        name: 'CSV of the grid',
        call: (f) => ({ query: { ...range(f), format: 'csv' } }),
        expect: staffOnly(200),
      },
      {
        name: 'xlsx of one area without B',
        call: (f) => ({ query: { ...range(f), format: 'xlsx', area: 'North', exclude: String(f.b.id) } }),
        expect: staffOnly(200),
      },
    ],
    fuzz: (x) => ({
      query: { ...x.range(), format: 'xlsx', area: 'North', exclude: String(x.loginTarget.id) },
    }),
  },
  'GET /api/availability/export': {
    access: 'user',
    changesState: false,
    fuzzGroup: 'calendar',
    matrix: one((f) => ({ query: { ...range(f), userId: String(f.a.id) } }), onlyA(200)),
    fuzz: (x, caller) => ({ query: { ...x.range(), userId: x.ownId(caller) } }),
  },
  'GET /api/auth/microsoft': {
    access: 'public',
    changesState: false,
    fuzzGroup: 'accounts',
    matrix: one(() => ({}), everyone(200)),
    fuzz: () => ({}),
  },
  'POST /api/auth/microsoft/start': {
    access: 'public',
    changesState: true,
    fuzzGroup: 'accounts',
    // leaving for Microsoft stores the sign-in under way (undone by the baseline restore)
    matrix: [
      {
        name: 'without an invitation',
        call: () => ({ payload: {} }),
        expect: everyone(302),
        verify: (_f, _role, changed) => expect(changed).toEqual(['microsoft_sign_in_requests']),
      },
      {
        name: 'an unknown invitation',
        call: () => ({ payload: { invitation: 'x'.repeat(43) } }),
        expect: everyone(302),
      },
      {
        name: 'a malformed invitation',
        call: () => ({ payload: { invitation: '<script>' } }),
        expect: everyone(400),
      },
    ],
    fuzz: () => ({ body: { invitation: 'x'.repeat(43), page: 'facilitator' } }),
    // Sign in with Microsoft (not configured here: only the cross-site guard is under test)
    crossSite: () => ({ who: 'anonymous', payload: {} }),
  },
  'GET /api/auth/microsoft/callback': {
    access: 'public',
    changesState: false,
    fuzzGroup: 'accounts',
    // an answer with no state that this browser started goes back to the login page, whoever asks
    matrix: [
      { name: 'no state', call: () => ({ query: { code: 'abc' } }), expect: everyone(302) },
      {
        name: 'a state never issued',
        call: () => ({ query: { code: 'abc', state: 'forged' } }),
        expect: everyone(302),
      },
    ],
    fuzz: () => ({ query: { code: 'a-code', state: 'a-state-never-issued' } }),
  },
  'GET /api/auth/microsoft/logout': {
    access: 'public',
    changesState: true,
    fuzzGroup: 'accounts',
    matrix: one(() => ({}), everyone(302)),
    fuzz: () => ({}),
    crossSite: () => ({ who: 'staff' }),
  },
  'GET /api/staff/microsoft-sign-in': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'accounts',
    matrix: one(() => ({}), staffOnly(200)),
    fuzz: () => ({}),
  },
  'GET /api/staff/microsoft-sign-in/linked': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'accounts',
    matrix: one(() => ({}), staffOnly(200)),
    fuzz: () => ({}),
  },
  'PUT /api/staff/microsoft-sign-in': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'accounts',
    matrix: [
      {
        name: 'passwords stay on',
        call: () => ({ payload: { staffPasswordSignIn: true } }),
        expect: staffOnly(200),
        verify: (_f, _role, changed) => expect(changed).toEqual(['microsoft_sign_in_settings']),
      },
      {
        // the staff member asking has no linked Microsoft identity
        name: 'passwords off',
        call: () => ({ payload: { staffPasswordSignIn: false } }),
        expect: staffOnly(400),
      },
      {
        // this suite configures the tenant through the environment, which the page cannot change
        name: 'another tenant',
        call: () => ({
          payload: {
            staffPasswordSignIn: true,
            tenantId: '12345678-1234-4234-8234-123456789012',
            clientId: '12345678-1234-4234-8234-123456789013',
          },
        }),
        expect: staffOnly(400),
      },
    ],
    // the fuzzing staff member has no linked identity: passwords can never be switched off here
    fuzz: () => ({ body: { staffPasswordSignIn: true } }),
    crossSite: () => ({
      who: 'staff',
      payload: {
        staffPasswordSignIn: true,
        tenantId: 'evil.example',
        clientId: '00000000-0000-4000-8000-000000000666',
        clientSecret: 'csrf',
      },
    }),
  },
  'POST /api/staff/microsoft-sign-in/test': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'accounts',
    matrix: [
      {
        name: 'the configured directory',
        call: (f) => ({ payload: { tenantId: f.entraTenantId } }),
        expect: staffOnly(200),
        verify: (_f, _role, changed) => expect(changed).toEqual([]),
      },
      { name: 'not a directory', call: () => ({ payload: { tenantId: '../x' } }), expect: staffOnly(400) },
    ],
    // the tenant of the test identity provider: the lookup stays on loopback
    fuzz: (x) => ({ body: { tenantId: x.entra.tenantId } }),
    crossSite: () => ({ who: 'staff', payload: { tenantId: 'evil.example' } }),
  },
  'POST /api/staff/users/:id/microsoft-invitation': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'accounts',
    matrix: [
      {
        name: 'for staff',
        call: (f) => ({ params: { id: f.staff.id } }),
        expect: staffOnly(201),
        verify: (_f, _role, changed) => expect(changed).toEqual(['change_history', 'microsoft_invitations']),
      },
      {
        name: 'for staff, replacing a linked identity (none is linked: the same)',
        call: (f) => ({ params: { id: f.staff.id }, payload: { replaceIdentity: true } }),
        expect: staffOnly(201),
      },
      {
        // facilitators are not let in with Microsoft in this suite (the setting is off by default)
        name: 'for A, a facilitator',
        call: (f) => ({ params: { id: f.a.id } }),
        expect: staffOnly(409),
        verify: (_f, _role, changed) => expect(changed).toEqual([]),
      },
      { name: 'for nobody', call: () => ({ params: { id: 999_999 } }), expect: staffOnly(404) },
    ],
    // a staff account: a facilitator's invitation waits for facilitator sign-in to be turned on (409)
    fuzz: (x) => ({ params: { id: String(x.staff.id) }, body: { replaceIdentity: false } }),
    crossSite: (x) => ({ who: 'staff', id: x.a.id }),
  },
  'DELETE /api/staff/users/:id/microsoft-identity': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'accounts',
    matrix: [
      { name: 'for A', call: (f) => ({ params: { id: f.a.id } }), expect: staffOnly(200) },
      { name: 'for nobody', call: () => ({ params: { id: 999_999 } }), expect: staffOnly(404) },
    ],
    fuzz: (x) => ({ params: { id: String(x.victimId) } }),
    crossSite: (x) => ({ who: 'staff', id: x.a.id }),
  },
  'GET /api/staff/history': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'calendar',
    matrix: [
      {
        name: "A's free day",
        call: (f) => ({ query: { userId: String(f.a.id), date: f.freeDate } }),
        expect: staffOnly(200),
      },
      {
        name: 'a day that is not a date',
        call: (f) => ({ query: { userId: String(f.a.id), date: '2026-02-30' } }),
        expect: staffOnly(400),
      },
    ],
    fuzz: (x) => ({ query: { userId: String(x.facilitator.id), date: x.freeDay, limit: '20' } }),
  },
  'GET /api/staff/users/:id/history': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'calendar',
    matrix: [
      {
        name: 'A',
        call: (f) => ({ params: { id: f.a.id }, query: { limit: '10' } }),
        expect: staffOnly(200),
      },
      {
        name: 'a limit of 0',
        call: (f) => ({ params: { id: f.a.id }, query: { limit: '0' } }),
        expect: staffOnly(400),
      },
    ],
    fuzz: (x) => ({
      params: { id: String(x.facilitator.id) },
      query: { limit: '20', before: '1000000' },
    }),
  },
  'GET /api/history': {
    access: 'user',
    changesState: false,
    fuzzGroup: 'calendar',
    matrix: [
      // A's own availability history; B naming A is refused, and so is staff (self-service route)
      {
        name: "A's days",
        call: (f) => ({ query: { ...range(f), userId: String(f.a.id) } }),
        expect: onlyA(200),
      },
      { name: 'own days', call: (f) => ({ query: range(f) }), expect: signedIn(200) },
      {
        name: 'a reversed range',
        call: (f) => ({ query: { from: f.bookedDate, to: f.freeDate } }),
        expect: signedIn(400),
      },
    ],
    fuzz: (x, caller) => ({ query: { ...x.range(), userId: x.ownId(caller), limit: '20' } }),
  },
  'GET /api/staff/safeguarding/policy': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'offers',
    matrix: one(() => ({}), staffOnly(200)),
    fuzz: () => ({}),
  },
  'PUT /api/staff/safeguarding/policy': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'offers',
    matrix: [
      {
        name: 'two years, a first-aid check',
        call: () => ({
          payload: { dbsMonths: 24, updateServiceMonths: 12, warningDays: 45, checkTypes: ['First aid'] },
        }),
        expect: staffOnly(200),
        verify: (_f, _role, changed) =>
          expect(changed).toEqual(['change_history', 'safeguarding_policy', 'safeguarding_policy_versions']),
      },
      {
        name: 'no months',
        call: () => ({ payload: { dbsMonths: 0, updateServiceMonths: 12, warningDays: 30, checkTypes: [] } }),
        expect: staffOnly(400),
      },
    ],
    fuzz: () => ({
      body: {
        dbsMonths: 36,
        updateServiceMonths: 12,
        warningDays: 30,
        checkTypes: ['Insurance', 'First aid'],
      },
    }),
    // safeguarding (staff)
    crossSite: () => ({
      who: 'staff',
      payload: { dbsMonths: 1, updateServiceMonths: 1, warningDays: 0, checkTypes: [] },
    }),
  },
  'POST /api/staff/safeguarding/policy/preview': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'offers',
    matrix: [
      {
        name: 'a first-aid check',
        call: () => ({
          payload: { dbsMonths: 36, updateServiceMonths: 12, warningDays: 30, checkTypes: ['First aid'] },
        }),
        expect: staffOnly(200),
        verify: (_f, _role, changed) => expect(changed).toEqual([]),
      },
      {
        name: 'no months',
        call: () => ({ payload: { dbsMonths: 0, updateServiceMonths: 12, warningDays: 30, checkTypes: [] } }),
        expect: staffOnly(400),
      },
    ],
    fuzz: () => ({
      body: { dbsMonths: 24, updateServiceMonths: 12, warningDays: 30, checkTypes: ['Insurance'] },
    }),
    // saves nothing, but a staff request all the same: refused from another site
    crossSite: () => ({
      who: 'staff',
      payload: { dbsMonths: 36, updateServiceMonths: 12, warningDays: 30, checkTypes: [] },
    }),
  },
  'GET /api/staff/safeguarding': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'offers',
    matrix: one((f) => ({ query: { date: f.bookedDate } }), staffOnly(200)),
    fuzz: (x) => ({ query: { date: x.bookedDay } }),
  },
  'GET /api/staff/users/:id/safeguarding': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'offers',
    matrix: [
      { name: "A's records", call: (f) => ({ params: { id: f.a.id } }), expect: staffOnly(200) },
      { name: 'nobody’s', call: () => ({ params: { id: 999_999 } }), expect: staffOnly(404) },
      { name: 'a staff account’s', call: (f) => ({ params: { id: f.staff.id } }), expect: staffOnly(400) },
    ],
    fuzz: (x) => ({ params: { id: String(x.facilitator.id) } }),
  },
  'PUT /api/staff/users/:id/safeguarding': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'offers',
    matrix: [
      {
        name: "A's DBS check (none yet: version 0)",
        call: (f) => ({ params: { id: f.a.id }, payload: safeguardingBody(0) }),
        expect: staffOnly(200),
        verify: (_f, _role, changed) =>
          expect(changed).toEqual([
            'certificate_views',
            'change_history',
            'safeguarding_record_versions',
            'safeguarding_records',
          ]),
      },
      {
        name: 'on a version that is not the stored one',
        call: (f) => ({ params: { id: f.a.id }, payload: safeguardingBody(5) }),
        expect: staffOnly(409),
      },
    ],
    fuzz: (x) => ({
      params: { id: String(x.facilitator.id) },
      body: {
        dbs: {
          certificateNumber: '0012 3456 7890',
          issueDate: addDays(x.bookedDay, -400),
          enhancedWithBarredList: true,
          onUpdateService: true,
          statusCheckedOn: addDays(x.bookedDay, -30),
          checkedBy: 'Fuzz office',
        },
        checks: [],
        version: x.safeguardingVersion,
      },
    }),
    crossSite: (x) => ({
      who: 'staff',
      id: x.a.id,
      payload: { dbs: null, checks: [], version: 0 },
    }),
  },
  'GET /api/safeguarding': {
    access: 'user',
    changesState: false,
    fuzzGroup: 'offers',
    // own records only: no id is taken (a staff member's are empty)
    matrix: one(() => ({}), signedIn(200)),
    fuzz: () => ({}),
  },
  'GET /api/staff/safeguarding/export': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'offers',
    matrix: one((f) => ({ query: { ...range(f), school: 'Hill School' } }), staffOnly(200)),
    fuzz: (x) => ({ query: { ...x.range(), school: 'Hill School' } }),
  },
  // data protection: the viewing log, subject access, the school's assurance and photos (staff)
  'GET /api/staff/users/:id/certificate-views': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'offers',
    matrix: [
      {
        name: "A's log",
        call: (f) => ({ params: { id: f.a.id }, query: { limit: '10' } }),
        expect: staffOnly(200),
      },
      { name: 'nobody’s', call: () => ({ params: { id: 999_999 } }), expect: staffOnly(404) },
    ],
    fuzz: (x) => ({ params: { id: String(x.facilitator.id) }, query: { limit: '20' } }),
  },
  'GET /api/staff/users/:id/subject-access': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'offers',
    matrix: [
      { name: "A's archive", call: (f) => ({ params: { id: f.a.id } }), expect: staffOnly(200) },
      { name: 'nobody’s', call: () => ({ params: { id: 999_999 } }), expect: staffOnly(404) },
    ],
    fuzz: (x) => ({ params: { id: String(x.facilitator.id) } }),
  },
  'GET /api/account/subject-access': {
    access: 'user',
    changesState: false,
    fuzzGroup: 'offers',
    // the caller's own: no id is taken
    matrix: one(() => ({}), signedIn(200)),
    fuzz: () => ({}),
  },
  'GET /api/staff/assurance': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'offers',
    ...assuranceCases,
  },
  'GET /api/staff/assurance/pdf': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'offers',
    ...assuranceCases,
  },
  'GET /api/staff/assurance/statement': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'offers',
    matrix: one(() => ({}), staffOnly(200)),
    fuzz: () => ({}),
  },
  'PUT /api/staff/assurance/statement': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'offers',
    matrix: [
      {
        name: 'a statement',
        call: () => ({ payload: { statement: 'We confirm these checks.' } }),
        expect: staffOnly(200),
        verify: (_f, _role, changed) => expect(changed).toEqual(['assurance_settings', 'change_history']),
      },
      { name: 'a blank statement', call: () => ({ payload: { statement: ' ' } }), expect: staffOnly(400) },
    ],
    fuzz: () => ({ body: { statement: 'We confirm the checks shown.' } }),
    crossSite: () => ({ who: 'staff', payload: { statement: 'Cross-site statement' } }),
  },
  'GET /api/staff/users/:id/photo': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'offers',
    matrix: one((f) => ({ params: { id: f.a.id } }), staffOnly(404)),
    fuzz: (x) => ({ params: { id: String(x.facilitator.id) } }),
  },
  'PUT /api/staff/users/:id/photo': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'offers',
    matrix: [
      {
        name: "A's photo",
        call: (f) => ({ params: { id: f.a.id }, payload: { image: TINY_PNG } }),
        expect: staffOnly(200),
        verify: (_f, _role, changed) => expect(changed).toEqual(['facilitator_photos']),
      },
      {
        name: 'text named as a photo',
        call: (f) => ({
          params: { id: f.a.id },
          payload: { image: Buffer.from('not an image').toString('base64') },
        }),
        expect: staffOnly(400),
      },
      {
        name: 'a staff account',
        call: (f) => ({ params: { id: f.staff.id }, payload: { image: TINY_PNG } }),
        expect: staffOnly(400),
      },
    ],
    fuzz: (x) => ({ params: { id: String(x.facilitator.id) }, body: { image: TINY_PNG } }),
    crossSite: (x) => ({ who: 'staff', id: x.a.id, payload: { image: TINY_PNG } }),
  },
  'DELETE /api/staff/users/:id/photo': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'offers',
    // A has none in the fixture: 404 (a kept photo's removal is in data-protection.test.ts)
    matrix: one((f) => ({ params: { id: f.a.id } }), staffOnly(404)),
    fuzz: (x) => ({ params: { id: String(x.facilitator.id) } }),
    crossSite: (x) => ({ who: 'staff', id: x.a.id }),
  },
  'GET /api/staff/sessions': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'offers',
    matrix: one(() => ({}), staffOnly(200)),
    fuzz: (x) => ({ query: { from: addDays(x.openSessionDate, -5), to: x.openSessionDate } }),
  },
  'POST /api/staff/sessions': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'offers',
    matrix: [
      {
        name: 'a new session',
        call: () => ({
          payload: {
            date: farReplyBy().slice(0, 10),
            startTime: '13:00',
            endTime: '15:00',
            schoolName: 'Matrix School',
          },
        }),
        expect: staffOnly(201),
        verify: (_f, _role, changed) => expect(changed).toEqual(['booking_outbox', 'change_history']),
      },
      {
        name: 'no school',
        call: () => ({
          payload: { date: farReplyBy().slice(0, 10), startTime: '13:00', endTime: '15:00', schoolName: '' },
        }),
        expect: staffOnly(400),
      },
    ],
    fuzz: (x) => ({
      body: {
        date: x.openSessionDate,
        startTime: '13:00',
        endTime: '15:00',
        schoolName: 'Fuzz School',
        program: 'Art',
      },
    }),
    // offers: staff make sessions and offers; A answers in the portal; anybody holding the link answers by it
    crossSite: () => ({
      who: 'staff',
      payload: {
        date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
        startTime: '13:00',
        endTime: '15:00',
        schoolName: 'CSRF School',
      },
    }),
  },
  'GET /api/staff/sessions/:id/candidates': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'offers',
    matrix: [
      { name: 'the open session', call: (f) => ({ params: { id: f.sessionId } }), expect: staffOnly(200) },
      {
        name: 'a page of a search',
        call: (f) => ({ params: { id: f.sessionId }, query: { limit: '1', search: 'a' } }),
        expect: staffOnly(200),
      },
      {
        name: 'a cursor it did not give',
        call: (f) => ({ params: { id: f.sessionId }, query: { cursor: 'not-a-cursor' } }),
        expect: staffOnly(400),
      },
      { name: 'no session', call: () => ({ params: { id: 999_999 } }), expect: staffOnly(404) },
    ],
    fuzz: (x) => ({ params: { id: String(x.openSession.id) }, query: { limit: '2', search: 'example' } }),
  },
  'GET /api/staff/sessions/:id/offers': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'offers',
    matrix: one((f) => ({ params: { id: f.sessionId } }), staffOnly(200)),
    fuzz: (x) => ({ params: { id: String(x.openSession.id) } }),
  },
  'POST /api/staff/sessions/:id/offers': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'offers',
    matrix: [
      {
        // B has no freelancer ID here, so SharePoint could not record the booking
        name: 'to B (no freelancer ID)',
        call: (f) => ({ params: { id: f.sessionId }, payload: { userIds: [f.b.id], replyBy: farReplyBy() } }),
        expect: staffOnly(400),
      },
      {
        name: 'to A again (A has a live offer)',
        call: (f) => ({ params: { id: f.sessionId }, payload: { userIds: [f.a.id], replyBy: farReplyBy() } }),
        expect: staffOnly(400),
      },
      {
        name: 'with a blank safeguarding override reason',
        call: (f) => ({
          params: { id: f.sessionId },
          payload: { userIds: [f.a.id], replyBy: farReplyBy(), safeguardingOverride: { reason: ' ' } },
        }),
        expect: staffOnly(400),
      },
    ],
    fuzz: (x) => ({
      params: { id: String(x.openSession.id) },
      body: {
        userIds: [x.offeree.id],
        replyBy: x.offerReplyBy().toISOString(),
        message: 'Fuzz offer',
        autoNext: true,
        safeguardingOverride: { reason: 'DBS seen in person' },
      },
    }),
    crossSite: (x) => ({
      who: 'staff',
      id: x.sessionId,
      payload: {
        userIds: [x.a.id],
        replyBy: new Date(Date.now() + 86_400_000).toISOString(),
        confirmNotFree: true,
      },
    }),
  },
  'POST /api/staff/offers/:id/withdraw': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'offers',
    matrix: one(
      (f) => ({ params: { id: f.offerId } }),
      staffOnly(200),
      (_f, _role, changed) => expect(changed).toEqual(['change_history', 'offers']),
    ),
    fuzz: (x) => ({ params: { id: String(x.facilitatorOffer!.id) } }),
    crossSite: (x) => ({ who: 'staff', id: x.offerId }),
  },
  'GET /api/offers': {
    access: 'user',
    changesState: false,
    fuzzGroup: 'offers',
    matrix: one(() => ({}), signedIn(200)),
    fuzz: (x) => ({ query: { from: addDays(x.openSessionDate, -5), to: x.openSessionDate } }),
  },
  'POST /api/offers/:id/seen': {
    access: 'user',
    changesState: true,
    fuzzGroup: 'offers',
    // A's offer: only A; for anybody else it does not exist
    matrix: one(
      (f) => ({ params: { id: f.offerId } }),
      { anonymous: 401, facilitatorA: 200, facilitatorB: 404, staff: 404 },
      (_f, _role, changed) => expect(changed).toEqual(['offers']),
    ),
    fuzz: (x) => ({ params: { id: String(x.facilitatorOffer!.id) } }),
    crossSite: (x) => ({ who: 'a', id: x.offerId }),
  },
  'POST /api/offers/:id/accept': {
    access: 'user',
    changesState: true,
    fuzzGroup: 'offers',
    matrix: one(
      (f) => ({ params: { id: f.offerId } }),
      { anonymous: 401, facilitatorA: 200, facilitatorB: 404, staff: 404 },
      (_f, _role, changed) =>
        expect(changed).toEqual(['booking_outbox', 'bookings', 'change_history', 'offers']),
    ),
    fuzz: (x) => ({ params: { id: String(x.facilitatorOffer!.id) } }),
    crossSite: (x) => ({ who: 'a', id: x.offerId }),
  },
  'POST /api/offers/:id/decline': {
    access: 'user',
    changesState: true,
    fuzzGroup: 'offers',
    matrix: one(
      (f) => ({ params: { id: f.offerId }, payload: { reason: 'Away' } }),
      { anonymous: 401, facilitatorA: 200, facilitatorB: 404, staff: 404 },
      (_f, _role, changed) => expect(changed).toEqual(['change_history', 'offers']),
    ),
    fuzz: (x) => ({
      params: { id: String(x.facilitatorOffer!.id) },
      body: { reason: 'Fuzz reason' },
    }),
    crossSite: (x) => ({ who: 'a', id: x.offerId, payload: { reason: 'csrf' } }),
  },
  'POST /api/password-reset': {
    access: 'public',
    changesState: true,
    fuzzGroup: 'accounts',
    // The same answer for every caller and every username, known or not; the work happens after it.
    matrix: [
      {
        name: 'an unknown username',
        call: () => ({ payload: { username: 'nobody-by-this-name' } }),
        expect: everyone(202),
        verify: (_f, _role, changed) => expect(changed).toEqual([]),
      },
      { name: 'no username', call: () => ({ payload: { username: '' } }), expect: everyone(400) },
    ],
    fuzz: (x) => ({ body: { username: x.unique('forgot') } }),
    crossSite: () => ({ who: 'anonymous', payload: { username: 'nobody-by-this-name' } }),
  },
  'GET /api/passkeys/status': {
    access: 'public',
    changesState: false,
    fuzzGroup: 'accounts',
    matrix: one(() => ({}), everyone(200)),
    fuzz: () => ({}),
  },
  'GET /api/passkeys': {
    access: 'user',
    changesState: false,
    fuzzGroup: 'accounts',
    matrix: one(() => ({}), signedIn(200)),
    fuzz: () => ({}),
  },
  'POST /api/passkeys/options': {
    access: 'user',
    changesState: true,
    fuzzGroup: 'accounts',
    matrix: one(
      () => ({}),
      signedIn(200),
      (_f, _role, changed) => expect(changed).toEqual(['webauthn_challenges']),
    ),
    fuzz: () => ({}),
    crossSite: () => ({ who: 'a' }),
  },
  'POST /api/passkeys': {
    access: 'user',
    changesState: true,
    fuzzGroup: 'accounts',
    // an answer to no challenge the server made (real ceremonies: passkeys.test.ts)
    matrix: one(() => ({ payload: { name: 'Phone', response: forgedRegistration } }), signedIn(400)),
    fuzz: (x, caller) => ({ body: { name: 'Phone', response: x.passkeyRegistration(caller) } }),
    crossSite: () => ({ who: 'a', payload: { name: 'Phone', response: forgedRegistration } }),
  },
  'PUT /api/passkeys/:id': {
    access: 'user',
    changesState: true,
    fuzzGroup: 'accounts',
    matrix: [
      {
        name: "A's passkey",
        call: (f) => ({ params: { id: f.passkeyId }, payload: { name: 'Renamed' } }),
        // another account's passkey is as unknown as none
        expect: { anonymous: 401, facilitatorA: 200, facilitatorB: 404, staff: 404 },
      },
    ],
    fuzz: (x, caller) => ({ params: { id: x.passkeyId(caller) }, body: { name: 'Renamed' } }),
    crossSite: () => ({ who: 'a', id: 999_999, payload: { name: 'Renamed' } }),
  },
  'DELETE /api/passkeys/:id': {
    access: 'user',
    changesState: true,
    fuzzGroup: 'accounts',
    matrix: [
      {
        name: "A's passkey",
        call: (f) => ({ params: { id: f.passkeyId } }),
        expect: { anonymous: 401, facilitatorA: 204, facilitatorB: 404, staff: 404 },
        verify: (_f, _role, changed) => expect(changed).toEqual(['change_history', 'passkeys']),
      },
    ],
    fuzz: (x, caller) => ({ params: { id: x.passkeyId(caller) } }),
    crossSite: () => ({ who: 'a', id: 999_999 }),
  },
  'POST /api/passkey-sign-in/options': {
    access: 'public',
    changesState: true,
    fuzzGroup: 'accounts',
    matrix: one(() => ({}), everyone(200)),
    fuzz: () => ({}),
    crossSite: () => ({ who: 'anonymous' }),
  },
  'POST /api/passkey-sign-in': {
    access: 'public',
    changesState: true,
    fuzzGroup: 'accounts',
    // a signature over no challenge the server made (real ceremonies: passkeys.test.ts)
    matrix: one(() => ({ payload: { response: forgedAssertion } }), everyone(401)),
    fuzz: (x) => ({ body: { response: x.passkeySignIn, page: 'facilitator' } }),
    crossSite: () => ({ who: 'anonymous', payload: { response: forgedAssertion } }),
  },
  'GET /api/staff/sign-in-policy': {
    access: 'staff',
    changesState: false,
    fuzzGroup: 'accounts',
    matrix: one(() => ({}), staffOnly(200)),
    fuzz: () => ({}),
  },
  'PUT /api/staff/sign-in-policy': {
    access: 'staff',
    changesState: true,
    fuzzGroup: 'accounts',
    matrix: [
      {
        name: 'off',
        call: () => ({ payload: { staffPasskeyOrMicrosoft: false } }),
        expect: staffOnly(200),
      },
    ],
    fuzz: () => ({ body: { staffPasskeyOrMicrosoft: false } }),
    crossSite: () => ({ who: 'staff', payload: { staffPasskeyOrMicrosoft: false } }),
  },
  'POST /api/password-links/view': {
    access: 'public',
    changesState: true,
    fuzzGroup: 'accounts',
    // Public but token-checked: whoever holds the emailed link reads whose password it sets; a
    // session changes nothing, and reading changes nothing either.
    matrix: [
      {
        name: "A's link",
        call: (f) => ({ payload: { token: f.passwordLinkToken } }),
        expect: everyone(200),
        verify: (_f, _role, changed) => expect(changed).toEqual([]),
      },
      { name: 'a forged link', call: () => ({ payload: { token: 'forged' } }), expect: everyone(404) },
    ],
    fuzz: (x) => ({ body: { token: x.passwordLinkToken } }),
    crossSite: (x) => ({ who: 'anonymous', payload: { token: x.passwordLinkToken } }),
  },
  'POST /api/password-links/use': {
    access: 'public',
    changesState: true,
    fuzzGroup: 'accounts',
    matrix: [
      {
        name: "A's link",
        call: (f) => ({ payload: { token: f.passwordLinkToken, newPassword: 'set-by-link-1' } }),
        expect: everyone(200),
        verify: (_f, _role, changed) =>
          expect(changed).toEqual([
            'calendar_feeds',
            'change_history',
            'password_links',
            'sessions',
            'users',
          ]),
      },
      {
        name: 'a forged link',
        call: () => ({ payload: { token: 'forged', newPassword: 'set-by-link-1' } }),
        expect: everyone(404),
      },
    ],
    fuzz: (x) => ({ body: { token: x.passwordLinkToken, newPassword: 'set-by-link-1' } }),
    crossSite: (x) => ({
      who: 'anonymous',
      payload: { token: x.passwordLinkToken, newPassword: 'set-by-link-1' },
    }),
  },
  'POST /api/offer-links/view': {
    access: 'public',
    changesState: true,
    fuzzGroup: 'offers',
    // Public but token-checked, like the calendar feed: whoever holds A's email link answers A's offer
    // (and only it, once); a session changes nothing. Reading it changes nothing either.
    matrix: [
      {
        name: "A's link",
        call: (f) => ({ payload: { token: f.offerToken } }),
        expect: everyone(200),
        verify: (_f, _role, changed) => expect(changed).toEqual([]),
      },
      { name: 'a forged link', call: () => ({ payload: { token: 'abc.def' } }), expect: everyone(404) },
    ],
    fuzz: (x) => ({ body: { token: x.offerToken } }),
    crossSite: (x) => ({ who: 'anonymous', payload: { token: x.offerToken } }),
  },
  'POST /api/offer-links/accept': {
    access: 'public',
    changesState: true,
    fuzzGroup: 'offers',
    matrix: [
      {
        name: "A's link",
        call: (f) => ({ payload: { token: f.offerToken } }),
        expect: everyone(200),
        verify: (_f, _role, changed) =>
          expect(changed).toEqual(['booking_outbox', 'bookings', 'change_history', 'offers']),
      },
      { name: 'a forged link', call: () => ({ payload: { token: 'abc.def' } }), expect: everyone(404) },
    ],
    fuzz: (x) => ({ body: { token: x.offerToken } }),
    crossSite: (x) => ({ who: 'anonymous', payload: { token: x.offerToken } }),
  },
  'POST /api/offer-links/decline': {
    access: 'public',
    changesState: true,
    fuzzGroup: 'offers',
    matrix: [
      {
        name: "A's link",
        call: (f) => ({ payload: { token: f.offerToken } }),
        expect: everyone(200),
        verify: (_f, _role, changed) => expect(changed).toEqual(['change_history', 'offers']),
      },
      {
        name: 'a forged link',
        call: () => ({ payload: { token: 'abc.def' } }),
        expect: everyone(404),
      },
    ],
    fuzz: (x) => ({ body: { token: x.offerToken, reason: 'Fuzz' } }),
    crossSite: (x) => ({ who: 'anonymous', payload: { token: x.offerToken } }),
  },
};
