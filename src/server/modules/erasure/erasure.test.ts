/**
 * Erasure end to end: one record of every kind about a person, an erasure through the route, the
 * outbox drained against the SharePoint emulator, then every table of the database (read from
 * pg_catalog, so a table added later is searched too) and the emulator's Availability list searched
 * for the person.
 */
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERASURE_KIND_LABELS } from '../../../shared/schemas/retention';
import {
  availabilityRemovals,
  certificateViews,
  changeHistory,
  erasures,
  facilitatorPhotos,
  loginThrottle,
  microsoftIdentities,
  microsoftInvitations,
  notificationPreferences,
  notificationQuietHours,
  passkeys,
  passwordLinks,
  pushOutbox,
  pushSubscriptions,
  reminderSends,
  safeguardingRecordVersions,
  safeguardingReminderSends,
  webauthnChallenges,
} from '../../db/schema';
import { type ConnectorSetup, setupConnector } from '../../sharepoint/test-support';
import {
  insertBooking,
  insertDbsCheck,
  insertNote,
  insertOffer,
  insertOpenSession,
} from '../../test/factories';
import { saveDay } from '../availability/service';
import { turnOnFeed } from '../calendar-feed/service';
import { ERASURE_STEPS } from './steps';

let s: ConnectorSetup;
let clock = Date.now();
let staffCookie: string;

const ERIN = {
  username: 'erin.q.zephyr@example.org',
  displayName: 'Erin Quillfeather',
  email: 'erin.private@example.net',
  freelancerId: 'FZERIN77',
};
const CERTIFICATE = '918273645500';
/** columns that hold an account id, wherever they are */
const PERSON_COLUMNS = new Set([
  'id',
  'user_id',
  'facilitator_id',
  'created_by',
  'updated_by',
  'offered_by',
  'sent_by',
  'actor_id',
  'subject_user_id',
  'erased_by',
  'viewer_id',
  'uploaded_by',
]);

const list = () => s.portal.lists.availability!;
const items = () => s.emu.control.items(list());

beforeAll(async () => {
  s = await setupConnector({
    seed: { seed: 'erasure', bookingCount: 0, availability: [] },
    build: { now: () => new Date(clock) },
  });
  // the app's clock runs ahead of the database's, so rows queued "now" are due at once
  clock = Date.now() + 10 * 60_000;
  staffCookie = await s.t.loginStaff();
}, 120_000);
afterAll(() => s.close());

async function rowsOf<T>(query: SQL): Promise<T[]> {
  return ((await s.t.ctx.db.execute(query)) as unknown as { rows: T[] }).rows;
}

async function publicTables(): Promise<string[]> {
  const result = await s.t.ctx.db.execute(
    sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') order by 1`,
  );
  return (result as unknown as { rows: { name: string }[] }).rows.map((row) => row.name);
}

