/**
 * Change notifications for the Bookings list (ADR 0016): when PUBLIC_URL is https, one
 * instance keeps a Graph subscription to the list, renews it before it expires and makes a new one
 * when it is lost; a notification carrying the right clientState starts a delta refresh at once.
 * Polling every BOOKINGS_REFRESH_MINUTES stays as the baseline, so a lost notification costs only
 * time. The clientState is kept only as its SHA-256, compared in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { ChangeNotifications } from '../../shared/schemas/sharepoint-notifications';
import type { Config } from '../config';
import type { Database, Db } from '../db/client';
import { tryJobLock } from '../db/job-locks';
import { schedulerState } from '../db/schema';
import { describeError } from '../errors';
import type { SharePointConnector } from './connector';
import { hasStatus } from './errors';
import { graphSubscription, renewedSubscription } from './graph-answers';

/** What keeping the subscription uses: the connector, the database (and its job lock), the clock, the log. */
export interface NotificationDeps {
  config: Config;
  database: Database;
  db: Db;
  log: FastifyBaseLogger;
  now: () => Date;
  sharePoint: SharePointConnector;
}

export const SUBSCRIPTION_STATE = 'bookings-subscription';
export const NOTIFICATION_PATH = '/api/sharepoint/notifications';
/** A list subscription may last up to 42,300 minutes; the portal asks for 20 days and renews early. */
const LIFETIME_MS = 20 * 24 * 3600_000;
const RENEW_BEFORE_MS = 5 * 24 * 3600_000;
/** How often the subscription is looked up, to notice one Graph dropped. */
const CHECK_EVERY_MS = 60 * 60_000;

interface StoredSubscription {
  id: string;
  listId: string;
  notificationUrl: string;
  expiresAt: string;
  checkedAt: string;
  clientStateHash: string;
}

const hash = (text: string) => createHash('sha256').update(text).digest();

/** Where Graph should deliver, or null when notifications are off (no https PUBLIC_URL). */
export function notificationUrl(config: Config): string | null {
  const base = config.PUBLIC_URL;
  if (!base) return null;
  const url = new URL(NOTIFICATION_PATH, base);
  if (url.protocol !== 'https:' && !(config.SHAREPOINT_NOTIFICATIONS_ALLOW_HTTP && url.protocol === 'http:'))
    return null;
  return url.toString();
}

async function readStored(ctx: Pick<NotificationDeps, 'db'>) {
  const [row] = await ctx.db.select().from(schedulerState).where(eq(schedulerState.name, SUBSCRIPTION_STATE));
  return { row, sub: (row?.lastResult ?? null) as StoredSubscription | null };
}

async function store(
  ctx: Pick<NotificationDeps, 'db' | 'now'>,
  sub: StoredSubscription | null,
  error: string | null,
) {
  const values = { lastResult: sub, lastError: error, finishedAt: ctx.now() };
  await ctx.db
    .insert(schedulerState)
    .values({ name: SUBSCRIPTION_STATE, ...values })
    .onConflictDoUpdate({ target: schedulerState.name, set: values });
}

export type SubscriptionOutcome =
  | 'off'
  | 'not-configured'
  | 'busy'
  | 'kept'
  | 'created'
  | 'renewed'
  | 'failed';

/** One look at the subscription: create, check, renew or replace it as needed. Never throws. */
export async function maintainSubscription(ctx: NotificationDeps): Promise<SubscriptionOutcome> {
  const url = notificationUrl(ctx.config);
  if (!url) return 'off';
  const lock = await tryJobLock(ctx.database, 'change-notifications');
  if (!lock) return 'busy';
  try {
    const session = await ctx.sharePoint.session();
    if (!session) return 'not-configured';
    const now = ctx.now();
    const { sub } = await readStored(ctx);
    let listId: string;
    try {
      listId = await session.listId(session.settings.bookingsListName);
      const siteId = await session.siteId();
      const expiration = new Date(now.getTime() + LIFETIME_MS).toISOString();
      const create = async (): Promise<SubscriptionOutcome> => {
        const clientState = randomBytes(32).toString('base64url');
        const { body } = await session.client.request('POST', '/subscriptions', {
          answer: graphSubscription,
          body: {
            changeType: 'updated',
            notificationUrl: url,
            resource: `sites/${siteId}/lists/${listId}`,
            expirationDateTime: expiration,
            clientState,
          },
          notIdempotent: true,
        });
        await store(
          ctx,
          {
            id: body.id,
            listId,
            notificationUrl: url,
            expiresAt: body.expirationDateTime,
            checkedAt: now.toISOString(),
            clientStateHash: hash(clientState).toString('base64url'),
          },
          null,
        );
        return 'created';
      };
      if (
        !sub ||
        sub.listId !== listId ||
        sub.notificationUrl !== url ||
        Date.parse(sub.expiresAt) <= now.getTime()
      )
        return await create();
      const path = `/subscriptions/${encodeURIComponent(sub.id)}`;
      if (Date.parse(sub.expiresAt) - now.getTime() < RENEW_BEFORE_MS) {
        const renewed = await session.client.request('PATCH', path, {
          answer: renewedSubscription,
          body: { expirationDateTime: expiration },
          accept: [404],
        });
        if (renewed.status === 404) return await create();
        await store(
          ctx,
          { ...sub, expiresAt: renewed.body.expirationDateTime, checkedAt: now.toISOString() },
          null,
        );
        return 'renewed';
      }
      if (now.getTime() - Date.parse(sub.checkedAt) >= CHECK_EVERY_MS) {
        const found = await session.client.request('GET', path, {
          accept: [404],
          answer: graphSubscription,
        });
        if (found.status === 404) return await create();
        await store(ctx, { ...sub, checkedAt: now.toISOString() }, null);
      }
      return 'kept';
    } catch (error) {
      // polling carries on; the next tick tries again
      const message = describeError(error);
      ctx.log.warn({ err: message }, 'SharePoint change notifications could not be set up');
      await store(ctx, hasStatus(error, 404) ? null : sub, message).catch(() => {});
      return 'failed';
    }
  } finally {
    await lock.release();
  }
}

/** Whether notifications are what brings changes in now (the status line says which mode is active). */
export async function notificationsActive(
  ctx: Pick<NotificationDeps, 'db' | 'config' | 'now'>,
): Promise<boolean> {
  if (!notificationUrl(ctx.config)) return false;
  const { row, sub } = await readStored(ctx);
  return Boolean(sub && !row?.lastError && Date.parse(sub.expiresAt) > ctx.now().getTime());
}

/**
 * Notifications that carry the subscription's id and clientState (constant-time compare of hashes):
 * true when at least one is genuine (the caller then starts a delta refresh).
 */
export async function acceptNotifications(
  ctx: Pick<NotificationDeps, 'db'>,
  notifications: ChangeNotifications,
): Promise<boolean> {
  const { sub } = await readStored(ctx);
  if (!sub) return false;
  const expected = Buffer.from(sub.clientStateHash, 'base64url');
  const genuine = notifications.value.some((n) => {
    const given = hash(n.clientState ?? '');
    return timingSafeEqual(given, expected) && n.subscriptionId === sub.id;
  });
  return genuine;
}
