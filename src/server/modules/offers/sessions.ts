/** Offers: the open sessions staff offer, and new sessions made in the portal. */
import { and, asc, between, isNull, sql } from 'drizzle-orm';
import { addDays, todayIn } from '../../../shared/calendar';
import { dayLabel } from '../../../shared/safeguarding';
import {
  type CreateSessionInput,
  type OpenSessionsResponse,
  SESSION_DAYS_AHEAD,
} from '../../../shared/schemas/offers';
import { bookings, offers } from '../../db/schema';
import { badRequest } from '../../errors';
import { enqueueSessionCreate, queuedSessions } from '../../sharepoint/outbox';
import { recordChanges } from '../history/record';
import type { OffersDeps } from './service';

// ---------------------------------------------------------------------------------------------------
// Open sessions

export async function listOpenSessions(
  ctx: Pick<OffersDeps, 'config' | 'db' | 'now' | 'sharePoint'>,
  range: { from?: string | undefined; to?: string | undefined },
): Promise<OpenSessionsResponse> {
  const from = range.from ?? todayIn(ctx.config.ORG_TIMEZONE, ctx.now());
  const to = range.to ?? addDays(from, SESSION_DAYS_AHEAD);
  if (to < from) throw badRequest('"to" must not be before "from"', { to: ['Must not be before "from"'] });
  if (to > addDays(from, 366))
    throw badRequest('Ask for at most a year at a time', { to: ['At most a year'] });
  // Drizzle writes a column of a query over one table without its table's name ("id"), which inside
  // these subqueries would be the offer's own id: the booking's id is named in full.
  const bookingId = sql`${bookings}.${sql.identifier(bookings.id.name)}`;
  const live = sql<number>`(select count(*)::int from ${offers} o where o.booking_id = ${bookingId} and o.state in ('sent', 'seen'))`;
  const pendingAcceptance = sql<boolean>`exists (select 1 from ${offers} o where o.booking_id = ${bookingId} and o.state = 'accepted' and o.write_back = 'pending')`;
  const rows = await ctx.db
    .select({
      id: bookings.id,
      sharePointId: bookings.sharePointId,
      title: bookings.title,
      date: bookings.date,
      startTime: bookings.startTime,
      endTime: bookings.endTime,
      schoolName: bookings.schoolName,
      program: bookings.program,
      location: bookings.location,
      liveOffers: live,
      pendingAcceptance,
    })
    .from(bookings)
    .where(
      and(
        between(bookings.date, from, to),
        isNull(bookings.userId),
        sql`coalesce(trim(${bookings.freelancerId}), '') = ''`,
      ),
    )
    .orderBy(asc(bookings.date), asc(bookings.startTime), asc(bookings.id));
  const pending = await queuedSessions(ctx.db);
  return {
    sessions: rows,
    sharePointConfigured: 'session' in (await ctx.sharePoint.sessionOrReason()),
    pending: pending.map((row) => {
      const f = row.fields ?? {};
      return {
        id: row.id,
        title: f.title ?? '',
        date: f.date ?? '',
        startTime: f.startTime ?? '',
        endTime: f.endTime ?? '',
        schoolName: f.schoolName ?? '',
        program: f.program ?? '',
        lastError: row.lastError,
      };
    }),
  };
}

/** A new session goes to SharePoint through the outbox; the next refresh brings it back as open. */
export async function createSession(
  ctx: Pick<OffersDeps, 'config' | 'db' | 'now' | 'sharePoint'>,
  input: Required<Omit<CreateSessionInput, 'title' | 'program' | 'location'>> & {
    title: string;
    program: string;
    location: string;
  },
  actorId: number,
): Promise<number> {
  const today = todayIn(ctx.config.ORG_TIMEZONE, ctx.now());
  if (input.date < today)
    throw badRequest('A new session cannot be in the past', { date: ['Choose today or a later day'] });
  if (input.date > addDays(today, SESSION_DAYS_AHEAD))
    throw badRequest('A new session can be at most a year ahead', {
      date: [`Choose a day by ${dayLabel(addDays(today, SESSION_DAYS_AHEAD))}`],
    });
  const fields: Record<string, string> = {
    title: input.title || `${input.schoolName}${input.program ? ` – ${input.program}` : ''}`,
    date: input.date,
    startTime: input.startTime,
    endTime: input.endTime,
    schoolName: input.schoolName,
    program: input.program,
    location: input.location,
  };
  const id = await ctx.db.transaction(async (tx) => {
    const queued = await enqueueSessionCreate(tx, fields, actorId, ctx.now());
    await recordChanges(tx, [
      {
        entity: 'session',
        action: 'create',
        subjectUserId: null,
        date: input.date,
        actorId,
        via: 'staff',
        before: null,
        after: fields,
      },
    ]);
    return queued;
  });
  ctx.sharePoint.outboxWakeUp.queued();
  return id;
}
