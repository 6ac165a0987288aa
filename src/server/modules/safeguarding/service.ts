import { and, asc, between, desc, eq, inArray, isNotNull, lte, ne, type SQL } from 'drizzle-orm';
import {
  checkTypeKey,
  type DbsRecord,
  DEFAULT_SAFEGUARDING_POLICY,
  maskCertificate,
  type SafeguardingPolicy,
  type SafeguardingRecords,
  type SafeguardingState,
  type SafeguardingStatus,
  safeguardingStatus,
} from '../../../shared/safeguarding';
import type {
  SafeguardingList,
  SafeguardingPolicyBody,
  SafeguardingPolicyPreview,
  SafeguardingRecordsResponse,
} from '../../../shared/schemas/safeguarding';
import type { Queryable } from '../../db/client';
import {
  bookings,
  safeguardingPolicy,
  safeguardingPolicyVersions,
  safeguardingRecords,
  users,
} from '../../db/schema';
import { badRequest, conflict, notFound } from '../../errors';
import { recordChanges } from '../history/record';
import { STAFF_ROLE } from '../users/service';
import { addRecordVersion, recordsOnDays } from './record-versions';

type RecordRow = typeof safeguardingRecords.$inferSelect;

export const STALE_RECORDS_MESSAGE =
  'These safeguarding records were changed by someone else since you opened them. Reload and try again.';

// ---------------------------------------------------------------------------------------------------
// Policy

const defaultPolicy = (): SafeguardingPolicy => ({ ...DEFAULT_SAFEGUARDING_POLICY, checkTypes: [] });

const policyOf = (row: typeof safeguardingPolicyVersions.$inferSelect): SafeguardingPolicy => ({
  dbsMonths: row.dbsMonths,
  updateServiceMonths: row.updateServiceMonths,
  warningDays: row.warningDays,
  checkTypes: row.checkTypes,
});

/**
 * The policy in force on `date`: the version saved on that day or the latest before it; the defaults
 * on a day before any was saved. Today and every later day get the current policy.
 */
export async function policyOn(db: Queryable, date: string): Promise<SafeguardingPolicy> {
  const [row] = await db
    .select()
    .from(safeguardingPolicyVersions)
    .where(lte(safeguardingPolicyVersions.effectiveFrom, date))
    .orderBy(desc(safeguardingPolicyVersions.effectiveFrom))
    .limit(1);
  return row ? policyOf(row) : defaultPolicy();
}

/** Every version at once, as a function of the day: for judging many days with one read. */
async function policyByDay(db: Queryable): Promise<(date: string) => SafeguardingPolicy> {
  const rows = await db
    .select()
    .from(safeguardingPolicyVersions)
    .orderBy(desc(safeguardingPolicyVersions.effectiveFrom));
  const versions = rows.map((row) => ({ from: row.effectiveFrom, policy: policyOf(row) }));
  const fallback = defaultPolicy();
  return (date) => versions.find((version) => version.from <= date)?.policy ?? fallback;
}

/** The current policy (what the settings page edits). */
export async function readPolicy(db: Queryable): Promise<SafeguardingPolicy> {
  const [row] = await db.select().from(safeguardingPolicy).where(eq(safeguardingPolicy.id, 1));
  if (!row) return defaultPolicy();
  return {
    dbsMonths: row.dbsMonths,
    updateServiceMonths: row.updateServiceMonths,
    warningDays: row.warningDays,
    checkTypes: row.checkTypes,
  };
}

/**
 * Save the policy; it applies from `today` on (a day in ORG_TIMEZONE), the days before keep the
 * version they had. Recorded in the history (a settings change) in the same transaction.
 */
export async function savePolicy(
  db: Queryable,
  input: SafeguardingPolicyBody,
  actorId: number,
  today: string,
): Promise<SafeguardingPolicy> {
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(safeguardingPolicy)
      .where(eq(safeguardingPolicy.id, 1))
      .for('update');
    const before = existing ? await readPolicy(tx) : null;
    const values = { ...input, updatedAt: new Date() };
    await tx
      .insert(safeguardingPolicy)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: safeguardingPolicy.id, set: values });
    const version = { ...input, savedAt: values.updatedAt };
    await tx
      .insert(safeguardingPolicyVersions)
      .values({ effectiveFrom: today, ...version })
      .onConflictDoUpdate({ target: safeguardingPolicyVersions.effectiveFrom, set: version });
    const after = await readPolicy(tx);
    if (JSON.stringify(before) !== JSON.stringify(after)) {
      await recordChanges(tx, [
        {
          entity: 'settings',
          action: existing ? 'update' : 'create',
          subjectUserId: null,
          actorId,
          via: 'staff',
          before: before && { section: 'safeguarding', ...before },
          after: { section: 'safeguarding', ...after },
        },
      ]);
    }
    return after;
  });
}

