import type { FastifyBaseLogger } from 'fastify';
import type { SessionStore } from './auth/sessions';
import type { LoginThrottle } from './auth/throttle';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import type { ListAnswers } from './http/list-answers';
import type { RequestLimits } from './http/request-limits';
import type { MailRuntime } from './mail/transport';
import type { DiscoveryCache } from './modules/microsoft-sign-in/discovery';
import type { PushRuntime } from './modules/notifications/delivery';
import type { BookingsRefresher } from './modules/scheduler/service';
import type { SharePointConnector } from './sharepoint/connector';

/**
 * The app's decorators (src/server/plugins), gathered once by plugins/context.ts for routes, services
 * and jobs, which take no Fastify types. Nothing is added here that no plugin decorates.
 */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  appSecret: string;
  sessions: SessionStore;
  loginThrottle: LoginThrottle;
  /** request budgets shared by every instance; routes name theirs in `config.rateLimit` */
  limits: RequestLimits;
  log: FastifyBaseLogger;
  /** big lists: answered with 304, or from memory, while their version is unchanged */
  lists: ListAnswers;
  /** the current time; tests may pin it */
  now: () => Date;
  bookingsRefresh: BookingsRefresher;
  sharePoint: SharePointConnector;
  mailer: MailRuntime;
  /** web push: VAPID keys, and what wakes push delivery after a push is queued */
  push: PushRuntime;
  /** Sign in with Microsoft: the identity provider's discovery, fetched once per app */
  signInDiscovery: DiscoveryCache;
}
