import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { countBulkDays } from '../../../shared/calendar';
import { MAX_BULK_DAYS } from '../../../shared/schemas/availability';
import { errorResponse } from '../../../shared/schemas/common';
import { patternBody, patternPreview, patternResult } from '../../../shared/schemas/patterns';
import type { AppContext } from '../../context';
import { currentUser } from '../../http/access';
import { spendDayWrites } from '../../http/request-limits';
import { ownUserId } from '../own-user';
import { applyPattern, previewPattern } from './service';

const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
};

/**
 * Recurring availability patterns of the signed-in user ("every 2 weeks on Tuesdays this term"): a
 * preview, then the same writes as a bulk update. Like bulk, a `userId` other than the session's is 403.
 */
export function patternRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/availability/pattern/preview',
      {
        config: { access: 'user', rateLimit: ctx.limits.rateLimit('pattern') },
        schema: {
          tags: ['availability'],
          summary:
            'The days a recurring pattern would set, the booked days it would skip, the days it would replace',
          body: patternBody,
          response: { 200: patternPreview, ...errors },
        },
      },
      async (request) => {
        const { userId: requested, ...pattern } = request.body;
        const userId = ownUserId(currentUser(request).id, requested);
        return previewPattern(ctx.db, { ...pattern, userId });
      },
    );

    app.post(
      '/api/availability/pattern',
      {
        config: { access: 'user', rateLimit: ctx.limits.rateLimit('pattern') },
        preHandler: spendDayWrites(ctx.limits, bulkDays),
        schema: {
          tags: ['availability'],
          summary:
            'Apply a recurring pattern (every 1, 2 or 4 weeks) to the signed-in user; booked days are skipped',
          body: patternBody,
          response: { 200: patternResult, ...errors },
        },
      },
      async (request) => {
        const user = currentUser(request);
        const { userId: requested, ...pattern } = request.body;
        const userId = ownUserId(user.id, requested);
        // Booked days are skipped for everyone, as in bulk update.
        return applyPattern(
          ctx,
          { ...pattern, userId },
          { id: user.id, mayOverrideBookings: false, via: 'pattern' },
        );
      },
    );
  };
}

/** Days a bulk update or pattern writes at most, for the day-write budget. */
const bulkDays = (body: { startDate: string; endDate: string; daysOfWeek: number[] }) =>
  countBulkDays(body.startDate, body.endDate, body.daysOfWeek, MAX_BULK_DAYS);
