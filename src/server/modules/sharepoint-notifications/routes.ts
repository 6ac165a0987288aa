import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '../../../shared/schemas/common';
import { changeNotifications, notificationQuery } from '../../../shared/schemas/sharepoint-notifications';
import type { AppContext } from '../../context';
import { badRequest, forbidden } from '../../errors';
import { acceptNotifications, NOTIFICATION_PATH } from '../../sharepoint/notifications';

export function sharePointNotificationRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      NOTIFICATION_PATH,
      {
        // Graph signs nothing and sends no cookie: the subscription's clientState is the credential,
        // and a notification only ever starts a delta refresh, never carries data the portal stores.
        config: { access: 'public', rateLimit: ctx.limits.rateLimit('sharePointNotifications') },
        schema: {
          tags: ['sharepoint'],
          summary:
            "SharePoint's change notifications for the Bookings list: the validation handshake (?validationToken, echoed as text/plain) or notifications, accepted only with the subscription's clientState",
          querystring: notificationQuery,
          response: {
            200: z.string(),
            202: z.null(),
            400: errorResponse,
            403: errorResponse,
            429: errorResponse,
          },
        },
      },
      async (request, reply) => {
        const token = request.query.validationToken;
        if (token !== undefined) {
          return reply
            .code(200)
            .type('text/plain; charset=utf-8')
            .header('X-Content-Type-Options', 'nosniff')
            .send(token);
        }
        const parsed = changeNotifications.safeParse(request.body);
        if (!parsed.success) throw badRequest('Not a change notification.');
        if (!(await acceptNotifications(ctx, parsed.data)))
          throw forbidden('Unknown subscription or clientState.');
        ctx.bookingsRefresh.runSoon();
        return reply.code(202).send(null);
      },
    );
  };
}
