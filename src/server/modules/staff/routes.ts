import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { todayIn } from '../../../shared/calendar';
import { availability, staffSaveAvailabilityBody } from '../../../shared/schemas/availability';
import { dateRangeQuery, errorResponse } from '../../../shared/schemas/common';
import { staffGridPage, staffGridQuery } from '../../../shared/schemas/staff-grid';
import type { AppContext } from '../../context';
import { currentUser } from '../../http/access';
import { listAvailability, saveDay } from '../availability/service';
import { resolveRange } from '../range';
import { readGridPage } from './service';

const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
};

/** The staff dashboard's reads and its day edits (users are in modules/users, bookings in modules/bookings). */
export function staffRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/staff/grid',
      {
        config: { access: 'staff', list: 'versioned' },
        schema: {
          tags: ['staff'],
          summary:
            'One page of the staff grid: facilitators in its order with their days, sessions and marks',
          description:
            'Facilitators by name, then id, from the cursor on, filtered by areas, chosen facilitators and a ' +
            'search of names and emails; each with their availability, bookings, note marks and safeguarding ' +
            'state in the range. nextCursor asks for the next page. Revalidated by ETag.',
          querystring: staffGridQuery,
          response: { 200: staffGridPage, ...errors },
        },
      },
      async (request, reply) => {
        const today = todayIn(ctx.config.ORG_TIMEZONE, ctx.now());
        // the safeguarding state is as of today: today names the answer too
        const key = `${today}\u0000${request.url}`;
        return ctx.lists.send(
          request,
          reply,
          { lists: ['users', 'availability', 'bookings', 'notes', 'safeguarding'], key },
          () => readGridPage(ctx.db, request.query, today),
        );
      },
    );

    app.get(
      '/api/staff/availabilities',
      {
        config: { access: 'staff', list: 'versioned' },
        schema: {
          tags: ['staff'],
          summary: "Every facilitator's availability in an inclusive date range",
          querystring: dateRangeQuery,
          response: { 200: z.array(availability), ...errors },
        },
      },
      async (request, reply) => {
        const range = resolveRange(request.query, ctx.config.ORG_TIMEZONE, ctx.now());
        return ctx.lists.send(
          request,
          reply,
          { lists: ['availability'], key: `${range.from}:${range.to}` },
          () => listAvailability(ctx.db, range),
        );
      },
    );

    app.post(
      '/api/staff/availability',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['staff'],
          summary: "Set any facilitator's availability for a day (days with bookings included)",
          body: staffSaveAvailabilityBody,
          response: { 200: availability, ...errors },
        },
      },
      (request) =>
        saveDay(ctx, request.body, {
          id: currentUser(request).id,
          mayOverrideBookings: true,
          via: 'staff',
        }),
    );
  };
}
