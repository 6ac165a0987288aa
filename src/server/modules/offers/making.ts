/** Offers: making them (who may be offered, and why not) and the emails they and their endings send. */
import { randomBytes } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { dayLabel, mayBeSent, type SafeguardingState } from '../../../shared/safeguarding';
import type { PushEvent } from '../../../shared/schemas/notifications';
import {
  type CreateOffersInput,
  LIVE_OFFER_STATES,
  type OfferEndReason,
  type OfferOverride,
  type OfferState,
  type StaffOffer,
} from '../../../shared/schemas/offers';
import type { Tx } from '../../db/client';
import { bookings, offers, users } from '../../db/schema';
import { AppError, badRequest, conflict } from '../../errors';
import {
  describeSession,
  type OutgoingMessage,
  offerEndedMessage,
  offerMessage,
} from '../../mail/offer-message';
import { findFree } from '../free/service';
import type { ChangeBy } from '../history/record';
import { recordChanges } from '../history/record';
import { notify } from '../notifications/notify';
import { sendMail } from '../reminders/service';
import { safeguardingStatuses } from '../safeguarding/service';
import { STAFF_ROLE } from '../users/service';
import { signOfferLink } from './links';
import {
  type BookingRow,
  END_REASON_TEXT,
  isOpenBooking,
  type OfferRow,
  type OffersDeps,
  requireBooking,
  SESSION_TAKEN,
  selectOffers,
  sessionStartsAt,
  sessionWindow,
  toStaffOffer,
} from './service';

// ---------------------------------------------------------------------------------------------------
// Making offers

interface Recipient {
  userId: number;
  override: OfferOverride | null;
  /** the checks did not allow sending on the session's date; staff gave this reason */
  safeguarding: { state: SafeguardingState; reason: string } | null;
}

export const SAFEGUARDING_OVERRIDE_NEEDED =
  'Give a reason for offering despite safeguarding checks, or leave these people out.';

/** Why an acceptance is refused: the facilitator's own checks, which they may read on their settings page. */
export function safeguardingRefusal(date: string, reasons: string[]): string {
  return `Your safeguarding checks on record do not cover ${dayLabel(date)} (${reasons.join('; ')}), so this session cannot be accepted. Please contact the team.`;
}

/**
 * Check each chosen person: a facilitator with a freelancer id (SharePoint records the booking by
 * it) and no live offer of this session. Those whose safeguarding checks do not allow sending on the
 * session's date (not today: a session next month needs checks that last until then) need a
 * safeguarding override reason; those marked unavailable or already booked that day need
 * `confirmNotFree`. The offer records both.
 */
async function checkRecipients(
  tx: Tx,
  booking: BookingRow,
  userIds: number[],
  confirm: { notFree: boolean; safeguardingReason: string | null },
): Promise<Recipient[]> {
  const people = await tx
    .select({
      id: users.id,
      role: users.role,
      freelancerId: users.freelancerId,
      deactivatedAt: users.deactivatedAt,
      name: sql<string>`coalesce(nullif(${users.displayName}, ''), ${users.username})`,
    })
    .from(users)
    .where(inArray(users.id, userIds));
  const byId = new Map(people.map((p) => [p.id, p]));
  const problems: string[] = [];
  for (const id of userIds) {
    const person = byId.get(id);
    if (!person || person.role === STAFF_ROLE) problems.push(`Not a facilitator: ${id}`);
    else if (person.deactivatedAt) problems.push(`${person.name} has left: the account is deactivated`);
    else if (!(person.freelancerId ?? '').trim())
      problems.push(`${person.name} has no freelancer ID, so SharePoint could not record the booking`);
  }
  if (problems.length > 0)
    throw badRequest('Some of the chosen people cannot be offered this session', { userIds: problems });

  const already = await tx
    .select({ userId: offers.userId })
    .from(offers)
    .where(
      and(
        eq(offers.bookingId, booking.id),
        inArray(offers.state, [...LIVE_OFFER_STATES]),
        inArray(offers.userId, userIds),
      ),
    );
  if (already.length > 0) {
    throw badRequest('Some of the chosen people already have this offer', {
      userIds: already.map(
        (a) => `${byId.get(a.userId)?.name ?? a.userId} already has a live offer of this session`,
      ),
    });
  }

  const checks = await safeguardingStatuses(tx, userIds, booking.date);
  const notClear: string[] = [];
  for (const id of userIds) {
    const check = checks.get(id)!;
    if (!mayBeSent(check.state)) notClear.push(`${byId.get(id)!.name} (${check.reasons.join('; ')})`);
  }
  if (notClear.length > 0 && confirm.safeguardingReason === null) {
    throw new AppError(
      409,
      `Safeguarding checks on ${dayLabel(booking.date)} do not allow sending: ${notClear.join('; ')}. ${SAFEGUARDING_OVERRIDE_NEEDED}`,
      { safeguardingOverride: notClear },
    );
  }

  const free = await findFree(tx, {
    date: booking.date,
    ...sessionWindow(booking),
    areas: [],
    include: 'all',
  });
  const status = new Map(free.facilitators.map((f) => [f.userId, f]));
  const recipients: Recipient[] = [];
  const warnings: string[] = [];
  for (const id of userIds) {
    const f = status.get(id);
    const override: OfferOverride | null =
      f && f.bookingsCount > 0 ? 'booked' : f?.status === 'unavailable' ? 'unavailable' : null;
    if (override) {
      const name = byId.get(id)!.name;
      warnings.push(
        override === 'booked'
          ? `${name} is already booked that day`
          : `${name} is marked unavailable that day`,
      );
    }
    const check = checks.get(id)!;
    recipients.push({
      userId: id,
      override,
      safeguarding:
        mayBeSent(check.state) || confirm.safeguardingReason === null
          ? null
          : { state: check.state, reason: confirm.safeguardingReason },
    });
  }
  if (warnings.length > 0 && !confirm.notFree) {
    throw new AppError(409, `${warnings.join('; ')}. Confirm to offer the session anyway.`, {
      confirmNotFree: warnings,
    });
  }
  return recipients;
}

