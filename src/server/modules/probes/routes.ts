import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { liveAnswer, notReadyAnswer, readyAnswer } from '../../../shared/schemas/probes';
import { notReadyReason, type ReadinessInputs } from './service';

/**
 * The probes a process manager and a load balancer ask: live (the process answers; restart it when
 * it does not) and ready (send it requests; 503 with the reason when not). `/api/health` stays the
 * combined check it always was.
 */
export function probeRoutes(inputs: ReadinessInputs): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/health/live',
      {
        config: { access: 'public', sessionless: true },
        schema: {
          tags: ['health'],
          summary: 'Liveness: the process answers',
          response: { 200: liveAnswer },
        },
      },
      async () => ({ status: 'live' as const }),
    );
    app.get(
      '/api/health/ready',
      {
        config: { access: 'public', sessionless: true },
        schema: {
          tags: ['health'],
          summary: 'Readiness: database reachable, migrations current, client built, not stopping',
          response: { 200: readyAnswer, 503: notReadyAnswer },
        },
      },
      async (_request, reply) => {
        const notReady = await notReadyReason(inputs);
        if (notReady) return reply.code(503).send(notReady);
        return { status: 'ready' as const };
      },
    );
  };
}
