/**
 * What the service worker does with web push: show a notice for each push, open its link when the
 * notice is clicked, and subscribe again when the browser replaces the subscription. A push names
 * only the kind of event and a link (modules/notifications on the server), so the notice says what
 * happened in general words and the details load after sign-in.
 *
 * The installable app's service worker calls `registerPushHandlers(self)` once, at its top level.
 */
import { PUSH_EVENTS, type PushEvent, type PushPayload } from '@shared/schemas/notifications';

/** The part of ServiceWorkerGlobalScope these handlers use (the DOM library has no worker types). */
export interface PushWorkerScope {
  location: { origin: string };
  registration: {
    showNotification(title: string, options?: NotificationOptions): Promise<void>;
    pushManager: PushManager;
  };
  clients: {
    matchAll(options: {
      type: 'window';
      includeUncontrolled: boolean;
    }): Promise<
      ReadonlyArray<{ url: string; focus(): Promise<unknown>; navigate?(url: string): Promise<unknown> }>
    >;
    openWindow(url: string): Promise<unknown>;
  };
  addEventListener(type: 'push', listener: (event: PushLikeEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationClickLikeEvent) => void): void;
  addEventListener(
    type: 'pushsubscriptionchange',
    listener: (event: SubscriptionChangeLikeEvent) => void,
  ): void;
}

interface ExtendableLikeEvent {
  waitUntil(promise: Promise<unknown>): void;
}
export interface PushLikeEvent extends ExtendableLikeEvent {
  data: { text(): string } | null;
}
export interface NotificationClickLikeEvent extends ExtendableLikeEvent {
  notification: { close(): void; data?: unknown };
}
export interface SubscriptionChangeLikeEvent extends ExtendableLikeEvent {
  oldSubscription?: PushSubscription | null;
  newSubscription?: PushSubscription | null;
}

/** The notice for each event: general words only. */
export const NOTICES: Record<PushEvent, string> = {
  'offer-new': 'You have a new offer of a session',
  'offer-filled': 'An offer you had has been filled',
  'offer-withdrawn': 'An offer you had has been withdrawn',
  'offer-expired': 'An offer you had has expired',
  'booking-added': 'A session was added to your calendar',
  'booking-moved': 'A session on your calendar has moved',
  'booking-cancelled': 'A session on your calendar was cancelled',
  'availability-reminder': 'Please update your availability',
  'safeguarding-expiring': 'A safeguarding check is about to expire',
};

const TITLE = 'Arts Facilitator Portal';

/** The push's event and link, or null when it is not one of ours. */
export function readPush(text: string | undefined): PushPayload | null {
  if (!text) return null;
  try {
    const payload = JSON.parse(text) as Partial<PushPayload>;
    if (typeof payload.kind !== 'string' || !(payload.kind in PUSH_EVENTS)) return null;
    // a path on this site only: never another origin, never "//host" or "/\\host"
    const link =
      typeof payload.link === 'string' && /^\/(?![/\\])\S*$/.test(payload.link) ? payload.link : '/';
    return { kind: payload.kind as PushEvent, link };
  } catch {
    return null;
  }
}

export function registerPushHandlers(scope: PushWorkerScope): void {
  scope.addEventListener('push', (event) => {
    const payload = readPush(event.data?.text());
    const body = payload ? NOTICES[payload.kind] : 'Something changed in the portal';
    event.waitUntil(
      scope.registration.showNotification(TITLE, {
        body,
        tag: payload?.kind ?? 'portal',
        data: { link: payload?.link ?? '/' },
      }),
    );
  });

  scope.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const data = event.notification.data as { link?: string } | undefined;
    const target = new URL(data?.link ?? '/', scope.location.origin).href;
    event.waitUntil(
      (async () => {
        const open = await scope.clients.matchAll({ type: 'window', includeUncontrolled: true });
        const same = open.find((client) => new URL(client.url).origin === scope.location.origin);
        if (same) {
          await same.focus();
          if (same.url !== target) await same.navigate?.(target);
          return;
        }
        await scope.clients.openWindow(target);
      })(),
    );
  });

  // The browser replaced the subscription (its push service renewed it): subscribe again with the
  // same key and tell the server, naming the endpoint this one replaces.
  scope.addEventListener('pushsubscriptionchange', (event) => {
    event.waitUntil(
      (async () => {
        const options = event.oldSubscription?.options;
        const subscription =
          event.newSubscription ?? (options ? await scope.registration.pushManager.subscribe(options) : null);
        if (!subscription) return;
        const json = subscription.toJSON();
        await fetch('/api/push/subscription', {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            endpoint: json.endpoint,
            keys: json.keys,
            ...(event.oldSubscription ? { replaces: event.oldSubscription.endpoint } : {}),
          }),
        });
      })(),
    );
  });
}
