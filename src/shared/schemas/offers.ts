import { z } from 'zod';
import { blankIfInvisible } from '../username';
import { bodyId, dateString, nonBlankText } from './common';
import { declineBody } from './decline';
import { pageCursor, pageLimit } from './paging';
import { safeguardingState } from './safeguarding';

/**
 * An offer's life: `sent` (delivered), `seen` (the facilitator opened it), then one of `accepted`,
 * `declined`, `expired` (its reply-by time passed) or `withdrawn` (by staff, because someone else
 * accepted first, or because SharePoint showed the session filled or changed).
 */
export const OFFER_STATES = ['sent', 'seen', 'accepted', 'declined', 'expired', 'withdrawn'] as const;
export type OfferState = (typeof OFFER_STATES)[number];
/** States in which the facilitator may still answer. */
export const LIVE_OFFER_STATES = ['sent', 'seen'] as const satisfies readonly OfferState[];

/**
 * Why an offer ended without the facilitator's own answer, for the people told about it:
 * `safeguarding` when the person's checks stopped covering the session's day (a check recorded, the
 * policy changed, the session moved) and the offer carried no recorded override.
 */
export const OFFER_END_REASONS = ['staff', 'taken', 'sharepoint', 'session-gone', 'safeguarding'] as const;
export type OfferEndReason = (typeof OFFER_END_REASONS)[number];

/** Why an offer went out although the facilitator did not look free; staff confirmed it. */
export const OFFER_OVERRIDES = ['unavailable', 'booked'] as const;
export type OfferOverride = (typeof OFFER_OVERRIDES)[number];

/** Where an accepted offer stands with SharePoint (null until accepted). */
export const WRITE_BACK_STATES = ['pending', 'done', 'undone'] as const;

export const OFFER_MESSAGE_MAX = 1000;
export const MAX_OFFER_RECIPIENTS = 50;
export const SAFEGUARDING_OVERRIDE_REASON_MAX = 500;

const timeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Time must be in HH:mm format, e.g. 09:30');
const shortText = (label: string, max: number) =>
  z.string().trim().max(max, `${label} must be at most ${max} characters`).transform(blankIfInvisible);

/** A session with no facilitator yet, as staff see it. */
export const openSession = z.object({
  id: z.number().int(),
  sharePointId: z.string(),
  title: z.string(),
  date: z.string(),
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
  schoolName: z.string().nullable(),
  program: z.string().nullable(),
  location: z.string().nullable(),
  /** offers still waiting for an answer */
  liveOffers: z.number().int(),
  /** an accepted offer waiting to reach SharePoint */
  pendingAcceptance: z.boolean(),
});
export type OpenSession = z.infer<typeof openSession>;

/** A session staff asked to create, on its way to SharePoint (it becomes open once a refresh reads it). */
export const pendingSession = z.object({
  id: z.number().int(),
  title: z.string(),
  date: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  schoolName: z.string(),
  program: z.string(),
  lastError: z.string().nullable(),
});
export type PendingSession = z.infer<typeof pendingSession>;

export const openSessionsResponse = z.object({
  sessions: z.array(openSession),
  pending: z.array(pendingSession),
  /** false: no SharePoint settings to read bookings with or write sessions to (a fresh install) */
  sharePointConfigured: z.boolean(),
});
export type OpenSessionsResponse = z.infer<typeof openSessionsResponse>;

/**
 * `GET /api/staff/sessions/:id/candidates`: one page of who is free for the session, everyone listed
 * and ranked: `limit` of them (default PAGE_SIZE) after the row `cursor` names, those whose name,
 * email or area holds `search` (without regard to case or accents).
 */
export const candidatesQuery = z.object({
  cursor: pageCursor,
  limit: pageLimit.optional(),
  search: z.string().max(200, 'Search is at most 200 characters').optional(),
});
export type CandidatesQuery = z.input<typeof candidatesQuery>;

export const openSessionsQuery = z.object({
  from: dateString.optional(),
  to: dateString.optional(),
});

/**
 * How far ahead a session may be made in the portal, in days: a year. Open sessions are listed that
 * far ahead, so every session made is listed.
 */
export const SESSION_DAYS_AHEAD = 366;

/** `POST /api/staff/sessions`: a new open session, written to the SharePoint Bookings list. */
export const createSessionBody = z
  .object({
    // the form's date field gives "" until a whole date is chosen; it never shows yyyy-MM-dd
    date: z
      .string({ error: "Choose the session's date" })
      .min(1, "Choose the session's date")
      .pipe(dateString),
    startTime: timeOfDay,
    endTime: timeOfDay,
    schoolName: nonBlankText('Enter the school').pipe(shortText('School', 200)),
    program: shortText('Program', 200).default(''),
    title: shortText('Title', 255).default(''),
    location: shortText('Location', 255).default(''),
  })
  .refine((value) => value.startTime < value.endTime, {
    message: 'The end time must be later than the start time',
    path: ['endTime'],
  });
export type CreateSessionInput = z.input<typeof createSessionBody>;

