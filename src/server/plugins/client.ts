import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { accessForUnmatched, isStaff } from '../http/access';
import { chooseEncoding } from '../http/list-answers';
import { pageCompressor } from '../http/page-compression';
import { STARTING_PAGE, STARTING_RELOAD_SECONDS } from '../http/starting-page';

const defaultClientDir = fileURLToPath(new URL('../../../dist/client', import.meta.url));

export interface ClientPluginOptions {
  /**
   * `npm start` is building the client beside this server (ADR 27): until its index.html appears,
   * page requests answer a "starting" page instead of the client.
   */
  clientBuilding?: boolean | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** whether the built client is in place to be served (the ready probe asks) */
    clientBuilt: () => boolean;
  }
}

/** The built single-page client, and what answers when no route matches. */
const clientPlugin: FastifyPluginAsync<ClientPluginOptions> = async (app, options) => {
  const clientDir = app.config.CLIENT_DIR ?? defaultClientDir;
  const indexFile = `${clientDir}/index.html`;
  const hasClient = existsSync(indexFile);
  const clientBuilding = !hasClient && options.clientBuilding === true;
  if (hasClient || clientBuilding) {
    // The files are the same for everyone: a page's five or six of them need no session read each,
    // on the one thread that answers the page's own reads beside them (ADR 58). In a plugin of its
    // own, so only the routes @fastify/static adds are marked. Not while the client is being built:
    // its one catch-all route then also takes every page and unknown path, and hands them to the
    // not-found handler, which needs to know who asked.
    await app.register(async (files) => {
      if (!clientBuilding) {
        files.addHook('onRoute', (route) => {
          route.config = { ...route.config, sessionless: true };
        });
      }
      await files.register(fastifyStatic, {
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
    });
  }
  // Every page is the same index.html: the client's router starts each page's code and first reads.
  let indexHtml: string | null = null;
  if (hasClient) indexHtml = readFileSync(indexFile, 'utf8');
  // start.mjs moves the finished build into place in one rename, so an index.html found is complete
  const builtIndexHtml = () => {
    if (indexHtml === null && clientBuilding && existsSync(indexFile))
      indexHtml = readFileSync(indexFile, 'utf8');
    return indexHtml;
  };
  app.decorate('clientBuilt', () => builtIndexHtml() !== null);

  const compressPage = pageCompressor();

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (path.startsWith('/api/') || path === '/api') {
      // an unknown path answers like the routes beside it: 401/403 before 404, so probing reveals nothing
      const guard = accessForUnmatched(app.apiRoutes, path);
      if (!request.user) return reply.code(401).send({ message: 'Please sign in to continue' });
      if (guard === 'staff' && !isStaff(request.user))
        return reply.code(403).send({ message: 'This is for staff only' });
      return reply.code(404).send({ message: 'Not found' });
    }
    // A built file that is not there (a tab opened before a deploy asks for the old build's files)
    // is missing, not a page: the HTML would reach a script tag as a 200 the browser cannot run.
    // While the client is still being built it is not there yet, and the starting page answers.
    if (path.startsWith('/assets/') && builtIndexHtml() !== null)
      return reply.code(404).send({ message: 'Not found' });
    const page = request.method === 'GET' || request.method === 'HEAD' ? builtIndexHtml() : null;
    if (page) {
      // Client-side routes: the single-page app decides, including its own 404 page.
      reply
        .code(200)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('vary', 'accept-encoding');
      const encoding = chooseEncoding(request.headers['accept-encoding']);
      if (!encoding) return reply.send(page);
      return reply.header('content-encoding', encoding).send(compressPage(page, encoding));
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
};

export default fp(clientPlugin, {
  name: 'client',
  dependencies: ['database', 'sessions-and-access', 'routes'],
});
