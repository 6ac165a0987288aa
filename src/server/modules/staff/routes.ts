import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { availability, staffSaveAvailabilityBody } from '../../../shared/schemas/availability';
import { errorResponse, staffListQuery } from '../../../shared/schemas/common';
import type { AppContext } from '../../context';
import { currentUser } from '../../http/access';
import {
  availabilityListFormat,
  listAvailabilityJson,
  listAvailabilityOfUsersJson,
  saveDay,
} from '../availability/service';
import { resolveRange } from '../range';

const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
};

/** The staff dashboard's availability calls (users are in modules/users, bookings in modules/bookings). */
export function staffRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/staff/availabilities',
      {
        config: { access: 'staff', list: 'versioned' },
        schema: {
          tags: ['staff'],
          summary:
            "Every facilitator's availability in an inclusive date range, or that of the facilitators in userIds",
          querystring: staffListQuery,
          response: { 200: z.array(availability), ...errors },
        },
      },
      async (request, reply) => {
        const range = resolveRange(request.query, ctx.config.ORG_TIMEZONE, ctx.now());
        const { userIds } = request.query;
        if (userIds) {
          // a few facilitators' rows, asked for once as a page opens: answered, not kept (ADR 46)
          const body = await listAvailabilityOfUsersJson(ctx.db, range, userIds);
          // the text is the schema's array already (json-list.ts), sent as it is like the kept lists
          return (reply as FastifyReply)
            .header('cache-control', 'private, no-cache')
            .type('application/json; charset=utf-8')
            .send(body);
        }
        return ctx.lists.send(
          request,
          reply,
          { name: 'availability', ...range },
          {
            format: () => availabilityListFormat(range),
            build: () => listAvailabilityJson(ctx.db, range),
          },
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
