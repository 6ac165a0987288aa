import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { constants as zlibConstants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyRequest, LogController } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { resolveAppSecret } from './app-secret';
import { createSessionStore, SESSION_COOKIE } from './auth/sessions';
import { createLoginThrottle, DEFAULT_THROTTLE, type ThrottleLimits } from './auth/throttle';
import type { Config } from './config';
import type { AppContext } from './context';
import { type Database, openDatabase } from './db/client';
import { migrateDatabase } from './db/migrate';
import { ensureInitialStaff } from './db/seed';
import { enforceAccess, isStaff, requireDeclaredAccess } from './http/access';
import { crossSiteGuard } from './http/cross-site';
import { frameworkErrorHandler, registerErrorHandling } from './http/errors';
import { createListCache } from './http/list-cache';
import { PAGE_MODULES, pagesWithPreloads, readManifest } from './http/page-preloads';
import { type Budgets, createRequestLimits, registerRequestLimits } from './http/request-limits';
import { STARTING_PAGE, STARTING_RELOAD_SECONDS } from './http/starting-page';
import { refuseUnstorableText } from './http/text-input';
import { type Scheduler, type SchedulerOptions, startScheduler } from './jobs/scheduler';
import { configureMail, type MailRuntimeOptions } from './mail/transport';
import { authRoutes } from './modules/auth/routes';
import { availabilityRoutes } from './modules/availability/routes';
import { bookingRoutes } from './modules/bookings/routes';
import { calendarFeedRoutes } from './modules/calendar-feed/routes';
import { completenessRoutes } from './modules/completeness/routes';
import { exportRoutes } from './modules/exports/routes';
import { facilitatorImportRoutes } from './modules/facilitators-import/routes';
import { freeRoutes } from './modules/free/routes';
import { healthRoutes } from './modules/health/routes';
import { historyRoutes } from './modules/history/routes';
import { microsoftSignInRoutes } from './modules/microsoft-sign-in/routes';
import {
  configureMicrosoftSignIn,
  type MicrosoftSignInRuntimeOptions,
} from './modules/microsoft-sign-in/service';
import { noteRoutes } from './modules/notes/routes';
import { offerRoutes } from './modules/offers/routes';
import { patternRoutes } from './modules/patterns/routes';
import { reminderRoutes } from './modules/reminders/routes';
import { safeguardingRoutes } from './modules/safeguarding/routes';
import { schedulerRoutes } from './modules/scheduler/routes';
import type { ConnectionTester } from './modules/settings/connection';
import { settingsRoutes } from './modules/settings/routes';
import { sharePointNotificationRoutes } from './modules/sharepoint-notifications/routes';
import { staffRoutes } from './modules/staff/routes';
import { userRoutes } from './modules/users/routes';
import {
  configureSharePoint,
  type SharePointRuntimeOptions,
  sharePointColumnChecker,
  sharePointConnectionTester,
} from './sharepoint/connector';

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
   * `npm start` is building the client beside this server (ADR 30): until its index.html appears,
   * page requests answer a "starting" page instead of the client.
   */
  clientBuilding?: boolean;
  now?: () => Date;
  /** Receives the one-time generated staff password (default: printed to stdout). */
  onGeneratedStaffPassword?: (username: string, password: string) => void;
  /** Tries SharePoint settings from the settings page; the SharePoint connector provides it. */
  connectionTester?: ConnectionTester;
  /** Where log lines go (default stdout); tests use it to read what was logged. */
  logStream?: { write(line: string): void };
  /** SharePoint connector tuning (tests inject short retry delays). */
  sharePoint?: SharePointRuntimeOptions;
  /** Memory for cached range lists (default 64 MiB). */
  listCacheBytes?: number;
  /** Background jobs (booking refresh, outbox drain); `false` keeps them off (tests). */
  scheduler?: false | Partial<SchedulerOptions>;
  /** Outgoing email: extra certificate authorities (a private CA; tests trust their SMTP server's). */
  mail?: MailRuntimeOptions;
  /** Sign in with Microsoft tuning (the e2e server points it at its test identity provider). */
  microsoftSignIn?: MicrosoftSignInRuntimeOptions;
}

