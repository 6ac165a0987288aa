import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse, idParam } from '../../../shared/schemas/common';
import {
  erasureBody,
  erasureRecord,
  retentionPreview,
  retentionResponse,
  retentionSettingsBody,
} from '../../../shared/schemas/retention';
import { publicUser } from '../../../shared/schemas/users';
import type { AppContext } from '../../context';
import { currentUser } from '../../http/access';
import { erasePerson, listErasures } from '../erasure/service';
import { deactivateUser, reactivateUser } from '../users/leavers';
import { toPublicUser } from '../users/service';
import { previewRetention, retentionStatus, saveRetention } from './service';

const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
};

/** The retention schedule, leavers and erasure: staff only. */
export function retentionRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/staff/retention',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['staff'],
          summary: 'The retention schedule and what its last run did',
          response: { 200: retentionResponse, ...errors },
        },
      },
      async () => retentionStatus(ctx.db),
    );

    app.put(
      '/api/staff/retention',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['staff'],
          summary: 'Change the retention schedule',
          body: retentionSettingsBody,
          response: { 200: retentionResponse, ...errors },
        },
      },
      async (request) => saveRetention(ctx.db, request.body, currentUser(request).id),
    );

    app.get(
      '/api/staff/retention/preview',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['staff'],
          summary: 'What the next retention run would remove, by kind, if it ran today',
          response: { 200: retentionPreview, ...errors },
        },
      },
      async () => previewRetention(ctx),
    );

    app.post(
      '/api/staff/users/:id/deactivate',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['staff'],
          summary: 'Deactivate an account (a leaver): no sign-in, calendar feed, offers or reminders',
          params: idParam,
          response: { 200: publicUser, ...errors },
        },
      },
      async (request) =>
        toPublicUser(
          await deactivateUser(
            ctx.db,
            request.params.id,
            { actorId: currentUser(request).id, via: 'staff' },
            ctx.now(),
          ),
        ),
    );

    app.post(
      '/api/staff/users/:id/reactivate',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['staff'],
          summary: 'Reactivate a deactivated account, until it is anonymised',
          params: idParam,
          response: { 200: publicUser, ...errors },
        },
      },
      async (request) =>
        toPublicUser(
          await reactivateUser(
            ctx.db,
            request.params.id,
            { actorId: currentUser(request).id, via: 'staff' },
            ctx.now(),
          ),
        ),
    );

    app.post(
      '/api/staff/users/:id/erase',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['staff'],
          summary: 'Erase a person: everything removed or anonymised except what the policy keeps',
          params: idParam,
          body: erasureBody,
          response: { 200: erasureRecord, ...errors },
        },
      },
      async (request) => {
        const record = await erasePerson(
          ctx.db,
          request.params.id,
          request.body,
          { actorId: currentUser(request).id },
          ctx.now(),
        );
        // their SharePoint items were queued with the erasure: deliver now
        ctx.sharePoint.outboxWakeUp.queued();
        return record;
      },
    );

    app.get(
      '/api/staff/erasures',
      {
        config: { access: 'staff', list: 'small' },
        schema: {
          tags: ['staff'],
          summary: 'The latest 200 erasures: who erased, when, why, and what was removed and kept',
          response: { 200: z.array(erasureRecord), ...errors },
        },
      },
      async () => listErasures(ctx.db),
    );
  };
}
