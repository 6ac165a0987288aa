import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../shared/schemas/common';
import { completenessQuery, completenessResponse } from '../../../shared/schemas/completeness';
import type { AppContext } from '../../context';
import { computeCompleteness, currentMonth } from './service';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse };

/** Which facilitators have filled in a month (staff only). */
export function completenessRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/staff/completeness',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['reminders'],
          summary:
            'Each facilitator as complete, partial or missing for a month (weekdays with availability set; booked days count)',
          querystring: completenessQuery,
          response: { 200: completenessResponse, ...errors },
        },
      },
      (request) => {
        const now = ctx.now();
        return computeCompleteness(ctx.db, {
          month: request.query.month ?? currentMonth(ctx.config.ORG_TIMEZONE, now),
          area: request.query.area,
          timeZone: ctx.config.ORG_TIMEZONE,
          now,
        });
      },
    );
  };
}
