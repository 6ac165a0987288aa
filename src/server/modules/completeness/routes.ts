import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../shared/schemas/common';
import { completenessQuery, completenessResponse } from '../../../shared/schemas/completeness';
import type { AppContext } from '../../context';
import { currentMonth, readCompletenessPage } from './service';

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
            'One page of facilitators as complete, partial or missing for a month (weekdays with availability set; booked days count)',
          description:
            'Ordered by name, area, status or weekdays set (then name, then id), from the cursor on; nextCursor asks ' +
            'for the next page. The counts, the areas and remindableIds are of every facilitator in the area.',
          querystring: completenessQuery,
          response: { 200: completenessResponse, ...errors },
        },
      },
      (request) => {
        const now = ctx.now();
        const timeZone = ctx.config.ORG_TIMEZONE;
        return readCompletenessPage(
          ctx.db,
          { ...request.query, month: request.query.month ?? currentMonth(timeZone, now) },
          { timeZone, now },
        );
      },
    );
  };
}
