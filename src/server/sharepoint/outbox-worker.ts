/**
 * Availability out: deliver queued days (sync_outbox) to the Availability list.
 *
 * Rows are claimed in batches with `FOR UPDATE SKIP LOCKED` and leased by pushing `next_attempt_at`
 * ahead, so several workers never take the same rows and a crashed worker's rows come back by
 * themselves. Rows of the same day are coalesced: the day's current availability row is what gets
 * sent. The list item is found by its natural key `{FreelancerID}|{yyyy-MM-dd}` (and remembered on
 * the availability row), then updated or created; a create whose answer was lost is never repeated
 * blindly, the key is looked up first, so an item is never duplicated. A failed day is rescheduled
 * with backoff (attempts, next_attempt_at, last_error): nothing is lost and delivery resumes alone.
 */
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { availability, syncOutbox, users } from '../db/schema';
import type { ColumnNames } from './column-mapping';
import { describeError, isSharePointError, SharePointError } from './errors';
import { availabilityKey, availabilityStatusLabel, fieldText, normaliseFreelancerId } from './fields';
import { odataString } from './graph-client';
import { type ProblemReport, problemFor } from './problems';
import { backoffDelay } from './retry';
import type { SharePointSession } from './session';

export interface OutboxOptions {
  /** rows claimed per round */
  batchSize: number;
  /** days delivered at the same time */
  concurrency: number;
  /** how long claimed rows stay invisible to other workers */
  leaseMs: number;
  /** first retry delay of a failed day, doubled per attempt up to retryMaxMs (with jitter) */
  retryBaseMs: number;
  retryMaxMs: number;
  /** when to look again at a day that cannot be sent (no freelancer ID) */
  skipRecheckMs: number;
  /** keys per look-up query (`fields/Title eq … or …`) */
  lookupChunk: number;
  random: () => number;
}

export const DEFAULT_OUTBOX_OPTIONS: OutboxOptions = {
  batchSize: 100,
  concurrency: 4,
  leaseMs: 10 * 60_000,
  retryBaseMs: 30_000,
  retryMaxMs: 15 * 60_000,
  skipRecheckMs: 60 * 60_000,
  lookupChunk: 20,
  random: Math.random,
};

export interface DrainResult {
  /** false: SharePoint settings are missing, nothing was claimed */
  configured: boolean;
  claimed: number;
  /** days written to SharePoint, or found already holding their values */
  delivered: number;
  /** of those, days whose item already held the values: no write was made */
  unchanged: number;
  /** days rescheduled after a failure */
  failed: number;
  /** days not sent (facilitator without freelancer ID, user or day gone) */
  skipped: number;
  /** the service itself is failing (outage, throttling, credentials): stop for now */
  serviceDown: boolean;
  lastError?: string;
  /** the failure of this round as staff see it (sharepoint/problems.ts); absent when nothing failed */
  problem?: ProblemReport;
}

export type OutboxRow = typeof syncOutbox.$inferSelect;
type AvailabilityRow = typeof availability.$inferSelect;

interface DayJob {
  key: string;
  userId: number;
  date: string;
  rows: OutboxRow[];
}

interface ItemRef {
  id: string;
  eTag?: string;
  /** the item's columns as last read, to skip a write that would change nothing */
  fields?: Record<string, unknown>;
}

/** Every availability field is required, so the session's mapping names a column for each. */
type AvailabilityColumns = { [F in keyof ColumnNames<'availability'>]: string };

/** Claim due rows: a short transaction, so saving availability is never held up by delivery. */
async function claim(db: Db, now: Date, options: OutboxOptions): Promise<OutboxRow[]> {
  const due = db
    .select({ id: syncOutbox.id })
    .from(syncOutbox)
    .where(lte(syncOutbox.nextAttemptAt, now))
    .orderBy(asc(syncOutbox.id))
    .limit(options.batchSize)
    .for('update', { skipLocked: true });
  return db
    .update(syncOutbox)
    .set({ nextAttemptAt: new Date(now.getTime() + options.leaseMs) })
    .where(inArray(syncOutbox.id, due))
    .returning();
}

function retryDelay(attempts: number, options: OutboxOptions): number {
  return backoffDelay(attempts, {
    baseDelayMs: options.retryBaseMs,
    maxDelayMs: options.retryMaxMs,
    random: options.random,
  });
}

