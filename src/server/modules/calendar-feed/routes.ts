import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { calendarFeedStatus, calendarFeedTokenParam } from '../../../shared/schemas/calendar-feed';
import { errorResponse } from '../../../shared/schemas/common';
import type { AppContext } from '../../context';
import { sha256 } from '../../crypto';
import { currentUser } from '../../http/access';
import { calendarForToken, feedStatus, rotateFeed, turnOffFeed, turnOnFeed } from './service';

const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
};

/** The one answer for a token that is not live: unknown, rotated and revoked look the same. */
const NO_FEED = { message: 'Not found' };

export function calendarFeedRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/calendar-feed',
      {
        config: { access: 'user' },
        schema: {
          tags: ['calendar feed'],
          summary: "The signed-in user's calendar feed: on or off, and its URL path",
          response: { 200: calendarFeedStatus, ...errors },
        },
      },
      (request) => feedStatus(ctx.db, ctx.appSecret, currentUser(request).id),
    );

    app.post(
      '/api/calendar-feed',
      {
        config: { access: 'user' },
        schema: {
          tags: ['calendar feed'],
          summary: 'Turn the calendar feed on (a feed that is on keeps its URL)',
          response: { 200: calendarFeedStatus, ...errors },
        },
      },
      async (request) => {
        const { token: _token, ...status } = await turnOnFeed(ctx.db, ctx.appSecret, currentUser(request).id);
        return status;
      },
    );

    app.post(
      '/api/calendar-feed/rotate',
      {
        config: { access: 'user' },
        schema: {
          tags: ['calendar feed'],
          summary: 'Give the calendar feed a new URL; the old one stops working at once',
          response: { 200: calendarFeedStatus, ...errors },
        },
      },
      async (request) => {
        const { token: _token, ...status } = await rotateFeed(ctx.db, ctx.appSecret, currentUser(request).id);
        return status;
      },
    );

    app.delete(
      '/api/calendar-feed',
      {
        config: { access: 'user' },
        schema: {
          tags: ['calendar feed'],
          summary: 'Turn the calendar feed off; its URL stops working at once',
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await turnOffFeed(ctx.db, currentUser(request).id);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/api/calendar-feed/:token.ics',
      {
        // Calendar apps send no cookies: the unguessable token in the URL is the only credential.
        config: { access: 'public', rateLimit: ctx.limits.rateLimit('calendarFeed') },
        schema: {
          tags: ['calendar feed'],
          summary: "A facilitator's bookings as iCalendar (RFC 5545), for calendar apps to subscribe to",
          params: calendarFeedTokenParam,
          response: { 200: z.string(), 304: z.null(), 404: errorResponse },
        },
      },
      async (request, reply) => {
        const body = await calendarForToken(ctx.db, request.params.token, ctx.config.ORG_TIMEZONE, ctx.now());
        if (body === null) return reply.code(404).send(NO_FEED);
        const etag = `"${sha256(body).slice(0, 32)}"`;
        reply
          .header('etag', etag)
          // the URL is a secret: keep it out of search engines and referrers
          .header('x-robots-tag', 'noindex, nofollow')
          .header('content-disposition', 'inline; filename="bookings.ics"');
        if (request.headers['if-none-match'] === etag) return reply.code(304).send(null);
        return reply.type('text/calendar; charset=utf-8').send(body);
      },
    );
  };
}
