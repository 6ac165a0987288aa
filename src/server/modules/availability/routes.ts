import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { countBulkDays } from '../../../shared/calendar';
import {
  availability,
  bulkAvailabilityBody,
  bulkAvailabilityResult,
  MAX_BULK_DAYS,
  saveAvailabilityBody,
  syncAllBody,
  syncAllResult,
} from '../../../shared/schemas/availability';
import { errorResponse } from '../../../shared/schemas/common';
import type { AppContext } from '../../context';
import { currentUser, isStaff } from '../../http/access';
import { spendDayWrites } from '../../http/request-limits';
import { ownRangeQuery, ownUserId } from '../own-user';
import { resolveRange } from '../range';
import { bulkUpdate, listAvailability, requeueAllDays, saveDay } from './service';

const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
};

export function availabilityRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/availability',
      {
        config: { access: 'user', list: 'versioned' },
        schema: {
          tags: ['availability'],
          summary: "The signed-in user's availability in an inclusive date range",
          querystring: ownRangeQuery,
          response: { 200: z.array(availability), ...errors },
        },
      },
      async (request, reply) => {
        const user = currentUser(request);
        const userId = ownUserId(user.id, request.query.userId);
        const range = resolveRange(request.query, ctx.config.ORG_TIMEZONE, ctx.now());
        return ctx.lists.send(
          request,
          reply,
          { lists: ['availability'], userId, key: `${range.from}:${range.to}` },
          () => listAvailability(ctx.db, range, userId),
        );
      },
    );

    app.post(
      '/api/availability',
      {
        config: { access: 'user' },
        schema: {
          tags: ['availability'],
          summary: 'Save one day of the signed-in user (insert or replace); a booked day is locked',
          body: saveAvailabilityBody,
          response: { 200: availability, ...errors },
        },
      },
      async (request) => {
        const user = currentUser(request);
        const { userId: requested, ...day } = request.body;
        const userId = ownUserId(user.id, requested);
        return saveDay(
          ctx,
          { ...day, userId },
          { id: user.id, mayOverrideBookings: isStaff(user), via: isStaff(user) ? 'staff' : 'facilitator' },
        );
      },
    );

    app.post(
      '/api/availability/bulk',
      {
        config: { access: 'user', rateLimit: ctx.limits.rateLimit('availabilityBulk') },
        preHandler: spendDayWrites(ctx.limits, bulkDays),
        schema: {
          tags: ['availability'],
          summary: 'Apply one status to chosen weekdays of a range; booked days are skipped',
          body: bulkAvailabilityBody,
          response: { 200: bulkAvailabilityResult, ...errors },
        },
      },
      async (request) => {
        const user = currentUser(request);
        const { userId: requested, ...bulk } = request.body;
        const userId = ownUserId(user.id, requested);
        // Bulk always skips booked days, for staff too: the bulk dialog's "automatically skipped" promise.
        return bulkUpdate(ctx, { ...bulk, userId }, { id: user.id, mayOverrideBookings: false, via: 'bulk' });
      },
    );

    app.post(
      '/api/sharepoint/sync-all',
      {
        // The one /api/sharepoint call a facilitator may make, and only for themselves.
        config: { access: 'user', rateLimit: ctx.limits.rateLimit('syncAll') },
        schema: {
          tags: ['availability'],
          summary: 'Queue every saved day of the signed-in user for SharePoint delivery',
          body: syncAllBody,
          response: { 200: syncAllResult, ...errors },
        },
      },
      async (request) => {
        const user = currentUser(request);
        const userId = ownUserId(user.id, request.body.userId);
        return { queued: await requeueAllDays(ctx, userId) };
      },
    );
  };
}

/** Days a bulk update or pattern writes at most, for the day-write budget. */
const bulkDays = (body: { startDate: string; endDate: string; daysOfWeek: number[] }) =>
  countBulkDays(body.startDate, body.endDate, body.daysOfWeek, MAX_BULK_DAYS);