async function reschedule(db: Db, rows: OutboxRow[], at: Date, error: string | null, countAttempt: boolean) {
  if (rows.length === 0) return;
  await db
    .update(syncOutbox)
    .set({
      nextAttemptAt: at,
      ...(countAttempt ? { attempts: sql`${syncOutbox.attempts} + 1` } : {}),
      ...(error !== null ? { lastError: error.slice(0, 1000) } : {}),
    })
    .where(
      inArray(
        syncOutbox.id,
        rows.map((r) => r.id),
      ),
    );
}

async function removeRows(db: Db, rows: OutboxRow[]) {
  if (rows.length === 0) return;
  await db.delete(syncOutbox).where(
    inArray(
      syncOutbox.id,
      rows.map((r) => r.id),
    ),
  );
}

/** The columns of a day's item. Empty values are sent as null on update so old values are cleared. */
function itemFields(
  A: AvailabilityColumns,
  freelancerId: string,
  name: string,
  day: AvailabilityRow,
  forCreate: boolean,
) {
  const optional = (value: string) => (value === '' ? (forCreate ? undefined : null) : value);
  const fields: Record<string, unknown> = {
    [A.key]: availabilityKey(freelancerId, day.date),
    [A.freelancerId]: freelancerId,
    [A.name]: name,
    [A.day]: day.date,
    [A.status]: availabilityStatusLabel(day.status),
    [A.startTime]: optional(day.startTime),
    [A.endTime]: optional(day.endTime),
    [A.notes]: optional(day.notes),
  };
  for (const [k, v] of Object.entries(fields)) if (v === undefined) delete fields[k];
  return fields;
}

/**
 * Whether the item already holds these values. Each PATCH makes a new item version in SharePoint even
 * when nothing changes, so such a write is skipped. A null (clear) matches a missing or blank column.
 */
export function holdsValues(
  current: Record<string, unknown> | undefined,
  wanted: Record<string, unknown>,
): boolean {
  if (!current) return false;
  return Object.entries(wanted).every(([name, value]) => {
    const have = fieldText(current, name);
    return value === null || value === undefined ? have === null : have === String(value).trim();
  });
}

/** One query per chunk of keys; several items with one key: the lowest id is the one we use. */
async function lookupKeys(
  A: AvailabilityColumns,
  session: SharePointSession,
  siteId: string,
  listId: string,
  keys: string[],
  chunk: number,
): Promise<Map<string, ItemRef>> {
  const found = new Map<string, ItemRef>();
  for (let i = 0; i < keys.length; i += chunk) {
    const slice = keys.slice(i, i + chunk);
    const filter = slice.map((k) => `fields/${A.key} eq ${odataString(k)}`).join(' or ');
    const items = await session.client.listItems(siteId, listId, {
      filter,
      top: Math.max(slice.length * 2, 10),
    });
    const sorted = items.sort((a, b) => Number(a.id) - Number(b.id) || a.id.localeCompare(b.id));
    for (const item of sorted) {
      const key = fieldText(item.fields, A.key);
      // The server's filter is trusted only as far as it goes: check the key ourselves.
      if (key && slice.includes(key) && !found.has(key))
        found.set(key, { id: item.id, eTag: item.eTag, fields: item.fields });
    }
  }
  return found;
}

/**
 * A look-up by key that failed on a list whose key column is not indexed: past 5,000 items SharePoint
 * refuses such queries whatever the client sends, and retrying cannot help, so the error says what
 * staff must do. The days stay queued and are retried with backoff, never in a tight loop.
 */
async function withIndexAdvice(session: SharePointSession, error: unknown): Promise<unknown> {
  if (!isSharePointError(error) || error.kind !== 'http' || error.status === 401 || error.status === 403)
    return error;
  let unindexed: string[];
  try {
    unindexed = await session.unindexedFilterColumns('availability');
  } catch {
    return error;
  }
  if (unindexed.length === 0) return error;
  return new SharePointError(
    'http',
    `${error.message}. The Availability list's column ${unindexed.join(', ')} is not indexed: SharePoint refuses look-ups on it once the list passes 5,000 items. Index it (List settings → Indexed columns); delivery resumes by itself.`,
    { status: error.status, code: error.code, retryable: error.retryable, cause: error },
  );
}