// ---------------------------------------------------------------------------------------------------
// Records and status

function recordsOf(row: RecordRow | undefined): SafeguardingRecords {
  if (!row) return { dbs: null, checks: [] };
  // Once the retention schedule has shortened a leaver's number, only its last four digits remain:
  // it reads as the number masked, the way lists show it.
  const number =
    row.dbsCertificateNumber ?? (row.dbsCertificateLastFour ? `********${row.dbsCertificateLastFour}` : null);
  const dbs: DbsRecord | null =
    number && row.dbsIssueDate
      ? {
          certificateNumber: number,
          issueDate: row.dbsIssueDate,
          enhancedWithBarredList: row.dbsEnhancedWithBarredList,
          onUpdateService: row.dbsOnUpdateService,
          statusCheckedOn: row.dbsStatusCheckedOn,
          checkedBy: row.dbsCheckedBy ?? '',
        }
      : null;
  return { dbs, checks: row.otherChecks };
}

const nameOf = (u: { displayName: string | null; username: string }) => u.displayName?.trim() || u.username;

/**
 * The safeguarding status of each of these people on `date` (`yyyy-MM-dd`, a day in ORG_TIMEZONE:
 * callers turn "now" into it with todayIn) under the stored policy. People without records are in
 * the map too, as missing; ids that are not accounts are left out. Two queries whatever the number
 * of people. This is the function other features (offers) use to decide who may be sent.
 */
export async function safeguardingStatuses(
  db: Queryable,
  userIds: readonly number[],
  date: string,
): Promise<Map<number, SafeguardingStatus>> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return new Map();
  return statusesWhere(db, inArray(users.id, ids), date);
}

/**
 * Every facilitator's status on `date`, as safeguardingStatuses gives it. Chosen by role, not by a
 * list of their ids: at 5,000 facilitators PGlite took twice as long over a list of every id
 * (60 ms against 31 ms) as over the filter.
 */
export async function facilitatorSafeguardingStatuses(
  db: Queryable,
  date: string,
): Promise<Map<number, SafeguardingStatus>> {
  return statusesWhere(db, ne(users.role, STAFF_ROLE), date);
}

async function statusesWhere(
  db: Queryable,
  people: SQL,
  date: string,
): Promise<Map<number, SafeguardingStatus>> {
  const [policy, rows] = await Promise.all([
    policyOn(db, date),
    db
      .select({ id: users.id, record: safeguardingRecords })
      .from(users)
      .leftJoin(safeguardingRecords, eq(safeguardingRecords.userId, users.id))
      .where(people),
  ]);
  const result = new Map<number, SafeguardingStatus>();
  for (const row of rows) {
    result.set(row.id, safeguardingStatus(recordsOf(row.record ?? undefined), policy, date));
  }
  return result;
}

/** Every facilitator's name and records. */
async function facilitatorRecords(db: Queryable) {
  const rows = await db
    .select({
      id: users.id,
      username: users.username,
      displayName: users.displayName,
      record: safeguardingRecords,
    })
    .from(users)
    .leftJoin(safeguardingRecords, eq(safeguardingRecords.userId, users.id))
    .where(ne(users.role, STAFF_ROLE));
  return rows.map((row) => ({
    userId: row.id,
    name: nameOf(row),
    records: recordsOf(row.record ?? undefined),
  }));
}

const byName = (a: { name: string; userId: number }, b: { name: string; userId: number }) =>
  a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.userId - b.userId;

/** Every facilitator with their status on `date`, by name; certificate numbers masked. */
export async function listStatuses(db: Queryable, date: string): Promise<SafeguardingList> {
  const [policy, rows] = await Promise.all([policyOn(db, date), facilitatorRecords(db)]);
  const people = rows.map(({ userId, name, records }) => ({
    userId,
    name,
    certificate: records.dbs ? maskCertificate(records.dbs.certificateNumber) : null,
    status: safeguardingStatus(records, policy, date),
  }));
  people.sort(byName);
  return { date, people };
}

