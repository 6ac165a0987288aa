import type { FastifyBaseLogger } from 'fastify';
import type { SessionStore } from './auth/sessions';
import type { LoginThrottle } from './auth/throttle';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import type { ListAnswers } from './http/list-answers';
import type { RequestLimits } from './http/request-limits';
import type { MailRuntime } from './mail/transport';
import type { DiscoveryCache } from './modules/microsoft-sign-in/discovery';
import type { BookingsRefreshResult } from './sharepoint/bookings-refresh';
import type { SharePointConnector } from './sharepoint/connector';

/** Where a refresh running in this process has got to (the status line shows it). */
export type RefreshStage = 'connecting' | 'processing';

/**
 * The bookings refresh as routes and services see it. jobs/refresh-job.ts implements it; it is handed
 * in here so that nothing below jobs/ imports jobs/.
 */
export interface BookingsRefresher {
  /** Refresh now, or join the refresh already running here or on another instance. */
  run(): Promise<BookingsRefreshResult>;
  /** Start a refresh without waiting; one already running is followed by another (a change arrived). */
  runSoon(): void;
  /** The stage of a refresh running in this process; null when none is. */
  readonly stage: RefreshStage | null;
}

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
  /** Sign in with Microsoft: the identity provider's discovery, fetched once per app */
  signInDiscovery: DiscoveryCache;
}
