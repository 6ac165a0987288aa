import { X509Certificate } from 'node:crypto';
import type { AuthService, ClientCredential, UserCredential } from './auth';
import type { Clock } from './clock';
import type { DeltaQuirks } from './delta';
import type {
  ActiveFault,
  FaultEngine,
  FaultRule,
  LatencyOptions,
  OutageOptions,
  RetryAfter,
} from './faults';
import { type PortalSite, type PortalSiteOptions, seedPortalSite } from './fixtures';
import type { Pager, PagingOptions, ResolvedPaging } from './paging';
import type { LoggedRequest, RequestLog, RequestQuery } from './request-log';
import { type CreateListInput, type CreateSiteInput, type Store, snapshot } from './store';
import type { DeliveredNotification, Subscription, SubscriptionService } from './subscriptions';
import type { FieldInput, ItemSnapshot, ListInfo, ListRef, SiteInfo } from './types';

export interface EmulatorCredentials {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  username: string;
  password: string;
}

export interface FailNextOptions {
  path?: string | RegExp;
  method?: string | string[];
  retryAfter?: RetryAfter;
  code?: string;
  skip?: number;
}

/** Everything a test (or the HTTP control plane) can do to the emulator besides speaking Graph. */
export interface EmulatorControl {
  /** The first configured client and user: what the portal's settings should hold. */
  readonly credentials: EmulatorCredentials;

  /** Removes all data, faults, latency, outage, tokens, paging settings, the request log and clock offset. */
  reset(): Promise<void>;

  createSite(input: CreateSiteInput): SiteInfo;
  createList(siteId: string, input: CreateListInput): ListInfo;
  /** A site with Bookings, Availability, Facilitators and Schools, filled from a seed. */
  seedPortalSite(options?: PortalSiteOptions): PortalSite;
  sites(): SiteInfo[];
  findSite(hostname: string, path: string): SiteInfo | undefined;
  lists(siteId: string): ListInfo[];
  getList(ref: ListRef): ListInfo;

  /** Direct store access. Writes count as changes by someone else (they show up in delta). */
  items(ref: ListRef): ItemSnapshot[];
  item(ref: ListRef, id: string | number): ItemSnapshot | undefined;
  addItem(ref: ListRef, fields: FieldInput): ItemSnapshot;
  updateItem(ref: ListRef, id: string | number, fields: FieldInput): ItemSnapshot;
  deleteItem(ref: ListRef, id: string | number): void;
  /** Changes the change feed never reports (a lost delta entry): only a full read of the list sees them. */
  updateItemUnrecorded(ref: ListRef, id: string | number, fields: FieldInput): ItemSnapshot;
  deleteItemUnrecorded(ref: ListRef, id: string | number): void;

  addFault(rule: FaultRule): number;
  /** Shorthand: the next `count` matching calls answer `status` (with `Retry-After` if given). */
  failNext(count: number, status: number, options?: FailNextOptions): number;
  removeFault(id: number): void;
  clearFaults(): void;
  faults(): ActiveFault[];
  /** `null` or `0` turns added latency off. */
  setLatency(latency: number | LatencyOptions | null): void;
  /** `false` ends the outage. Resolves once a `refuse` outage has stopped or resumed listening. */
  setOutage(outage: boolean | OutageOptions): Promise<void>;

  /** Every token issued so far is expired from now on; the next Graph call with one gets 401. */
  expireTokens(): void;
  setTokenLifetime(seconds: number): void;
  setCredentials(credentials: { clients?: ClientCredential[]; users?: UserCredential[] }): void;
  /** Registers a PEM certificate for a client (as uploading it under Certificates & secrets does). */
  addClientCertificate(clientId: string, certificatePem: string): void;

  /** The next use of any delta token (or of those for one list) answers 410. */
  invalidateDeltaTokens(ref?: ListRef): void;
  /** Delta tokens older than this answer 410. */
  setDeltaTokenRetention(ms: number): void;
  /** Merges into the current quirks; `{}` changes nothing, pass explicit `false`/`'deleted'` to undo. */
  setDeltaQuirks(quirks: DeltaQuirks): void;

  setPaging(options: PagingOptions): ResolvedPaging;

  /** Moves emulator time forward (token expiry, delta retention, timestamps). */
  advanceClock(ms: number): void;
  now(): number;

  /** Live change-notification subscriptions, and the notifications sent so far with their answers. */
  subscriptions(): Subscription[];
  deliveredNotifications(): DeliveredNotification[];
  /** Resolves once every notification sent so far has been answered. */
  notificationsSettled(): Promise<void>;
  /** Forgets a subscription without telling its owner (as when Graph drops one). */
  dropSubscription(id: string): void;
  /** POSTs any payload to a subscription's URL, e.g. a notification with a forged clientState. */
  sendNotification(subscriptionId: string, payload: unknown): Promise<void>;
  allowHttpNotificationUrls(allow: boolean): void;

  requests(query?: RequestQuery): LoggedRequest[];
  requestCount(query?: RequestQuery): number;
  clearRequests(): void;
}

export interface ControlDeps {
  store: Store;
  auth: AuthService;
  faults: FaultEngine;
  pager: Pager;
  log: RequestLog;
  clock: Clock;
  deltaRetention: { ms: number };
  deltaQuirks: DeltaQuirks;
  subscriptions: SubscriptionService;
  /** Stops or resumes listening for the `refuse` outage mode. */
  setListening(on: boolean): Promise<void>;
}

