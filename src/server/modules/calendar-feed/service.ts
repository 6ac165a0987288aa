import { and, asc, between, eq, isNull } from 'drizzle-orm';
import { addDays, formatTimeRange, todayIn } from '../../../shared/calendar';
import {
  CALENDAR_FEED_DAYS_AHEAD,
  CALENDAR_FEED_DAYS_BACK,
  type CalendarFeedStatus,
} from '../../../shared/schemas/calendar-feed';
import { decryptSecret, deriveKey, encryptSecret, randomToken, sha256 } from '../../crypto';
import type { Queryable } from '../../db/client';
import { bookings, calendarFeeds, users } from '../../db/schema';
import { notFound } from '../../errors';
import { buildCalendar, type IcsEvent, parseClockTime } from './ics';

/** 32 random bytes, base64url: 256 bits, 43 characters. */
const TOKEN_BYTES = 32;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** The fixed right-hand side of every event UID, so UIDs stay the same wherever the portal runs. */
const UID_DOMAIN = 'arts-facilitator-portal';
/** SEQUENCE counts seconds from here: it grows with every change to a booking and fits 32 bits past 2080. */
const SEQUENCE_EPOCH_MS = Date.UTC(2020, 0, 1);

export const feedPath = (token: string) => `/api/calendar-feed/${token}.ics`;

const tokenKey = (appSecret: string) => deriveKey(appSecret, 'calendar-feed-token');

function statusOf(
  appSecret: string,
  row: { tokenEncrypted: string; createdAt: Date } | undefined,
): CalendarFeedStatus {
  if (!row) return { enabled: false, path: null, createdAt: null };
  let path: string | null = null;
  try {
    path = feedPath(decryptSecret(tokenKey(appSecret), row.tokenEncrypted));
  } catch {
    // APP_SECRET changed since the feed was made: the feed still works, its URL cannot be shown again
  }
  return { enabled: true, path, createdAt: row.createdAt.toISOString() };
}

export async function feedStatus(
  db: Queryable,
  appSecret: string,
  userId: number,
): Promise<CalendarFeedStatus> {
  const [row] = await db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, userId));
  return statusOf(appSecret, row);
}

/**
 * Gives the user a feed with a new token, replacing any earlier one (its URL stops working with this
 * statement). Returns the token itself too, for callers that need it (tests).
 */
async function issueToken(
  db: Queryable,
  appSecret: string,
  userId: number,
): Promise<CalendarFeedStatus & { token: string }> {
  const token = randomToken(TOKEN_BYTES);
  const values = {
    userId,
    tokenHash: sha256(token),
    tokenEncrypted: encryptSecret(tokenKey(appSecret), token),
    createdAt: new Date(),
  };
  const [row] = await db
    .insert(calendarFeeds)
    .values(values)
    .onConflictDoUpdate({ target: calendarFeeds.userId, set: values })
    .returning();
  return { ...statusOf(appSecret, row), token };
}

/** Turns the feed on; when it is on already, it stays as it is (the same URL). */
export async function turnOnFeed(
  db: Queryable,
  appSecret: string,
  userId: number,
): Promise<CalendarFeedStatus & { token?: string }> {
  const current = await feedStatus(db, appSecret, userId);
  if (current.enabled) return current;
  return issueToken(db, appSecret, userId);
}

/** A new URL; the old one answers 404 from now on. Only for a feed that is on. */
export async function rotateFeed(db: Queryable, appSecret: string, userId: number) {
  const current = await feedStatus(db, appSecret, userId);
  if (!current.enabled) throw notFound('Your calendar feed is off; turn it on first');
  return issueToken(db, appSecret, userId);
}

/** Turns the feed off: the URL answers 404 from now on. Turning off a feed that is off is fine. */
export async function turnOffFeed(db: Queryable, userId: number): Promise<void> {
  await db.delete(calendarFeeds).where(eq(calendarFeeds.userId, userId));
}

