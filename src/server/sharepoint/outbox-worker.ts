/**
 * Availability out: deliver queued days (sync_outbox) to the Availability list.
 *
 * Rows are claimed in batches with `FOR UPDATE SKIP LOCKED` and leased by pushing `next_attempt_at`
 * ahead (outbox-lease.ts, shared with the Bookings list's writes), so several workers never take the
 * same rows and a crashed worker's rows come back by themselves. Rows of the same day are coalesced: the day's current availability row is what gets
 * sent. The list item is found by its natural key `{FreelancerID}|{yyyy-MM-dd}` in the index the list's
 * change feed keeps (availability-items.ts; never a filtered look-up, which a big list refuses) and
 * remembered on the availability row, then updated or created; a create whose answer was lost is never
 * repeated blindly, the key is looked up first, so an item is never duplicated. A failed day is
 * rescheduled with backoff (attempts, next_attempt_at, last_error): nothing is lost and delivery
 * resumes alone. When the list itself fails (it cannot be read, SharePoint is down or throttling),
 * the whole list waits, not one day at a time: no round claims anything until the pause is over.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { availability, schedulerState, syncOutbox, users } from '../db/schema';
import { type AvailabilityItems, availabilityItems } from './availability-items';
import type { ColumnNames } from './column-mapping';
import { describeError, failureKind, isSharePointError, type SharePointFailureKind } from './errors';
import { availabilityKey, availabilityStatusLabel, fieldText, normaliseFreelancerId } from './fields';
import { claimDue, type LeaseOptions, reschedule as rescheduleRows, retryDelay } from './outbox-lease';
import { type ProblemReport, problemFor } from './problems';
import type { SharePointSession } from './session';

/** The claim, lease and backoff (outbox-lease.ts), shared with the Bookings list's writes. */
export interface OutboxOptions extends LeaseOptions {
  /** days delivered at the same time */
  concurrency: number;
  /** when to look again at a day that cannot be sent (no freelancer ID) */
  skipRecheckMs: number;
}

