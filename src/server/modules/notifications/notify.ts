/**
 * The port every feature tells of an event through: `notify(deps, userId, event, link)`. It queues a
 * push for each of the person's devices when they chose push for that kind, holding it until their
 * quiet hours end, and answers whether the caller should also email them (when they chose email, or
 * when a push held by quiet hours would arrive after `expiresAt`). The push holds the event and the
 * link only; it is delivered in the background (delivery.ts), never within the request.
 */
import { eq } from 'drizzle-orm';
import { PUSH_EVENTS, type PushEvent } from '../../../shared/schemas/notifications';
import type { Config } from '../../config';
import type { Queryable } from '../../db/client';
import { pushOutbox, pushSubscriptions } from '../../db/schema';
import { channelsFor, quietHoursEnd, readPreferences, wantsEmail, wantsPush } from './service';

/** Wakes the delivery loop after the rows it should send are committed. */
export interface PushWakeUp {
  queued(): void;
}

export interface NotifyDeps {
  db: Queryable;
  now: () => Date;
  config: Pick<Config, 'ORG_TIMEZONE'>;
  push: PushWakeUp;
}

export interface NotifyOptions {
  /** after this a push is no use (an offer's reply-by time) */
  expiresAt?: Date;
  /**
   * the caller runs inside a transaction: it calls `deps.push.queued()` itself after the commit
   */
  inTransaction?: boolean;
}

export interface NotifyOutcome {
  /** pushes queued, one per device */
  pushes: number;
  /** the caller should email this person, where it has an email for the event */
  email: boolean;
}

export async function notify(
  deps: NotifyDeps,
  userId: number,
  event: PushEvent,
  link: string,
  options: NotifyOptions = {},
): Promise<NotifyOutcome> {
  const kind = PUSH_EVENTS[event];
  const channel = (await channelsFor(deps.db, [userId], kind)).get(userId)!;
  const email = wantsEmail(channel);
  if (!wantsPush(channel)) return { pushes: 0, email };
  const now = deps.now();
  const { quietHours } = await readPreferences(deps.db, userId);
  const quietEnd = quietHoursEnd(quietHours, now, deps.config.ORG_TIMEZONE);
  if (quietEnd && options.expiresAt && quietEnd.getTime() >= options.expiresAt.getTime()) {
    // the push would wait past the point of it: email instead
    return { pushes: 0, email: true };
  }
  const sendAt = quietEnd ?? now;
  const devices = await deps.db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId));
  if (devices.length === 0) return { pushes: 0, email };
  const queued = await deps.db
    .insert(pushOutbox)
    .values(
      devices.map((device) => ({
        subscriptionId: device.id,
        kind: event,
        link,
        expiresAt: options.expiresAt ?? null,
        nextAttemptAt: sendAt,
        createdAt: now,
      })),
    )
    .returning({ id: pushOutbox.id });
  if (queued.length > 0 && !options.inTransaction && !quietEnd) deps.push.queued();
  return { pushes: queued.length, email };
}
