/**
 * The retention schedule: leavers' certificate numbers shortened to their last four digits, leavers
 * anonymised, and records older than the schedule keeps removed. The same plan answers the preview
 * and drives the run, so what staff see is what the next run does (on the day it is asked for).
 * Periods count in whole days of ORG_TIMEZONE: a leaver deactivated on D has their number shortened
 * from D + certificateMonths on, and a record dated before today − recordsYears is removed.
 */
import { and, count, desc, eq, inArray, isNotNull, isNull, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { addMonths, dateOnlyInZone, todayIn } from '../../../shared/calendar';
import {
  DEFAULT_RETENTION,
  RETENTION_KINDS,
  type RetentionCounts,
  type RetentionPreview,
  type RetentionResponse,
  type RetentionSettingsBody,
  retentionSettingsBody,
} from '../../../shared/schemas/retention';
import type { Database, Db, Queryable, Tx } from '../../db/client';
import { tryJobLock } from '../../db/job-locks';
import {
  availability,
  calendarFeeds,
  certificateViews,
  changeHistory,
  facilitatorPhotos,
  loginThrottle,
  microsoftIdentities,
  microsoftInvitations,
  offers,
  passwordLinks,
  reminderSends,
  retentionRuns,
  retentionSettings,
  safeguardingRecords,
  safeguardingReminderSends,
  sessions,
  staffNotes,
  syncOutbox,
  users,
} from '../../db/schema';
import { enqueueRemovalsOfPerson } from '../../sharepoint/availability-removals';
import { removePhotosOf } from '../data-protection/photos';
import { applyCertificateViewRetention } from '../data-protection/viewing-log';
import { recordChanges } from '../history/record';
import { applyRecordVersionRetention, countRecordVersionRetention } from '../safeguarding/record-versions';
import { usernameKeys } from '../users/service';

export interface RetentionDeps {
  db: Db;
  now: () => Date;
  config: { ORG_TIMEZONE: string };
}

export async function loadRetention(db: Queryable): Promise<RetentionSettingsBody> {
  const [row] = await db.select().from(retentionSettings).where(eq(retentionSettings.id, 1));
  if (!row) return { ...DEFAULT_RETENTION };
  return {
    certificateMonths: row.certificateMonths,
    anonymiseMonths: row.anonymiseMonths,
    recordsYears: row.recordsYears,
  };
}

export async function retentionStatus(db: Queryable): Promise<RetentionResponse> {
  const [settings, [last]] = await Promise.all([
    loadRetention(db),
    db.select().from(retentionRuns).orderBy(desc(retentionRuns.id)).limit(1),
  ]);
  return {
    settings,
    lastRun: last ? { ranAt: last.ranAt.toISOString(), counts: withAllKinds(last.counts) } : null,
  };
}

export async function saveRetention(db: Db, input: RetentionSettingsBody, actorId: number) {
  const data = retentionSettingsBody.parse(input);
  await db.transaction(async (tx) => {
    const before = await loadRetention(tx);
    await tx
      .insert(retentionSettings)
      .values({ id: 1, ...data })
      .onConflictDoUpdate({ target: retentionSettings.id, set: { ...data, updatedAt: new Date() } });
    if (JSON.stringify(before) !== JSON.stringify(data)) {
      await recordChanges(tx, [
        {
          entity: 'settings',
          action: 'update',
          subjectUserId: null,
          actorId,
          via: 'staff',
          before: { section: 'retention', ...before },
          after: { section: 'retention', ...data },
        },
      ]);
    }
  });
  return retentionStatus(db);
}

const withAllKinds = (counts: Partial<RetentionCounts>): RetentionCounts =>
  Object.fromEntries(RETENTION_KINDS.map((kind) => [kind, counts[kind] ?? 0])) as RetentionCounts;

interface Plan {
  asOf: string;
  recordsBefore: string;
  /** leavers whose full certificate number is due to be shortened (anonymised ones included) */
  shorten: number[];
  /** leavers due to be anonymised */
  anonymise: number[];
}

async function makePlan(db: Queryable, settings: RetentionSettingsBody, now: Date, timeZone: string) {
  const asOf = todayIn(timeZone, now);
  const leavers = await db
    .select({ id: users.id, deactivatedAt: users.deactivatedAt })
    .from(users)
    .where(and(isNotNull(users.deactivatedAt), isNull(users.anonymisedAt)));
  const shorten: number[] = [];
  const anonymise: number[] = [];
  for (const leaver of leavers) {
    const left = dateOnlyInZone(leaver.deactivatedAt!.toISOString(), timeZone);
    if (addMonths(left, settings.anonymiseMonths) <= asOf) anonymise.push(leaver.id);
    if (addMonths(left, settings.certificateMonths) <= asOf) shorten.push(leaver.id);
  }
  for (const id of anonymise) if (!shorten.includes(id)) shorten.push(id);
  return {
    asOf,
    recordsBefore: addMonths(asOf, -12 * settings.recordsYears),
    shorten,
    anonymise,
  } satisfies Plan;
}

/** The first instant of `day` in the time zone. */
const startOf = (day: string, timeZone: string) => sql`(${day}::date::timestamp at time zone ${timeZone})`;

const orAnonymised = (column: PgColumn, ids: number[], older: SQL | undefined): SQL | undefined =>
  ids.length > 0 ? or(older, inArray(column, ids)) : older;

/** What each kind removes, as a condition on its table. */
function conditions(plan: Plan, timeZone: string) {
  const before = startOf(plan.recordsBefore, timeZone);
  const ids = plan.anonymise;
  return {
    shortened: and(
      isNotNull(safeguardingRecords.dbsCertificateNumber),
      plan.shorten.length > 0 ? inArray(safeguardingRecords.userId, plan.shorten) : sql`false`,
    ),
    availability: orAnonymised(availability.userId, ids, lt(availability.date, plan.recordsBefore)),
    // an accepted offer of an anonymised leaver stays with its session; older ones go with the rest
    offers: or(
      sql`${offers.createdAt} < ${before}`,
      ids.length > 0 ? and(inArray(offers.userId, ids), ne(offers.state, 'accepted')) : sql`false`,
    ),
    notes: orAnonymised(staffNotes.facilitatorId, ids, lt(staffNotes.date, plan.recordsBefore)),
    reminderSends: orAnonymised(reminderSends.userId, ids, lt(reminderSends.sentOn, plan.recordsBefore)),
    safeguardingReminderSends: orAnonymised(
      safeguardingReminderSends.userId,
      ids,
      lt(safeguardingReminderSends.sentOn, plan.recordsBefore),
    ),
    history: orAnonymised(changeHistory.subjectUserId, ids, sql`${changeHistory.at} < ${before}`),
    certificateViews: sql`${certificateViews.at} < ${before}`,
    photos: ids.length > 0 ? inArray(facilitatorPhotos.userId, ids) : sql`false`,
  };
}

/** `startOf` as a Date, for the functions that take one. */
async function startOfDay(db: Queryable, day: string, timeZone: string): Promise<Date> {
  const result = await db.execute(sql`select extract(epoch from ${startOf(day, timeZone)})::float8 as at`);
  const [row] = (result as unknown as { rows: { at: number | string }[] }).rows;
  return new Date(Number(row!.at) * 1000);
}

async function countWhere(db: Queryable, table: PgTable, where: SQL | undefined) {
  const [row] = await db.select({ n: count() }).from(table).where(where);
  return row?.n ?? 0;
}

/** What the next run would do today: counts by kind, nothing else. */
export async function previewRetention(ctx: RetentionDeps): Promise<RetentionPreview> {
  const timeZone = ctx.config.ORG_TIMEZONE;
  const plan = await makePlan(ctx.db, await loadRetention(ctx.db), ctx.now(), timeZone);
  const where = conditions(plan, timeZone);
  const counts: RetentionCounts = {
    certificateNumbers: await countWhere(ctx.db, safeguardingRecords, where.shortened),
    leaversAnonymised: plan.anonymise.length,
    availability: await countWhere(ctx.db, availability, where.availability),
    offers: await countWhere(ctx.db, offers, where.offers),
    notes: await countWhere(ctx.db, staffNotes, where.notes),
    reminderSends:
      (await countWhere(ctx.db, reminderSends, where.reminderSends)) +
      (await countWhere(ctx.db, safeguardingReminderSends, where.safeguardingReminderSends)),
    history: await countWhere(ctx.db, changeHistory, where.history),
    certificateViews: await countWhere(ctx.db, certificateViews, where.certificateViews),
    recordVersions: await countRecordVersionRetention(ctx.db, plan.recordsBefore),
    photos: await countWhere(ctx.db, facilitatorPhotos, where.photos),
  };
  return { asOf: plan.asOf, recordsBefore: plan.recordsBefore, counts };
}

/** Replace a leaver's personal details: the account stays, naming nobody, and cannot sign in again. */
async function anonymiseLeaver(tx: Tx, id: number, now: Date) {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).for('update');
  if (!row) return;
  const username = `former-${id}`;
  await tx.delete(sessions).where(eq(sessions.userId, id));
  await tx.delete(calendarFeeds).where(eq(calendarFeeds.userId, id));
  await tx.delete(microsoftIdentities).where(eq(microsoftIdentities.userId, id));
  await tx.delete(microsoftInvitations).where(eq(microsoftInvitations.userId, id));
  await tx.delete(passwordLinks).where(eq(passwordLinks.userId, id));
  await tx.delete(syncOutbox).where(eq(syncOutbox.userId, id));
  await tx.delete(loginThrottle).where(eq(loginThrottle.account, row.usernameCanonical));
  await tx.update(changeHistory).set({ actorId: null, actorName: null }).where(eq(changeHistory.actorId, id));
  await tx
    .update(users)
    .set({
      username,
      ...usernameKeys(username),
      passwordHash: null,
      displayName: null,
      email: null,
      freelancerId: null,
      area: null,
      anonymisedAt: now,
      updatedAt: now,
      version: row.version + 1,
    })
    .where(eq(users.id, id));
}

