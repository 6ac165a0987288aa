import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../shared/schemas/common';
import {
  reminderSettingsBody,
  reminderSettingsResponse,
  sendRemindersBody,
  sendRemindersResponse,
} from '../../../shared/schemas/reminders';
import type { AppContext } from '../../context';
import { currentUser } from '../../http/access';
import { getReminderSettings, saveReminderSettings, sendReminders } from './service';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 409: errorResponse };

/** Email settings and availability reminders (staff only). */
export function reminderRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/staff/reminders/settings',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['reminders'],
          summary:
            'Email (SMTP) and automatic reminder settings; the password is never returned (hasPassword)',
          response: { 200: reminderSettingsResponse, ...errors },
        },
      },
      () => getReminderSettings(ctx),
    );

    app.put(
      '/api/staff/reminders/settings',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['reminders'],
          summary:
            'Save the email settings; a blank password keeps the stored one while server, port, security and username stay the same (passwordCleared says when it was dropped), a blank username removes it',
          body: reminderSettingsBody,
          response: { 200: reminderSettingsResponse, ...errors },
        },
      },
      async (request) => {
        const user = currentUser(request);
        const saved = await saveReminderSettings(ctx, request.body, user.id);
        request.log.info(
          {
            userId: user.id,
            passwordChanged: Boolean(request.body.password),
            autoEnabled: saved.autoEnabled,
          },
          'email settings saved',
        );
        return saved;
      },
    );

    app.post(
      '/api/staff/reminders/send',
      {
        config: { access: 'staff', rateLimit: ctx.limits.rateLimit('remindersSend') },
        schema: {
          tags: ['reminders'],
          summary:
            'Email the partial and missing facilitators of a month within a year of this one (or the chosen ones); at most once a day per person; links to PUBLIC_URL',
          body: sendRemindersBody,
          response: { 200: sendRemindersResponse, ...errors },
        },
      },
      (request) =>
        sendReminders(ctx, {
          month: request.body.month,
          userIds: request.body.userIds,
          trigger: 'staff',
          actorId: currentUser(request).id,
        }),
    );
  };
}
