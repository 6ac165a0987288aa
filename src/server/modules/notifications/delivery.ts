/**
 * Pushes go out in the background: the scheduler's push loop claims due rows of push_outbox (with the
 * outboxes' lease, so any number of instances share the queue and no row goes twice at once), encrypts
 * each for its device (RFC 8291, aes128gcm) with a VAPID signature (RFC 8292) by `web-push`, and posts
 * it to the device's push service over a connection checked like the SMTP host's.
 *
 * What the push service answers decides the row: 2xx sent (deleted); 404 or 410 the subscription is
 * gone (deleted with all its rows); 401 or 403 the portal's key or claims are refused (kept for staff
 * to see, and tried again later); 429, 5xx and network failures are tried again with growing waits,
 * at most MAX_ATTEMPTS times; any other answer drops the row.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import type { PushPayload } from '../../../shared/schemas/notifications';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { pushOutbox, pushSubscriptions } from '../../db/schema';
import type { VapidKeys } from '../../db/vapid-keys';
import { describeError } from '../../errors';
import type { AddressLookup } from '../../outbound-address';
import { OutboxWakeUp } from '../../sharepoint/outbox';
import { claimDue, type LeaseOptions, reschedule, retryDelay } from '../../sharepoint/outbox-lease';
import { pinPushEndpoint } from './endpoint';
import type { PushWakeUp } from './notify';
import { clearKeyProblem, recordKeyProblem } from './service';

/** Tries of one push before it is dropped. */
export const MAX_ATTEMPTS = 5;
/** How long a push service may keep a push for a device that is off (seconds). */
const TIME_TO_LIVE = 24 * 60 * 60;
const REQUEST_TIMEOUT_MS = 10_000;

export const PUSH_LEASE: LeaseOptions = {
  batchSize: 50,
  leaseMs: 60_000,
  retryBaseMs: 10_000,
  retryMaxMs: 30 * 60_000,
  random: Math.random,
};

/** The app's web push: its VAPID keys and the wake-up of its delivery loop. One per app. */
export class PushRuntime implements PushWakeUp {
  readonly wakeUp = new OutboxWakeUp();
  constructor(
    readonly vapid: VapidKeys & { subject: string },
    /** how endpoint host names resolve (tests name their own) */
    readonly resolve?: AddressLookup,
  ) {}

  queued(): void {
    this.wakeUp.queued();
  }
}

export interface PushDeliveryDeps {
  db: Db;
  now: () => Date;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  config: Pick<Config, 'PUSH_ALLOWED_ORIGINS'>;
  push: Pick<PushRuntime, 'vapid' | 'resolve'>;
}

export interface PushRound {
  claimed: number;
  sent: number;
  /** subscriptions deleted because their push service called them gone */
  pruned: number;
  retried: number;
  dropped: number;
}

interface Answer {
  status: number;
}

/** POST the prepared request to the endpoint, connecting to the address that passed the check. */
async function post(
  details: { endpoint: string; headers: Record<string, string | number>; body: Buffer | null },
  deps: PushDeliveryDeps,
): Promise<Answer> {
  const { url, address } = await pinPushEndpoint(
    details.endpoint,
    deps.config.PUSH_ALLOWED_ORIGINS,
    deps.push.resolve,
  );
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Answer>((resolve, reject) => {
    const req = send(
      url,
      {
        method: 'POST',
        headers: details.headers as Record<string, string>,
        timeout: REQUEST_TIMEOUT_MS,
        ...(address
          ? {
              lookup: ((
                _host: string,
                options: { all?: boolean },
                callback: (...args: unknown[]) => void,
              ) => {
                const family = address.includes(':') ? 6 : 4;
                if (options.all) callback(null, [{ address, family }]);
                else callback(null, address, family);
              }) as unknown as LookupFunction,
            }
          : {}),
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('the push service did not answer in time')));
    req.on('error', reject);
    req.end(details.body ?? undefined);
  });
}