/** Why staff offer a session to someone whose safeguarding checks do not allow sending them. */
const overrideReason = nonBlankText('Give the reason for offering despite safeguarding checks').pipe(
  shortText('The reason', SAFEGUARDING_OVERRIDE_REASON_MAX),
);

/** `POST /api/staff/sessions/:id/offers` */
export const createOffersBody = z.object({
  userIds: z
    .array(bodyId, { error: 'Choose at least one facilitator' })
    .min(1, 'Choose at least one facilitator')
    .max(MAX_OFFER_RECIPIENTS, `Offer to at most ${MAX_OFFER_RECIPIENTS} facilitators at once`),
  message: shortText('The message', OFFER_MESSAGE_MAX).default(''),
  /** ISO 8601 with an offset; must lie in the future and before the session starts */
  replyBy: z.iso.datetime({ offset: true, error: 'Reply-by must be a date and time' }),
  /** offer to the unavailable or already booked too (staff saw the warning) */
  confirmNotFree: z.boolean({ error: 'Must be true or false' }).default(false),
  /** on a decline or an expiry, offer the session to the next facilitator in the ranking */
  autoNext: z.boolean({ error: 'Must be true or false' }).default(false),
  /**
   * Why staff offer the session although a chosen person's safeguarding checks (expired or missing on
   * the session's date) do not allow sending them; required exactly then, recorded on those offers.
   */
  safeguardingOverride: z
    .object(
      {
        reason: overrideReason,
      },
      { error: 'Must be an object with a reason' },
    )
    .optional(),
});
export type CreateOffersInput = z.input<typeof createOffersBody>;

/** A `datetime-local` field's value (the browser's time) as an instant; '' when it holds none. */
const localDateTime = z.string().transform((local) => {
  const instant = local ? new Date(local) : null;
  return instant && !Number.isNaN(instant.getTime()) ? instant.toISOString() : '';
});

/**
 * The offer dialog as typed, parsed into the body (staff's confirmation that someone not free is
 * meant aside) with its rules. The reason is a field only while a chosen person's checks do not
 * allow sending them; then it is required.
 */
export const offerForm = z
  .object({
    userIds: createOffersBody.shape.userIds,
    message: createOffersBody.shape.message,
    replyBy: localDateTime.pipe(createOffersBody.shape.replyBy),
    autoNext: z.boolean(),
    overrideReason: overrideReason.optional(),
  })
  .transform(({ overrideReason: reason, ...offer }) => ({
    ...offer,
    ...(reason === undefined ? {} : { safeguardingOverride: { reason } }),
  }));
export type OfferForm = z.input<typeof offerForm>;
export type OfferFormOutput = z.output<typeof offerForm>;

export { DECLINE_REASON_MAX, declineBody } from './decline';

const offerLinkToken = z
  .string({ error: 'This link is not valid' })
  .max(200, 'This link is not valid')
  .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'This link is not valid');

/**
 * An offer email's link token, sent in the request body: a path or query string would carry the
 * credential into proxy access logs and request log lines.
 */
export const offerLinkBody = z.object({ token: offerLinkToken });
export type OfferLinkBody = z.infer<typeof offerLinkBody>;
export const declineByLinkBody = offerLinkBody.extend(declineBody.shape);
export type DeclineByLinkBody = z.input<typeof declineByLinkBody>;

const offerBase = {
  id: z.number().int(),
  bookingId: z.number().int(),
  state: z.enum(OFFER_STATES),
  message: z.string(),
  /** ISO 8601 UTC */
  replyBy: z.string(),
  createdAt: z.string(),
  respondedAt: z.string().nullable(),
  declineReason: z.string(),
  endedReason: z.enum(OFFER_END_REASONS).nullable(),
  date: z.string(),
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
  title: z.string(),
  schoolName: z.string().nullable(),
  program: z.string().nullable(),
  location: z.string().nullable(),
};

/** An offer as its facilitator sees it. */
export const myOffer = z.object(offerBase);
export type MyOffer = z.infer<typeof myOffer>;

/** An offer as staff see it. */
export const staffOffer = z.object({
  ...offerBase,
  userId: z.number().int(),
  name: z.string(),
  override: z.enum(OFFER_OVERRIDES).nullable(),
  /** set when the person's safeguarding checks did not allow sending and staff gave a reason */
  safeguardingOverride: z.object({ state: safeguardingState, reason: z.string() }).nullable(),
  autoNext: z.boolean(),
  seenAt: z.string().nullable(),
  /** null: no email was tried; otherwise when it was accepted by the mail server or why not */
  emailedAt: z.string().nullable(),
  emailError: z.string().nullable(),
  writeBack: z.enum(WRITE_BACK_STATES).nullable(),
});
export type StaffOffer = z.infer<typeof staffOffer>;

export const createOffersResponse = z.object({ offers: z.array(staffOffer) });

export const myOffersQuery = z.object({
  from: dateString.optional(),
  to: dateString.optional(),
});

/** What the email link's confirmation page shows (nothing about anyone else). */
export const offerLinkView = z.object({
  offer: myOffer,
  name: z.string(),
});
export type OfferLinkView = z.infer<typeof offerLinkView>;