/** One registered /api route, as the access and fuzz suites enumerate them. */
export interface ApiRoute {
  method: string;
  url: string;
  access: 'public' | 'user' | 'staff';
  /** The zod schemas the route declared (body, querystring, params). */
  schema: { body?: unknown; querystring?: unknown; params?: unknown };
  changesState: boolean;
}

export interface BuiltApp {
  app: FastifyInstance;
  ctx: AppContext;
  /** Every /api route the app serves (HEAD twins left out), in registration order. */
  routes: ApiRoute[];
  /** The staff account this start created because none existed, or null when one already did. */
  createdStaffUsername: string | null;
  close(): Promise<void>;
}

const defaultClientDir = fileURLToPath(new URL('../../dist/client', import.meta.url));

// Paths under these prefixes answer 401/403 even when no route matches, so probing reveals nothing.
const GUARDED_PREFIXES: [string, 'user' | 'staff'][] = [
  ['/api/staff/', 'staff'],
  ['/api/admin/', 'staff'],
  ['/api/sharepoint/', 'staff'],
  ['/api/', 'user'],
];

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

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<BuiltApp> {
  const app = Fastify({
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
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    bodyLimit: 256 * 1024,
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    // Per-request lines only when debugging; errors are always logged by our error handler.
    logController: new LogController({
      disableRequestLogging: config.LOG_LEVEL !== 'debug' && config.LOG_LEVEL !== 'trace',
    }),
    routerOptions: { maxParamLength: 200 },
    // URLs the router cannot read get our error shape, not Fastify's (see frameworkErrorHandler).
    frameworkErrors: frameworkErrorHandler,
    // Graceful shutdown: once close() begins, a request that still arrives on an open keep-alive
    // connection is served (with `Connection: close`) rather than answered with Fastify's bare 503.
    // PGlite runs queries on the event loop, so a request sent just before SIGTERM may be read only
    // after it; the client sent it to a live server and should get its answer (system/faults.test.ts).
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();

  const database =
    options.database ?? (await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR }));
  await migrateDatabase(database);
  const appSecret = await resolveAppSecret(config.APP_SECRET, database, config.DATA_DIR);

  const now = options.now ?? (() => new Date());
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    appSecret,
    // Sessions and the login throttle keep time by the app's clock, so expiry and pauses follow `now`.
    sessions: createSessionStore(database.db, appSecret, now),
    loginThrottle: createLoginThrottle(database.db, { ...DEFAULT_THROTTLE, ...options.loginThrottle }, now),
    limits: createRequestLimits(database.db, { ...config.REQUEST_BUDGETS, ...options.requestLimits }, now),
    log: app.log,
    lists: createListCache(database.db, options.listCacheBytes),
    now,
  };

  configureSharePoint(ctx, options.sharePoint);

  const created = await ensureInitialStaff(database.db, {
    username: config.INITIAL_STAFF_USERNAME,
    password: config.INITIAL_STAFF_PASSWORD,
  });
  if (created?.generatedPassword) {
    const print =
      options.onGeneratedStaffPassword ??
      ((username: string, password: string) =>
        process.stdout.write(
          `\nFirst staff account created. Sign in at /staff-login with\n  username: ${username}\n  password: ${password}\nThis password is shown only once; change it after signing in.\n\n`,
        ));
    print(created.username, created.generatedPassword);
  }

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);

  app.addHook('onRoute', requireDeclaredAccess);
  const routes: ApiRoute[] = [];
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    const access = route.config?.access;
    if (!access) return;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      routes.push({
        method,
        url: route.url,
        access,
        schema: {
          body: route.schema?.body,
          querystring: route.schema?.querystring,
          params: route.schema?.params,
        },
        changesState: method !== 'GET' || route.config?.changesState === true,
      });
    }
  });

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix positions popovers with inline style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    strictTransportSecurity: config.COOKIE_SECURE === 'true' ? undefined : false,
    crossOriginEmbedderPolicy: false,
  });
  await app.register(fastifyCookie);
  // Every answer over 1 KiB is compressed for clients that accept it: a month of the staff grid is
  // several MiB of repetitive JSON and goes out in a few hundred KiB. Brotli at quality 4 and gzip
  // at level 6 cost little CPU per request (Brotli's default, 11, is meant for build-time work).
  await app.register(fastifyCompress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: {
      params: {
        [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
        [zlibConstants.BROTLI_PARAM_QUALITY]: 4,
      },
    },
    zlibOptions: { level: 6 },
  });

  app.decorateRequest('user', null);
  app.decorateRequest('sessionToken', null);
  app.addHook('onRequest', crossSiteGuard(config.PUBLIC_URL));
  app.addHook('onRequest', async (request) => {
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return;
    const session = await ctx.sessions.resolve(token);
    if (session) {
      request.user = session.user;
      request.sessionToken = token;
    }
  });
  // Access is decided as soon as the session is known, before the body is read or validated: a caller
  // who may not use a route learns nothing about its input rules (400s) and cannot make us parse a body.
  app.addHook('onRequest', enforceAccess);
  // NUL and lone surrogates cannot be stored: 400 before validation, never a 500 from the database.
  app.addHook('preValidation', refuseUnstorableText);
  // Graceful shutdown: a request in flight when close() begins is answered with `Connection: close`,
  // so its keep-alive connection ends with the answer. Without it the connection stayed open after
  // the answer, server.close() waited for the 72-second keep-alive timeout and the process was
  // force-exited with code 1 after 15 s (system/faults.test.ts).
  let shuttingDown = false;
  app.addHook('preClose', async () => {
    shuttingDown = true;
  });
  app.addHook('onSend', async (request, reply, payload) => {
    // API answers are per-user; no shared cache may keep them.
    if (request.url.startsWith('/api/')) reply.header('cache-control', 'no-store');
    if (shuttingDown) reply.header('connection', 'close');
    return payload;
  });

  // before any route: it gives state-changing routes without a budget of their own the write budget
  await registerRequestLimits(app, ctx.limits);

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Arts Facilitator Portal API',
        version: '1.0.0',
        description: 'Sessions are cookies; see DESIGN.md section 10.',
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    // The reader's own CSP replaces ours and allows framing by this origin; no page of ours may be framed.
    transformStaticCSP: (header) => header.replace("frame-ancestors 'self'", "frame-ancestors 'none'"),
  });
  app.get('/api/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () =>
    app.swagger(),
  );

  await app.register(healthRoutes(ctx));
  await app.register(authRoutes(ctx));
  await app.register(userRoutes(ctx));
  await app.register(availabilityRoutes(ctx));
  await app.register(bookingRoutes(ctx));
  await app.register(staffRoutes(ctx));
  await app.register(noteRoutes(ctx));
  await app.register(
    settingsRoutes(ctx, {
      connectionTester: options.connectionTester ?? sharePointConnectionTester(ctx),
      columnChecker: sharePointColumnChecker(ctx),
    }),
  );
  await app.register(schedulerRoutes(ctx));
  await app.register(sharePointNotificationRoutes(ctx));
  await app.register(facilitatorImportRoutes(ctx));
  // --- patterns, who is free, completeness ---
  await app.register(patternRoutes(ctx));
  await app.register(freeRoutes(ctx));
  await app.register(offerRoutes(ctx));
  // --- reminders ---
  configureMail(ctx, options.mail);
  await app.register(completenessRoutes(ctx));
  await app.register(reminderRoutes(ctx));
  // --- calendar feed, exports ---
  await app.register(calendarFeedRoutes(ctx));
  await app.register(exportRoutes(ctx));
  // --- history ---
  await app.register(historyRoutes(ctx));
  // --- safeguarding ---
  await app.register(safeguardingRoutes(ctx));
  configureMicrosoftSignIn(ctx, options.microsoftSignIn);
  await app.register(microsoftSignInRoutes(ctx));

  const clientDir = options.clientDir ?? defaultClientDir;
  const indexFile = `${clientDir}/index.html`;
  const hasClient = existsSync(indexFile);
  const clientBuilding = !hasClient && options.clientBuilding === true;
  if (hasClient || clientBuilding) {
    await app.register(fastifyStatic, {
      root: clientDir,
      // listing the files once at start serves exactly the build that was there; a build still
      // being written has no files yet, so its files are looked up per request
      wildcard: clientBuilding,
      index: false,
      // the build writes .br/.gz copies at the highest quality (vite.config.ts); files without one
      // fall through to @fastify/compress
      preCompressed: true,
      setHeaders: (res, path) => {
        // Vite fingerprints everything under assets/, so those never change.
        if (path.includes('/assets/')) res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  let indexHtml: string | null = null;
  let pagesHtml = new Map<string, string>();
  const loadClient = () => {
    indexHtml = readFileSync(indexFile, 'utf8');
    pagesHtml = pagesWithPreloads(indexHtml, readManifest(clientDir));
  };
  if (hasClient) loadClient();
  // start.mjs moves the finished build into place in one rename, so an index.html found is complete
  const builtIndexHtml = () => {
    if (indexHtml === null && clientBuilding && existsSync(indexFile)) loadClient();
    return indexHtml;
  };
  /** A signed-in person's page names its own code for the browser to fetch at once (ADR 31). */
  const pageHtml = (request: FastifyRequest, path: string) => {
    const index = builtIndexHtml();
    const page = PAGE_MODULES[path];
    if (!index || !page || !request.user || (page.staff && !isStaff(request.user))) return index;
    return pagesHtml.get(path) ?? index;
  };

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (path.startsWith('/api/') || path === '/api') {
      const guard = GUARDED_PREFIXES.find(([prefix]) => path.startsWith(prefix))?.[1];
      if (guard && !request.user) return reply.code(401).send({ message: 'Please sign in to continue' });
      if (guard === 'staff' && !isStaff(request.user))
        return reply.code(403).send({ message: 'This is for staff only' });
      return reply.code(404).send({ message: 'Not found' });
    }
    const page = request.method === 'GET' || request.method === 'HEAD' ? pageHtml(request, path) : null;
    if (page) {
      // Client-side routes: the single-page app decides, including its own 404 page.
      return reply.code(200).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page);
    }
    if ((request.method === 'GET' || request.method === 'HEAD') && clientBuilding) {
      return reply
        .code(503)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('retry-after', String(STARTING_RELOAD_SECONDS))
        .header('refresh', String(STARTING_RELOAD_SECONDS))
        .send(STARTING_PAGE);
    }
    return reply.code(404).send({ message: 'Not found' });
  });

  await app.ready();
  const scheduler: Scheduler | undefined =
    options.scheduler === false ? undefined : startScheduler(ctx, options.scheduler ?? {});

  return {
    app,
    ctx,
    routes,
    createdStaffUsername: created?.username ?? null,
    async close() {
      // Stop listening at once (app.close waits for requests in flight) while the scheduler finishes
      // its round; the database closes only when both are done.
      // Connections idle at that moment are closed by server.close(); one that turns idle later
      // (an answer that went out just before the header above applied) is closed here.
      const reaper = setInterval(() => app.server.closeIdleConnections(), 250);
      try {
        await Promise.all([scheduler?.stop(), app.close()]);
      } finally {
        clearInterval(reaper);
      }
      if (!options.database) await database.close();
    },
  };
}
