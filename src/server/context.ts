import type { FastifyBaseLogger } from 'fastify';
import type { SessionStore } from './auth/sessions';
import type { LoginThrottle } from './auth/throttle';
import type { Config } from './config';
import type { Database, Db } from './db/client';
import type { ListAnswers } from './http/list-answers';
import type { RequestLimits } from './http/request-limits';

/** Everything a route or job needs, built once in buildApp and passed down explicitly. */
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
}