/**
 * Whose state on `today` a policy would change if it were saved: every facilitator whose state under
 * it differs from their state under the policy in force, the worst new state first. Changes nothing.
 */
export async function previewPolicy(
  db: Queryable,
  input: SafeguardingPolicyBody,
  today: string,
): Promise<SafeguardingPolicyPreview> {
  const [current, rows] = await Promise.all([policyOn(db, today), facilitatorRecords(db)]);
  const changes = rows.flatMap(({ userId, name, records }) => {
    const before = safeguardingStatus(records, current, today);
    const after = safeguardingStatus(records, input, today);
    return before.state === after.state
      ? []
      : [{ userId, name, from: before.state, to: after.state, reasons: after.reasons }];
  });
  changes.sort((a, b) => SEVERITY_ORDER.indexOf(a.to) - SEVERITY_ORDER.indexOf(b.to) || byName(a, b));
  return { date: today, facilitators: rows.length, changes };
}

/** Worst first. */
const SEVERITY_ORDER: SafeguardingState[] = ['missing', 'expired', 'expiring', 'valid'];

/**
 * A facilitator’s account, or 404; records are not kept for staff accounts (400).
 * `own`: the person asks about themselves, which anyone signed in may (a staff member has none).
 */
async function facilitatorOf(db: Queryable, userId: number, own = false) {
  const [person] = await db
    .select({ id: users.id, username: users.username, displayName: users.displayName, role: users.role })
    .from(users)
    .where(eq(users.id, userId));
  if (!person) throw notFound('Facilitator not found');
  if (person.role === STAFF_ROLE && !own) {
    throw badRequest('Safeguarding records are kept for facilitators, not staff accounts');
  }
  return person;
}

/** One person's records in full (certificate number included): for staff and for that person only. */
export async function getRecords(
  db: Queryable,
  userId: number,
  date: string,
  own = false,
): Promise<SafeguardingRecordsResponse> {
  const person = await facilitatorOf(db, userId, own);
  const [[row], policy] = await Promise.all([
    db.select().from(safeguardingRecords).where(eq(safeguardingRecords.userId, userId)),
    policyOn(db, date),
  ]);
  return toResponse(person, row, policy, date);
}

