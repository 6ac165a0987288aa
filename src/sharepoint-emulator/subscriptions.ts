/**
 * Change notifications for lists, as Graph documents them: `POST /subscriptions` (resource
 * `sites/{site-id}/lists/{list-id}`, changeType `updated`, an https notificationUrl, clientState),
 * a validation handshake before the subscription exists (POST `?validationToken=…`, answered 200
 * text/plain with the token within 10 seconds), `PATCH` to renew, `DELETE`, and after every change
 * of the list a POST of `{ value: [ { subscriptionId, clientState, changeType, resource, … } ] }`
 * to the notificationUrl. http URLs are refused unless the emulator was started to allow them (tests).
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from './clock';
import { GraphError, invalidRequest } from './errors';
import type { Store } from './store';
import type { ListInfo } from './types';

/** Longest lifetime of a list subscription (Graph: 42,300 minutes, under 30 days). */
export const MAX_SUBSCRIPTION_MINUTES = 42_300;
const VALIDATION_TIMEOUT_MS = 10_000;

export interface Subscription {
  id: string;
  resource: string;
  siteId: string;
  listId: string;
  changeType: string;
  notificationUrl: string;
  clientState?: string;
  expirationDateTime: string;
}

export interface DeliveredNotification {
  subscriptionId: string;
  url: string;
  status: number | 'failed';
}

export interface SubscriptionOptions {
  /** Accept http notification URLs (tests on 127.0.0.1); Graph itself requires https. */
  allowHttpNotificationUrls?: boolean;
}

export class SubscriptionService {
  readonly subscriptions = new Map<string, Subscription>();
  readonly delivered: DeliveredNotification[] = [];
  allowHttp: boolean;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    options: SubscriptionOptions = {},
  ) {
    this.allowHttp = options.allowHttpNotificationUrls ?? false;
    store.onListChanged = (list) => this.listChanged(list);
  }

  private parseResource(resource: unknown): { siteId: string; listId: string } {
    const match = typeof resource === 'string' ? /^\/?sites\/([^/]+)\/lists\/([^/]+)$/.exec(resource) : null;
    if (!match) throw invalidRequest("Invalid 'resource': expected sites/{site-id}/lists/{list-id}.");
    const siteId = decodeURIComponent(match[1]!);
    const list = this.store.getList({ siteId, list: decodeURIComponent(match[2]!) });
    return { siteId, listId: list.info.id };
  }

  private checkExpiration(value: unknown): string {
    const at = typeof value === 'string' ? Date.parse(value) : Number.NaN;
    const now = this.clock.now();
    if (Number.isNaN(at) || at <= now) throw invalidRequest('Subscription expiration must be in the future.');
    if (at > now + MAX_SUBSCRIPTION_MINUTES * 60_000) {
      throw invalidRequest(
        `Subscription expiration can only be ${MAX_SUBSCRIPTION_MINUTES} minutes in the future.`,
      );
    }
    return new Date(at).toISOString();
  }

  private view(sub: Subscription) {
    return {
      id: sub.id,
      resource: sub.resource,
      changeType: sub.changeType,
      notificationUrl: sub.notificationUrl,
      clientState: sub.clientState ?? null,
      expirationDateTime: sub.expirationDateTime,
    };
  }

  /** POST /subscriptions: validated with the handshake before it exists. */
  async create(body: Record<string, unknown>): Promise<{ status: number; body: unknown }> {
    if (body.changeType !== 'updated') throw invalidRequest("Lists support only changeType 'updated'.");
    const { siteId, listId } = this.parseResource(body.resource);
    const url = typeof body.notificationUrl === 'string' ? body.notificationUrl : '';
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw invalidRequest('Invalid notification URL.');
    }
    if (parsed.protocol !== 'https:' && !(this.allowHttp && parsed.protocol === 'http:')) {
      throw invalidRequest("Subscription validation request failed. Notification URL must use 'https'.");
    }
    const clientState = typeof body.clientState === 'string' ? body.clientState : undefined;
    if (clientState !== undefined && clientState.length > 128)
      throw invalidRequest('clientState must be at most 128 characters.');
    const expirationDateTime = this.checkExpiration(body.expirationDateTime);
    const token = `Validation: Testing client application reachability for subscription Request-Id: ${randomUUID()}`;
    if (!(await this.validate(url, token))) {
      throw new GraphError(
        400,
        'InvalidRequest',
        'Subscription validation request failed. Response must exactly match validationToken query parameter.',
      );
    }
    const sub: Subscription = {
      id: randomUUID(),
      resource: `sites/${siteId}/lists/${listId}`,
      siteId,
      listId,
      changeType: 'updated',
      notificationUrl: url,
      clientState,
      expirationDateTime,
    };
    this.subscriptions.set(sub.id, sub);
    return { status: 201, body: this.view(sub) };
  }

  private async validate(url: string, token: string): Promise<boolean> {
    const target = new URL(url);
    target.searchParams.set('validationToken', token);
    try {
      const response = await fetch(target, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain; charset=utf-8' },
        signal: AbortSignal.timeout(VALIDATION_TIMEOUT_MS),
      });
      const type = response.headers.get('content-type') ?? '';
      return response.status === 200 && type.startsWith('text/plain') && (await response.text()) === token;
    } catch {
      return false;
    }
  }

  private live(id: string): Subscription {
    const sub = this.subscriptions.get(id);
    if (!sub || Date.parse(sub.expirationDateTime) <= this.clock.now()) {
      this.subscriptions.delete(id);
      throw new GraphError(404, 'itemNotFound', `The object was not found: subscription ${id}.`);
    }
    return sub;
  }

  get(id: string) {
    return { status: 200, body: this.view(this.live(id)) };
  }

  renew(id: string, body: Record<string, unknown>) {
    const sub = this.live(id);
    sub.expirationDateTime = this.checkExpiration(body.expirationDateTime);
    return { status: 200, body: this.view(sub) };
  }

  remove(id: string) {
    this.live(id);
    this.subscriptions.delete(id);
    return { status: 204 };
  }

  private listChanged(list: ListInfo): void {
    const now = this.clock.now();
    for (const sub of this.subscriptions.values()) {
      if (sub.listId !== list.id || Date.parse(sub.expirationDateTime) <= now) continue;
      const payload = {
        value: [
          {
            subscriptionId: sub.id,
            clientState: sub.clientState ?? null,
            changeType: 'updated',
            resource: sub.resource,
            subscriptionExpirationDateTime: sub.expirationDateTime,
            tenantId: '00000000-0000-0000-0000-000000000000',
            resourceData: null,
          },
        ],
      };
      const delivery = this.post(sub, payload).finally(() => this.pending.delete(delivery));
      this.pending.add(delivery);
    }
  }

  /** Sends a notification to a subscription's URL as Graph would (tests may also send forged ones). */
  async post(sub: Pick<Subscription, 'id' | 'notificationUrl'>, payload: unknown): Promise<void> {
    let status: number | 'failed';
    try {
      const response = await fetch(sub.notificationUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(VALIDATION_TIMEOUT_MS),
      });
      status = response.status;
      await response.body?.cancel();
    } catch {
      status = 'failed';
    }
    this.delivered.push({ subscriptionId: sub.id, url: sub.notificationUrl, status });
  }

  /** Resolves when every notification sent so far has been answered. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  reset(): void {
    this.subscriptions.clear();
    this.delivered.length = 0;
  }
}
