import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { booking, refreshResult } from '../../../shared/schemas/bookings';
import { dateRangeQuery, errorResponse } from '../../../shared/schemas/common';
import type { AppContext } from '../../context';
import { currentUser } from '../../http/access';
import { ownRangeQuery, ownUserId } from '../own-user';
import { resolveRange } from '../range';
import { listBookings } from './service';

const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
};

export function bookingRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // ---------------------------------------------------------------------------------------------
    // Self-service: the signed-in user's own bookings (facilitator calendar).
    app.get(
      '/api/bookings',
      {
        config: { access: 'user', list: 'versioned' },
        schema: {
          tags: ['bookings'],
          summary: "The signed-in user's bookings in an inclusive date range",
          querystring: ownRangeQuery,
          response: { 200: z.array(booking), ...errors },
        },
      },
      async (request, reply) => {
        const user = currentUser(request);
        const userId = ownUserId(user.id, request.query.userId);
        const range = resolveRange(request.query, ctx.config.ORG_TIMEZONE, ctx.now());
        return ctx.lists.send(
          request,
          reply,
          // a facilitator's own bookings move the whole list's version, like everyone's
          { lists: ['bookings'], key: `${userId}:${range.from}:${range.to}` },
          () => listBookings(ctx.db, range, userId),
        );
      },
    );
    // ---------------------------------------------------------------------------------------------
    // Staff booking routes (GET /api/staff/bookings, POST /api/staff/bookings/refresh) go below.

    // --- staff dashboard: every facilitator's bookings, linked or not ---
    app.get(
      '/api/staff/bookings',
      {
        config: { access: 'staff', list: 'versioned' },
        schema: {
          tags: ['staff'],
          summary: 'Every booking (all facilitators, unlinked included) in an inclusive date range',
          querystring: dateRangeQuery,
          response: { 200: z.array(booking), ...errors },
        },
      },
      async (request, reply) => {
        const range = resolveRange(request.query, ctx.config.ORG_TIMEZONE, ctx.now());
        return ctx.lists.send(request, reply, { lists: ['bookings'], key: `${range.from}:${range.to}` }, () =>
          listBookings(ctx.db, range),
        );
      },
    );
    // --- end staff dashboard block ---

    // --- SharePoint connector: refresh bookings now, or join the refresh in progress ---
    app.post(
      '/api/staff/bookings/refresh',
      {
        config: { access: 'staff', rateLimit: ctx.limits.rateLimit('bookingsRefresh') },
        schema: {
          tags: ['staff'],
          summary: 'Refresh bookings from SharePoint; returns when it ends, joining one already running',
          response: {
            200: refreshResult,
            401: errorResponse,
            403: errorResponse,
            409: errorResponse,
            503: errorResponse,
          },
        },
      },
      async () => {
        const { added, updated, removed, total, unmatched } = await ctx.bookingsRefresh.run();
        return { added, updated, removed, total, unmatched };
      },
    );
    // --- end SharePoint connector block ---
  };
}