/** Runs tasks with at most `limit` at a time; stops taking new ones once `stop()` says so. */
async function pool<T>(items: T[], limit: number, stop: () => boolean, task: (item: T) => Promise<void>) {
  let next = 0;
  const run = async () => {
    while (next < items.length && !stop()) {
      const item = items[next++]!;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, run));
}

/** Errors that say "SharePoint (or our access to it) is not working", not "this one day is wrong". */
function isServiceFailure(error: unknown): boolean {
  if (!isSharePointError(error)) return true;
  if (error.retryable) return true;
  if (error.kind === 'auth' || error.kind === 'network' || error.kind === 'not-configured') return true;
  return error.status === 401 || error.status === 403;
}

/**
 * Rows a round of this process claimed before the round failed on the database (PostgreSQL restarted
 * or unreachable mid-round). Their lease would hide them for leaseMs (10 minutes) although nobody
 * works on them any more; the next round of this process hands them back first. Only rows still
 * holding that lease are touched (found by system/faults.test.ts: after a one-second PostgreSQL
 * restart, a round's days reached SharePoint ten minutes late).
 */
async function releaseAbandonedLeases(db: Db, now: () => Date, abandoned: OutboxRow[]): Promise<void> {
  const rows = abandoned.splice(0);
  if (!rows.length) return;
  const byLease = new Map<number, number[]>();
  for (const row of rows) {
    const at = row.nextAttemptAt.getTime();
    byLease.set(at, [...(byLease.get(at) ?? []), row.id]);
  }
  for (const [leaseUntil, ids] of byLease) {
    await db
      .update(syncOutbox)
      .set({ nextAttemptAt: now() })
      .where(and(inArray(syncOutbox.id, ids), eq(syncOutbox.nextAttemptAt, new Date(leaseUntil))));
  }
}

/**
 * One round: claim a batch, deliver it, record the outcome. `session` null means SharePoint is not
 * configured: rows stay queued untouched. `abandoned`: the caller's list of rows this process left
 * leased (the connector keeps one per app).
 */
export async function drainOutboxOnce(
  db: Db,
  session: SharePointSession | null,
  now: () => Date,
  partial: Partial<OutboxOptions> = {},
  abandoned: OutboxRow[] = [],
): Promise<DrainResult> {
  await releaseAbandonedLeases(db, now, abandoned);
  const round: { claimed: OutboxRow[] } = { claimed: [] };
  try {
    return await drainRound(db, session, now, partial, round);
  } catch (error) {
    if (round.claimed.length > 0) {
      abandoned.push(...round.claimed);
    }
    throw error;
  }
}

