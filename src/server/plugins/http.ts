import { createHash } from 'node:crypto';
import { constants as zlibConstants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { THEME_INIT_SCRIPT } from '../../shared/theme-init-script';
import { alwaysSecure } from '../auth/session-cookies';
import { registerErrorHandling } from '../http/errors';
import { refuseUnstorableText } from '../http/text-input';

/**
 * The one inline script a page may run: the theme script the build writes into the page's head,
 * named by its hash so that no other inline script runs (docs/decisions/0048-inline-theme-script-by-hash.md).
 */
export const THEME_SCRIPT_SOURCE = `'sha256-${createHash('sha256').update(THEME_INIT_SCRIPT).digest('base64')}'`;

/** What every answer shares: zod validation, the one error shape, security headers, compression. */
const httpPlugin: FastifyPluginAsync = async (app) => {
  const { config } = app;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", THEME_SCRIPT_SOURCE],
        // Radix positions popovers with inline style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        // the login page's "Sign in with Microsoft" form is answered with a redirect to the identity
        // provider, which form-action governs too
        formAction: ["'self'", new URL(config.ENTRA_AUTHORITY_HOST ?? config.AUTHORITY_HOST).origin],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    // only where TLS is promised: COOKIE_SECURE=true, or a PUBLIC_URL on https
    strictTransportSecurity: alwaysSecure(config) ? undefined : false,
    crossOriginEmbedderPolicy: false,
  });
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
    // API answers are per-user; no shared cache may keep them. List answers set their own
    // (private, revalidated by ETag: http/list-answers.ts).
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control'))
      reply.header('cache-control', 'no-store');
    if (shuttingDown) reply.header('connection', 'close');
    return payload;
  });
};

export default fp(httpPlugin, { name: 'http', dependencies: ['database'] });
