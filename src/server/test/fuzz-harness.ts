/**
 * Hostile-input fuzzing of every /api route.
 *
 * The routes come from `buildApp().routes`; each is fuzzed by the fuzz file its route-table entry names
 * (`fuzzGroup`, route-table.ts), from the entry's `fuzz` request (the fuzzer needs one accepted request
 * per route to mutate, so that cases reach the service layer and not only the schema). A route without
 * an entry fails every fuzz file. Each fuzz-<group>.test.ts calls `fuzzSuite` once; the files run apart,
 * each on its own app and database, so they run in parallel.
 *
 * Each case is one request, as the role that may call the route (staff for staff routes, a
 * facilitator and staff for user routes, anonymous for public ones). Properties checked per case:
 * - never a 5xx;
 * - every 4xx body is JSON `{ message: string, fieldErrors?: Record<string, string[]> }`;
 * - a refused request (and any read) changes no data: users, availability, bookings, staff_notes,
 *   sharepoint_settings and sync_outbox are hashed before and after;
 * - an accepted change leaves valid data (real dates in range, HH:mm times in order, trimmed text ...);
 * - no response carries a password hash, and Object.prototype is never polluted.
 * After the run: /api/health is 200, a normal staff login, account creation, facilitator login and
 * save still work.
 *
 * Repeatable: a fixed seed by default (printed). Longer runs: FUZZ_RUNS=2000 FUZZ_SEED=123 npx vitest
 * run src/server/test/fuzz-*.test.ts (FUZZ_RUNS is the number of cases per route; FUZZ_SHRINK=1 shrinks
 * a failure to a smaller request, which takes longer).
 */
