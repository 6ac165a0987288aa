import { z } from 'zod';
import { dateString, urlId, urlNumber } from './common';

/**
 * How a change was made, as the history records it: a facilitator on their own calendar, staff
 * editing someone, a bulk update, a recurring pattern, or a SharePoint import/refresh.
 */
export const CHANGE_SOURCES = [
  'facilitator',
  'staff',
  'bulk',
  'pattern',
  'sharepoint',
  // an offer answered from its email link; the scheduler (an offer's reply-by time passing)
  'email',
  'automatic',
] as const;
export type ChangeSource = (typeof CHANGE_SOURCES)[number];
export const changeSource = z.enum(CHANGE_SOURCES);

export const CHANGE_ENTITIES = ['availability', 'note', 'account', 'settings', 'offer', 'session'] as const;
export type ChangeEntityName = (typeof CHANGE_ENTITIES)[number];
export const CHANGE_ACTIONS = ['create', 'update', 'delete'] as const;
export type ChangeActionName = (typeof CHANGE_ACTIONS)[number];

/**
 * One recorded change. `before`/`after` are the values as they were (null: there was none, or
 * there is none now); secrets only ever appear as the word "changed". Names are as they were when
 * the change was made: an account renamed or deleted since keeps its old name here.
 */
export const historyEntry = z.object({
  id: z.number().int(),
  /** when, ISO 8601 UTC */
  at: z.string(),
  entity: z.enum(CHANGE_ENTITIES),
  action: z.enum(CHANGE_ACTIONS),
  subjectUserId: z.number().int().nullable(),
  subjectName: z.string().nullable(),
  /** the day changed (availability, notes) */
  date: z.string().nullable(),
  /** null: nobody signed in made it */
  actorId: z.number().int().nullable(),
  actorName: z.string().nullable(),
  via: changeSource,
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});
export type HistoryEntry = z.infer<typeof historyEntry>;

/** A page of history, newest first. */
export const historyPage = z.object({
  entries: z.array(historyEntry),
  /** pass as `before` for the next (older) page; null: there is none */
  nextBefore: z.number().int().nullable(),
  /** the organisation's time zone, in which the client shows `at` */
  timeZone: z.string(),
});
export type HistoryPage = z.infer<typeof historyPage>;

export const MAX_HISTORY_LIMIT = 200;
export const DEFAULT_HISTORY_LIMIT = 50;

const positiveId = urlId;

const pageQuery = {
  limit: urlNumber(MAX_HISTORY_LIMIT, `Limit must be a whole number from 1 to ${MAX_HISTORY_LIMIT}`).default(
    DEFAULT_HISTORY_LIMIT,
  ),
  /** only entries older than this id (the previous page's `nextBefore`) */
  before: urlNumber(Number.MAX_SAFE_INTEGER).optional(),
};

/** A facilitator's day, for staff: availability and notes changes. */
export const dayHistoryQuery = z.object({ userId: positiveId, date: dateString, ...pageQuery });
export type DayHistoryQuery = z.input<typeof dayHistoryQuery>;

/** A person's history, for staff: everything about the account, newest first. */
export const personHistoryQuery = z.object(pageQuery);
export type PersonHistoryQuery = z.input<typeof personHistoryQuery>;

/**
 * The signed-in user's own availability history: changes to days in an inclusive range (of the days
 * changed, not of when). `userId`, if given, must be the caller's own.
 */
export const ownHistoryQuery = z.object({
  from: dateString.optional(),
  to: dateString.optional(),
  userId: positiveId.optional(),
  ...pageQuery,
});
export type OwnHistoryQuery = z.input<typeof ownHistoryQuery>;
