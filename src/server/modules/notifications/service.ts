/**
 * Notification settings: each person's choice of push, email, both or none per kind of event, their
 * quiet hours, and their devices' push subscriptions.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  NOTIFICATION_KINDS,
  type NotificationChannel,
  type NotificationKind,
  type NotificationPreferences,
  type PushStatus,
  type PushSubscriptionBody,
  type QuietHours,
} from '../../../shared/schemas/notifications';
import type { Config } from '../../config';
import type { Db, Queryable } from '../../db/client';
import {
  appMeta,
  notificationPreferences,
  notificationQuietHours,
  pushOutbox,
  pushSubscriptions,
} from '../../db/schema';
import { badRequest } from '../../errors';
import { instantAt, localTime } from '../../office-hours';
import type { AddressLookup } from '../../outbound-address';
import { checkPushEndpoint } from './endpoint';

/**
 * A kind nobody has chosen for: email where the portal emailed before push existed, and push as well;
 * bookings changing on a calendar were never emailed, so they come by push only.
 */
export const DEFAULT_CHANNELS: Record<NotificationKind, NotificationChannel> = {
  'offer-new': 'both',
  'offer-ended': 'both',
  'booking-changed': 'push',
  'availability-reminder': 'both',
  'safeguarding-expiring': 'both',
};

export const wantsPush = (channel: NotificationChannel) => channel === 'push' || channel === 'both';
export const wantsEmail = (channel: NotificationChannel) => channel === 'email' || channel === 'both';

export async function readPreferences(db: Queryable, userId: number): Promise<NotificationPreferences> {
  const rows = await db
    .select({ kind: notificationPreferences.kind, channel: notificationPreferences.channel })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId));
  const channels = { ...DEFAULT_CHANNELS };
  for (const row of rows) {
    if ((NOTIFICATION_KINDS as readonly string[]).includes(row.kind))
      channels[row.kind as NotificationKind] = row.channel as NotificationChannel;
  }
  const [quiet] = await db
    .select()
    .from(notificationQuietHours)
    .where(eq(notificationQuietHours.userId, userId));
  return { channels, quietHours: quiet ? { start: quiet.startsAt, end: quiet.endsAt } : null };
}

export async function savePreferences(
  db: Db,
  userId: number,
  preferences: NotificationPreferences,
): Promise<NotificationPreferences> {
  await db.transaction(async (tx) => {
    await tx.delete(notificationPreferences).where(eq(notificationPreferences.userId, userId));
    await tx
      .insert(notificationPreferences)
      .values(NOTIFICATION_KINDS.map((kind) => ({ userId, kind, channel: preferences.channels[kind] })));
    await tx.delete(notificationQuietHours).where(eq(notificationQuietHours.userId, userId));
    if (preferences.quietHours)
      await tx.insert(notificationQuietHours).values({
        userId,
        startsAt: preferences.quietHours.start,
        endsAt: preferences.quietHours.end,
      });
  });
  return readPreferences(db, userId);
}

/** Each person's channel for one kind (the default where they chose none). */
export async function channelsFor(
  db: Queryable,
  userIds: number[],
  kind: NotificationKind,
): Promise<Map<number, NotificationChannel>> {
  const channels = new Map(userIds.map((id) => [id, DEFAULT_CHANNELS[kind]]));
  if (userIds.length === 0) return channels;
  const rows = await db
    .select({ userId: notificationPreferences.userId, channel: notificationPreferences.channel })
    .from(notificationPreferences)
    .where(and(inArray(notificationPreferences.userId, userIds), eq(notificationPreferences.kind, kind)));
  for (const row of rows) channels.set(row.userId, row.channel as NotificationChannel);
  return channels;
}

const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

/**
 * When the quiet hours `now` falls in end (in `timeZone`), or null when `now` is outside them.
 * Quiet hours may run past midnight (22:00-07:00).
 */
export function quietHoursEnd(quiet: QuietHours | null, now: Date, timeZone: string): Date | null {
  if (!quiet) return null;
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  const local = localTime(now, timeZone);
  const minute = local.minute;
  const inside = start < end ? minute >= start && minute < end : minute >= start || minute < end;
  if (!inside) return null;
  // over midnight and before it: they end tomorrow
  if (start > end && minute >= start) {
    const next = new Date(Date.UTC(local.year, local.month - 1, local.day + 1));
    return instantAt(
      { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() },
      end,
      timeZone,
    );
  }
  return instantAt(local, end, timeZone);
}

export interface SubscribeDeps {
  db: Db;
  config: Pick<Config, 'PUSH_ALLOWED_ORIGINS'>;
  /** how endpoint host names resolve (tests name their own) */
  resolve?: AddressLookup;
}

/**
 * Keep a device's subscription for `userId`. An endpoint already known (the same browser again, or
 * another person signing in on it) is taken over with its new keys; `replaces` (the browser's
 * previous endpoint, after it subscribed again) is removed, when it is the caller's.
 */
export async function subscribe(deps: SubscribeDeps, userId: number, body: PushSubscriptionBody) {
  const check = await checkPushEndpoint(body.endpoint, deps.config.PUSH_ALLOWED_ORIGINS, deps.resolve);
  if (!check.ok) throw badRequest(check.reason, { endpoint: [check.reason] });
  await deps.db.transaction(async (tx) => {
    if (body.replaces && body.replaces !== body.endpoint)
      await tx
        .delete(pushSubscriptions)
        .where(and(eq(pushSubscriptions.endpoint, body.replaces), eq(pushSubscriptions.userId, userId)));
    const [existing] = await tx
      .select({ id: pushSubscriptions.id, userId: pushSubscriptions.userId })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, body.endpoint))
      .for('update');
    // another person's pushes never reach this device once it is someone else's
    if (existing && existing.userId !== userId)
      await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.id, existing.id));
    await tx
      .insert(pushSubscriptions)
      .values({ userId, endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth })
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: { userId, p256dh: body.keys.p256dh, auth: body.keys.auth },
      });
  });
  return { subscribed: true };
}

/** Stop pushes to a device of the caller's; what was queued for it goes too. */
export async function unsubscribe(db: Queryable, userId: number, endpoint: string) {
  await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.endpoint, endpoint), eq(pushSubscriptions.userId, userId)));
  return { subscribed: false };
}

export const KEY_PROBLEM = 'push_key_problem';

/** A push service refused the portal's VAPID key or claims (401, 403): staff are told until one succeeds. */
export async function recordKeyProblem(db: Queryable, status: number, at: Date): Promise<void> {
  const value = JSON.stringify({ status, at: at.toISOString() });
  await db
    .insert(appMeta)
    .values({ key: KEY_PROBLEM, value })
    .onConflictDoUpdate({ target: appMeta.key, set: { value } });
}

export async function clearKeyProblem(db: Queryable): Promise<void> {
  await db.delete(appMeta).where(eq(appMeta.key, KEY_PROBLEM));
}

export async function pushStatus(db: Queryable): Promise<PushStatus> {
  const [problem] = await db.select().from(appMeta).where(eq(appMeta.key, KEY_PROBLEM));
  const [devices] = await db.select({ n: sql<number>`count(*)::int` }).from(pushSubscriptions);
  const [queued] = await db.select({ n: sql<number>`count(*)::int` }).from(pushOutbox);
  let keyProblem: PushStatus['keyProblem'] = null;
  if (problem) {
    try {
      keyProblem = JSON.parse(problem.value) as PushStatus['keyProblem'];
    } catch {
      keyProblem = null;
    }
  }
  return { devices: devices?.n ?? 0, queued: queued?.n ?? 0, keyProblem };
}
