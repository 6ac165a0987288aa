import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../shared/schemas/common';
import { schedulerStatus } from '../../../shared/schemas/scheduler';
import type { AppContext } from '../../context';
import { schedulerStatusNow } from './service';

export function schedulerRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/admin/scheduler/status',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['scheduler'],
          summary: 'Background booking refresh: running now, office hours, next update',
          response: { 200: schedulerStatus, 401: errorResponse, 403: errorResponse },
        },
      },
      () => schedulerStatusNow(ctx),
    );
  };
}