export const DEFAULT_DELTA_RETENTION_MS = 30 * 24 * 3600 * 1000;

export function createControl(d: ControlDeps): EmulatorControl {
  const control: EmulatorControl = {
    get credentials() {
      const client = d.auth.clients[0];
      const user = d.auth.users[0];
      return {
        tenantId: d.auth.tenantId,
        clientId: client?.clientId ?? '',
        clientSecret: client?.clientSecret ?? '',
        username: user?.username ?? '',
        password: user?.password ?? '',
      };
    },

    async reset() {
      d.store.reset();
      d.faults.reset();
      d.pager.reset();
      d.log.clear();
      d.auth.reset();
      d.clock.reset();
      d.subscriptions.reset();
      d.deltaRetention.ms = DEFAULT_DELTA_RETENTION_MS;
      for (const key of Object.keys(d.deltaQuirks)) delete d.deltaQuirks[key as keyof DeltaQuirks];
      await d.setListening(true);
    },

    createSite: (input) => d.store.createSite(input),
    createList: (siteId, input) => d.store.createList(siteId, input),
    seedPortalSite: (options) => seedPortalSite(d.store, options),
    sites: () => d.store.allSites(),
    findSite: (hostname, path) => d.store.findSiteByPath(hostname, path)?.info,
    lists: (siteId) => d.store.listsOf(siteId).map((l) => l.info),
    getList: (ref) => d.store.getList(ref).info,

    items: (ref) => d.store.itemsOf(ref).map(snapshot),
    item(ref, id) {
      const list = d.store.getList(ref);
      const item = list.items.get(Number(id));
      return item ? snapshot(item) : undefined;
    },
    addItem: (ref, fields) => snapshot(d.store.createItem(ref, fields)),
    updateItem: (ref, id, fields) => snapshot(d.store.updateItem(ref, id, fields)),
    deleteItem: (ref, id) => d.store.deleteItem(ref, id),
    updateItemUnrecorded: (ref, id, fields) =>
      snapshot(d.store.updateItem(ref, id, fields, undefined, { unrecorded: true })),
    deleteItemUnrecorded: (ref, id) => d.store.deleteItem(ref, id, undefined, { unrecorded: true }),

    addFault: (rule) => d.faults.add(rule),
    failNext: (count, status, options = {}) =>
      d.faults.add({
        path: options.path,
        method: options.method,
        skip: options.skip,
        times: count,
        action: { type: 'status', status, retryAfter: options.retryAfter, code: options.code },
      }),
    removeFault: (id) => d.faults.remove(id),
    clearFaults: () => d.faults.clear(),
    faults: () => d.faults.list(),
    setLatency(latency) {
      if (latency === null || latency === 0) d.faults.latency = undefined;
      else d.faults.latency = typeof latency === 'number' ? { ms: latency } : latency;
    },
    async setOutage(outage) {
      const next = outage === true ? { mode: 'status' as const } : outage === false ? undefined : outage;
      d.faults.outage = next;
      await d.setListening(next?.mode !== 'refuse');
    },

    expireTokens: () => d.auth.expireAllTokens(),
    setTokenLifetime(seconds) {
      d.auth.tokenLifetimeSeconds = seconds;
    },
    setCredentials(credentials) {
      if (credentials.clients) d.auth.clients = credentials.clients;
      if (credentials.users) d.auth.users = credentials.users;
    },
    addClientCertificate(clientId, certificatePem) {
      const client = d.auth.clients.find((c) => c.clientId.toLowerCase() === clientId.toLowerCase());
      if (!client) throw new Error(`No client ${clientId}`);
      new X509Certificate(certificatePem); // refuses what is not a certificate
      client.certificates = [...(client.certificates ?? []), certificatePem];
    },

    invalidateDeltaTokens(ref) {
      const lists = ref ? [d.store.getList(ref)] : d.store.allSites().flatMap((s) => d.store.listsOf(s.id));
      for (const list of lists) list.deltaEpoch++;
    },
    setDeltaTokenRetention(ms) {
      d.deltaRetention.ms = ms;
    },
    setDeltaQuirks(quirks) {
      Object.assign(d.deltaQuirks, quirks);
    },

    setPaging: (options) => d.pager.configure(options),

    advanceClock: (ms) => d.clock.advance(ms),
    now: () => d.clock.now(),

    subscriptions: () => [...d.subscriptions.subscriptions.values()],
    deliveredNotifications: () => [...d.subscriptions.delivered],
    notificationsSettled: () => d.subscriptions.settled(),
    dropSubscription(id) {
      d.subscriptions.subscriptions.delete(id);
    },
    async sendNotification(subscriptionId, payload) {
      const sub = d.subscriptions.subscriptions.get(subscriptionId);
      if (!sub) throw new Error(`No subscription ${subscriptionId}`);
      await d.subscriptions.post(sub, payload);
    },
    allowHttpNotificationUrls(allow) {
      d.subscriptions.allowHttp = allow;
    },
    requests: (query) => d.log.find(query),
    requestCount: (query) => d.log.count(query),
    clearRequests: () => d.log.clear(),
  };
  return control;
}
