/**
 * The whole server as a tree of Fastify plugins, in the order they build on each other. Each plugin
 * (src/server/plugins) has a name, declares the plugins it needs, and exposes what it makes as a typed
 * decorator on the app; nothing is found through module-level registries. Used by main.ts and tests.
 */
import type { Server } from 'node:http';
import Fastify, {
  type FastifyInstance,
  type FastifyServerFactory,
  type FastifyServerFactoryHandler,
  LogController,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { AppContext } from './context';
import type { Database } from './db/client';
import { frameworkErrorHandler } from './http/errors';
import apiDocs from './plugins/api-docs';
import client from './plugins/client';
import context from './plugins/context';
import databasePlugin from './plugins/database';
import http from './plugins/http';
import initialStaff from './plugins/initial-staff';
import jobs from './plugins/jobs';
import listAnswers from './plugins/list-answers';
import mailer from './plugins/mailer';
import metrics from './plugins/metrics';
import microsoftSignIn from './plugins/microsoft-sign-in';
import probes from './plugins/probes';
import push from './plugins/push';
import routesPlugin from './plugins/routes';
import sessionsAndAccess, { type ApiRoute } from './plugins/sessions-and-access';
import sharePoint from './plugins/sharepoint';
import type { ConnectionTester } from './sharepoint/connection';

export type { ApiRoute };

/**
 * What the configuration cannot carry (ADR 0037): things the caller owns rather than settings. Every
 * setting, test tuning included, is in Config.
 */
export interface BuildOptions {
  /** an open database to use instead of opening one from the configuration (tests, scripts) */
  database?: Database;
  /** the app's clock (tests pin it) */
  now?: () => Date;
  /** where log lines go (default stdout); tests read what was logged */
  logStream?: { write(line: string): void };
  /**
   * `npm start` is building the client beside this server (ADR 27): until its index.html appears,
   * page requests answer a "starting" page instead of the client. The process knows it from its
   * command line.
   */
  clientBuilding?: boolean;
  /**
   * Tries SharePoint settings from the settings page instead of the SharePoint adapter: the tests
   * of the settings page and of backups watch what it is handed.
   */
  connectionTester?: ConnectionTester;
  /**
   * A server already listening, answering "starting" while the app is built (serve.ts, ADR 42).
   * The app takes its requests over once ready, instead of listening itself, and closes it in close().
   */
  server?: Server;
}

export interface BuiltApp {
  app: FastifyInstance;
  /** The app's decorators gathered for services (plugins/context.ts). */
  ctx: AppContext;
  /** Every /api route the app serves (HEAD twins left out), in registration order. */
  routes: ApiRoute[];
  /** The staff account this start created because none existed, or null when one already did. */
  createdStaffUsername: string | null;
  /** That account's generated password when the configuration named none: shown once, kept nowhere. */
  generatedStaffPassword: string | null;
  close(): Promise<void>;
}

/** Query parameters that carry a credential: an invitation token, Microsoft's code and state. */
const CREDENTIAL_PARAMETERS = new Set(['invitation', 'token', 'code', 'state', 'validationtoken']);

/**
 * A request URL as log lines show it: a calendar feed's token (`/api/calendar-feed/<token>.ics`, the
 * feed's only key) and the values of query parameters that carry a credential replaced. Link
 * credentials travel in bodies; an old invitation link (`?invitation=`) or a client asking the old way
 * would still put one in a query string, and Microsoft's answer carries its code and state there.
 */
export function redactUrl(url: string): string {
  const [path = '', query] = url.split(/\?(.*)/s, 2);
  const redactedPath = path.replace(/(\/api\/calendar-feed\/)[^/]+\.ics$/, '$1[redacted].ics');
  if (query === undefined) return redactedPath;
  const parts = query.split('&').map((part) => {
    const name = part.split('=', 1)[0] ?? '';
    let key = name;
    try {
      key = decodeURIComponent(name.replace(/\+/g, ' '));
    } catch {
      // an unreadable name is shown as sent
    }
    return CREDENTIAL_PARAMETERS.has(key.trim().toLowerCase()) ? `${name}=[redacted]` : part;
  });
  return `${redactedPath}?${parts.join('&')}`;
}

/**
 * A hop count believes that many proxies nearest to us (what Fastify does with a number, which its
 * types do not declare); a list believes only those proxies; never every hop.
 */
function trustProxyOption(trust: Config['TRUST_PROXY']) {
  if (typeof trust !== 'number') return trust;
  return (_address: string, hop: number) => hop < trust;
}

/**
 * Fastify's options for a server made elsewhere: it is handed over as it is, and the app's handler
 * replaces the starting answer only once `app.ready()` has run (takeOver), so no request reaches a
 * half-registered app. The timeouts are the ones Fastify sets on a server it makes itself.
 */
function adoptedServer(server: Server | undefined): {
  options: { serverFactory?: FastifyServerFactory<Server> };
  takeOver: () => void;
} {
  if (!server) return { options: {}, takeOver: () => {} };
  let appHandler: FastifyServerFactoryHandler | undefined;
  return {
    options: {
      serverFactory: (handler, fastifyOptions) => {
        appHandler = handler;
        server.keepAliveTimeout = Number(fastifyOptions.keepAliveTimeout);
        server.requestTimeout = Number(fastifyOptions.requestTimeout);
        server.setTimeout(Number(fastifyOptions.connectionTimeout));
        return server;
      },
    },
    takeOver: () => {
      server.removeAllListeners('request');
      server.on('request', appHandler!);
    },
  };
}

function createFastify(
  config: Config,
  logStream: BuildOptions['logStream'],
  serverOptions: ReturnType<typeof adoptedServer>['options'],
) {
  return Fastify({
    ...serverOptions,
    logger: {
      level: config.LOG_LEVEL,
      redact: {
        paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
        censor: '[redacted]',
      },
      // A calendar feed's URL is its only key, and a query string may carry a link's credential:
      // request lines carry neither.
      serializers: {
        req: (request) => ({
          method: request.method,
          url: redactUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
        }),
      },
      ...(logStream ? { stream: logStream } : {}),
    },
    bodyLimit: 256 * 1024,
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    // Per-request lines only when debugging; errors are always logged by our error handler.
    logController: new LogController({
      disableRequestLogging: config.LOG_LEVEL !== 'debug' && config.LOG_LEVEL !== 'trace',
    }),
    routerOptions: { maxParamLength: 200 },
    // Start-up work runs inside plugins: migrations, the first staff password's hash. Fastify's
    // 10-second limit per plugin failed starts on a busy machine (and would fail a long migration);
    // a start that really hangs is seen by whoever started it.
    pluginTimeout: 0,
    // URLs the router cannot read get our error shape, not Fastify's (see frameworkErrorHandler).
    frameworkErrors: frameworkErrorHandler,
    // Graceful shutdown: once close() begins, a request that still arrives on an open keep-alive
    // connection is served (with `Connection: close`) rather than answered with Fastify's bare 503.
    // PGlite runs queries on the event loop, so a request sent just before SIGTERM may be read only
    // after it; the client sent it to a live server and should get its answer (system/faults.test.ts).
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<BuiltApp> {
  const adopted = adoptedServer(options.server);
  const app = createFastify(config, options.logStream, adopted.options);

  // what everything stands on
  await app.register(databasePlugin, {
    config,
    database: options.database,
    now: options.now ?? (() => new Date()),
  });
  await app.register(initialStaff);
  // every request
  await app.register(http);
  await app.register(sessionsAndAccess);
  await app.register(metrics);
  // services the routes and jobs use
  await app.register(listAnswers);
  await app.register(mailer);
  await app.register(push);
  await app.register(sharePoint);
  await app.register(microsoftSignIn);
  await app.register(jobs);
  await app.register(context);
  // what the app answers
  await app.register(apiDocs);
  await app.register(routesPlugin, { connectionTester: options.connectionTester });
  await app.register(client, { clientBuilding: options.clientBuilding });
  await app.register(probes);
  await app.ready();
  adopted.takeOver();

  return {
    app,
    ctx: app.ctx,
    routes: app.apiRoutes,
    createdStaffUsername: app.createdStaffUsername,
    generatedStaffPassword: app.takeGeneratedStaffPassword(),
    async close() {
      // Stop listening at once (app.close waits for requests in flight) while the scheduler finishes
      // its round; the database closes only when both are done.
      // Connections idle at that moment are closed by server.close(); one that turns idle later
      // (an answer that went out just before the header above applied) is closed here.
      const reaper = setInterval(() => app.server.closeIdleConnections(), 250);
      // Fastify closes only a server it listened on; an adopted one is closed here, beside it
      const adoptedClosed = options.server
        ? new Promise<void>((resolve) => options.server!.close(() => resolve()))
        : undefined;
      try {
        await Promise.all([app.scheduler?.stop(), app.close(), adoptedClosed]);
      } finally {
        clearInterval(reaper);
      }
      if (!options.database) await app.database.close();
    },
  };
}