function toResponse(
  person: { id: number; username: string; displayName: string | null },
  row: RecordRow | undefined,
  policy: SafeguardingPolicy,
  date: string,
): SafeguardingRecordsResponse {
  const records = recordsOf(row);
  return {
    userId: person.id,
    name: nameOf(person),
    date,
    dbs: records.dbs,
    checks: records.checks,
    checkTypes: policy.checkTypes,
    status: safeguardingStatus(records, policy, date),
    version: row?.version ?? 0,
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

/**
 * What the history keeps of the records: flat fields a reader can compare, the certificate number
 * masked like every list.
 */
function historyView(records: SafeguardingRecords) {
  const dbs = records.dbs;
  return {
    section: 'safeguarding',
    dbsCertificate: dbs ? maskCertificate(dbs.certificateNumber) : null,
    dbsIssueDate: dbs?.issueDate ?? null,
    enhancedWithBarredList: dbs?.enhancedWithBarredList ?? null,
    onUpdateService: dbs?.onUpdateService ?? null,
    statusCheckedOn: dbs?.statusCheckedOn ?? null,
    checkedBy: dbs?.checkedBy ?? null,
    otherChecks: records.checks.map((check) => `${check.type} until ${check.validUntil}`).join('; ') || null,
  };
}

/**
 * A DBS check's dates are of things that have happened: a certificate issued, a status checked. One
 * in the future (a mistyped year) would make the check count from then, for months or years, with no
 * check made. `today` is the organisation's day.
 */
function refuseFutureDates(dbs: DbsRecord | null, today: string): void {
  if (!dbs) return;
  const fieldErrors: Record<string, string[]> = {};
  if (dbs.issueDate > today) fieldErrors['dbs.issueDate'] = ['The issue date cannot be in the future'];
  if (dbs.statusCheckedOn && dbs.statusCheckedOn > today)
    fieldErrors['dbs.statusCheckedOn'] = ['The status check cannot be in the future'];
  const first = Object.values(fieldErrors)[0];
  if (first) throw badRequest(first[0]!, fieldErrors);
}

export interface RecordsInput {
  dbs: DbsRecord | null;
  checks: { type: string; validUntil: string }[];
  version: number;
}

/**
 * Replace a facilitator's records. `version` is the one the edit was made on (0: none existed); a
 * different stored one is 409 and nothing changes. Checks must be of the policy's types.
 */
export async function saveRecords(
  db: Queryable,
  userId: number,
  input: RecordsInput,
  actorId: number,
  date: string,
): Promise<SafeguardingRecordsResponse> {
  const person = await facilitatorOf(db, userId);
  refuseFutureDates(input.dbs, date);
  const policy = await readPolicy(db);
  const known = new Map(policy.checkTypes.map((type) => [checkTypeKey(type), type]));
  const unknown = input.checks.filter((check) => !known.has(checkTypeKey(check.type)));
  if (unknown.length > 0) {
    throw badRequest('Checks must be of the types set in the safeguarding policy', {
      checks: [`Not a check type of the policy: ${unknown.map((check) => check.type).join(', ')}`],
    });
  }
  // stored under the policy's spelling, so lists read the same everywhere
  const checks = input.checks.map((check) => ({
    type: known.get(checkTypeKey(check.type))!,
    validUntil: check.validUntil,
  }));
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(safeguardingRecords)
      .where(eq(safeguardingRecords.userId, userId))
      .for('update');
    if ((existing?.version ?? 0) !== input.version) throw conflict(STALE_RECORDS_MESSAGE);
    const values = {
      dbsCertificateNumber: input.dbs?.certificateNumber ?? null,
      dbsCertificateLastFour: null,
      dbsIssueDate: input.dbs?.issueDate ?? null,
      dbsEnhancedWithBarredList: input.dbs?.enhancedWithBarredList ?? false,
      dbsOnUpdateService: input.dbs?.onUpdateService ?? false,
      dbsStatusCheckedOn: input.dbs?.statusCheckedOn ?? null,
      dbsCheckedBy: input.dbs?.checkedBy ?? null,
      otherChecks: checks,
      updatedAt: new Date(),
      updatedBy: actorId,
      version: (existing?.version ?? 0) + 1,
    };
    const [row] = await tx
      .insert(safeguardingRecords)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: safeguardingRecords.userId, set: values })
      .returning();
    const before = existing ? historyView(recordsOf(existing)) : null;
    const after = historyView(recordsOf(row));
    if (JSON.stringify(before) !== JSON.stringify(after)) {
      await addRecordVersion(tx, userId, recordsOf(row), date);
      await recordChanges(tx, [
        {
          entity: 'account',
          action: 'update',
          subjectUserId: userId,
          actorId,
          via: 'staff',
          before,
          after,
        },
      ]);
    }
    return toResponse(person, row, policy, date);
  });
}

// ---------------------------------------------------------------------------------------------------
// The record for schools

export interface SchoolRecordRow {
  date: string;
  school: string;
  session: string;
  name: string;
  certificate: string;
  dbsIssued: string;
  barredList: string;
  updateService: string;
  statusChecked: string;
  checkedBy: string;
  dbsValidUntil: string;
  status: string;
  otherChecks: string;
  reasons: string;
}

const STATE_WORDS = { valid: 'Valid', expiring: 'Expiring soon', expired: 'Expired', missing: 'Missing' };

/** Which sessions to show: one booking, or those between two days (optionally at one school). */
export type SessionsQuery = { bookingId: number } | { from: string; to: string; school?: string };

/** A session with a facilitator, and that person's checks as they stood on the session's day. */
export interface SessionOnTheDay {
  bookingId: number;
  date: string;
  startTime: string | null;
  endTime: string | null;
  schoolName: string | null;
  schoolAddress: string | null;
  schoolPostcode: string | null;
  /** the programme and title, joined */
  session: string;
  userId: number;
  name: string;
  /** the day the records shown were saved; null when none had been saved by the session's day */
  recordedOn: string | null;
  /** as they stood on the session's day; the certificate number masked to its last four digits */
  records: SafeguardingRecords;
  /** judged on the session's day under the policy in force that day */
  status: SafeguardingStatus;
}

/**
 * The sessions asked about, by day, school and start, each with the person sent and their checks as
 * they stood on the session's day: the records last saved on or before it (a certificate renewed
 * since does not change it), judged under the policy in force that day. Sessions without a
 * facilitator are left out; a school is matched without regard to case. The record for schools and
 * the school's assurance both read this. Three queries whatever the number of sessions.
 */
