import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { accessForUnmatched, isStaff } from '../http/access';

const defaultClientDir = fileURLToPath(new URL('../../../dist/client', import.meta.url));

export interface ClientPluginOptions {
  /** directory of the built client; defaults to dist/client */
  clientDir?: string | undefined;
}

/** The built single-page client, and what answers when no route matches. */
const clientPlugin: FastifyPluginAsync<ClientPluginOptions> = async (app, options) => {
  const clientDir = options.clientDir ?? defaultClientDir;
  const indexFile = `${clientDir}/index.html`;
  const hasClient = existsSync(indexFile);
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
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
  const indexHtml = hasClient ? readFileSync(indexFile, 'utf8') : null;

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
    if ((request.method === 'GET' || request.method === 'HEAD') && indexHtml) {
      // Client-side routes: the single-page app decides, including its own 404 page.
      return reply
        .code(200)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(indexHtml);
    }
    return reply.code(404).send({ message: 'Not found' });
  });
};

export default fp(clientPlugin, { name: 'client', dependencies: ['sessions-and-access', 'routes'] });
