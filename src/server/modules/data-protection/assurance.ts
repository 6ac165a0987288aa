import { eq, inArray } from 'drizzle-orm';
import { maskCertificate } from '../../../shared/safeguarding';
import {
  type AssuranceResponse,
  type AssuranceSession,
  type AssuranceStatementBody,
  type AssuranceStatementResponse,
  DEFAULT_ASSURANCE_STATEMENT,
} from '../../../shared/schemas/data-protection';
import type { Queryable } from '../../db/client';
import { assuranceSettings, facilitatorPhotos } from '../../db/schema';
import { notFound } from '../../errors';
import { recordChanges } from '../history/record';
import { sessionsOnTheDay } from '../safeguarding/service';

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

/**
 * The school's assurance: each session asked about (one booking, or those between two days,
 * optionally at one school) with the person sent and their checks as they stood on the session's
 * day, as the record for schools reads them (sessionsOnTheDay). A booking id that is not a session
 * with a facilitator is 404.
 */
export async function assurance(
  db: Queryable,
  query: { bookingId?: number; from?: string; to?: string; school?: string },
  now: Date,
): Promise<AssuranceResponse> {
  const chosen = await sessionsOnTheDay(
    db,
    query.bookingId !== undefined
      ? { bookingId: query.bookingId }
      : { from: query.from!, to: query.to!, school: query.school },
  );
  if (query.bookingId !== undefined && chosen.length === 0) throw notFound('Session not found');

  const userIds = [...new Set(chosen.map((row) => row.userId))];
  const [photos, statement] = await Promise.all([
    userIds.length === 0
      ? Promise.resolve([])
      : db
          .select({ userId: facilitatorPhotos.userId })
          .from(facilitatorPhotos)
          .where(inArray(facilitatorPhotos.userId, userIds)),
    readAssuranceStatement(db),
  ]);
  const withPhoto = new Set(photos.map((photo) => photo.userId));

  const sessions: AssuranceSession[] = chosen.map((row) => {
    const dbs = row.records.dbs;
    return {
      bookingId: row.bookingId,
      date: row.date,
      startTime: row.startTime,
      endTime: row.endTime,
      school: row.schoolName ?? '',
      address: [row.schoolAddress, row.schoolPostcode].filter((part) => part?.trim()).join(', '),
      session: row.session,
      person: {
        userId: row.userId,
        name: row.name,
        hasPhoto: withPhoto.has(row.userId),
        recordedOn: row.recordedOn,
        dbs: dbs && {
          certificate: maskCertificate(dbs.certificateNumber),
          issueDate: dbs.issueDate,
          enhancedWithBarredList: dbs.enhancedWithBarredList,
          onUpdateService: dbs.onUpdateService,
          statusCheckedOn: dbs.statusCheckedOn,
        },
        checks: row.records.checks,
        status: row.status,
      },
    };
  });
  return { statement: statement.statement, generatedAt: now.toISOString(), sessions };
}