async function drainRound(
  db: Db,
  session: SharePointSession | null,
  now: () => Date,
  partial: Partial<OutboxOptions>,
  round: { claimed: OutboxRow[] },
): Promise<DrainResult> {
  const options = { ...DEFAULT_OUTBOX_OPTIONS, ...partial };
  const result: DrainResult = {
    configured: session !== null,
    claimed: 0,
    delivered: 0,
    unchanged: 0,
    failed: 0,
    skipped: 0,
    serviceDown: false,
  };
  if (!session) return result;

  const claimed = await claim(db, now(), options);
  round.claimed = claimed;
  result.claimed = claimed.length;
  if (claimed.length === 0) return result;

  // Coalesce: one job per (user, day), whatever number of rows queued it.
  const jobs = new Map<string, DayJob>();
  for (const row of claimed) {
    const key = `${row.userId}|${row.date}`;
    const job = jobs.get(key) ?? { key, userId: row.userId, date: row.date, rows: [] };
    job.rows.push(row);
    jobs.set(key, job);
  }
  const userIds = [...new Set(claimed.map((r) => r.userId))];
  const dates = [...new Set(claimed.map((r) => r.date))];
  const people = new Map(
    (
      await db
        .select({
          id: users.id,
          username: users.username,
          displayName: users.displayName,
          freelancerId: users.freelancerId,
        })
        .from(users)
        .where(inArray(users.id, userIds))
    ).map((u) => [u.id, u]),
  );
  const days = new Map(
    (
      await db
        .select()
        .from(availability)
        .where(and(inArray(availability.userId, userIds), inArray(availability.date, dates)))
    ).map((d) => [`${d.userId}|${d.date}`, d]),
  );

  interface Deliverable {
    job: DayJob;
    day: AvailabilityRow;
    freelancerId: string;
    name: string;
    key: string;
  }
  const deliverables: Deliverable[] = [];
  for (const job of jobs.values()) {
    const person = people.get(job.userId);
    const day = days.get(job.key);
    if (!person || !day) {
      // The account or the day is gone (deleted account): there is nothing left to send.
      await removeRows(db, job.rows);
      result.skipped++;
      continue;
    }
    const freelancerId = normaliseFreelancerId(person.freelancerId);
    if (!freelancerId) {
      // Kept, so the days go out once staff give the facilitator a freelancer ID.
      await reschedule(
        db,
        job.rows,
        new Date(now().getTime() + options.skipRecheckMs),
        'Not sent: the facilitator has no freelancer ID',
        false,
      );
      result.skipped++;
      continue;
    }
    deliverables.push({
      job,
      day,
      freelancerId,
      name: person.displayName || person.username,
      key: availabilityKey(freelancerId, job.date),
    });
  }
  if (deliverables.length === 0) return result;

  const fail = async (rows: OutboxRow[], error: unknown) => {
    const attempts = Math.max(...rows.map((r) => r.attempts)) + 1;
    const at = new Date(now().getTime() + retryDelay(attempts, options));
    await reschedule(db, rows, at, describeError(error), true);
    return at;
  };

  let siteId: string;
  let listId: string;
  let known: Map<string, ItemRef>;
  let A: AvailabilityColumns;
  try {
    siteId = await session.siteId();
    listId = await session.listId(session.settings.availabilityListName);
    A = (await session.columns('availability')) as AvailabilityColumns;
    // Days whose item id is remembered are read by id: a filtered look-up is a risk on a list past
    // 5,000 items (the key column must be indexed), so it is kept for days never delivered.
    const unknownKeys = deliverables.filter((d) => !d.day.sharePointItemId).map((d) => d.key);
    known = await lookupKeys(A, session, siteId, listId, unknownKeys, options.lookupChunk);
  } catch (error) {
    const explained = await withIndexAdvice(session, error);
    await fail(
      deliverables.flatMap((d) => d.job.rows),
      explained,
    );
    result.failed = deliverables.length;
    result.serviceDown = true;
    result.lastError = describeError(explained);
    result.problem = await problemFor(session, 'availability', error);
    return result;
  }

  const { client } = session;
  const maxAttempts = client.timings.maxAttempts;
  const lookupOne = async (key: string) => (await lookupKeys(A, session, siteId, listId, [key], 1)).get(key);

  const deliver = async (d: Deliverable): Promise<string> => {
    let target: ItemRef | undefined = d.day.sharePointItemId
      ? { id: d.day.sharePointItemId }
      : known.get(d.key);
    for (let attempt = 1; attempt <= maxAttempts + 2; attempt++) {
      if (target && !target.eTag) {
        // Every update goes out with If-Match. An earlier update of ours whose answer timed out
        // may still be applied by SharePoint later, after a newer value was written; without
        // If-Match it would silently overwrite the newer value for good (system/
        // sharepoint-faults.test.ts found this). With the eTag read just before, that late
        // update fails with 412 instead. A missing item (deleted in SharePoint) reads as none.
        const current = await client.getItem(siteId, listId, target.id);
        target = current
          ? { id: current.id, eTag: current.eTag, fields: current.fields }
          : await lookupOne(d.key);
      }
      if (target) {
        const wanted = itemFields(A, d.freelancerId, d.name, d.day, false);
        if (holdsValues(target.fields, wanted)) {
          result.unchanged++;
          return target.id;
        }
        const updated = await client.updateItemFields(siteId, listId, target.id, wanted, target.eTag);
        if (updated) return target.id;
        // The remembered item was deleted in SharePoint: find the key again, or create it.
        target = await lookupOne(d.key);
        if (target) continue;
      }
      try {
        return (await client.createItem(siteId, listId, itemFields(A, d.freelancerId, d.name, d.day, true)))
          .id;
      } catch (error) {
        if (!isSharePointError(error) || attempt >= maxAttempts) throw error;
        if (error.status === 409) {
          // Someone (or our own lost create) made the item meanwhile: update it instead.
          target = await lookupOne(d.key);
          if (!target) throw error;
          continue;
        }
        if (!error.retryable) throw error;
        await client.timings.sleep(backoffDelay(attempt, client.timings));
        // The create may have been stored even though its answer was lost: look before creating again.
        target = await lookupOne(d.key);
      }
    }
    throw new SharePointError('protocol', `Could not write the SharePoint item ${d.key}.`, {
      retryable: true,
    });
  };

  const leftOver = new Set(deliverables);
  const delivered: Array<{ d: Deliverable; itemId: string }> = [];
  let stopAt: Date | undefined;
  let firstFailure: { error: unknown } | undefined;
  await pool(
    deliverables,
    options.concurrency,
    () => result.serviceDown,
    async (d) => {
      leftOver.delete(d);
      let itemId: string;
      try {
        itemId = await deliver(d);
      } catch (error) {
        const at = await fail(d.job.rows, error);
        result.failed++;
        result.lastError = describeError(error);
        firstFailure ??= { error };
        if (isServiceFailure(error)) {
          result.serviceDown = true;
          stopAt = at;
        }
        return;
      }
      delivered.push({ d, itemId });
      result.delivered++;
    },
  );
  await recordDelivered(
    db,
    delivered.map(({ d, itemId }) => ({ day: d.day, itemId, rows: d.job.rows })),
  );
  if (firstFailure) result.problem = await problemFor(session, 'availability', firstFailure.error);
  if (leftOver.size > 0) {
    // Not tried because the service is down: back in the queue for when the failed day is retried.
    await reschedule(
      db,
      [...leftOver].flatMap((d) => d.job.rows),
      stopAt ?? now(),
      null,
      false,
    );
  }
  return result;
}