/** The owner of a feed token, or null for anything that is not a live token. */
async function ownerOf(db: Queryable, token: string): Promise<{ id: number; name: string } | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const [row] = await db
    .select({ id: users.id, displayName: users.displayName, username: users.username })
    .from(calendarFeeds)
    .innerJoin(users, eq(users.id, calendarFeeds.userId))
    // a leaver's feed answers like any dead link until the account is reactivated
    .where(and(eq(calendarFeeds.tokenHash, sha256(token)), isNull(users.deactivatedAt)));
  if (!row) return null;
  return { id: row.id, name: row.displayName?.trim() || row.username };
}

type BookingRow = typeof bookings.$inferSelect;

const present = (...values: (string | null | undefined)[]) =>
  values.map((v) => v?.trim() ?? '').filter((v) => v !== '');

/** "Dance – Hillside Primary"; the booking details' fallbacks when SharePoint left a field empty. */
export function summaryOf(b: Pick<BookingRow, 'program' | 'title' | 'schoolName'>): string {
  const program = present(b.program, b.title)[0] ?? 'Unknown Program';
  const school = present(b.schoolName)[0] ?? 'Unknown School';
  return `${program} – ${school}`;
}

function descriptionOf(b: BookingRow): string {
  const rows: [string, string | null | undefined][] = [
    ['School', b.schoolName],
    ['Program', b.program],
    ['Session', b.title && b.title !== b.program ? b.title : null],
    ['Time slot', b.timeSlot],
    ['Time', formatTimeRange(b.startTime, b.endTime) || 'All Day'],
    ['Delivery', b.deliveryType?.trim() || 'Live'],
    ['Year group', b.year],
    ['Address', present(b.schoolAddress, b.schoolPostcode).join(', ')],
    ['Location', b.location],
  ];
  return rows
    .filter(([, value]) => value?.trim())
    .map(([label, value]) => `${label}: ${value!.trim()}`)
    .join('\n');
}

/** A UID that stays the same for a booking while SharePoint keeps its item id. */
function uidOf(b: BookingRow): string {
  const id = /^[A-Za-z0-9._-]{1,100}$/.test(b.sharePointId) ? b.sharePointId : sha256(b.sharePointId);
  return `booking-${id}@${UID_DOMAIN}`;
}

export function toEvent(b: BookingRow): IcsEvent {
  const start = parseClockTime(b.startTime);
  return {
    uid: uidOf(b),
    date: b.date,
    start,
    end: start ? parseClockTime(b.endTime) : null,
    summary: summaryOf(b),
    location:
      present(b.schoolName, b.schoolAddress, b.schoolPostcode).join(', ') || (b.location?.trim() ?? ''),
    description: descriptionOf(b),
    lastModified: b.updatedAt,
    sequence: Math.max(0, Math.floor((b.updatedAt.getTime() - SEQUENCE_EPOCH_MS) / 1000)),
  };
}

/**
 * The feed behind a token: that user's bookings from a few months back to a year ahead, and nothing
 * else (no availability, no notes, nobody else's bookings). Null for an unknown token.
 */
export async function calendarForToken(
  db: Queryable,
  token: string,
  timeZone: string,
  now: Date,
): Promise<string | null> {
  const owner = await ownerOf(db, token);
  if (!owner) return null;
  const today = todayIn(timeZone, now);
  const from = addDays(today, -CALENDAR_FEED_DAYS_BACK);
  const to = addDays(today, CALENDAR_FEED_DAYS_AHEAD);
  const rows = await db
    .select()
    .from(bookings)
    .where(and(eq(bookings.userId, owner.id), between(bookings.date, from, to)))
    .orderBy(asc(bookings.date), asc(bookings.startTime), asc(bookings.id));
  return buildCalendar({
    name: `Bookings – ${owner.name}`,
    timeZone,
    from,
    to,
    events: rows.map(toEvent),
  });
}