const newNonce = () => randomBytes(16).toString('base64url');

export async function insertOffers(
  tx: Tx,
  booking: BookingRow,
  recipients: Recipient[],
  details: { message: string; replyBy: Date; autoNext: boolean; now: Date },
  by: ChangeBy,
): Promise<number[]> {
  const inserted = await tx
    .insert(offers)
    .values(
      recipients.map((r) => ({
        bookingId: booking.id,
        userId: r.userId,
        message: details.message,
        replyBy: details.replyBy,
        override: r.override,
        safeguardingState: r.safeguarding?.state ?? null,
        safeguardingOverrideReason: r.safeguarding?.reason ?? null,
        autoNext: details.autoNext,
        offeredBy: by.actorId,
        createdAt: details.now,
        linkNonce: newNonce(),
      })),
    )
    .returning({
      id: offers.id,
      userId: offers.userId,
      override: offers.override,
      safeguardingState: offers.safeguardingState,
      safeguardingOverrideReason: offers.safeguardingOverrideReason,
    });
  await recordChanges(
    tx,
    inserted.map((o) => ({
      entity: 'offer' as const,
      action: 'create' as const,
      subjectUserId: o.userId,
      date: booking.date,
      actorId: by.actorId,
      via: by.via,
      before: null,
      after: {
        offerId: o.id,
        session: describeSession(booking),
        state: 'sent',
        replyBy: details.replyBy.toISOString(),
        ...(o.override ? { override: o.override } : {}),
        ...(o.safeguardingState
          ? {
              safeguardingOverride: {
                state: o.safeguardingState,
                reason: o.safeguardingOverrideReason,
              },
            }
          : {}),
        ...(details.autoNext ? { autoNext: true } : {}),
      },
    })),
  );
  return inserted.map((o) => o.id);
}

export async function createOffers(
  ctx: Pick<OffersDeps, 'appSecret' | 'config' | 'db' | 'mailer' | 'now' | 'push'>,
  bookingId: number,
  input: Required<Omit<CreateOffersInput, 'safeguardingOverride'>> &
    Pick<CreateOffersInput, 'safeguardingOverride'>,
  actorId: number,
): Promise<StaffOffer[]> {
  const replyBy = new Date(input.replyBy);
  const userIds = [...new Set(input.userIds.map(Number))];
  const ids = await ctx.db.transaction(async (tx) => {
    const booking = await requireBooking(tx, bookingId, true);
    if (!isOpenBooking(booking)) throw conflict(SESSION_TAKEN);
    if (replyBy.getTime() <= ctx.now().getTime())
      throw badRequest('The reply-by time must be in the future', { replyBy: ['Must be in the future'] });
    if (replyBy.getTime() > sessionStartsAt(booking, ctx.config.ORG_TIMEZONE).getTime())
      throw badRequest('The reply-by time must be before the session starts', {
        replyBy: ['Must be before the session starts'],
      });
    const recipients = await checkRecipients(tx, booking, userIds, {
      notFree: input.confirmNotFree,
      safeguardingReason: input.safeguardingOverride?.reason ?? null,
    });
    return insertOffers(
      tx,
      booking,
      recipients,
      { message: input.message, replyBy, autoNext: input.autoNext, now: ctx.now() },
      { actorId, via: 'staff' },
    );
  });
  await emailOffers(ctx, ids);
  return (await selectOffers(ctx.db, and(inArray(offers.id, ids)))).map(toStaffOffer);
}

export interface Notice {
  userId: number;
  message: (name: string) => OutgoingMessage;
  /** the offer's end, told by push as well where the person chose it; staff notices have none */
  event?: PushEvent;
}