/**
 * Bookkeeping for a round, in one transaction: remember each item id, mark a day synced only if it
 * still holds what was sent (a newer change has its own outbox row), and drop the delivered rows.
 * Rows queued for a day by saves that committed before this round's delivery are dropped with them
 * when the day still holds what was sent: SharePoint already has that value, and without this a busy
 * day left a trail of rows that each cost another round (system/load.test.ts found 759 left after a
 * short load on PGlite).
 */
async function recordDelivered(
  db: Db,
  done: Array<{ day: AvailabilityRow; itemId: string; rows: OutboxRow[] }>,
): Promise<void> {
  if (done.length === 0) return;
  // Saves lock a user's days in date order (a bulk save writes them ascending); taking the locks
  // here in (user, date) order too means the two never wait on each other in a cycle. Unordered,
  // PostgreSQL found a deadlock between this update and a bulk save under load.
  const ordered = [...done].sort(
    (a, b) => a.day.userId - b.day.userId || (a.day.date < b.day.date ? -1 : a.day.date > b.day.date ? 1 : 0),
  );
  await db.transaction(async (tx) => {
    for (let i = 0; i < ordered.length; i += 500) {
      const chunk = ordered.slice(i, i + 500);
      await tx
        .select({ id: availability.id })
        .from(availability)
        .where(
          inArray(
            availability.id,
            chunk.map(({ day }) => day.id),
          ),
        )
        .orderBy(asc(availability.userId), asc(availability.date))
        .for('update');
      const values = chunk.map(
        ({ day, itemId }) =>
          sql`(${day.id}::int, ${itemId}::text, ${day.status}::text, ${day.startTime}::text, ${day.endTime}::text, ${day.notes}::text)`,
      );
      const sent = sql`(values ${sql.join(values, sql`, `)}) as v(id, item_id, status, start_time, end_time, notes)`;
      const unchanged = sql`a.status = v.status and a.start_time = v.start_time and a.end_time = v.end_time and a.notes = v.notes`;
      await tx.execute(sql`
        update ${availability} as a
        set sharepoint_item_id = v.item_id,
            synced_to_sharepoint = case when ${unchanged} then true else a.synced_to_sharepoint end
        from ${sent}
        where a.id = v.id`);
      // The days are locked, so no save can change one between this check and the commit; a save
      // still in flight has not committed its row, which this statement cannot see and so keeps.
      await tx.execute(sql`
        delete from ${syncOutbox} as o
        using ${availability} as a, ${sent}
        where a.id = v.id and ${unchanged} and o.user_id = a.user_id and o.date = a.date`);
    }
    const ids = done.flatMap(({ rows }) => rows.map((r) => r.id));
    for (let i = 0; i < ids.length; i += 1000) {
      await tx.delete(syncOutbox).where(inArray(syncOutbox.id, ids.slice(i, i + 1000)));
    }
  });
}