/**
 * Apply the schedule once, in one transaction, and record what it did (kinds and counts). The caller
 * holds the retention job lock.
 */
export async function applyRetention(ctx: RetentionDeps): Promise<RetentionCounts> {
  const timeZone = ctx.config.ORG_TIMEZONE;
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const plan = await makePlan(tx, await loadRetention(tx), now, timeZone);
    const where = conditions(plan, timeZone);
    const shortened = await tx
      .update(safeguardingRecords)
      .set({
        dbsCertificateLastFour: sql`right(${safeguardingRecords.dbsCertificateNumber}, 4)`,
        dbsCertificateNumber: null,
      })
      .where(where.shortened)
      .returning({ id: safeguardingRecords.userId });
    // an anonymised leaver's SharePoint availability items go too, through the outbox, queued from
    // their days before those are deleted below
    if (plan.anonymise.length > 0) {
      const anonymised = await tx
        .select({ id: users.id, freelancerId: users.freelancerId })
        .from(users)
        .where(inArray(users.id, plan.anonymise));
      for (const person of anonymised) await enqueueRemovalsOfPerson(tx, person, now);
    }
    const removed = async (run: Promise<unknown[]>) => (await run).length;
    await tx.execute(sql`set local change_history.purge = 'on'`);
    await tx.execute(sql`set local change_history.anonymise = 'on'`);
    const counts: RetentionCounts = {
      certificateNumbers: shortened.length,
      leaversAnonymised: plan.anonymise.length,
      availability: await removed(
        tx.delete(availability).where(where.availability).returning({ id: availability.id }),
      ),
      offers: await removed(tx.delete(offers).where(where.offers).returning({ id: offers.id })),
      notes: await removed(tx.delete(staffNotes).where(where.notes).returning({ id: staffNotes.id })),
      reminderSends:
        (await removed(
          tx.delete(reminderSends).where(where.reminderSends).returning({ id: reminderSends.id }),
        )) +
        (await removed(
          tx
            .delete(safeguardingReminderSends)
            .where(where.safeguardingReminderSends)
            .returning({ id: safeguardingReminderSends.id }),
        )),
      history: await removed(
        tx.delete(changeHistory).where(where.history).returning({ id: changeHistory.id }),
      ),
      certificateViews: await applyCertificateViewRetention(
        tx,
        await startOfDay(tx, plan.recordsBefore, timeZone),
      ),
      recordVersions: await applyRecordVersionRetention(tx, plan.recordsBefore),
      photos: await removePhotosOf(tx, plan.anonymise),
    };
    for (const id of plan.anonymise) await anonymiseLeaver(tx, id, now);
    await tx.insert(retentionRuns).values({ ranAt: now, counts });
    return counts;
  });
}

export type RetentionRunOutcome = 'done' | 'not-due' | 'busy';

/**
 * The daily run: once a day (the first tick of the day in ORG_TIMEZONE after the last run's day), on
 * one instance (the retention job lock). Throws only what the database throws; the scheduler logs it.
 */
export async function runDailyRetention(
  ctx: RetentionDeps & { database: Database },
): Promise<RetentionRunOutcome> {
  const timeZone = ctx.config.ORG_TIMEZONE;
  const ranToday = async () => {
    const [last] = await ctx.db
      .select({ ranAt: retentionRuns.ranAt })
      .from(retentionRuns)
      .orderBy(desc(retentionRuns.id))
      .limit(1);
    return !!last && dateOnlyInZone(last.ranAt.toISOString(), timeZone) >= todayIn(timeZone, ctx.now());
  };
  if (await ranToday()) return 'not-due';
  const lock = await tryJobLock(ctx.database, 'retention');
  if (!lock) return 'busy';
  try {
    if (await ranToday()) return 'not-due';
    await applyRetention(ctx);
    return 'done';
  } finally {
    await lock.release();
  }
}
