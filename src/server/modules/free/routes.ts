import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { todayIn } from '../../../shared/calendar';
import { errorResponse } from '../../../shared/schemas/common';
import { freeQuery, freeResult } from '../../../shared/schemas/free';
import type { AppContext } from '../../context';
import { findFree } from './service';

const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
};

/** "Who is free": staff search for facilitators who can work on a day. */
export function freeRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/staff/free',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['staff'],
          summary:
            'Facilitators who can work on a day (default today), optionally in a time window and some areas, ranked',
          description:
            'Available before limited, times covering the window before open times, fewer bookings that day ' +
            'first, then name. The unavailable, the booked, those with nothing set and those whose times miss ' +
            'the window are left out; include=all lists them too, each with its reasons. With cursor or ' +
            'limit, one page of that list; nextCursor asks for the next page.',
          querystring: freeQuery,
          response: { 200: freeResult, ...errors },
        },
      },
      (request) => {
        const { date, from, to, areas, include, cursor, limit } = request.query;
        return findFree(ctx.db, {
          date: date ?? todayIn(ctx.config.ORG_TIMEZONE, ctx.now()),
          from,
          to,
          areas,
          include,
          cursor,
          limit,
        });
      },
    );
  };
}
