import fastifyRateLimit, { type FastifyRateLimitStore, type RateLimitOptions } from '@fastify/rate-limit';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientNetwork } from '../client-network';
import type { Db } from '../db/client';
import { AppError } from '../errors';

import { type Budget, type BudgetName, type Budgets, DEFAULT_BUDGETS } from './budgets';

export { type Budget, type BudgetName, type Budgets, DEFAULT_BUDGETS } from './budgets';

/** Route config for a budget: `config: { access: 'user', rateLimit: ctx.limits.rateLimit('export') }`. */
export type RouteRateLimit = RateLimitOptions & { budget: BudgetName };

export interface RequestLimits {
  budgets: Budgets;
  rateLimit(name: BudgetName): RouteRateLimit;
  /** Spend `amount` from a budget now (the day-write budget, known only once the body is read). */
  spend(request: FastifyRequest, name: BudgetName, amount: number): Promise<void>;
  /** Delete counters whose window has passed (also done by the counting itself, at most once a minute). */
  sweep(): Promise<number>;
  /** the @fastify/rate-limit store over the same counters */
  Store: new (
    options: unknown,
  ) => FastifyRateLimitStore;
}

const SWEEP_EVERY_MS = 60_000;

export function callerKey(request: FastifyRequest, per: Budget['per']): string {
  if (per === 'user' && request.user) return `user:${request.user.id}`;
  return `address:${clientNetwork(request.ip)}`;
}

export function tooManyRequests(retryAfterSeconds: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new AppError(
    429,
    `Too many requests. Please wait ${seconds === 1 ? 'a second' : `${seconds} seconds`} and try again.`,
    undefined,
    { 'retry-after': String(seconds) },
  );
}

export function createRequestLimits(
  db: Db,
  overrides: Partial<Budgets> = {},
  now: () => Date = () => new Date(),
): RequestLimits {
  const budgets: Budgets = { ...DEFAULT_BUDGETS, ...overrides };
  let lastSweep = Number.NEGATIVE_INFINITY;

  async function sweep(): Promise<number> {
    const at = now();
    lastSweep = at.getTime();
    const result = await db.execute(
      sql`delete from request_limits where resets_at <= ${at.toISOString()}::timestamptz`,
    );
    const deletedLimits = (result as unknown as { rowCount?: number; affectedRows?: number }).rowCount ?? 0;
    // Failed-sign-in rows are as unbounded (one per username tried): gone once neither counting nor paused.
    await db.execute(sql`
      delete from login_throttle
      where window_started_at <= ${new Date(at.getTime() - 24 * 60 * 60_000).toISOString()}::timestamptz
        and not coalesce(blocked_until > ${at.toISOString()}::timestamptz, false)`);
    return deletedLimits;
  }

  /**
   * One statement per request, so instances spending at once all count: a row whose window has
   * passed starts again. Times come from the app clock, like the sign-in throttle's.
   */
  async function take(key: string, amount: number, windowMs: number) {
    const at = now();
    if (at.getTime() - lastSweep >= SWEEP_EVERY_MS) {
      lastSweep = at.getTime();
      // Bounded table; a failed sweep is retried at the next one and never fails the request.
      void sweep().catch(() => {});
    }
    const current = sql`${at.toISOString()}::timestamptz`;
    const resets = sql`${new Date(at.getTime() + windowMs).toISOString()}::timestamptz`;
    const result = await db.execute(sql`
      insert into request_limits as t (key, hits, resets_at) values (${key}, ${amount}, ${resets})
      on conflict (key) do update set
        hits = case when t.resets_at <= ${current} then ${amount} else t.hits + ${amount} end,
        resets_at = case when t.resets_at <= ${current} then ${resets} else t.resets_at end
      returning hits, resets_at`);
    const [row] = (result as unknown as { rows: { hits: number; resets_at: string | Date }[] }).rows;
    const resetsAt = row ? new Date(row.resets_at).getTime() : at.getTime() + windowMs;
    return { current: Number(row?.hits ?? amount), ttl: Math.max(0, resetsAt - at.getTime()) };
  }

  // The plugin builds one store for the app and one child per route with its merged options.
  class PostgresStore implements FastifyRateLimitStore {
    constructor(private readonly budget: string = 'route') {}
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void) {
      const options = budgets[this.budget as BudgetName];
      const windowMs = options?.windowMs ?? 60_000;
      take(`${this.budget}:${key}`, 1, windowMs).then(
        (result) => callback(null, result),
        (error: Error) => callback(error),
      );
    }
    // the plugin passes the route's merged rate-limit options, our `budget` name among them
    child(routeOptions: object) {
      return new PostgresStore((routeOptions as { budget?: string }).budget ?? 'route');
    }
  }

  return {
    budgets,
    rateLimit(name) {
      const budget = budgets[name];
      return {
        budget: name,
        max: budget.max,
        timeWindow: budget.windowMs,
        keyGenerator: (request: FastifyRequest) => callerKey(request, budget.per),
      };
    },
    async spend(request, name, amount) {
      const budget = budgets[name];
      const { current, ttl } = await take(
        `${name}:${callerKey(request, budget.per)}`,
        Math.max(0, Math.ceil(amount)),
        budget.windowMs,
      );
      if (current > budget.max) throw tooManyRequests(ttl / 1000);
    },
    sweep,
    Store: PostgresStore as unknown as RequestLimits['Store'],
  };
}

/**
 * Register the rate-limit plugin over the PostgreSQL counters. Must run before any route is added:
 * the onRoute hook here gives every state-changing /api route without a budget the `write` budget.
 */
export async function registerRequestLimits(app: FastifyInstance, limits: RequestLimits): Promise<void> {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    const methods = [route.method].flat();
    const changesState = methods.some((m) => m !== 'GET' && m !== 'HEAD') || route.config?.changesState;
    if (changesState && route.config?.rateLimit === undefined) {
      route.config = { ...route.config, rateLimit: limits.rateLimit('write') };
    }
  });
  await app.register(fastifyRateLimit, {
    global: false,
    store: limits.Store as never,
    // our one error shape; the plugin sets Retry-After before it throws
    errorResponseBuilder: (_request, context) => tooManyRequests(context.ttl / 1000),
    // a counter the database could not update must not let the request through unseen, nor fail it
    skipOnError: false,
  });
}

/**
 * preHandler of routes that write many availability days: the request spends its days from
 * `dayWrites` (one request of 800 days costs as much as 800 single saves).
 */
export function spendDayWrites<Body>(limits: RequestLimits, countDays: (body: Body) => number) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    await limits.spend(request, 'dayWrites', countDays(request.body as Body));
  };
}
