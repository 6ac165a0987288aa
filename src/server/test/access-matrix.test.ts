/**
 * The access matrix: every /api route the app serves, called as anonymous, facilitator A,
 * facilitator B (aiming at A's resources) and staff. Each call must get the status DESIGN.md section 6
 * and the API contract give it, and a refused call must leave every table exactly as it was.
 *
 * The table below is keyed by `METHOD url` and checked against the app's own route list first, so a
 * new route without an entry (or an entry for a route that is gone) fails this file by name.
 *
 * One app and one set of users and sessions per file. The database is dumped once after setup (the
 * baseline); a call that changed anything (an allowed write) is followed by a restore of the baseline,
 * sessions included, so every call starts from the same state and the cookies stay valid.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portalSettingsFor } from '../../sharepoint-emulator/index';
import { bookings, offers, users } from '../db/schema';
import { signOfferLink } from '../modules/offers/links';
import { type ConnectorSetup, setupConnector } from '../sharepoint/test-support';
import { dumpTables, TABLES, type TableDump, type TableName } from './db-state';
import { startTestEntra, type TestEntra } from './entra-provider';
import { STAFF, type TestApp } from './harness';

type Role = 'anonymous' | 'facilitatorA' | 'facilitatorB' | 'staff';
const ROLES: Role[] = ['anonymous', 'facilitatorA', 'facilitatorB', 'staff'];
type Expected = Record<Role, number>;
type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'OPTIONS';

interface Person {
  id: number;
  username: string;
  password: string;
  cookie: string;
}

interface Fixture {
  a: Person;
  b: Person;
  staff: Person;
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
}

/** What one call sends; `params.id` fills `:id`. */
interface Call {
  payload?: Record<string, unknown>;
  query?: Record<string, string>;
  params?: { id?: number; token?: string };
}

interface Variant {
  /** what this variant tries, when a route has several */
  name: string;
  call: (f: Fixture, role: Role) => Call;
  expect: Expected;
  /** checks after an allowed call (the baseline is restored afterwards) */
  verify?: (f: Fixture, role: Role, changed: Tables) => void;
}

// ---------------------------------------------------------------------------------------------------
// Expected statuses

const everyone = (status: number): Expected => ({
  anonymous: status,
  facilitatorA: status,
  facilitatorB: status,
  staff: status,
});
/** staff-only routes: signed out 401, any facilitator 403 */
const staffOnly = (staff: number): Expected => ({
  anonymous: 401,
  facilitatorA: 403,
  facilitatorB: 403,
  staff,
});
/**
 * Self-service routes aimed at A (userId of A): only A may. B is refused, and so is staff, because on
 * these routes "the user is the session's; a userId for anybody else is 403" (staff use /api/staff).
 */
const onlyA = (a: number): Expected => ({ anonymous: 401, facilitatorA: a, facilitatorB: 403, staff: 403 });
/** any signed-in user, for themselves */
const signedIn = (status: number): Expected => ({
  anonymous: 401,
  facilitatorA: status,
  facilitatorB: status,
  staff: status,
});

const one = (call: Variant['call'], expect: Expected, verify?: Variant['verify']): Variant[] => [
  { name: 'valid request', call, expect, verify },
];

// ---------------------------------------------------------------------------------------------------
// The table: every route the app serves

