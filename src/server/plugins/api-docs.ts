import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** The OpenAPI document at /api/openapi.json and its reader at /api/docs, both from the routes' schemas. */
const apiDocsPlugin: FastifyPluginAsync = async (app) => {
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Arts Facilitator Portal API',
        version: '1.0.0',
        description: 'Sessions are cookies: sign in with POST /api/login or /api/auth/staff-login.',
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
};

export default fp(apiDocsPlugin, { name: 'api-docs', dependencies: ['sessions-and-access'] });