/** Which push event an offer's end is. */
const END_EVENTS: Record<OfferEndReason, PushEvent> = {
  staff: 'offer-withdrawn',
  taken: 'offer-filled',
  sharepoint: 'offer-filled',
  'session-gone': 'offer-withdrawn',
  safeguarding: 'offer-withdrawn',
};

/** Where a push about an offer opens. */
export const OFFERS_LINK = '/offers';

export function stateChange(
  offer: Pick<OfferRow, 'id' | 'userId' | 'state'>,
  booking: BookingRow,
  session: string,
  state: OfferState,
  by: ChangeBy,
  endedReason?: OfferEndReason,
  declineReason?: string,
) {
  return {
    entity: 'offer' as const,
    action: 'update' as const,
    subjectUserId: offer.userId,
    date: booking.date,
    actorId: by.actorId,
    via: by.via,
    before: { offerId: offer.id, session, state: offer.state },
    after: {
      offerId: offer.id,
      session,
      state,
      ...(endedReason ? { reason: endedReason } : {}),
      ...(declineReason ? { declineReason } : {}),
    },
  };
}

export function endedNotice(userId: number, session: string, reason: OfferEndReason): Notice {
  return {
    userId,
    event: END_EVENTS[reason],
    message: (name) => offerEndedMessage({ name, session, why: END_REASON_TEXT[reason] }),
  };
}

// ---------------------------------------------------------------------------------------------------
// Email

/** The offer emails, each with its own link; failures are recorded on the offer for staff to see. */
export async function emailOffers(
  ctx: Pick<OffersDeps, 'appSecret' | 'config' | 'db' | 'mailer' | 'now' | 'push'>,
  offerIds: number[],
): Promise<void> {
  if (offerIds.length === 0) return;
  const rows = await ctx.db
    .select({
      id: offers.id,
      userId: offers.userId,
      linkNonce: offers.linkNonce,
      replyBy: offers.replyBy,
      message: offers.message,
      email: users.email,
      name: sql<string>`coalesce(nullif(${users.displayName}, ''), ${users.username})`,
      booking: bookings,
    })
    .from(offers)
    .innerJoin(users, eq(users.id, offers.userId))
    .innerJoin(bookings, eq(bookings.id, offers.bookingId))
    .where(inArray(offers.id, offerIds));
  const emailed: typeof rows = [];
  for (const row of rows) {
    const told = await notify(ctx, row.userId, 'offer-new', OFFERS_LINK, { expiresAt: row.replyBy });
    if (told.email) emailed.push(row);
  }
  const outcome = await sendMail(
    ctx,
    emailed.map((row) => ({
      key: row.id,
      to: row.email,
      build: (portalUrl: string) =>
        offerMessage({
          name: row.name,
          session: describeSession(row.booking),
          message: row.message,
          replyBy: formatInstant(row.replyBy, ctx.config.ORG_TIMEZONE),
          link: `${portalUrl}/offer-link#${signOfferLink(ctx.appSecret, {
            offerId: row.id,
            nonce: row.linkNonce ?? '',
            expiresAt: row.replyBy.getTime(),
          })}`,
        }),
    })),
  );
  for (const [id, result] of outcome) {
    await ctx.db
      .update(offers)
      .set(result === null ? { emailedAt: ctx.now(), emailError: null } : { emailError: result })
      .where(eq(offers.id, id));
  }
}

export async function sendNotices(
  ctx: Pick<OffersDeps, 'appSecret' | 'config' | 'db' | 'mailer' | 'now' | 'push'>,
  notices: Notice[],
): Promise<void> {
  if (notices.length === 0) return;
  const people = await ctx.db
    .select({
      id: users.id,
      email: users.email,
      name: sql<string>`coalesce(nullif(${users.displayName}, ''), ${users.username})`,
    })
    .from(users)
    .where(inArray(users.id, [...new Set(notices.map((n) => n.userId))]));
  const byId = new Map(people.map((p) => [p.id, p]));
  const emailed: Notice[] = [];
  for (const notice of notices) {
    if (!notice.event) emailed.push(notice);
    else if ((await notify(ctx, notice.userId, notice.event, OFFERS_LINK)).email) emailed.push(notice);
  }
  await sendMail(
    ctx,
    emailed.map((n, i) => ({
      key: i,
      to: byId.get(n.userId)?.email ?? null,
      build: () => n.message(byId.get(n.userId)?.name ?? ''),
    })),
  );
}

/** "Tuesday 3 March 2026 at 4:00 PM" in the organisation's time zone. */
export function formatInstant(instant: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
  }).formatToParts(instant);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('weekday')} ${part('day')} ${part('month')} ${part('year')} at ${part('hour')}:${part('minute')} ${part('dayPeriod').toUpperCase()}`;
}