const range = (f: Fixture) => ({ from: f.freeDate, to: f.bookedDate });
const dayBody = (f: Fixture, date: string) => ({
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
const loginAs = (p: Person) => ({ username: p.username, password: p.password });

const TABLE: Record<string, Variant[]> = {
  'GET /api/openapi.json': one(() => ({}), everyone(200)),
  'GET /api/health': one(() => ({}), everyone(200)),

  'POST /api/login': [
    {
      // B tries A's account with a password B knows (B's own): refused, and B stays signed in.
      name: "A's credentials (B: A's username, B's password)",
      call: (f, role) => ({
        payload: role === 'facilitatorB' ? { username: f.a.username, password: f.b.password } : loginAs(f.a),
      }),
      expect: { anonymous: 200, facilitatorA: 200, facilitatorB: 401, staff: 200 },
      verify: (_f, _role, changed) => {
        // a new session for A; whoever was signed in on this cookie is not any more
        expect(changed).toContain('sessions');
      },
    },
  ],
  'POST /api/auth/staff-login': [
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
  'POST /api/register': [
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
  'POST /api/logout': one(
    () => ({}),
    everyone(200),
    (_f, role, changed) => {
      // only the caller's own session ends (anonymous: none)
      if (role === 'anonymous') expect(changed).toEqual([]);
      else expect(changed).toEqual(['sessions']);
    },
  ),
  'GET /api/logout': one(() => ({}), everyone(302)),
  'GET /api/auth/logout': one(() => ({}), everyone(302)),
  'GET /api/user': one(() => ({}), signedIn(200)),
  'PUT /api/user/password': [
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

  'GET /api/staff/users': one(() => ({}), staffOnly(200)),
  'POST /api/staff/users': [
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
  'PUT /api/staff/users/:id': [
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
  'POST /api/staff/users/:id/unlock': [
    {
      name: "clear A's sign-in pauses",
      call: (f) => ({ params: { id: f.a.id } }),
      expect: staffOnly(200),
    },
    { name: 'nobody', call: () => ({ params: { id: 999_999 } }), expect: staffOnly(404) },
  ],
  'DELETE /api/staff/users/:id': [
    { name: 'A', call: (f) => ({ params: { id: f.a.id } }), expect: staffOnly(204) },
    { name: 'the caller', call: (f) => ({ params: { id: f.staff.id } }), expect: staffOnly(400) },
    { name: 'nobody', call: () => ({ params: { id: 999_999 } }), expect: staffOnly(404) },
  ],

  'GET /api/availability': one((f) => ({ query: { ...range(f), userId: String(f.a.id) } }), onlyA(200)),
  'POST /api/availability': [
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
      // the booking lock: 409 with the spec's message, nothing written
      expect: onlyA(409),
    },
  ],
  'POST /api/availability/bulk': one(
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
  'POST /api/sharepoint/sync-all': one((f) => ({ payload: { userId: f.a.id } }), onlyA(200)),
  'GET /api/bookings': one((f) => ({ query: { ...range(f), userId: String(f.a.id) } }), onlyA(200)),

  'GET /api/staff/bookings': one((f) => ({ query: range(f) }), staffOnly(200)),
  'POST /api/staff/bookings/refresh': one(() => ({}), staffOnly(200)),
  'GET /api/staff/availabilities': one((f) => ({ query: range(f) }), staffOnly(200)),
  'POST /api/staff/availability': [
    // staff may change a booked day
    { name: "A's booked day", call: (f) => ({ payload: dayBody(f, f.bookedDate) }), expect: staffOnly(200) },
  ],
  'GET /api/staff/notes': one((f) => ({ query: { date: f.freeDate, view: 'month' } }), staffOnly(200)),
  'POST /api/staff/notes': [
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
  'PUT /api/staff/notes/:id': [
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
  'DELETE /api/staff/notes/:id': [
    { name: 'the note about A', call: (f) => ({ params: { id: f.noteId } }), expect: staffOnly(204) },
    { name: 'a note that does not exist', call: () => ({ params: { id: 999_999 } }), expect: staffOnly(404) },
  ],
  'GET /api/sharepoint/settings': one(() => ({}), staffOnly(200)),
  'POST /api/sharepoint/settings': one(
    (f) => ({ payload: { ...f.settings, bookingsListName: 'Bookings', username: 'changed@example.org' } }),
    staffOnly(200),
  ),
  'POST /api/sharepoint/test-connection-with-credentials': one(
    (f) => ({ payload: f.settings }),
    staffOnly(200),
    (_f, _role, changed) => expect(changed).toEqual([]),
  ),
  'POST /api/sharepoint/columns': one(
    (f) => ({ payload: f.settings }),
    staffOnly(200),
    (_f, _role, changed) => expect(changed).toEqual([]),
  ),
  'GET /api/admin/scheduler/status': one(() => ({}), staffOnly(200)),
  'POST /api/staff/facilitators/import': one(() => ({}), staffOnly(200)),
  // --- patterns, who is free, completeness ---
  // every 2 weeks on Mondays and Wednesdays of March 2026 (A's booked day, Wed 4 March, is skipped)
  'POST /api/availability/pattern/preview': one(
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
  'POST /api/availability/pattern': one(
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
  'GET /api/staff/free': [
    {
      name: "A's free day, in a window, everyone shown",
      call: (f) => ({ query: { date: f.freeDate, from: '09:00', to: '12:00', include: 'all' } }),
      expect: staffOnly(200),
      verify: (_f, _role, changed) => expect(changed).toEqual([]),
    },
    {
      name: 'a window that ends before it starts',
      call: (f) => ({ query: { date: f.freeDate, from: '12:00', to: '09:00' } }),
      // the access check comes first: a facilitator learns nothing about the input rules
      expect: staffOnly(400),
    },
  ],
  // --- end patterns, who is free, completeness ---
  // --- reminders ---
  'GET /api/staff/completeness': [
    { name: 'a month', call: () => ({ query: { month: '2026-03' } }), expect: staffOnly(200) },
    {
      name: 'a month in one area',
      call: () => ({ query: { month: '2026-03', area: 'North' } }),
      expect: staffOnly(200),
    },
    {
      name: 'a month that does not exist',
      call: () => ({ query: { month: '2026-13' } }),
      expect: staffOnly(400),
    },
  ],
  'GET /api/staff/reminders/settings': one(() => ({}), staffOnly(200)),
  'PUT /api/staff/reminders/settings': [
    {
      name: 'a mail server (never used: nothing is sent here)',
      call: () => ({
        payload: {
          host: '127.0.0.1',
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
  // email is not set up in this suite: a send is refused (409) before anything is tried
  'POST /api/staff/reminders/send': one(() => ({ payload: { month: '2026-03' } }), staffOnly(409)),
  // --- end reminders ---
  // --- calendar feed, exports ---
  // Managing a feed acts on the caller's own feed only (no user id is taken); A's is on, B's and staff's off.
  'GET /api/calendar-feed': one(() => ({}), signedIn(200)),
  'POST /api/calendar-feed': one(
    () => ({}),
    signedIn(200),
    // A's feed is on already and keeps its URL; the others get one
    (_f, role, changed) => expect(changed).toEqual(role === 'facilitatorA' ? [] : ['calendar_feeds']),
  ),
  'POST /api/calendar-feed/rotate': one(
    () => ({}),
    // only a feed that is on can be rotated: B's and staff's are off (404), whatever A's is
    { anonymous: 401, facilitatorA: 200, facilitatorB: 404, staff: 404 },
    (_f, _role, changed) => expect(changed).toEqual(['calendar_feeds']),
  ),
  'DELETE /api/calendar-feed': one(
    () => ({}),
    signedIn(204),
    (_f, role, changed) => expect(changed).toEqual(role === 'facilitatorA' ? ['calendar_feeds'] : []),
  ),
  // Public but token-checked: calendar apps send no cookie, so the token in the URL is the credential.
  // Whoever holds A's URL gets A's bookings (sessions change nothing); any other token is 404 for all.
  'GET /api/calendar-feed/:token.ics': [
    { name: "A's token", call: (f) => ({ params: { token: f.feedToken } }), expect: everyone(200) },
    {
      name: 'a token that is not live',
      call: () => ({ params: { token: 'A'.repeat(43) } }),
      expect: everyone(404),
    },
  ],
  // Anonymous by nature: SharePoint sends no cookie. The handshake echoes its token to anyone; a
  // notification without the subscription's clientState is refused for everyone, signed in or not.
  'POST /api/sharepoint/notifications': [
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
  'GET /api/staff/export': [
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
  'GET /api/availability/export': one(
    (f) => ({ query: { ...range(f), userId: String(f.a.id) } }),
    onlyA(200),
  ),
  // --- end calendar feed, exports ---
  // --- Sign in with Microsoft (configured against a test identity provider in this suite) ---
  'GET /api/auth/microsoft': one(() => ({}), everyone(200)),
  // leaving for Microsoft stores the sign-in under way (undone by the baseline restore)
  'GET /api/auth/microsoft/start': [
    {
      name: 'without an invitation',
      call: () => ({}),
      expect: everyone(302),
      verify: (_f, _role, changed) => expect(changed).toEqual(['microsoft_sign_in_requests']),
    },
    {
      name: 'an unknown invitation',
      call: () => ({ query: { invitation: 'x'.repeat(43) } }),
      expect: everyone(302),
    },
    {
      name: 'a malformed invitation',
      call: () => ({ query: { invitation: '<script>' } }),
      expect: everyone(400),
    },
  ],
  // an answer with no state that this browser started goes back to the login page, whoever asks
  'GET /api/auth/microsoft/callback': [
    { name: 'no state', call: () => ({ query: { code: 'abc' } }), expect: everyone(302) },
    {
      name: 'a state never issued',
      call: () => ({ query: { code: 'abc', state: 'forged' } }),
      expect: everyone(302),
    },
  ],
  'GET /api/auth/microsoft/logout': one(() => ({}), everyone(302)),
  'GET /api/staff/microsoft-sign-in': one(() => ({}), staffOnly(200)),
  'GET /api/staff/microsoft-sign-in/linked': one(() => ({}), staffOnly(200)),
  'PUT /api/staff/microsoft-sign-in': [
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
  'POST /api/staff/microsoft-sign-in/test': [
    {
      name: 'the configured directory',
      call: () => ({ payload: { tenantId: entra.tenantId } }),
      expect: staffOnly(200),
      verify: (_f, _role, changed) => expect(changed).toEqual([]),
    },
    { name: 'not a directory', call: () => ({ payload: { tenantId: '../x' } }), expect: staffOnly(400) },
  ],
  'POST /api/staff/users/:id/microsoft-invitation': [
    {
      name: 'for staff',
      call: (f) => ({ params: { id: f.staff.id } }),
      expect: staffOnly(201),
      verify: (_f, _role, changed) => expect(changed).toEqual(['microsoft_invitations']),
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
  'DELETE /api/staff/users/:id/microsoft-identity': [
    { name: 'for A', call: (f) => ({ params: { id: f.a.id } }), expect: staffOnly(200) },
    { name: 'for nobody', call: () => ({ params: { id: 999_999 } }), expect: staffOnly(404) },
  ],
  // --- end Sign in with Microsoft ---

  // --- history ---
  'GET /api/staff/history': [
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
  'GET /api/staff/users/:id/history': [
    { name: 'A', call: (f) => ({ params: { id: f.a.id }, query: { limit: '10' } }), expect: staffOnly(200) },
    {
      name: 'a limit of 0',
      call: (f) => ({ params: { id: f.a.id }, query: { limit: '0' } }),
      expect: staffOnly(400),
    },
  ],
  'GET /api/history': [
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
  // --- end history ---
  // --- safeguarding ---
  'GET /api/staff/safeguarding/policy': one(() => ({}), staffOnly(200)),
  'PUT /api/staff/safeguarding/policy': [
    {
      name: 'two years, a first-aid check',
      call: () => ({
        payload: { dbsMonths: 24, updateServiceMonths: 12, warningDays: 45, checkTypes: ['First aid'] },
      }),
      expect: staffOnly(200),
      verify: (_f, _role, changed) => expect(changed).toEqual(['change_history', 'safeguarding_policy']),
    },
    {
      name: 'no months',
      call: () => ({ payload: { dbsMonths: 0, updateServiceMonths: 12, warningDays: 30, checkTypes: [] } }),
      expect: staffOnly(400),
    },
  ],
  'GET /api/staff/safeguarding': one((f) => ({ query: { date: f.bookedDate } }), staffOnly(200)),
  'GET /api/staff/users/:id/safeguarding': [
    { name: "A's records", call: (f) => ({ params: { id: f.a.id } }), expect: staffOnly(200) },
    { name: 'nobody’s', call: () => ({ params: { id: 999_999 } }), expect: staffOnly(404) },
    { name: 'a staff account’s', call: (f) => ({ params: { id: f.staff.id } }), expect: staffOnly(400) },
  ],
  'PUT /api/staff/users/:id/safeguarding': [
    {
      name: "A's DBS check (none yet: version 0)",
      call: (f) => ({ params: { id: f.a.id }, payload: safeguardingBody(0) }),
      expect: staffOnly(200),
      verify: (_f, _role, changed) => expect(changed).toEqual(['change_history', 'safeguarding_records']),
    },
    {
      name: 'on a version that is not the stored one',
      call: (f) => ({ params: { id: f.a.id }, payload: safeguardingBody(5) }),
      expect: staffOnly(409),
    },
  ],
  // own records only: no id is taken (a staff member's are empty)
  'GET /api/safeguarding': one(() => ({}), signedIn(200)),
  'GET /api/staff/safeguarding/export': one(
    (f) => ({ query: { ...range(f), school: 'Hill School' } }),
    staffOnly(200),
  ),
  // --- end safeguarding ---

  // --- offers ---
  'GET /api/staff/sessions': one(() => ({}), staffOnly(200)),
  'POST /api/staff/sessions': [
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
  'GET /api/staff/sessions/:id/candidates': [
    { name: 'the open session', call: (f) => ({ params: { id: f.sessionId } }), expect: staffOnly(200) },
    { name: 'no session', call: () => ({ params: { id: 999_999 } }), expect: staffOnly(404) },
  ],
  'GET /api/staff/sessions/:id/offers': one((f) => ({ params: { id: f.sessionId } }), staffOnly(200)),
  'POST /api/staff/sessions/:id/offers': [
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
  'POST /api/staff/offers/:id/withdraw': one(
    (f) => ({ params: { id: f.offerId } }),
    staffOnly(200),
    (_f, _role, changed) => expect(changed).toEqual(['change_history', 'offers']),
  ),
  'GET /api/offers': one(() => ({}), signedIn(200)),
  // A's offer: only A; for anybody else it does not exist
  'POST /api/offers/:id/seen': one(
    (f) => ({ params: { id: f.offerId } }),
    { anonymous: 401, facilitatorA: 200, facilitatorB: 404, staff: 404 },
    (_f, _role, changed) => expect(changed).toEqual(['offers']),
  ),
  'POST /api/offers/:id/accept': one(
    (f) => ({ params: { id: f.offerId } }),
    { anonymous: 401, facilitatorA: 200, facilitatorB: 404, staff: 404 },
    (_f, _role, changed) =>
      expect(changed).toEqual(['booking_outbox', 'bookings', 'change_history', 'offers']),
  ),
  'POST /api/offers/:id/decline': one(
    (f) => ({ params: { id: f.offerId }, payload: { reason: 'Away' } }),
    { anonymous: 401, facilitatorA: 200, facilitatorB: 404, staff: 404 },
    (_f, _role, changed) => expect(changed).toEqual(['change_history', 'offers']),
  ),
  // Public but token-checked, like the calendar feed: whoever holds A's email link answers A's offer
  // (and only it, once); a session changes nothing.
  'GET /api/offer-links/:token': [
    { name: "A's link", call: (f) => ({ params: { token: f.offerToken } }), expect: everyone(200) },
    { name: 'a forged link', call: () => ({ params: { token: 'abc.def' } }), expect: everyone(404) },
  ],
  'POST /api/offer-links/:token/accept': [
    {
      name: "A's link",
      call: (f) => ({ params: { token: f.offerToken } }),
      expect: everyone(200),
      verify: (_f, _role, changed) =>
        expect(changed).toEqual(['booking_outbox', 'bookings', 'change_history', 'offers']),
    },
    { name: 'a forged link', call: () => ({ params: { token: 'abc.def' } }), expect: everyone(404) },
  ],
  'POST /api/offer-links/:token/decline': [
    {
      name: "A's link",
      call: (f) => ({ params: { token: f.offerToken }, payload: {} }),
      expect: everyone(200),
      verify: (_f, _role, changed) => expect(changed).toEqual(['change_history', 'offers']),
    },
    {
      name: 'a forged link',
      call: () => ({ params: { token: 'abc.def' }, payload: {} }),
      expect: everyone(404),
    },
  ],
  // --- end offers ---
};

/** A reply-by time a month from now, before the fixture's open session (two months from now). */
function farReplyBy(): string {
  return new Date(Date.now() + 30 * 86_400_000).toISOString();
}

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
const SIGN_IN = new Set(['/api/login', '/api/auth/staff-login']);
/** Failed sign-ins are counted by design; every other table must stay as it was after a refusal. */
const COUNTED_BY_DESIGN: TableName[] = ['login_throttle'];

let s: ConnectorSetup;
let entra: TestEntra;
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
    headers: cookie ? { cookie } : {},
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
  await t.ctx.db.execute(
    sql`insert into bookings (user_id, title, date, sharepoint_id) values (${a.id}, 'School visit', ${bookedDate}, 'matrix-booking-1')`,
  );
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
  const [open] = await t.ctx.db
    .insert(bookings)
    .values({
      title: 'Open session',
      date: sessionDate,
      startTime: '09:30',
      endTime: '12:00',
      sharePointId: 'matrix-open-1',
    })
    .returning({ id: bookings.id });
  const nonce = 'matrix-link';
  const replyBy = new Date(farReplyBy());
  const [offered] = await t.ctx.db
    .insert(offers)
    .values({ bookingId: open!.id, userId: a.id, replyBy, linkNonce: nonce, offeredBy: staff.id })
    .returning({ id: offers.id });
  const offerToken = signOfferLink(t.ctx.appSecret, {
    offerId: offered!.id,
    nonce,
    expiresAt: replyBy.getTime(),
  });
  f = {
    a,
    b,
    staff,
    freeDate,
    bookedDate,
    noteId: note.json().id,
    settings,
    feedToken,
    sessionId: open!.id,
    offerId: offered!.id,
    offerToken,
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