describe('erasure', () => {
  it('names every table of the database, with its step or why it holds nothing about a person', async () => {
    const named = ERASURE_STEPS.map(([table]) => table);
    expect(new Set(named).size).toBe(named.length);
    expect((await publicTables()).filter((table) => !named.includes(table))).toEqual([]);
  });

  it('leaves nothing about the person in any table, and removes their SharePoint items', async () => {
    const { t } = s;
    const db = t.ctx.db;
    const erin = await t.createUser(ERIN);
    const other = await t.createUser({
      username: 'olly@example.org',
      displayName: 'Olly',
      freelancerId: 'FZOLLY1',
    });

    // one record of every kind about Erin
    const erinCookie = await t.login(ERIN.username, erin.password); // a session
    await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: ERIN.username, password: 'wrong-1' },
    }); // a throttle row
    const actor = { id: erin.id, mayOverrideBookings: false, via: 'facilitator' as const };
    for (const date of ['2027-03-01', '2027-03-02']) {
      await saveDay(
        t.ctx,
        { userId: erin.id, date, status: 'available', startTime: '', endTime: '', notes: 'Mornings' },
        actor,
      );
    }
    await saveDay(
      t.ctx,
      { userId: other.id, date: '2027-03-01', status: 'available', startTime: '', endTime: '', notes: '' },
      { ...actor, id: other.id },
    );
    for (let i = 0; i < 10 && (await t.ctx.sharePoint.drainOutbox()).claimed > 0; i++);
    expect(items().filter((item) => String(item.fields.Title).startsWith(ERIN.freelancerId))).toHaveLength(2);
    // a day queued and not yet delivered
    await saveDay(
      t.ctx,
      {
        userId: erin.id,
        date: '2027-03-03',
        status: 'limited',
        startTime: '09:00',
        endTime: '12:00',
        notes: '',
      },
      actor,
    );

    await insertNote(db, {
      facilitatorId: erin.id,
      date: '2027-03-01',
      note: 'Erin Quillfeather prefers KS2',
    });
    await insertDbsCheck(db, { userId: erin.id, dbsCertificateNumber: CERTIFICATE });
    const open = await insertOpenSession(db, { date: '2027-04-01' });
    await insertOffer(db, {
      bookingId: open.id,
      userId: erin.id,
      replyBy: new Date(clock + 86_400_000),
      message: 'For Erin Quillfeather',
    });
    const delivered = await insertBooking(db, {
      date: '2026-06-01',
      userId: erin.id,
      freelancerId: ERIN.freelancerId,
    });
    await turnOnFeed(db, t.ctx.appSecret, erin.id);
    await db.insert(reminderSends).values({
      userId: erin.id,
      month: '2027-03',
      sentOn: '2027-02-20',
      email: ERIN.email,
      trigger: 'automatic',
    });
    await db
      .insert(safeguardingReminderSends)
      .values({ userId: erin.id, kind: 'expiry', sentOn: '2027-02-20', email: ERIN.email });
    await db.insert(passwordLinks).values({
      tokenHash: 'h-erin',
      userId: erin.id,
      purpose: 'reset',
      boundTo: 'b',
      expiresAt: new Date(clock + 3_600_000),
    });
    await db.insert(microsoftIdentities).values({
      userId: erin.id,
      issuer: 'https://login.example',
      tenantId: 't',
      objectId: 'o-erin',
      signInName: ERIN.username,
    });
    await db
      .insert(microsoftInvitations)
      .values({ tokenHash: 'i-erin', userId: erin.id, expiresAt: new Date(clock + 3_600_000) });
    await db.insert(passkeys).values({
      credentialId: 'cred-erin',
      userId: erin.id,
      publicKey: 'pk-erin',
      name: 'Erin Quillfeather’s phone',
      rpId: 'localhost',
    });
    await db.insert(webauthnChallenges).values({
      challengeHash: 'c-erin',
      purpose: 'registration',
      userId: erin.id,
      expiresAt: new Date(clock + 300_000),
    });
    const [subscription] = await db
      .insert(pushSubscriptions)
      .values({ userId: erin.id, endpoint: 'https://push.example/erin', p256dh: 'p', auth: 'a' })
      .returning();
    await db.insert(pushOutbox).values({ subscriptionId: subscription!.id, kind: 'offer', link: '/offers' });
    await db.insert(notificationPreferences).values({ userId: erin.id, kind: 'offer', channel: 'push' });
    await db.insert(notificationQuietHours).values({ userId: erin.id, startsAt: '22:00', endsAt: '07:00' });
    // the viewing log: her certificate seen by staff, and Olly's seen by her
    await db
      .insert(certificateViews)
      .values({ subjectUserId: erin.id, viewerId: null, viewerName: 'Staff', via: 'staff-records' });
    await db.insert(certificateViews).values({
      subjectUserId: other.id,
      viewerId: erin.id,
      viewerName: ERIN.displayName,
      via: 'staff-records',
    });
    await db.insert(safeguardingRecordVersions).values({
      userId: erin.id,
      recordedOn: '2027-02-20',
      dbsCertificateLast4: CERTIFICATE.slice(-4),
      dbsIssueDate: '2027-01-10',
    });
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xd9]);
    await db.insert(facilitatorPhotos).values({ userId: erin.id, image: jpeg, width: 1, height: 1 });
    await db
      .insert(facilitatorPhotos)
      .values({ userId: other.id, image: jpeg, width: 1, height: 1, uploadedBy: erin.id });
    const edited = await t.app.inject({
      method: 'PUT',
      url: `/api/staff/users/${erin.id}`,
      headers: { cookie: staffCookie },
      payload: { version: erin.version, area: 'North' },
    });
    expect(edited.statusCode, edited.body).toBe(200);

    const erased = await t.app.inject({
      method: 'POST',
      url: `/api/staff/users/${erin.id}/erase`,
      headers: { cookie: staffCookie },
      payload: { reason: 'Asked for erasure by letter of 1 March' },
    });
    expect(erased.statusCode, erased.body).toBe(200);
    const record = erased.json();
    expect(record).toMatchObject({ reason: 'Asked for erasure by letter of 1 March' });
    expect(record.removed).toMatchObject({
      account: 1,
      availability: 3,
      notes: 1,
      offers: 1,
      safeguardingRecords: 1,
      passkeys: 1,
      passkeyChallenges: 1,
      pushSubscriptions: 1,
      pushOutbox: 1,
      notificationChoices: 1,
      quietHours: 1,
      certificateViews: 2,
      recordVersions: 1,
      photo: 2,
    });
    expect(record.kept).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'sessions', count: 1 })]),
    );
    // every kind recorded has its words for the screens
    const kinds = [...Object.keys(record.removed), ...record.kept.map((kept: { kind: string }) => kept.kind)];
    expect(kinds.filter((kind) => !Object.hasOwn(ERASURE_KIND_LABELS, kind))).toEqual([]);
    // signed out at once
    const me = await t.app.inject({ url: '/api/user', headers: { cookie: erinCookie } });
    expect(me.statusCode).toBe(401);

    // SharePoint hears of it through the outbox
    expect(await db.select().from(availabilityRemovals)).not.toHaveLength(0);
    for (let i = 0; i < 10; i++) {
      await t.ctx.sharePoint.drainOutbox();
      if ((await db.select().from(availabilityRemovals)).length === 0) break;
    }
    expect(await db.select().from(availabilityRemovals)).toEqual([]);
    expect(items().filter((item) => JSON.stringify(item.fields).includes(ERIN.freelancerId))).toEqual([]);
    expect(items().filter((item) => String(item.fields.Title).startsWith('FZOLLY1'))).toHaveLength(1);

    // every table, searched for the person's id in account columns and for their details anywhere
    const needles = [
      ERIN.username,
      ERIN.displayName,
      ERIN.email,
      ERIN.freelancerId,
      CERTIFICATE,
      'Quillfeather',
    ];
    const found: string[] = [];
    for (const table of await publicTables()) {
      if (table === 'list_versions') continue; // counters by account id, no personal data (steps.ts)
      const rows = await rowsOf<{ r: Record<string, unknown> }>(
        sql`select row_to_json(x) as r from ${sql.identifier(table)} x`,
      );
      for (const { r } of rows) {
        const text = JSON.stringify(r).toLowerCase();
        for (const needle of needles)
          if (text.includes(needle.toLowerCase())) found.push(`${table}: ${needle}`);
        for (const [column, value] of Object.entries(r)) {
          const isAccount =
            table === 'users' ? column === 'id' : column !== 'id' && PERSON_COLUMNS.has(column);
          if (isAccount && value === erin.id) found.push(`${table}.${column}`);
        }
      }
    }
    expect(found).toEqual([]);

    // what the organisation keeps: the session, without the person; the erasure, naming nobody
    const [kept] = await rowsOf<{ user_id: number | null; freelancer_id: string | null }>(
      sql`select user_id, freelancer_id from bookings where id = ${delivered.id}`,
    );
    expect(kept).toEqual({ user_id: null, freelancer_id: null });
    expect(await db.select().from(erasures)).toHaveLength(1);
    expect((await db.select().from(loginThrottle)).filter((row) => row.account === ERIN.username)).toEqual(
      [],
    );
    expect((await db.select().from(changeHistory)).some((row) => row.subjectUserId === other.id)).toBe(true);
    // the record that Olly's certificate was seen stays, and so does his photo
    expect(await db.select().from(certificateViews)).toEqual([
      expect.objectContaining({ subjectUserId: other.id, viewerId: null }),
    ]);
    expect(await db.select({ userId: facilitatorPhotos.userId }).from(facilitatorPhotos)).toEqual([
      { userId: other.id },
    ]);
  });

  it('refuses a reason that names the person, and changes nothing', async () => {
    const { t } = s;
    const fay = await t.createUser({ username: 'fay.x@example.org', displayName: 'Fay Example' });
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/staff/users/${fay.id}/erase`,
      headers: { cookie: staffCookie },
      payload: { reason: 'Fay Example asked us to' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors.reason).toBeDefined();
    const still = await t.app.inject({ url: '/api/staff/users', headers: { cookie: staffCookie } });
    expect(still.json().some((u: { id: number }) => u.id === fay.id)).toBe(true);
  });
});
