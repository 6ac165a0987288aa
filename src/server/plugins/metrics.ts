import { createHash, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { BOOKINGS_REFRESH_JOB } from '../modules/scheduler/service';

/** The counters other plugins add to: emails and SharePoint failures are counted where they happen. */
export interface AppMetrics {
  registry: Registry;
  emails: Counter<'outcome'>;
  sharePointErrors: Counter<'area' | 'kind'>;
  signInFailures: Counter<'route' | 'status'>;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: AppMetrics;
  }
}

/** The routes a wrong password or a paused account is answered on. */
const SIGN_IN_ROUTES = new Set(['/api/login', '/api/auth/staff-login']);

/**
 * `/metrics` in Prometheus's text format, for the operator's monitoring: requests by route, the
 * SharePoint outboxes, SharePoint failures, the bookings refresh, emails and sign-in failures. Each
 * app has its own registry (tests build many apps in one process). Counters are this process's;
 * gauges read the database, so every instance reports the same outbox and refresh. Closed unless
 * METRICS_TOKEN is set, and then only to `Authorization: Bearer <token>`.
 */
const metricsPlugin: FastifyPluginAsync = async (app) => {
  const registry = new Registry();
  const { db } = app.database;
  const requests = new Counter({
    name: 'afp_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'afp_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const signInFailures = new Counter({
    name: 'afp_sign_in_failures_total',
    help: 'Sign-ins refused: passwords wrong (401) or paused (429), Microsoft sign-in by its reason; by route',
    labelNames: ['route', 'status'] as const,
    registers: [registry],
  });
  const emails = new Counter({
    name: 'afp_emails_total',
    help: 'Emails handed to the mail server (sent) or refused or not delivered to it (failed)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const sharePointErrors = new Counter({
    name: 'afp_sharepoint_errors_total',
    help: 'SharePoint work that failed, by area (bookings, availability) and kind of failure',
    labelNames: ['area', 'kind'] as const,
    registers: [registry],
  });
  const now = () => app.now().getTime();
  new Gauge({
    name: 'afp_outbox_depth',
    help: 'Changes waiting to be written to SharePoint, by outbox',
    labelNames: ['outbox'] as const,
    registers: [registry],
    async collect() {
      for (const outbox of await readOutboxes()) this.set({ outbox: outbox.name }, outbox.depth);
    },
  });
  new Gauge({
    name: 'afp_outbox_oldest_age_seconds',
    help: 'Age of the oldest change waiting to be written to SharePoint, by outbox (0 when empty)',
    labelNames: ['outbox'] as const,
    registers: [registry],
    async collect() {
      for (const outbox of await readOutboxes())
        this.set({ outbox: outbox.name }, outbox.oldest ? (now() - outbox.oldest.getTime()) / 1000 : 0);
    },
  });
  new Gauge({
    name: 'afp_sharepoint_problem',
    help: 'SharePoint work failing since its last success, shown to staff (1), by area',
    labelNames: ['area'] as const,
    registers: [registry],
    async collect() {
      const found = rows<{ name: string }>(
        await db.execute(sql`select name from scheduler_state where name like 'sharepoint-problem:%'`),
      ).map((row) => row.name.slice('sharepoint-problem:'.length));
      for (const area of ['bookings', 'availability']) this.set({ area }, found.includes(area) ? 1 : 0);
    },
  });
  new Gauge({
    name: 'afp_bookings_refresh_age_seconds',
    help: 'Seconds since the last bookings refresh from SharePoint ended (absent before the first)',
    registers: [registry],
    async collect() {
      this.reset();
      const state = await readRefresh();
      if (state?.finished_at) this.set((now() - new Date(state.finished_at).getTime()) / 1000);
    },
  });
  new Gauge({
    name: 'afp_bookings_refresh_failing',
    help: 'Whether the last bookings refresh from SharePoint failed (1) or succeeded (0)',
    registers: [registry],
    async collect() {
      const state = await readRefresh();
      this.set(state?.last_error ? 1 : 0);
    },
  });

  async function readOutboxes() {
    const counted = rows<{ name: string; depth: number; oldest: string | Date | null }>(
      await db.execute(sql`
        select 'availability' as name, count(*)::int as depth, min(created_at) as oldest from sync_outbox
        union all
        select 'bookings', count(*)::int, min(created_at) from booking_outbox`),
    );
    return counted.map((row) => ({
      name: row.name,
      depth: Number(row.depth),
      oldest: row.oldest === null ? null : new Date(row.oldest),
    }));
  }
  async function readRefresh() {
    return rows<{ finished_at: string | Date | null; last_error: string | null }>(
      await db.execute(
        sql`select finished_at, last_error from scheduler_state where name = ${BOOKINGS_REFRESH_JOB}`,
      ),
    )[0];
  }

  app.decorate('metrics', { registry, emails, sharePointErrors, signInFailures });

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const method = request.method;
    requests.inc({ method, route, status: String(reply.statusCode) });
    durations.observe({ method, route }, reply.elapsedTime / 1000);
    if (SIGN_IN_ROUTES.has(route) && (reply.statusCode === 401 || reply.statusCode === 429))
      signInFailures.inc({ route, status: String(reply.statusCode) });
  });

  const token = app.config.METRICS_TOKEN;
  const tokenDigest = token ? digest(token) : null;
  const authorised = (request: FastifyRequest) => {
    const match = /^Bearer (.+)$/.exec(request.headers.authorization ?? '');
    return tokenDigest !== null && match !== null && timingSafeEqual(digest(match[1]!), tokenDigest);
  };
  app.get(
    '/metrics',
    {
      config: { access: 'public', sessionless: true },
      schema: {
        tags: ['health'],
        summary: 'Prometheus metrics (Authorization: Bearer METRICS_TOKEN)',
        hide: true,
      },
    },
    async (request, reply) => {
      // never kept by a browser or a proxy, whatever the answer
      reply.header('cache-control', 'no-store');
      if (!tokenDigest) return reply.code(404).send({ message: 'Not found' });
      if (!authorised(request))
        return reply
          .code(401)
          .header('www-authenticate', 'Bearer realm="metrics"')
          .send({ message: 'The metrics need the token set in METRICS_TOKEN' });
      return reply.type(registry.contentType).send(await registry.metrics());
    },
  );
};

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** node-postgres and PGlite both answer { rows }; drizzle's types differ by driver. */
function rows<Row>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}

export default fp(metricsPlugin, { name: 'metrics', dependencies: ['database', 'sessions-and-access'] });