import { rmSync } from 'node:fs';
import { and, eq, inArray, ne, or, sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/calendar';
import { portalSettingsFor } from '../../sharepoint-emulator/index';
import type { ApiRoute } from '../app';
import {
  availability,
  bookingOutbox,
  bookings,
  facilitatorPhotos,
  offers,
  safeguardingRecords,
  sharepointSettings,
  staffNotes,
  users,
} from '../db/schema';
import { startTestSmtpServer } from '../mail/test-smtp';
import { turnOnFeed } from '../modules/calendar-feed/service';
import { preparePhoto } from '../modules/data-protection/photos';
import { makePasswordLink } from '../modules/password-links/service';
import { saveReminderSettings } from '../modules/reminders/service';
import { saveSettings } from '../modules/settings/service';
import { usernameKeys } from '../modules/users/service';
import { setupConnector } from '../sharepoint/test-support';
import { builtClientDir, TEST_METRICS_TOKEN } from './built-client';
import { startTestEntra } from './entra-provider';
import { insertOffer, offerLinkToken } from './factories';
import { STAFF } from './harness';
import { passkeyFixtures } from './passkey-fixtures';
import {
  type FuzzCaller,
  type FuzzFixture,
  type FuzzGroup,
  type FuzzParts,
  ROUTES,
  routeKey,
  routeTableProblems,
} from './route-table';

const SEED = Number(process.env.FUZZ_SEED ?? 7_2026);
const RUNS = Number(process.env.FUZZ_RUNS ?? 50);
const SHRINK = process.env.FUZZ_SHRINK === '1';
/** Fuzz requests come from here, so the login throttle they trip does not block the final checks. */
const FUZZ_ADDRESS = '198.51.100.7';
const BODY_LIMIT = 256 * 1024;

type Caller = FuzzCaller;
type Parts = FuzzParts;

export interface FuzzSuiteOptions {
  /** also: every :id route (of every group) refuses ids that are not canonical decimal digits */
  canonicalIds?: boolean;
  /** also: SharePoint items with hostile text pass through refresh and import */
  sharePointItems?: boolean;
}

/** Starts the app and fixtures, and declares the fuzz tests of one group's routes. */
export async function fuzzSuite(group: FuzzGroup, options: FuzzSuiteOptions = {}): Promise<void> {
  // ---------------------------------------------------------------------------------------------------
  // The system under test: the real app on a fresh database, SharePoint played by the emulator.

  // Sign in with Microsoft is configured against a real test identity provider, so its routes are
  // fuzzed past the "not configured" answer.
  const FUZZ_PORTAL_URL = 'http://127.0.0.1:5000';
  const entra = await startTestEntra({ portalUrl: FUZZ_PORTAL_URL });
  const clientDir = builtClientDir();
  const setup = await setupConnector({
    seed: { seed: 'fuzz', bookingCount: 24, facilitatorCount: 6 },
    // reminders link to PUBLIC_URL and go to fuzzSmtp on loopback, which the operator must allow
    env: {
      ALLOW_REGISTRATION: 'true',
      CLIENT_DIR: clientDir,
      METRICS_TOKEN: TEST_METRICS_TOKEN,
      PUBLIC_URL: FUZZ_PORTAL_URL,
      SMTP_ALLOWED_NETWORKS: '127.0.0.1/32',
      ENTRA_TENANT_ID: entra.tenantId,
      ENTRA_CLIENT_ID: entra.clientId,
      ENTRA_CLIENT_SECRET: entra.clientSecret,
      ENTRA_AUTHORITY_HOST: entra.authorityHost,
    },
  });
  const t = setup.t;
  const db = t.ctx.db;
  const allRoutes: ApiRoute[] = t.routes;
  const routes = allRoutes.filter((route) => ROUTES[routeKey(route)]?.fuzzGroup === group);
  const startedAt = performance.now();
  const tally = new Map<string, Map<number, number>>();
  let totalCases = 0;

  interface Account {
    id: number;
    username: string;
    password: string;
    hash: string;
    role: string;
    freelancerId: string | null;
    cookie: string;
  }

  async function newSession(userId: number): Promise<string> {
    const { token } = await t.ctx.sessions.create(userId);
    return `afp_session=${token}`;
  }

  async function account(username: string, password: string, role: string, freelancerId: string | null) {
    const row = await t.createUser({ username, password, role, freelancerId, displayName: username });
    return {
      id: row.id,
      username,
      password,
      hash: row.passwordHash!,
      role,
      freelancerId,
      cookie: await newSession(row.id),
    } satisfies Account;
  }

  const [staffRow] = await db.select().from(users).where(eq(users.username, STAFF.username));
  const staff: Account = {
    id: staffRow!.id,
    username: STAFF.username,
    password: STAFF.password,
    hash: staffRow!.passwordHash!,
    role: 'staff',
    freelancerId: null,
    cookie: await newSession(staffRow!.id),
  };
  // The facilitator is a SharePoint freelancer, so the refresh gives them bookings (locked days).
  const facilitator = await account(
    'fuzz-facilitator@example.org',
    'fuzz-facilitator-1',
    'facilitator',
    setup.portal.facilitators[0]!.freelancerId,
  );
  // Login routes are fuzzed against their own accounts: the throttle may lock these, never the callers.
  const loginTarget = await account('fuzz-login@example.org', 'fuzz-login-pass-1', 'facilitator', null);
  const staffLoginTarget = await account('fuzz-staff-login@example.org', 'fuzz-staff-pass-1', 'staff', null);
  const accounts = [staff, facilitator, loginTarget, staffLoginTarget];
  const callerAccount = (caller: Caller) => (caller === 'staff' ? staff : facilitator);
  const passkeySamples = passkeyFixtures(FUZZ_PORTAL_URL, { facilitator, staff });

  // An open session (no freelancer) in SharePoint, two months ahead, for the offers routes.
  const openSessionDate = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
  const openItem = setup.emu.control.addItem(setup.portal.lists.bookings!, {
    Title: 'Fuzz open session',
    SessionDate: openSessionDate,
    StartTime: '09:30',
    EndTime: '12:00',
    Status: 'Confirmed',
  });
  await t.ctx.bookingsRefresh.run();
  const booked = (
    await db.select({ date: bookings.date }).from(bookings).where(eq(bookings.userId, facilitator.id))
  ).map((row) => row.date);
  if (booked.length === 0) throw new Error('the emulator gave the fuzz facilitator no bookings');
  const bookedDay = booked.sort()[0]!;
  // A weekday with no booking, near the booked ones, for saves that must be accepted.
  let freeDay = addDays(bookedDay, 1);
  while (booked.includes(freeDay) || [0, 6].includes(new Date(`${freeDay}T12:00:00Z`).getUTCDay())) {
    freeDay = addDays(freeDay, 1);
  }

  const emulatorSettings = () => ({
    ...portalSettingsFor(setup.portal, setup.emu.control.credentials),
    username: '',
    password: '',
  });

  // reminders fuzzed here go to this local SMTP server and nowhere else. Fuzzed
  // saves may point the settings anywhere; restoreFixtures(true), run before every route, puts them back.
  const fuzzSmtp = await startTestSmtpServer();
  const fuzzMailSettings = () => ({
    host: fuzzSmtp.host,
    port: fuzzSmtp.port,
    security: 'none',
    username: '',
    password: '',
    fromAddress: 'portal@example.org',
    autoEnabled: false,
    autoDay: 1,
    autoMonth: 'next',
  });

  let victimId = 0;
  /** the victim account's version, which an edit must send */
  let victimVersion = 1;
  let victimSeq = 0;
  let noteId = 0;
  /** the fuzz facilitator's safeguarding records' version, which an edit must send */
  let safeguardingVersion = 0;
  let fuzzPhoto: Awaited<ReturnType<typeof preparePhoto>> | undefined;
  let uniqueSeq = 0;
  const unique = (prefix: string) => `fuzz-${prefix}-${++uniqueSeq}@example.org`;

  /**
   * Put back what accepted fuzz cases may legitimately have changed and the next cases rely on: the
   * callers' accounts and sessions, the account and note that delete/edit cases aim at, the settings.
   */
  /** Accounts a fuzz case created or renamed into a fixture's name, or one looking like it. */
  function sameOrLookalike(username: string) {
    const keys = usernameKeys(username);
    return or(
      eq(users.usernameCanonical, keys.usernameCanonical),
      eq(users.usernameSkeleton, keys.usernameSkeleton),
    )!;
  }

  async function restoreFixtures(full = false): Promise<void> {
    const rows = await db
      .select()
      .from(users)
      .where(inArray(users.id, [...accounts.map((acc) => acc.id), victimId]));
    for (const acc of accounts) {
      const row = rows.find((r) => r.id === acc.id);
      if (!row) {
        await db.delete(users).where(sameOrLookalike(acc.username));
        const [created] = await db
          .insert(users)
          .values({
            username: acc.username,
            ...usernameKeys(acc.username),
            passwordHash: acc.hash,
            role: acc.role,
            freelancerId: acc.freelancerId,
          })
          .returning();
        acc.id = created!.id;
        acc.cookie = await newSession(acc.id);
      } else if (
        row.username !== acc.username ||
        row.passwordHash !== acc.hash ||
        row.role !== acc.role ||
        row.freelancerId !== acc.freelancerId
      ) {
        await db.delete(users).where(and(sameOrLookalike(acc.username), ne(users.id, acc.id)));
        await db
          .update(users)
          .set({
            username: acc.username,
            ...usernameKeys(acc.username),
            passwordHash: acc.hash,
            role: acc.role,
            freelancerId: acc.freelancerId,
          })
          .where(eq(users.id, acc.id));
        // a new password ends sessions: only then can the caller's cookie have stopped working
        const token = acc.cookie.slice('afp_session='.length);
        if (!(await t.ctx.sessions.resolve(token))) acc.cookie = await newSession(acc.id);
      }
    }
    if (!rows.some((r) => r.id === victimId)) {
      const username = `fuzz-victim-${++victimSeq}@example.org`;
      const [created] = await db
        .insert(users)
        .values({ username, ...usernameKeys(username), passwordHash: facilitator.hash })
        .returning();
      victimId = created!.id;
    }
    victimVersion = rows.find((r) => r.id === victimId)?.version ?? 1;
    const [note] = await db.select({ id: staffNotes.id }).from(staffNotes).where(eq(staffNotes.id, noteId));
    if (!note) {
      const [created] = await db
        .insert(staffNotes)
        .values({ facilitatorId: facilitator.id, date: freeDay, note: 'Fuzz note', createdBy: staff.id })
        .returning();
      noteId = created!.id;
    }
    const [records] = await db
      .select({ version: safeguardingRecords.version })
      .from(safeguardingRecords)
      .where(eq(safeguardingRecords.userId, facilitator.id));
    safeguardingVersion = records?.version ?? 0;
    // a photo of the facilitator, so reading and removing one can succeed
    const [photo] = await db
      .select({ userId: facilitatorPhotos.userId })
      .from(facilitatorPhotos)
      .where(eq(facilitatorPhotos.userId, facilitator.id));
    if (!photo) {
      fuzzPhoto ??= await preparePhoto(
        await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } })
          .png()
          .toBuffer(),
      );
      await db.insert(facilitatorPhotos).values({ userId: facilitator.id, ...fuzzPhoto });
    }
    await reopenFacilitatorOffer();
    await passkeySamples.restore(db);
    if (full) await saveSettings(db, t.ctx.appSecret, emulatorSettings());
    if (full) await saveReminderSettings(t.ctx, fuzzMailSettings(), staff.id);
  }

  // ---------------------------------------------------------------------------------------------------
  // One accepted request per route: what the mutations start from. A new route needs an entry here.

  // The open session is offered to the facilitator (whose offer the answer routes aim at) and may be
  // offered to the offeree by accepted cases; the email link names the facilitator's offer.
  const [openSession] = await db.select().from(bookings).where(eq(bookings.sharePointId, openItem.id));
  if (!openSession) throw new Error('the refresh did not keep the open session');
  const offeree = await account('fuzz-offeree@example.org', 'fuzz-offeree-1', 'facilitator', 'fuzz-offeree');
  const offerReplyBy = () => new Date(Date.now() + 30 * 86_400_000);
  const facilitatorOffer = await insertOffer(db, {
    bookingId: openSession.id,
    userId: facilitator.id,
    replyBy: offerReplyBy(),
    linkNonce: 'fuzz-link',
    // offered despite missing safeguarding records, with a reason, so the answer routes may accept
    safeguardingState: 'missing',
    safeguardingOverrideReason: 'Checks seen on paper',
  });
  const offerToken = offerLinkToken(t.ctx.appSecret, facilitatorOffer);

  /** The facilitator's offer live again, its link usable, the session open: answer cases consume them. */
  async function reopenFacilitatorOffer(): Promise<void> {
    await db.delete(bookingOutbox).where(eq(bookingOutbox.kind, 'assign'));
    // a fuzzed delete may have removed the facilitator (and with them their offers): the offer comes
    // back under its old id, so the signed link still names it
    const [existing] = await db
      .select({ id: offers.id })
      .from(offers)
      .where(eq(offers.id, facilitatorOffer.id));
    if (!existing)
      await db.insert(offers).values({
        id: facilitatorOffer.id,
        bookingId: openSession!.id,
        userId: facilitator.id,
        replyBy: facilitatorOffer.replyBy,
        linkNonce: 'fuzz-link',
      });
    await db
      .update(offers)
      .set({ state: 'withdrawn', linkNonce: null })
      .where(
        and(
          eq(offers.bookingId, openSession!.id),
          ne(offers.id, facilitatorOffer.id),
          eq(offers.state, 'accepted'),
        ),
      );
    await db
      .update(offers)
      .set({
        state: 'sent',
        linkNonce: 'fuzz-link',
        seenAt: null,
        respondedAt: null,
        writeBack: null,
        endedReason: null,
      })
      .where(eq(offers.id, facilitatorOffer.id));
    await db
      .update(bookings)
      .set({ userId: null, freelancerId: null })
      .where(eq(bookings.id, openSession!.id));
  }

  // The token of a calendar feed of an account of its own, with an id far from every id the fuzzer aims
  // at, so no case deletes it (callers' own feeds are rotated and revoked by cases).
  const [feedOwner] = await db
    .insert(users)
    .values({
      id: 2_000_000_000,
      username: 'fuzz-feed-owner@example.org',
      ...usernameKeys('fuzz-feed-owner@example.org'),
    })
    .returning();
  const feedToken = (await turnOnFeed(db, t.ctx.appSecret, feedOwner!.id)).token ?? '';
  // likewise an account of its own, with an email, whose password a link sets (the first accepted
  // case uses the link up) and whom staff invite
  const [linkOwner] = await db
    .insert(users)
    .values({
      id: 2_000_000_001,
      username: 'fuzz-link-owner@example.org',
      ...usernameKeys('fuzz-link-owner@example.org'),
      email: 'fuzz-link-owner@example.org',
    })
    .returning();
  const passwordLinkToken = await makePasswordLink(db, linkOwner!, 'reset', t.ctx.now());

  /** What the route table's fuzz samples name; the moving parts are read at every case. */
  const x: FuzzFixture = {
    staff,
    facilitator,
    loginTarget,
    staffLoginTarget,
    offeree,
    callerAccount,
    ownId: (caller) => String(callerAccount(caller).id),
    unique,
    get victimId() {
      return victimId;
    },
    get victimVersion() {
      return victimVersion;
    },
    get victimSeq() {
      return victimSeq;
    },
    get noteId() {
      return noteId;
    },
    get safeguardingVersion() {
      return safeguardingVersion;
    },
    bookedDay,
    freeDay,
    range: () => ({ from: addDays(bookedDay, -20), to: addDays(bookedDay, 20) }),
    emulatorSettings,
    fuzzMailSettings,
    openSessionDate,
    openSession,
    facilitatorOffer: facilitatorOffer,
    offerToken,
    offerReplyBy,
    entra,
    feedToken,
    passwordLinkToken,
    linkOwnerId: linkOwner!.id,
    passkeyId: (caller) => passkeySamples.passkeyId(caller === 'staff' ? 'staff' : 'facilitator'),
    passkeyRegistration: (caller) =>
      passkeySamples.registration(caller === 'staff' ? 'staff' : 'facilitator'),
    passkeySignIn: passkeySamples.signInResponse,
  };
  const sampleOf = (route: ApiRoute, caller: Caller): Parts => ROUTES[routeKey(route)]!.fuzz(x, caller);

  /** Routes whose every accepted call is slow (a SharePoint round trip): fewer cases, same generators. */
  const SLOW = new Set(['POST /api/staff/bookings/refresh', 'POST /api/staff/facilitators/import']);

  // ---------------------------------------------------------------------------------------------------
  // Hostile values.

  const SQL = [
    "'; drop table users; --",
    '1 or 1=1',
    "' or '1'='1",
    '1); delete from availability; --',
    '$$ || pg_sleep(5) || $$',
    '\\',
    "%' and 1=1 --",
    "') union select password_hash from users --",
    '; truncate sessions cascade',
  ];
  const HTML = [
    '<script>window.__pwned=1</script>',
    '<img src=x onerror="window.__pwned=1">',
    '<b>bold</b>',
    '"><svg/onload=alert(1)>',
    'javascript:alert(1)',
    '{{constructor.constructor("alert(1)")()}}',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, on purpose
    '${7*7}',
    '<!--',
  ];
  const UNICODE = [
    '🎨🎭🩰',
    '𝕬𝖗𝖙𝖘',
    '\u202eevil.exe\u202c',
    'שלום עולם',
    'مرحبا',
    'e\u0301\u0302\u0303\u0304\u0305',
    'Z\u0351\u0352\u0353a\u0354',
    '\u0000',
    'a\u0000b',
    '\u0001\u0002\u0007\b\u000b\f\u001b\u007f',
    '\u0085\u2028\u2029',
    '\ufeff',
    '\u200b\u200c\u200d',
    '\ufffe\uffff',
    '\ud800',
    '\udfff',
    'a\ud83db',
    '\ud83d\ude00',
    '  ',
    '\t\n\r',
    'İıſK',
    '\u3000',
  ];
  const DATES = [
    '2026-02-30',
    '2026-13-01',
    '0000-00-00',
    '2026-1-1',
    '2026-01-1',
    '9999-12-31',
    '+275760-09-13',
    '-000001-01-01',
    '1899-12-31',
    '2201-01-01',
    '2026-00-10',
    '2026-12-32',
    '2026-04-31',
    '2025-02-29',
    ' 2026-03-02',
    '2026-03-02 ',
    '2026-03-02T10:00:00.000Z',
    '2026-03-02T99:99',
    '20260302',
    '2026/03/02',
    '02/03/2026',
    '2026-03-02\u0000',
    '２０２６-０３-０２',
    '1900-01-01',
    '2200-12-31',
    '2024-02-29',
    '2026-03-02',
    '1970-01-01',
    'Invalid Date',
  ];
  const TIMES = [
    '24:00',
    '23:60',
    '7:00',
    '07:00:00',
    '-01:00',
    '07:00 ',
    '00:00',
    '23:59',
    '12:30',
    '7pm',
    '0700',
    '',
    '20:00',
    '07:00',
  ];
  const NUMERIC_STRINGS = [
    '0',
    '-1',
    '1.5',
    '1e3',
    '0x10',
    '0b1',
    '2147483647',
    '2147483648',
    '9007199254740993',
    'NaN',
    'Infinity',
    '-0',
    ' 1',
    '１',
    '٣',
    '1e309',
    '00001',
    '+1',
    '',
  ];
  const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf'];
  const EXTRA_KEYS = [
    'role',
    'id',
    'userId',
    'passwordHash',
    'password_hash',
    'isStaff',
    'createdBy',
    'syncedToSharePoint',
    'sharePointItemId',
    'lastAvailabilityUpdatedAt',
    '',
    ' ',
    'x'.repeat(500),
    '💩',
    ...PROTO_KEYS.slice(3),
  ];
  /** JSON tokens JSON.stringify cannot produce, spliced into otherwise valid bodies. */
  const RAW_TOKENS = [
    '-0',
    '1e309',
    '-1e309',
    '1e-400',
    'NaN',
    'Infinity',
    '0x10',
    '01',
    '1.',
    '.5',
    '+1',
    '"\\ud800"',
    '"x\\udfffy"',
    '"\\u0000"',
    '"a\\u0000b"',
    '"\\uDBFF\\uDFFF"',
    '99999999999999999999999999',
    '1'.repeat(400),
    '{"__proto__":{"polluted":"yes"}}',
    '{"constructor":{"prototype":{"polluted":"yes"}}}',
    `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
    `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`,
  ];
  const deepArrays = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
  const deepObjects = (n: number) => `${'{"a":'.repeat(n)}null${'}'.repeat(n)}`;
  const RAW_BODIES = [
    '',
    ' ',
    'null',
    '[]',
    '{}',
    '"text"',
    '1',
    'true',
    '{',
    '{"a":}',
    "{'a':1}",
    '{"a":1,}',
    '\ufeff{}',
    '{}garbage',
    '{}\u0000',
    '{"a":"\\ud800"}',
    '{"a":"\\x41"}',
    'NaN',
    '1e309',
    deepArrays(10_000),
    deepObjects(10_000),
    `{"a":${deepArrays(10_000)}}`,
    '{"__proto__":{"polluted":"yes"}}',
    '{"constructor":{"prototype":{"polluted":"yes"}}}',
    '[{"__proto__":{"polluted":"yes"}}]',
    `[${Array.from({ length: 40_000 }, (_, i) => i).join(',')}]`,
    `{${Array.from({ length: 15_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`,
  ];
  const CONTENT_TYPES = [
    'application/json; charset=utf-8',
    'application/json; charset=utf-16',
    'application/json; charset=latin1',
    'APPLICATION/JSON',
    'application/json;;;',
    'application/vnd.api+json',
    'text/plain',
    'text/html',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
    'application/octet-stream',
    '*/*',
    'json',
    '',
  ];
  const ID_STRINGS = [
    '0',
    '-1',
    '1.5',
    '1e3',
    '0x10',
    '2147483648',
    '99999999999999999999',
    'NaN',
    'null',
    'true',
    'abc',
    ' 1',
    '１',
  ];
  const RAW_URL_PIECES = [
    '%',
    '%zz',
    '%E0%A4%A',
    '%00',
    '%FF%FE',
    '%2e%2e%2f',
    '..',
    '&&&',
    '=',
    '[]',
    'a[b]=c',
    '%C0%AE',
    '#',
  ];

  /** A string nobody should have to accept, up to past the body limit. */
  const hugeString = fc
    .tuple(
      fc.constantFrom(1_000, 10_000, 65_536, BODY_LIMIT - 200, 300 * 1024),
      fc.constantFrom('x', '💩', '<', "'", 'é', ' ', '\u0301'),
    )
    .map(([size, unit]) => unit.repeat(Math.ceil(size / unit.length)));

  const hostileString: fc.Arbitrary<string> = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...SQL, ...HTML, ...UNICODE) },
    { weight: 3, arbitrary: fc.constantFrom(...DATES, ...TIMES, ...NUMERIC_STRINGS) },
    // Any code points (astral included), and any UTF-16 code units (lone surrogates included). Built
    // from integer arrays: fc.string with such units spends seconds building reverse maps.
    {
      weight: 3,
      arbitrary: fc
        .array(fc.integer({ min: 1, max: 0x10ffff }), { maxLength: 30 })
        .map((points) => String.fromCodePoint(...points)),
    },
    {
      weight: 2,
      arbitrary: fc
        .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 12 })
        .map((units) => String.fromCharCode(...units)),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...SQL, ...HTML, ...UNICODE, 'ok'), fc.constantFrom(...UNICODE, ...HTML))
        .map(([a, b]) => a + b),
    },
    { weight: 1, arbitrary: hugeString },
  );

  const hostileNumber = fc.oneof(
    fc.constantFrom(
      0,
      -0,
      1,
      -1,
      1.5,
      2_147_483_647,
      2_147_483_648,
      -2_147_483_649,
      2 ** 53 + 2,
      1e308,
      5e-324,
      Number.NaN,
    ),
    fc.integer(),
    fc.double(),
  );

  const hostileKey = fc.oneof(
    fc.constantFrom(...EXTRA_KEYS),
    fc.string({ unit: 'grapheme-ascii', maxLength: 8 }),
  );

  /** Any JSON value, biased to what breaks parsers and validators. */
  const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 5, arbitrary: hostileString },
      { weight: 2, arbitrary: hostileNumber },
      { weight: 1, arbitrary: fc.constantFrom(null, true, false) },
      { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
      {
        weight: 1,
        arbitrary: fc
          .array(fc.tuple(hostileKey, tie('value')), { maxLength: 4 })
          .map((entries) =>
            Object.fromEntries(entries.filter(([key]) => !PROTO_KEYS.slice(0, 3).includes(key))),
          ),
      },
    ),
  })).value;

  /** A value for a named field: what that field's parser is most likely to get wrong, or anything. */
  function valueFor(key: string): fc.Arbitrary<unknown> {
    const specific = /date/i.test(key)
      ? fc.constantFrom(...DATES)
      : /time/i.test(key)
        ? fc.constantFrom(...TIMES)
        : /id$/i.test(key)
          ? fc.oneof(
              fc.constantFrom(...ID_STRINGS, ...NUMERIC_STRINGS),
              hostileNumber,
              fc.constantFrom(...idsInUse()),
            )
          : /daysOfWeek/.test(key)
            ? fc.array(fc.oneof(fc.integer({ min: -2, max: 9 }), hostileValue), { maxLength: 10 })
            : /status|priority|view|role/.test(key)
              ? fc.constantFrom(
                  'available',
                  'limited',
                  'unavailable',
                  'normal',
                  'high',
                  'urgent',
                  'week',
                  'month',
                  'staff',
                  'STAFF',
                  'Available',
                  'available ',
                  'admin',
                  '',
                )
              : fc.constantFrom('', ' ', '\u00a0');
    return fc.oneof({ weight: 3, arbitrary: specific }, { weight: 4, arbitrary: hostileValue });
  }

  /** Ids that exist (staff, callers, the victim, the note ...) next to ones that do not. */
  const idsInUse = () => [
    staff.id,
    facilitator.id,
    loginTarget.id,
    staffLoginTarget.id,
    victimId,
    noteId,
    String(staff.id),
    [facilitator.id],
    true,
  ];

  // ---------------------------------------------------------------------------------------------------
  // Cases: plain data (printable, replayable), turned into a request against the current fixtures.

  type Mutation =
    | { op: 'drop'; key: string }
    | { op: 'set'; key: string; value: unknown }
    | { op: 'raw'; key: string; token: string }
    | { op: 'range'; from: string; to: string };

  type FuzzCase = { caller: Caller; contentType: string; junkHeaders: Record<string, string> } & (
    | { kind: 'body'; mutations: Mutation[] }
    | { kind: 'wholeBody'; value: unknown }
    | { kind: 'rawBody'; text: string }
    | { kind: 'query'; mutations: Mutation[]; rawPiece?: string }
    | { kind: 'params'; value: string; raw: boolean }
    | { kind: 'valid' }
  );

  function shapeKeys(schema: unknown): string[] {
    const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
    return shape ? Object.keys(shape) : [];
  }

  function callersFor(route: ApiRoute): Caller[] {
    if (route.access === 'public') return ['anonymous'];
    // offers go to facilitators only; staff answering one get 404 (the access matrix checks it)
    if (route.url.startsWith('/api/offers/')) return ['facilitator'];
    if (route.access === 'user') return ['facilitator', 'staff'];
    return ['staff'];
  }

  function caseArbitrary(route: ApiRoute, sample: Parts): fc.Arbitrary<FuzzCase> {
    const bodyKeys = [...new Set([...shapeKeys(route.schema.body), ...Object.keys(sample.body ?? {})])];
    const queryKeys = [
      ...new Set([...shapeKeys(route.schema.querystring), ...Object.keys(sample.query ?? {})]),
    ];
    const hasParams = Boolean(route.schema.params) || route.url.includes(':');
    const dateKeys = (keys: string[]) =>
      keys.includes('from') ? ['from', 'to'] : keys.includes('startDate') ? ['startDate', 'endDate'] : null;

    const mutation = (keys: string[]): fc.Arbitrary<Mutation> => {
      const options: fc.WeightedArbitrary<Mutation>[] = [
        { weight: 1, arbitrary: fc.constantFrom(...keys).map((key) => ({ op: 'drop' as const, key })) },
        {
          weight: 5,
          arbitrary: fc
            .constantFrom(...keys)
            .chain((key) => valueFor(key).map((value) => ({ op: 'set' as const, key, value }))),
        },
        {
          weight: 1,
          arbitrary: fc
            .tuple(hostileKey, hostileValue)
            .map(([key, value]) => ({ op: 'set' as const, key, value })),
        },
        {
          weight: 1,
          arbitrary: fc
            .tuple(fc.constantFrom(...keys), fc.constantFrom(...RAW_TOKENS))
            .map(([key, token]) => ({ op: 'raw' as const, key, token })),
        },
      ];
      if (dateKeys(keys)) {
        // reversed, over-long and boundary ranges made of real dates
        const real = fc
          .date({
            min: new Date('1899-06-01T00:00:00Z'),
            max: new Date('2201-06-01T00:00:00Z'),
            noInvalidDate: true,
          })
          .map((d) => d.toISOString().slice(0, 10));
        const near = fc.integer({ min: -900, max: 900 }).map((n) => addDays(bookedDay, n));
        options.push({
          weight: 3,
          arbitrary: fc
            .tuple(fc.oneof(real, near), fc.oneof(real, near))
            .map(([from, to]) => ({ op: 'range' as const, from, to })),
        });
      }
      return fc.oneof(...options);
    };

    const common = {
      caller: fc.constantFrom<Caller>(...callersFor(route)),
      contentType: fc.oneof(
        { weight: 10, arbitrary: fc.constant('application/json') },
        { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
      ),
      junkHeaders: fc.oneof<fc.WeightedArbitrary<Record<string, string>>[]>(
        { weight: 10, arbitrary: fc.constant({}) },
        {
          weight: 1,
          arbitrary: fc.oneof<fc.Arbitrary<Record<string, string>>[]>(
            hostileString.map((value) => ({ cookie: `afp_session=${encode(value).slice(0, 5000)}` })),
            fc.constantFrom<Record<string, string>>(
              { cookie: 'afp_session=' },
              { cookie: `afp_session=${'a'.repeat(4000)}` },
              { cookie: ';;;=;afp_session' },
              { origin: 'null' },
              { origin: 'http://evil.example' },
              { origin: '%%%' },
              { 'sec-fetch-site': 'cross-site' },
              { 'sec-fetch-site': '\u0000' },
              { 'x-forwarded-host': 'evil.example', origin: 'http://evil.example' },
            ),
          ),
        },
      ),
    };

    const kinds: fc.WeightedArbitrary<FuzzCase>[] = [
      { weight: 1, arbitrary: fc.record({ ...common, kind: fc.constant('valid' as const) }) },
      {
        weight: route.method === 'GET' ? 1 : 3,
        arbitrary: fc.record({ ...common, kind: fc.constant('wholeBody' as const), value: hostileValue }),
      },
      {
        weight: route.method === 'GET' ? 1 : 3,
        arbitrary: fc.record({
          ...common,
          kind: fc.constant('rawBody' as const),
          text: fc.constantFrom(...RAW_BODIES),
        }),
      },
    ];
    if (bodyKeys.length > 0) {
      kinds.push({
        weight: 14,
        arbitrary: fc.record({
          ...common,
          kind: fc.constant('body' as const),
          mutations: fc.array(mutation(bodyKeys), { minLength: 1, maxLength: 3 }),
        }),
      });
    }
    kinds.push({
      weight: queryKeys.length > 0 ? 12 : 2,
      arbitrary: fc.record(
        {
          ...common,
          kind: fc.constant('query' as const),
          mutations: fc.array(mutation(queryKeys.length > 0 ? queryKeys : ['from', 'q', 'userId']), {
            minLength: 1,
            maxLength: 3,
          }),
          rawPiece: fc.constantFrom(...RAW_URL_PIECES),
        },
        { requiredKeys: ['caller', 'contentType', 'junkHeaders', 'kind', 'mutations'] },
      ),
    });
    if (hasParams) {
      kinds.push({
        weight: 8,
        arbitrary: fc.record({
          ...common,
          kind: fc.constant('params' as const),
          value: fc.oneof(
            fc.constantFrom(...ID_STRINGS, ...RAW_URL_PIECES, 'x'.repeat(300)),
            fc.constantFrom(...idsInUse().map(String)),
            hostileString,
          ),
          raw: fc.boolean(),
        }),
      });
    }
    return fc.oneof(...kinds);
  }

  const PLACEHOLDER = '\u2063FUZZ-RAW\u2063';

  function applyMutations<T extends Record<string, unknown>>(
    base: T,
    mutations: Mutation[],
    dates: string[] | null,
  ) {
    const out: Record<string, unknown> = { ...base };
    let raw: string | undefined;
    for (const m of mutations) {
      if (m.op === 'drop') delete out[m.key];
      else if (m.op === 'set') out[m.key] = m.value;
      else if (m.op === 'raw') {
        out[m.key] = PLACEHOLDER;
        raw = m.token;
      } else if (dates) {
        out[dates[0]!] = m.from;
        out[dates[1]!] = m.to;
      }
    }
    return { out, raw };
  }

  interface BuiltRequest {
    options: InjectOptions;
    summary: string;
    /** the body names a record by an id of the wrong type (true, [5], "0x10" ...): must be refused */
    wrongTypedId: boolean;
  }

  const ID_FIELDS = ['userId', 'facilitatorId'];
  const idLike = (value: unknown) =>
    typeof value === 'number' || (typeof value === 'string' && /^\s*\d+\s*$/.test(value));

  function buildRequest(route: ApiRoute, c: FuzzCase): BuiltRequest {
    const sample = sampleOf(route, c.caller);
    const dates = (keys: string[]) =>
      keys.includes('from') ? ['from', 'to'] : keys.includes('startDate') ? ['startDate', 'endDate'] : null;

    let params = sample.params ?? {};
    let rawParam = false;
    if (c.kind === 'params') {
      params = Object.fromEntries(Object.keys(params).map((key) => [key, c.value]));
      rawParam = c.raw;
    }
    let url = route.url.replace(/:(\w+)/g, (_, name: string) => {
      const value = (params[name] ?? '1').slice(0, 4096);
      return rawParam ? value.replace(/[/?#\s]/g, encodeURIComponent) : encode(value);
    });

    let query: [string, string, boolean][] = Object.entries(sample.query ?? {}).map(([k, v]) => [
      k,
      v,
      false,
    ]);
    if (c.kind === 'query') {
      const { out, raw } = applyMutations(
        sample.query ?? {},
        c.mutations,
        dates(Object.keys(sample.query ?? {})),
      );
      query = [];
      for (const [key, value] of Object.entries(out)) {
        if (value === PLACEHOLDER) query.push([key, raw ?? '', false]);
        else if (Array.isArray(value)) for (const item of value) query.push([key, asText(item), false]);
        else query.push([key, asText(value), false]);
      }
      if (c.rawPiece) query.push([c.rawPiece, c.rawPiece, true]);
    }
    if (query.length > 0) {
      // Node refuses request lines over 16 KiB (431) before the app sees them: longer is not realistic.
      query = query.map(([k, v, raw]) => [k.slice(0, 4096), v.slice(0, 4096), raw]);
      url += `?${query.map(([k, v, raw]) => (raw ? `${k}=${v}` : `${encode(k)}=${encode(v)}`)).join('&')}`;
    }

    let payload: string | undefined;
    let wrongTypedId = false;
    if (c.kind === 'body') {
      const { out, raw } = applyMutations(
        sample.body ?? {},
        c.mutations,
        dates(Object.keys(sample.body ?? {})),
      );
      wrongTypedId = ID_FIELDS.some(
        (key) => key in (sample.body ?? {}) && key in out && out[key] !== PLACEHOLDER && !idLike(out[key]),
      );
      payload = JSON.stringify(out);
      if (raw !== undefined) payload = payload.replace(JSON.stringify(PLACEHOLDER), raw);
    } else if (c.kind === 'wholeBody') {
      payload = JSON.stringify(c.value) ?? 'null';
    } else if (c.kind === 'rawBody') {
      payload = c.text;
    } else if (sample.body) {
      payload = JSON.stringify(sample.body);
    }

    const account = c.caller === 'anonymous' ? undefined : callerAccount(c.caller);
    const headers: Record<string, string> = { ...sample.headers, ...c.junkHeaders };
    if (account) headers.cookie = account.cookie;
    if (payload !== undefined && c.contentType) headers['content-type'] = c.contentType;
    const summary = `${c.caller} ${route.method} ${clip(url, 300)} [${headers['content-type'] ?? 'no type'}] ${clip(payload ?? '', 400)}`;
    return {
      options: {
        method: route.method as InjectOptions['method'],
        url,
        headers,
        payload,
        remoteAddress: FUZZ_ADDRESS,
      },
      summary,
      wrongTypedId,
    };
  }

  /**
   * encodeURIComponent, except that a lone surrogate (which it refuses) is sent as the bytes a lenient
   * client would send for it (WTF-8), so the server still sees it.
   */
  function encode(text: string): string {
    try {
      return encodeURIComponent(text);
    } catch {
      return Array.from(text, (char) => {
        const unit = char.charCodeAt(0);
        if (char.length > 1 || unit < 0xd800 || unit > 0xdfff) return encodeURIComponent(char);
        return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
          .map((byte) => `%${byte.toString(16).toUpperCase()}`)
          .join('');
      }).join('');
    }
  }

  function asText(value: unknown): string {
    return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  }

  function clip(text: string, max: number): string {
    return text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text;
  }

  // ---------------------------------------------------------------------------------------------------
  // What must hold.

  const DATA_TABLES = [
    'users',
    'availability',
    'bookings',
    'staff_notes',
    'sharepoint_settings',
    'sync_outbox',
    // a refused request must not leave a history row either
    'change_history',
    // email settings and the record of reminders sent
    'reminder_settings',
    'reminder_sends',
    // Sign in with Microsoft: linked identities and the staff password switch
    'microsoft_identities',
    'microsoft_sign_in_settings',
    // safeguarding policy, records and the record of reminders sent
    'safeguarding_policy',
    'safeguarding_policy_versions',
    'safeguarding_records',
    'safeguarding_reminder_sends',
    // the records' earlier states, photos and the assurance statement
    'safeguarding_record_versions',
    'facilitator_photos',
    'assurance_settings',
    // offers and the writes waiting for the SharePoint Bookings list
    'offers',
    'booking_outbox',
    // the retention schedule, erasures and the SharePoint items they remove
    'retention_settings',
    'erasures',
    'availability_removals',
  ];

  /**
   * Two views of "nothing changed", both per table:
   * - write counters, bumped by row-level triggers on every insert, update or delete (and truncate) in the
   *   data tables; read after every case (one tiny query), they catch any committed write, even one that
   *   rewrote a row with the same values;
   * - a content hash (`md5` of every row, in the order of their text), taken after each accepted change and at the end
   *   of each route's run: the end hash must equal the last one, so no refused case changed content.
   * Rolled-back transactions roll their counter bumps back too.
   */
  for (const statement of [
    'create table fuzz_writes (tbl text primary key, n bigint not null default 0)',
    `insert into fuzz_writes (tbl) values ${DATA_TABLES.map((table) => `('${table}')`).join(', ')}`,
    `create function fuzz_count_write() returns trigger language plpgsql as $$
     begin
       update fuzz_writes set n = n + 1 where tbl = tg_table_name;
       return null;
     end $$`,
    ...DATA_TABLES.flatMap((table) => [
      `create trigger fuzz_count_rows after insert or update or delete on ${table}
         for each row execute function fuzz_count_write()`,
      `create trigger fuzz_count_truncate after truncate on ${table}
         for each statement execute function fuzz_count_write()`,
    ]),
  ]) {
    await db.execute(sql.raw(statement));
  }

  async function writeCounts(): Promise<Record<string, string>> {
    const result = await db.execute(sql`select tbl, n::text as n from fuzz_writes`);
    const rows = (result as unknown as { rows: { tbl: string; n: string }[] }).rows;
    return Object.fromEntries(rows.map((row) => [row.tbl, row.n]));
  }

  const contentQuery = sql.raw(
    `select ${DATA_TABLES.map(
      (table) =>
        `(select md5(coalesce(string_agg(x::text, '|' order by x::text), '')) from ${table} x) as ${table}`,
    ).join(', ')}`,
  );

  async function contentHashes(): Promise<Record<string, string>> {
    const result = await db.execute(contentQuery);
    return (result as unknown as { rows: Record<string, string>[] }).rows[0]!;
  }

  const differing = (a: Record<string, string>, b: Record<string, string>) =>
    DATA_TABLES.filter((table) => a[table] !== b[table]);

  let writesBaseline: Record<string, string> = {};
  let contentBaseline: Record<string, string> = {};

  /** After a legitimate change (or fixture repair): this is the state refused requests must keep. */
  async function acceptState(): Promise<void> {
    writesBaseline = await writeCounts();
    contentBaseline = await contentHashes();
  }

  const TIME_RE = `'^(([01][0-9]|2[0-3]):[0-5][0-9])?$'`;
  const textOk = (column: string, max: number) =>
    `(${column} is null or (${column} <> '' and ${column} = btrim(${column}) and length(${column}) <= ${max}))`;
  const invariantsQuery = sql.raw(`select
    (select count(*) from availability where date < '1900-01-01' or date > '2200-12-31'
       or status not in ('available', 'limited', 'unavailable')
       or start_time !~ ${TIME_RE} or end_time !~ ${TIME_RE}
       or (start_time <> '' and end_time <> '' and start_time >= end_time)
       or length(notes) > 2000)::int as availability,
    (select count(*) from users where not (username <> '' and username = btrim(username) and length(username) <= 254
       and role ~ '^[a-z][a-z0-9_-]*$' and ${textOk('display_name', 200)} and ${textOk('email', 254)}
       and ${textOk('area', 100)} and ${textOk('freelancer_id', 100)}))::int as users,
    (select count(*) from users where role = 'staff')::int as staff_accounts,
    (select count(*) from staff_notes where btrim(note) = '' or length(note) > 5000
       or priority not in ('normal', 'high', 'urgent') or date < '1900-01-01' or date > '2200-12-31')::int as notes,
    (select count(*) from sync_outbox where date < '1900-01-01' or date > '2200-12-31')::int as outbox,
    (select count(*) from offers where length(message) > 1000 or message <> btrim(message)
       or length(decline_reason) > 500 or decline_reason <> btrim(decline_reason))::int as offers,
    (select count(*) from sharepoint_settings where site_url !~ '^https?://' or availability_list_name = ''
       or bookings_list_name = '')::int as settings`);

  async function assertValidData(summary: string): Promise<void> {
    const result = await db.execute(invariantsQuery);
    const row = (result as unknown as { rows: Record<string, number>[] }).rows[0]!;
    const { staff_accounts: staffAccounts, ...bad } = row;
    expect(staffAccounts, `no staff account left after ${summary}`).toBeGreaterThan(0);
    for (const [table, count] of Object.entries(bad)) {
      expect(count, `invalid ${table} rows after accepted ${summary}`).toBe(0);
    }
  }

  const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort().join();
  const ARRAY_PROTOTYPE_NAMES = Object.getOwnPropertyNames(Array.prototype).sort().join();
  function assertPrototypesClean(summary: string): void {
    const probe = {} as Record<string, unknown>;
    expect(
      Object.getOwnPropertyNames(Object.prototype).sort().join() === PROTOTYPE_NAMES &&
        Object.getOwnPropertyNames(Array.prototype).sort().join() === ARRAY_PROTOTYPE_NAMES &&
        probe.polluted === undefined &&
        probe.a === undefined,
      `prototype polluted by ${summary}`,
    ).toBe(true);
  }

  function assertErrorBody(status: number, contentType: unknown, body: string, summary: string): void {
    expect(String(contentType), `${status} without JSON for ${summary}: ${clip(body, 300)}`).toMatch(
      /^application\/json/,
    );
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new Error(`${status} body is not JSON for ${summary}: ${clip(body, 300)}`);
    }
    const problem = errorBodyProblem(parsed);
    if (problem) throw new Error(`${status} body ${problem} for ${summary}: ${clip(body, 300)}`);
  }

  function errorBodyProblem(parsed: unknown): string | null {
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'is not an object';
    const { message, fieldErrors, ...rest } = parsed as Record<string, unknown>;
    if (typeof message !== 'string' || message === '') return 'has no message';
    if (Object.keys(rest).length > 0) return `has extra keys ${Object.keys(rest).join(', ')}`;
    if (fieldErrors === undefined) return null;
    if (typeof fieldErrors !== 'object' || fieldErrors === null) return 'has bad fieldErrors';
    for (const messages of Object.values(fieldErrors)) {
      if (!Array.isArray(messages) || !messages.every((m) => typeof m === 'string'))
        return 'has bad fieldErrors';
    }
    return null;
  }

  async function runCase(route: ApiRoute, c: FuzzCase): Promise<void> {
    const { options, summary, wrongTypedId } = buildRequest(route, c);
    const response = await t.app.inject(options);
    totalCases += 1;
    const key = `${route.method} ${route.url}`;
    const counts = tally.get(key) ?? new Map<number, number>();
    counts.set(response.statusCode, (counts.get(response.statusCode) ?? 0) + 1);
    tally.set(key, counts);

    const status = response.statusCode;
    if (status >= 500) throw new Error(`${status} for ${summary}: ${clip(response.body, 300)}`);
    if (status >= 400) assertErrorBody(status, response.headers['content-type'], response.body, summary);
    if (response.body.includes('$argon2')) throw new Error(`a password hash in the answer to ${summary}`);
    assertPrototypesClean(summary);

    const accepted = status >= 200 && status < 300;
    if (accepted && wrongTypedId) throw new Error(`a wrong-typed id was accepted: ${summary}`);
    if (accepted && route.changesState) {
      await assertValidData(summary);
      await restoreFixtures();
      await acceptState();
      return;
    }
    const after = await writeCounts();
    const written = differing(after, writesBaseline);
    if (written.length > 0) {
      await acceptState();
      throw new Error(`${status} for ${summary} wrote to ${written.join(', ')}`);
    }
  }

  function report<T>(details: fc.RunDetails<[T]>): void {
    if (!details.failed) return;
    const example = details.counterexample
      ? JSON.stringify(details.counterexample[0], (_key, value) =>
          typeof value === 'string' ? clip(value, 200) : value,
        )
      : '(none)';
    const cause =
      details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    throw new Error(
      `fuzz failed after ${details.numRuns} cases (seed ${details.seed}, path ${details.counterexamplePath}):\n${cause}\ncase: ${example}`,
    );
  }

  // ---------------------------------------------------------------------------------------------------

  function routeSeed(key: string): number {
    let hash = SEED | 0;
    for (const char of key) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
    return hash;
  }

  console.log(
    `fuzz ${group}: seed ${SEED} (FUZZ_SEED), ${RUNS} cases per route (FUZZ_RUNS), ${routes.length} routes`,
  );

  afterAll(async () => {
    await setup.close();
    await fuzzSmtp.close();
    await entra.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  describe(`hostile input on the ${group} routes`, () => {
    it('fuzzes the routes the route table gives this file, all of them served, and no others', () => {
      expect(routeTableProblems(allRoutes), 'the app and the route table disagree').toEqual([]);
      const mine = Object.entries(ROUTES)
        .filter(([, entry]) => entry.fuzzGroup === group)
        .map(([key]) => key);
      expect(routes.map(routeKey)).toEqual(expect.arrayContaining(mine));
      expect(routes.length).toBe(mine.length);
    });

    for (const route of routes) {
      const key = `${route.method} ${route.url}`;
      const runs = SLOW.has(key) ? Math.max(10, Math.round(RUNS / 5)) : RUNS;
      it(`${key} (${route.access})`, { timeout: 60_000 + RUNS * 400 }, async () => {
        expect(ROUTES[key], `no entry for ${key}: add one to the route table`).toBeDefined();
        // Routes share budgets (two test-connection routes spend one): each route starts with them unspent.
        await db.execute(sql`delete from request_limits`);
        await restoreFixtures(true);
        await acceptState();
        // The valid request must be accepted for every caller: mutations start from it.
        for (const caller of callersFor(route)) {
          const { options, summary } = buildRequest(route, {
            kind: 'valid',
            caller,
            contentType: 'application/json',
            junkHeaders: {},
          });
          const response = await t.app.inject(options);
          expect(response.statusCode, `valid ${summary}: ${clip(response.body, 300)}`).toBeLessThan(400);
          await restoreFixtures();
          await acceptState();
        }
        const sample = sampleOf(route, callersFor(route)[0]!);
        await fc.assert(
          fc.asyncProperty(caseArbitrary(route, sample), (c) => runCase(route, c)),
          { seed: routeSeed(key), numRuns: runs, endOnFailure: !SHRINK, reporter: report },
        );
        const changed = differing(await contentHashes(), contentBaseline);
        expect(changed, 'content changed by a refused request (write counters missed it)').toEqual([]);
      });
    }

    if (options.canonicalIds) {
      // `z.coerce.number()` read these as numbers: `/api/staff/users/0x10` acted on account 16.
      it('every :id route refuses ids that are not canonical decimal digits, and changes nothing', async () => {
        await restoreFixtures(true);
        await acceptState();
        const idRoutes = allRoutes.filter((route) => route.url.includes(':id'));
        expect(idRoutes.length).toBeGreaterThan(0);
        for (const route of idRoutes) {
          for (const id of ['0x10', '1e1', ' 16', '016', '+16', '16.0', '0', '2147483648']) {
            const caller = callersFor(route).at(-1)!;
            const { options, summary } = buildRequest(route, {
              kind: 'params',
              caller,
              value: id,
              raw: false,
              contentType: 'application/json',
              junkHeaders: {},
            });
            const response = await t.app.inject(options);
            expect(response.statusCode, summary).toBe(400);
            expect(response.json().fieldErrors, summary).toHaveProperty('id');
            expect(differing(await writeCounts(), writesBaseline), summary).toEqual([]);
          }
        }
      });
    }

    if (options.sharePointItems) {
      it('SharePoint items with hostile text: refresh and import never fail and store valid data', async () => {
        await restoreFixtures(true);
        const lists = setup.portal.lists;
        const freelancerIds = [facilitator.freelancerId!, 'F-HOSTILE', ' 1001 ', '1e3'];
        const text = fc.oneof(hostileString, fc.constantFrom(...freelancerIds));
        const item = fc.record({
          booking: fc.record({
            Title: text,
            FreelancerID: fc.oneof(fc.constantFrom(...freelancerIds), text),
            SessionDate: fc.oneof(fc.constant(freeDay), fc.constantFrom(...DATES)),
            StartTime: text,
            EndTime: text,
            SchoolID: text,
            SchoolName: text,
            SchoolAddress: text,
            SchoolPostcode: text,
            Programme: text,
            TimeSlot: text,
            DeliveryType: text,
            Year: text,
            Location: text,
          }),
          facilitator: fc.record({ Title: text, FreelancerID: text, Email: text, Area: text }),
          school: fc.record({ Title: text, SchoolID: text, Address: text, Postcode: text }),
        });
        const runs = Math.max(6, Math.round(RUNS / 6));
        await fc.assert(
          fc.asyncProperty(item, async (fields) => {
            for (const [list, input] of [
              [lists.bookings, fields.booking],
              [lists.facilitators, fields.facilitator],
              [lists.schools, fields.school],
            ] as const) {
              if (!list) continue;
              try {
                setup.emu.control.addItem(list, input);
              } catch {
                // the emulator refuses what SharePoint would refuse (a date that is no date ...)
              }
            }
            for (const url of ['/api/staff/bookings/refresh', '/api/staff/facilitators/import']) {
              const response = await t.app.inject({ method: 'POST', url, headers: { cookie: staff.cookie } });
              totalCases += 1;
              const summary = `${url} after SharePoint items ${clip(JSON.stringify(fields), 600)}`;
              if (response.statusCode !== 200) {
                throw new Error(`${response.statusCode} for ${summary}: ${clip(response.body, 300)}`);
              }
              await assertValidData(summary);
            }
            assertPrototypesClean('SharePoint items');
          }),
          { seed: routeSeed('sharepoint items'), numRuns: runs, endOnFailure: !SHRINK, reporter: report },
        );
      });
    }

    it('stays healthy and usable after the run', async () => {
      expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
      // Accepted cases may have renamed or re-passworded the first staff account: put it back, then sign
      // in the normal way, create an account, sign in as it and save a day.
      await db
        .update(users)
        .set({ username: STAFF.username, passwordHash: staff.hash, role: 'staff' })
        .where(eq(users.id, staff.id));
      const staffCookie = await t.loginStaff();
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/staff/users',
        headers: { cookie: staffCookie },
        payload: { username: 'after-fuzz@example.org', password: 'after-fuzz-1', displayName: 'After' },
      });
      expect(created.statusCode, created.body).toBe(201);
      const cookie = await t.login('after-fuzz@example.org', 'after-fuzz-1');
      const saved = await t.app.inject({
        method: 'POST',
        url: '/api/availability',
        headers: { cookie },
        payload: { date: freeDay, status: 'available', startTime: '09:00', endTime: '12:00', notes: 'ok' },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const [row] = await db
        .select()
        .from(availability)
        .where(and(eq(availability.userId, created.json().id), eq(availability.date, freeDay)));
      expect(row).toMatchObject({ status: 'available', startTime: '09:00', endTime: '12:00', notes: 'ok' });
      const settings = await db.select().from(sharepointSettings);
      expect(settings.length).toBeLessThanOrEqual(1);
      assertPrototypesClean('the whole run');

      const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
      const lines = [...tally].map(
        ([route, counts]) =>
          `  ${route}: ${[...counts]
            .sort(([a], [b]) => a - b)
            .map(([code, n]) => `${code}x${n}`)
            .join(' ')}`,
      );
      console.log(
        `fuzz ${group}: ${totalCases} cases over ${tally.size} routes in ${seconds} s (seed ${SEED}, ${t.ctx.database.kind})\n${lines.join('\n')}`,
      );
    });
  });
}