export const DEFAULT_OUTBOX_OPTIONS: OutboxOptions = {
  batchSize: 100,
  concurrency: 4,
  leaseMs: 10 * 60_000,
  retryBaseMs: 30_000,
  retryMaxMs: 15 * 60_000,
  skipRecheckMs: 60 * 60_000,
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
  /** the kind of that failure (sharepoint/errors.ts), `other` for an error that is not SharePoint's */
  failureKind?: SharePointFailureKind;
  /** the whole list waits until then after a failure of the list or the service (nothing was claimed) */
  pausedUntil?: Date;
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

const claim = (db: Db, now: Date, options: OutboxOptions) => claimDue(db, syncOutbox, now, options);

function reschedule(db: Db, rows: OutboxRow[], at: Date, error: string | null, countAttempt: boolean) {
  return rescheduleRows(
    db,
    syncOutbox,
    rows.map((r) => r.id),
    at,
    error,
    countAttempt,
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

// ---------------------------------------------------------------------------------------------------
// The pause of the whole list

const PAUSE = 'sharepoint-pause:availability';

/** The list's pause after its last failures in a row, kept where every instance sees it. */
async function readPause(db: Db): Promise<{ until: Date; failures: number } | null> {
  const [row] = await db.select().from(schedulerState).where(eq(schedulerState.name, PAUSE));
  if (!row?.nextRunAt) return null;
  const failures = Number((row.lastResult as { failures?: unknown } | null)?.failures ?? 0);
  return { until: row.nextRunAt, failures: Number.isFinite(failures) ? failures : 0 };
}

/**
 * Pause the whole list: failures in a row grow the wait (the retry ladder of the outbox), and no
 * round claims a day until it is over. `until` when the caller already knows (a Retry-After).
 */
async function pauseList(
  db: Db,
  now: Date,
  options: OutboxOptions,
  error: unknown,
  until?: Date,
): Promise<Date> {
  const failures = ((await readPause(db))?.failures ?? 0) + 1;
  const at = until ?? new Date(now.getTime() + retryDelay(failures, options));
  const values = {
    nextRunAt: at,
    finishedAt: now,
    lastResult: { failures },
    lastError: describeError(error).slice(0, 1000),
  };
  await db
    .insert(schedulerState)
    .values({ name: PAUSE, ...values })
    .onConflictDoUpdate({ target: schedulerState.name, set: values });
  return at;
}

async function endPause(db: Db): Promise<void> {
  await db.delete(schedulerState).where(eq(schedulerState.name, PAUSE));
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

/**
 * One round, in named steps: claim due rows, turn them into days to send (skipping what cannot be
 * sent), open the Availability list, deliver the days a few at a time, record what was delivered.
 *
 * Graph requests per round: one read of the list's change feed when some day's item id is not
 * remembered (one request when nothing changed; every page of the list the first time). Per day, at
 * most (each under the retry policy of retry.ts: at most maxAttempts sends within totalBudgetMs):
 * 1 to read the item by id and 1 + 2×CONFLICT_REREADS = 5 to update it; if it vanished meanwhile, a
 * read of the change feed, 1 read by id and 5 to update what that finds; if there is none, 1 create,
 * and after a lost or refused create the same again. Nothing here waits or repeats on its own; a day
 * that failed goes back to the outbox, whose backoff across rounds is the durable retry, and a
 * failure of the list or the service pauses the whole list.
 */
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
  const pause = await readPause(db);
  if (pause && pause.until.getTime() > now().getTime()) {
    result.pausedUntil = pause.until;
    return result;
  }

  const claimed = await claim(db, now(), options);
  round.claimed = claimed;
  result.claimed = claimed.length;
  if (claimed.length === 0) return result;

  const days = await daysToSend(db, coalesce(claimed), now, options, result);
  if (days.length === 0) return result;

  const retryLater = async (rows: OutboxRow[], error: unknown) => {
    const attempts = Math.max(...rows.map((r) => r.attempts)) + 1;
    const at = new Date(now().getTime() + retryDelay(attempts, options));
    await reschedule(db, rows, at, describeError(error), true);
    return at;
  };

  let list: AvailabilityList;
  try {
    list = await openAvailabilityList(db, session, days);
  } catch (error) {
    // the list itself failed: every day waits with it, not each on its own ladder
    const until = await pauseList(db, now(), options, error);
    await reschedule(
      db,
      days.flatMap((d) => d.job.rows),
      until,
      describeError(error),
      true,
    );
    result.failed = days.length;
    result.serviceDown = true;
    result.lastError = describeError(error);
    result.problem = await problemFor(session, 'availability', error);
    result.failureKind = failureKind(error);
    result.pausedUntil = until;
    return result;
  }

  const outcome = await deliverDays(list, days, options, result, retryLater);
  await recordDelivered(
    db,
    outcome.delivered.map(({ d, itemId }) => ({ day: d.day, itemId, rows: d.job.rows })),
  );
  if (outcome.firstFailure) {
    result.problem = await problemFor(session, 'availability', outcome.firstFailure.error);
    result.failureKind = failureKind(outcome.firstFailure.error);
  }
  if (result.serviceDown && outcome.firstFailure) {
    result.pausedUntil = await pauseList(db, now(), options, outcome.firstFailure.error, outcome.stopAt);
  } else if (pause) {
    await endPause(db);
  }
  if (outcome.notTried.length > 0) {
    // Not tried because the service is down: back in the queue for when the failed day is retried.
    await reschedule(
      db,
      outcome.notTried.flatMap((d) => d.job.rows),
      outcome.stopAt ?? now(),
      null,
      false,
    );
  }
  return result;
}

interface Deliverable {
  job: DayJob;
  day: AvailabilityRow;
  freelancerId: string;
  name: string;
  key: string;
}

/** One job per (user, day), whatever number of rows queued it. */
function coalesce(claimed: OutboxRow[]): DayJob[] {
  const jobs = new Map<string, DayJob>();
  for (const row of claimed) {
    const key = `${row.userId}|${row.date}`;
    const job = jobs.get(key) ?? { key, userId: row.userId, date: row.date, rows: [] };
    job.rows.push(row);
    jobs.set(key, job);
  }
  return [...jobs.values()];
}

/**
 * The days that can be sent, with what they hold now. A day whose account or row is gone is dropped;
 * one whose facilitator has no freelancer ID is kept and looked at again later.
 */
async function daysToSend(
  db: Db,
  jobs: DayJob[],
  now: () => Date,
  options: OutboxOptions,
  result: DrainResult,
): Promise<Deliverable[]> {
  const userIds = [...new Set(jobs.map((j) => j.userId))];
  const dates = [...new Set(jobs.map((j) => j.date))];
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

  const deliverables: Deliverable[] = [];
  // Rows not sent are set aside after the loop, one statement for those gone and one for those
  // waiting, not one per day: a round can be a whole batch of them (an 800-day bulk update by
  // someone without a freelancer ID), and on PGlite each statement holds every other request back.
  const gone: OutboxRow[] = [];
  const waiting: OutboxRow[] = [];
  for (const job of jobs) {
    const person = people.get(job.userId);
    const day = days.get(job.key);
    if (!person || !day) {
      // The account or the day is gone (deleted account): there is nothing left to send.
      gone.push(...job.rows);
      result.skipped++;
      continue;
    }
    const freelancerId = normaliseFreelancerId(person.freelancerId);
    if (!freelancerId) {
      // Kept, so the days go out once staff give the facilitator a freelancer ID.
      waiting.push(...job.rows);
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
  await removeRows(db, gone);
  await reschedule(
    db,
    waiting,
    new Date(now().getTime() + options.skipRecheckMs),
    'Not sent: the facilitator has no freelancer ID',
    false,
  );
  return deliverables;
}

/** The Availability list as a round writes to it: where it is, its columns, the items already known. */
interface AvailabilityList {
  session: SharePointSession;
  siteId: string;
  listId: string;
  columns: AvailabilityColumns;
  /** the list's items by key, as its change feed told (availability-items.ts) */
  items: AvailabilityItems;
  /** item ids by key of the days whose item id the portal does not remember yet */
  known: Map<string, string>;
}

async function openAvailabilityList(
  db: Db,
  session: SharePointSession,
  days: Deliverable[],
): Promise<AvailabilityList> {
  const siteId = await session.siteId();
  const listId = await session.listId(session.settings.availabilityListName);
  const columns = (await session.columns('availability')) as AvailabilityColumns;
  const items = availabilityItems(db, session, { siteId, listId, keyColumn: columns.key });
  // Days whose item id is remembered are read by id; the others are looked up in the index, brought
  // up to date first (one request when nothing changed).
  const unknownKeys = days.filter((d) => !d.day.sharePointItemId).map((d) => d.key);
  if (unknownKeys.length > 0) await items.refresh();
  const known = unknownKeys.length > 0 ? await items.idsOf(unknownKeys) : new Map<string, string>();
  return { session, siteId, listId, columns, items, known };
}

/** The item that holds the key now (the index read again first), as it is now; undefined: none. */
async function lookupOne(list: AvailabilityList, key: string): Promise<ItemRef | undefined> {
  await list.items.refresh();
  const id = (await list.items.idsOf([key])).get(key);
  if (!id) return undefined;
  const item = await list.session.client.getItem(list.siteId, list.listId, id);
  return item ? { id: item.id, eTag: item.eTag, fields: item.fields } : undefined;
}

/**
 * The day's item as it is now, with its eTag, or undefined when there is none. Every update goes out
 * with If-Match: an earlier update of ours whose answer timed out may still be applied by SharePoint
 * later, after a newer value was written; without If-Match it would silently overwrite the newer
 * value for good (system/sharepoint-faults.test.ts found this). With the eTag read just before, that
 * late update fails with 412 instead. A remembered item deleted in SharePoint is found again by key.
 */
async function currentItem(list: AvailabilityList, d: Deliverable): Promise<ItemRef | undefined> {
  const id = d.day.sharePointItemId ?? list.known.get(d.key);
  if (!id) return undefined;
  const item = await list.session.client.getItem(list.siteId, list.listId, id);
  return item ? { id: item.id, eTag: item.eTag, fields: item.fields } : lookupOne(list, d.key);
}

/** Updates the item unless it already holds the day; false when the item has gone meanwhile. */
async function writeIfChanged(
  list: AvailabilityList,
  d: Deliverable,
  item: ItemRef,
  result: DrainResult,
): Promise<boolean> {
  const wanted = itemFields(list.columns, d.freelancerId, d.name, d.day, false);
  if (holdsValues(item.fields, wanted)) {
    result.unchanged++;
    return true;
  }
  const { client } = list.session;
  return (await client.updateItemFields(list.siteId, list.listId, item.id, wanted, item.eTag)) !== undefined;
}

/**
 * Creates the day's item. A create is never sent twice in a round: after a lost answer it may have
 * been stored, and after a 409 someone else made the item. Either way the key is looked up once, and
 * what it finds is updated; when it finds nothing the failure goes back to the outbox, whose next
 * round looks the key up again before creating.
 */
async function createOrAdopt(list: AvailabilityList, d: Deliverable, result: DrainResult): Promise<string> {
  const { client } = list.session;
  const fields = itemFields(list.columns, d.freelancerId, d.name, d.day, true);
  try {
    return (await client.createItem(list.siteId, list.listId, fields)).id;
  } catch (error) {
    const mayExist = isSharePointError(error) && (error.status === 409 || error.retryable);
    if (!mayExist) throw error;
    const found = await lookupOne(list, d.key);
    if (!found) throw error;
    if (!(await writeIfChanged(list, d, found, result))) throw error;
    return found.id;
  }
}

/** One day to SharePoint; the item id it now has. */
async function deliverDay(list: AvailabilityList, d: Deliverable, result: DrainResult): Promise<string> {
  const item = await currentItem(list, d);
  if (item && (await writeIfChanged(list, d, item, result))) return item.id;
  if (item) {
    // Deleted while we wrote to it: another item may hold the key (a create of ours, someone's).
    const other = await lookupOne(list, d.key);
    if (other && other.id !== item.id && (await writeIfChanged(list, d, other, result))) return other.id;
  }
  return createOrAdopt(list, d, result);
}

/**
 * Delivers the days, `concurrency` at a time. A failure of the service itself (outage, throttling,
 * credentials) stops the round: the days not yet tried wait with the failed one.
 */
async function deliverDays(
  list: AvailabilityList,
  days: Deliverable[],
  options: OutboxOptions,
  result: DrainResult,
  retryLater: (rows: OutboxRow[], error: unknown) => Promise<Date>,
) {
  const notTried = new Set(days);
  const delivered: Array<{ d: Deliverable; itemId: string }> = [];
  let stopAt: Date | undefined;
  let firstFailure: { error: unknown } | undefined;
  await pool(
    days,
    options.concurrency,
    () => result.serviceDown,
    async (d) => {
      notTried.delete(d);
      let itemId: string;
      try {
        itemId = await deliverDay(list, d, result);
      } catch (error) {
        const at = await retryLater(d.job.rows, error);
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
  return { delivered, notTried: [...notTried], stopAt, firstFailure };
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
