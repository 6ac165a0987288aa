import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse, idParam } from '../../../shared/schemas/common';
import {
  dayHistoryQuery,
  historyPage,
  ownHistoryQuery,
  personHistoryQuery,
} from '../../../shared/schemas/history';
import type { AppContext } from '../../context';
import { currentUser } from '../../http/access';
import { ownUserId } from '../own-user';
import { resolveRange } from '../range';
import { readHistory } from './service';

const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
};

/**
 * Reading the change history. Staff see any facilitator's day and any person's whole history
 * (notes included); a facilitator sees only changes to their own availability, never notes.
 */
export function historyRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const timeZone = ctx.config.ORG_TIMEZONE;
  return async (app) => {
    app.get(
      '/api/staff/history',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['history'],
          summary: "Changes to one facilitator's day (availability and notes), newest first",
          querystring: dayHistoryQuery,
          response: { 200: historyPage, ...errors },
        },
      },
      async (request) => {
        const { userId, date, limit, before } = request.query;
        const page = await readHistory(
          ctx.db,
          { subjectUserId: userId, date, entities: ['availability', 'note'] },
          { limit, before },
        );
        return { ...page, timeZone };
      },
    );

    app.get(
      '/api/staff/users/:id/history',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['history'],
          summary: 'Every change about a person (account, availability, notes), newest first, paged',
          params: idParam,
          querystring: personHistoryQuery,
          response: { 200: historyPage, ...errors },
        },
      },
      async (request) => {
        const { limit, before } = request.query;
        const page = await readHistory(ctx.db, { subjectUserId: request.params.id }, { limit, before });
        return { ...page, timeZone };
      },
    );

    app.get(
      '/api/history',
      {
        config: { access: 'user' },
        schema: {
          tags: ['history'],
          summary: "Changes to the signed-in user's own availability on days in a range, newest first",
          querystring: ownHistoryQuery,
          response: { 200: historyPage, ...errors },
        },
      },
      async (request) => {
        const user = currentUser(request);
        const { userId: requested, limit, before, from, to } = request.query;
        const userId = ownUserId(user.id, requested);
        const range = resolveRange({ from, to }, timeZone, ctx.now());
        const page = await readHistory(
          ctx.db,
          { subjectUserId: userId, range, entities: ['availability'] },
          { limit, before },
        );
        return { ...page, timeZone };
      },
    );
  };
}
