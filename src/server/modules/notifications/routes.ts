import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../shared/schemas/common';
import {
  notificationPreferences,
  notificationPreferencesAnswer,
  pushEndpointBody,
  pushKeyAnswer,
  pushStatus,
  pushSubscriptionAnswer,
  pushSubscriptionBody,
} from '../../../shared/schemas/notifications';
import type { AppContext } from '../../context';
import { currentUser } from '../../http/access';
import {
  readPreferences,
  pushStatus as readPushStatus,
  savePreferences,
  subscribe,
  unsubscribe,
} from './service';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse };

/** Web push subscriptions and notification preferences: each person's own, for both roles. */
export function notificationRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/push/key',
      {
        config: { access: 'user' },
        schema: {
          tags: ['notifications'],
          summary: "The portal's VAPID public key, which a browser subscribes to push with",
          response: { 200: pushKeyAnswer, ...errors },
        },
      },
      () => ({ publicKey: ctx.push.vapid.publicKey }),
    );

    app.post(
      '/api/push/subscription',
      {
        config: { access: 'user' },
        schema: {
          tags: ['notifications'],
          summary: "Keep this device's push subscription for the signed-in user (replacing its previous one)",
          body: pushSubscriptionBody,
          response: { 200: pushSubscriptionAnswer, ...errors },
        },
      },
      (request) =>
        subscribe(
          { db: ctx.db, config: ctx.config, resolve: ctx.push.resolve },
          currentUser(request).id,
          request.body,
        ),
    );

    app.delete(
      '/api/push/subscription',
      {
        config: { access: 'user' },
        schema: {
          tags: ['notifications'],
          summary: "Stop pushes to this device (one of the signed-in user's)",
          body: pushEndpointBody,
          response: { 200: pushSubscriptionAnswer, ...errors },
        },
      },
      (request) => unsubscribe(ctx.db, currentUser(request).id, request.body.endpoint),
    );

    app.get(
      '/api/notifications/preferences',
      {
        config: { access: 'user' },
        schema: {
          tags: ['notifications'],
          summary: 'How the signed-in user hears of each kind of event, and their quiet hours',
          response: { 200: notificationPreferencesAnswer, ...errors },
        },
      },
      async (request) => ({
        ...(await readPreferences(ctx.db, currentUser(request).id)),
        timeZone: ctx.config.ORG_TIMEZONE,
      }),
    );

    app.put(
      '/api/notifications/preferences',
      {
        config: { access: 'user' },
        schema: {
          tags: ['notifications'],
          summary: 'Save how the signed-in user hears of each kind of event, and their quiet hours',
          body: notificationPreferences,
          response: { 200: notificationPreferencesAnswer, ...errors },
        },
      },
      async (request) => ({
        ...(await savePreferences(ctx.db, currentUser(request).id, request.body)),
        timeZone: ctx.config.ORG_TIMEZONE,
      }),
    );

    app.get(
      '/api/push/status',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['notifications'],
          summary: "For staff: devices, queued pushes, and whether push services refuse the portal's key",
          response: { 200: pushStatus, ...errors },
        },
      },
      () => readPushStatus(ctx.db),
    );
  };
}