export async function sessionsOnTheDay(db: Queryable, query: SessionsQuery): Promise<SessionOnTheDay[]> {
  const conditions: SQL[] = [isNotNull(bookings.userId)];
  if ('bookingId' in query) conditions.push(eq(bookings.id, query.bookingId));
  else conditions.push(between(bookings.date, query.from, query.to));
  const [policyFor, rows] = await Promise.all([
    policyByDay(db),
    db
      .select({
        id: bookings.id,
        date: bookings.date,
        startTime: bookings.startTime,
        endTime: bookings.endTime,
        schoolName: bookings.schoolName,
        schoolAddress: bookings.schoolAddress,
        schoolPostcode: bookings.schoolPostcode,
        title: bookings.title,
        program: bookings.program,
        userId: users.id,
        username: users.username,
        displayName: users.displayName,
      })
      .from(bookings)
      .innerJoin(users, eq(users.id, bookings.userId))
      .where(and(...conditions))
      .orderBy(asc(bookings.date), asc(bookings.schoolName), asc(bookings.startTime), asc(bookings.id)),
  ]);
  const wanted = 'school' in query ? query.school?.trim().toLowerCase() : undefined;
  const chosen = rows.filter((row) => !wanted || (row.schoolName ?? '').trim().toLowerCase() === wanted);
  const recordsOn = await recordsOnDays(
    db,
    chosen.map((row) => ({ userId: row.userId, date: row.date })),
  );
  return chosen.map((row) => {
    const { recordedOn, records } = recordsOn(row.userId, row.date);
    return {
      bookingId: row.id,
      date: row.date,
      startTime: row.startTime,
      endTime: row.endTime,
      schoolName: row.schoolName,
      schoolAddress: row.schoolAddress,
      schoolPostcode: row.schoolPostcode,
      session: [row.program, row.title].filter((part) => part?.trim()).join(' – '),
      userId: row.userId,
      name: nameOf(row),
      recordedOn,
      records,
      status: safeguardingStatus(records, policyFor(row.date), row.date),
    };
  });
}

/**
 * The record for schools: who was sent to schools between two days (optionally to one school) and
 * their checks as they stood on each session's day (sessionsOnTheDay; ADR 106).
 */
export async function schoolRecordRows(
  db: Queryable,
  range: { from: string; to: string },
  school: string | undefined,
): Promise<SchoolRecordRow[]> {
  const sessions = await sessionsOnTheDay(db, { ...range, school });
  return sessions.map(({ date, schoolName, session, name, records, status }) => {
    const dbs = records.dbs;
    const dbsCheck = status.checks[0]!;
    const others = status.checks.slice(1);
    return {
      date,
      school: schoolName ?? '',
      session,
      name,
      certificate: dbs ? maskCertificate(dbs.certificateNumber) : '',
      dbsIssued: dbs?.issueDate ?? '',
      barredList: dbs ? (dbs.enhancedWithBarredList ? 'Yes' : 'No') : '',
      updateService: dbs ? (dbs.onUpdateService ? 'Yes' : 'No') : '',
      statusChecked: dbs?.statusCheckedOn ?? '',
      checkedBy: dbs?.checkedBy ?? '',
      dbsValidUntil: dbsCheck.validUntil ?? '',
      status: STATE_WORDS[status.state],
      otherChecks: others.map((check) => `${check.name}: ${STATE_WORDS[check.state]}`).join('; '),
      reasons: status.reasons.join('; '),
    };
  });
}

export const SCHOOL_RECORD_COLUMNS: { key: keyof SchoolRecordRow; header: string }[] = [
  { key: 'date', header: 'Date' },
  { key: 'school', header: 'School' },
  { key: 'session', header: 'Session' },
  { key: 'name', header: 'Facilitator' },
  { key: 'certificate', header: 'DBS certificate' },
  { key: 'dbsIssued', header: 'DBS issued' },
  { key: 'barredList', header: 'Enhanced with barred list' },
  { key: 'updateService', header: 'On the Update Service' },
  { key: 'statusChecked', header: 'Last status check' },
  { key: 'checkedBy', header: 'Checked by' },
  { key: 'dbsValidUntil', header: 'DBS counts until' },
  { key: 'status', header: 'Safeguarding status on the day' },
  { key: 'otherChecks', header: 'Other checks' },
  { key: 'reasons', header: 'Missing or due' },
];
