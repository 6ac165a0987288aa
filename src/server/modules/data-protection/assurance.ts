import { and, asc, between, eq, inArray, isNotNull, type SQL } from 'drizzle-orm';
import { maskCertificate, safeguardingStatus } from '../../../shared/safeguarding';
import {
  type AssuranceResponse,
  type AssuranceSession,
  type AssuranceStatementBody,
  type AssuranceStatementResponse,
  DEFAULT_ASSURANCE_STATEMENT,
} from '../../../shared/schemas/data-protection';
import type { Queryable } from '../../db/client';
import { assuranceSettings, bookings, facilitatorPhotos, users } from '../../db/schema';
import { notFound } from '../../errors';
import { recordChanges } from '../history/record';
import { recordsOnDays } from '../safeguarding/record-versions';
import { policyOn } from '../safeguarding/service';

/** The organisation's confirmation statement; the default until staff save one. */
export async function readAssuranceStatement(db: Queryable): Promise<AssuranceStatementResponse> {
  const [row] = await db.select().from(assuranceSettings).where(eq(assuranceSettings.id, 1));
  return row
    ? { statement: row.statement, updatedAt: row.updatedAt.toISOString() }
    : { statement: DEFAULT_ASSURANCE_STATEMENT, updatedAt: null };
}

/** Save the statement; recorded in the history as a settings change. */
export async function saveAssuranceStatement(
  db: Queryable,
  input: AssuranceStatementBody,
  actorId: number,
  now: Date,
): Promise<AssuranceStatementResponse> {
  return db.transaction(async (tx) => {
    const before = await readAssuranceStatement(tx);
    const values = { statement: input.statement.trim(), updatedAt: now, updatedBy: actorId };
    await tx
      .insert(assuranceSettings)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: assuranceSettings.id, set: values });
    if (before.statement !== values.statement) {
      await recordChanges(tx, [
        {
          entity: 'settings',
          action: before.updatedAt ? 'update' : 'create',
          subjectUserId: null,
          actorId,
          via: 'staff',
          before: before.updatedAt ? { section: 'assurance', statement: before.statement } : null,
          after: { section: 'assurance', statement: values.statement },
        },
      ]);
    }
    return readAssuranceStatement(tx);
  });
}

const nameOf = (u: { displayName: string | null; username: string }) => u.displayName?.trim() || u.username;

/**
 * The school's assurance: each session asked about (one booking, or those between two days,
 * optionally at one school matched without regard to case) with the person sent and their checks as
 * they stood on the session's day: the records last saved on or before it (never today's, when a
 * certificate was renewed since), judged under the policy in force that day. Sessions without a
 * facilitator are left out; a booking id that is not a session with one is 404.
 */
export async function assurance(
  db: Queryable,
  query: { bookingId?: number; from?: string; to?: string; school?: string },
  now: Date,
): Promise<AssuranceResponse> {
  const conditions: SQL[] = [isNotNull(bookings.userId)];
  if (query.bookingId !== undefined) conditions.push(eq(bookings.id, query.bookingId));
  else conditions.push(between(bookings.date, query.from!, query.to!));
  const rows = await db
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
    .orderBy(asc(bookings.date), asc(bookings.schoolName), asc(bookings.startTime), asc(bookings.id));
  const wanted = query.school?.trim().toLowerCase();
  const chosen = rows.filter((row) => !wanted || (row.schoolName ?? '').trim().toLowerCase() === wanted);
  if (query.bookingId !== undefined && chosen.length === 0) throw notFound('Session not found');

  const userIds = [...new Set(chosen.map((row) => row.userId))];
  const [recordsOn, photos, statement] = await Promise.all([
    recordsOnDays(
      db,
      chosen.map((row) => ({ userId: row.userId, date: row.date })),
    ),
    userIds.length === 0
      ? Promise.resolve([])
      : db
          .select({ userId: facilitatorPhotos.userId })
          .from(facilitatorPhotos)
          .where(inArray(facilitatorPhotos.userId, userIds)),
    readAssuranceStatement(db),
  ]);
  const withPhoto = new Set(photos.map((photo) => photo.userId));
  const policies = new Map<string, Awaited<ReturnType<typeof policyOn>>>();
  for (const date of new Set(chosen.map((row) => row.date))) policies.set(date, await policyOn(db, date));

  const sessions: AssuranceSession[] = chosen.map((row) => {
    const { recordedOn, records } = recordsOn(row.userId, row.date);
    const dbs = records.dbs;
    return {
      bookingId: row.id,
      date: row.date,
      startTime: row.startTime,
      endTime: row.endTime,
      school: row.schoolName ?? '',
      address: [row.schoolAddress, row.schoolPostcode].filter((part) => part?.trim()).join(', '),
      session: [row.program, row.title].filter((part) => part?.trim()).join(' – '),
      person: {
        userId: row.userId,
        name: nameOf(row),
        hasPhoto: withPhoto.has(row.userId),
        recordedOn,
        dbs: dbs && {
          certificate: maskCertificate(dbs.certificateNumber),
          issueDate: dbs.issueDate,
          enhancedWithBarredList: dbs.enhancedWithBarredList,
          onUpdateService: dbs.onUpdateService,
          statusCheckedOn: dbs.statusCheckedOn,
        },
        checks: records.checks,
        status: safeguardingStatus(records, policies.get(row.date)!, row.date),
      },
    };
  });
  return { statement: statement.statement, generatedAt: now.toISOString(), sessions };
}