/** One round: claim due pushes, send them, settle each by its answer. Never throws for a push's failure. */
export async function deliverPushes(
  deps: PushDeliveryDeps,
  lease: LeaseOptions = PUSH_LEASE,
): Promise<PushRound> {
  const round: PushRound = { claimed: 0, sent: 0, pruned: 0, retried: 0, dropped: 0 };
  const claimed = await claimDue(deps.db, pushOutbox, deps.now(), lease);
  round.claimed = claimed.length;
  if (claimed.length === 0) return round;
  const subscriptionIds = [...new Set(claimed.map((row) => row.subscriptionId))];
  const subscriptions = new Map(
    (
      await deps.db.select().from(pushSubscriptions).where(inArray(pushSubscriptions.id, subscriptionIds))
    ).map((s) => [s.id, s]),
  );
  const gone = new Set<number>();
  let anySent = false;
  for (const row of claimed) {
    const subscription = subscriptions.get(row.subscriptionId);
    if (!subscription || gone.has(row.subscriptionId)) continue;
    const now = deps.now();
    if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) {
      await deps.db.delete(pushOutbox).where(eq(pushOutbox.id, row.id));
      round.dropped++;
      continue;
    }
    const payload: PushPayload = { kind: row.kind as PushPayload['kind'], link: row.link };
    let status: number;
    let failure: string | null = null;
    try {
      const details = webpush.generateRequestDetails(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        JSON.stringify(payload),
        {
          vapidDetails: deps.push.vapid,
          TTL: row.expiresAt
            ? Math.max(
                0,
                Math.min(TIME_TO_LIVE, Math.floor((row.expiresAt.getTime() - now.getTime()) / 1000)),
              )
            : TIME_TO_LIVE,
          urgency: row.kind === 'offer-new' ? 'high' : 'normal',
          contentEncoding: 'aes128gcm',
        },
      );
      status = (await post(details as Parameters<typeof post>[0], deps)).status;
    } catch (error) {
      status = 0;
      failure = describeError(error);
    }
    if (status >= 200 && status < 300) {
      await deps.db.delete(pushOutbox).where(eq(pushOutbox.id, row.id));
      await deps.db
        .update(pushSubscriptions)
        .set({ lastSuccessAt: deps.now() })
        .where(eq(pushSubscriptions.id, subscription.id));
      round.sent++;
      anySent = true;
    } else if (status === 404 || status === 410) {
      await deps.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, subscription.id));
      gone.add(subscription.id);
      round.pruned++;
    } else if (status === 401 || status === 403) {
      await recordKeyProblem(deps.db, status, now);
      deps.log.warn({ status }, 'a push service refused the VAPID key or its claims');
      await retryOrDrop(deps, row, `push service answered ${status}`, lease, round);
    } else if (status === 0 || status === 408 || status === 429 || status >= 500) {
      await retryOrDrop(deps, row, failure ?? `push service answered ${status}`, lease, round);
    } else {
      deps.log.warn({ status }, 'a push service refused a push; it is dropped');
      await deps.db.delete(pushOutbox).where(eq(pushOutbox.id, row.id));
      round.dropped++;
    }
  }
  if (anySent) await clearKeyProblem(deps.db);
  return round;
}

async function retryOrDrop(
  deps: PushDeliveryDeps,
  row: typeof pushOutbox.$inferSelect,
  error: string,
  lease: LeaseOptions,
  round: PushRound,
): Promise<void> {
  if (row.attempts + 1 >= MAX_ATTEMPTS) {
    deps.log.warn({ err: error, attempts: row.attempts + 1 }, 'a push was dropped after its last try');
    await deps.db.delete(pushOutbox).where(eq(pushOutbox.id, row.id));
    round.dropped++;
    return;
  }
  const at = new Date(deps.now().getTime() + retryDelay(row.attempts + 1, lease));
  await reschedule(deps.db, pushOutbox, [row.id], at, error, true);
  round.retried++;
}
