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
import type { ThrottleLimits } from './auth/throttle';
import type { Config } from './config';
import type { AppContext } from './context';
import type { Database } from './db/client';
import { frameworkErrorHandler } from './http/errors';
import type { Budgets } from './http/request-limits';
import type { SchedulerOptions } from './jobs/scheduler';
import type { MailRuntimeOptions } from './mail/transport';
import type { MicrosoftSignInRuntimeOptions } from './modules/microsoft-sign-in/service';
import apiDocs from './plugins/api-docs';
import client from './plugins/client';
import context from './plugins/context';
import databasePlugin from './plugins/database';
import http from './plugins/http';
import initialStaff from './plugins/initial-staff';
import jobs from './plugins/jobs';
import listCache from './plugins/list-cache';
import mailer from './plugins/mailer';
import routesPlugin from './plugins/routes';
import sessionsAndAccess, { type ApiRoute } from './plugins/sessions-and-access';
import sharePoint from './plugins/sharepoint';
import type { ConnectionTester } from './sharepoint/connection';
import type { SharePointRuntimeOptions } from './sharepoint/connector';

export type { ApiRoute };

export interface BuildOptions {
  /** Use this database instead of opening one from the configuration (tests share nothing else). */
  database?: Database;
  /** Sign-in failure limits replacing the defaults (tests lower them). */
  loginThrottle?: Partial<ThrottleLimits>;
  /** Request budgets replacing the defaults (tests lower them to reach them quickly). */
  requestLimits?: Partial<Budgets>;
  /** Directory of the built client; defaults to dist/client. */
  clientDir?: string;
  /**
   * `npm start` is building the client beside this server (ADR 27): until its index.html appears,
   * page requests answer a "starting" page instead of the client.
   */
  clientBuilding?: boolean;
  now?: () => Date;
  /** Receives the one-time generated staff password (default: printed to stdout). */
  onGeneratedStaffPassword?: (username: string, password: string) => void;
  /** Tries SharePoint settings from the settings page; the SharePoint adapter provides it. */
  connectionTester?: ConnectionTester;
  /** Where log lines go (default stdout); tests use it to read what was logged. */
  logStream?: { write(line: string): void };
  /** SharePoint adapter tuning (tests inject short retry delays). */
  sharePoint?: SharePointRuntimeOptions;
  /** Memory for cached range lists (default 64 MiB). */
  listCacheBytes?: number;
  /** Background jobs (booking refresh, outbox drain); `false` keeps them off (tests). */
  scheduler?: false | Partial<SchedulerOptions>;
  /** Outgoing email: extra certificate authorities (a private CA; tests trust their SMTP server's). */
  mail?: MailRuntimeOptions;
  /** Sign in with Microsoft tuning (the e2e server points it at its test identity provider). */
  microsoftSignIn?: MicrosoftSignInRuntimeOptions;
  /**
   * A server already listening, answering "starting" while the app is built (serve.ts, ADR 45).
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
  close(): Promise<void>;
}

/** `/api/calendar-feed/<token>.ics` with the token replaced, for log lines. */
export function redactFeedToken(url: string): string {
  return url.replace(/(\/api\/calendar-feed\/)[^/?#]+\.ics/, '$1[redacted].ics');
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
      // A calendar feed's URL is its only key: request lines must not carry it.
      serializers: {
        req: (request) => ({
          method: request.method,
          url: redactFeedToken(request.url),
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
  await app.register(initialStaff, { onGeneratedStaffPassword: options.onGeneratedStaffPassword });
  // every request
  await app.register(http);
  await app.register(sessionsAndAccess, {
    loginThrottle: options.loginThrottle,
    requestLimits: options.requestLimits,
  });
  // services the routes and jobs use
  await app.register(listCache, { maxBytes: options.listCacheBytes });
  await app.register(mailer, options.mail ?? {});
  await app.register(sharePoint, options.sharePoint ?? {});
  await app.register(jobs, { scheduler: options.scheduler });
  await app.register(context);
  // what the app answers
  await app.register(apiDocs);
  await app.register(routesPlugin, {
    connectionTester: options.connectionTester,
    microsoftSignIn: options.microsoftSignIn,
  });
  await app.register(client, { clientDir: options.clientDir, clientBuilding: options.clientBuilding });
  await app.ready();
  adopted.takeOver();

  return {
    app,
    ctx: app.ctx,
    routes: app.apiRoutes,
    createdStaffUsername: app.createdStaffUsername,
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
