import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';

export function healthRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/health',
      {
        config: { access: 'public' },
        schema: {
          tags: ['health'],
          summary: 'Liveness and database check',
          response: {
            200: z.object({ status: z.literal('ok') }),
            503: z.object({ status: z.literal('unavailable'), message: z.string() }),
          },
        },
      },
      async (_request, reply) => {
        try {
          await ctx.db.execute(sql`select 1`);
          return { status: 'ok' as const };
        } catch {
          return reply
            .code(503)
            .send({ status: 'unavailable' as const, message: 'The database is not answering' });
        }
      },
    );
  };
}
