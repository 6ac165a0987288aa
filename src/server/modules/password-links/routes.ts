import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accountInvitations,
  forgotPasswordBody,
  passwordInvitationStatus,
  passwordLinkBody,
  passwordLinkResponse,
  usePasswordLinkBody,
} from '../../../shared/schemas/auth';
import { errorResponse, idParam, messageResponse } from '../../../shared/schemas/common';
import { publicUser } from '../../../shared/schemas/users';
import { sessionCookies } from '../../auth/session-cookies';
import type { AppContext } from '../../context';
import { currentUser } from '../../http/access';
import { toPublicUser } from '../users/service';
import {
  invitationStatus,
  listInvitations,
  RESET_REQUESTED_MESSAGE,
  requestPasswordReset,
  sendInvitation,
  usePasswordLink,
  viewPasswordLink,
} from './service';

const errors = { 400: errorResponse, 404: errorResponse, 409: errorResponse, 429: errorResponse };

export function passwordLinkRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { set: setSessionCookie } = sessionCookies(ctx.config);
  // resets under way after their answer left; the app waits for them when it closes
  const pending = new Set<Promise<void>>();

  return async (app) => {
    app.addHook('onClose', async () => {
      await Promise.allSettled(pending);
    });

    app.post(
      '/api/password-reset',
      {
        config: { access: 'public', rateLimit: ctx.limits.rateLimit('passwordReset') },
        schema: {
          tags: ['auth'],
          summary: 'Email a link to set a new password (the same answer whether or not the account exists)',
          body: forgotPasswordBody,
          response: { 202: messageResponse, ...errors },
        },
      },
      async (request, reply) => {
        // The work starts after the answer is sent, so neither the answer nor its time says whether
        // the account exists or an email went out.
        const work = new Promise<void>((resolve) => setImmediate(resolve))
          .then(() => requestPasswordReset(ctx, request.body.username))
          .catch((error: unknown) => ctx.log.error({ err: error }, 'password reset failed'))
          .finally(() => pending.delete(work));
        pending.add(work);
        return reply.code(202).send({ message: RESET_REQUESTED_MESSAGE });
      },
    );

    app.post(
      '/api/password-links/view',
      {
        config: { access: 'public', rateLimit: ctx.limits.rateLimit('passwordLinks') },
        schema: {
          tags: ['auth'],
          summary:
            'What a link that sets a password is for, and for which account (404 when it no longer works)',
          body: passwordLinkBody,
          response: { 200: passwordLinkResponse, ...errors },
        },
      },
      async (request) => viewPasswordLink(ctx, request.body.token),
    );

    app.post(
      '/api/password-links/use',
      {
        config: { access: 'public', rateLimit: ctx.limits.rateLimit('passwordLinks') },
        schema: {
          tags: ['auth'],
          summary: 'Set the password through a link, once; ends every other session and the calendar feed',
          body: usePasswordLinkBody,
          response: { 200: publicUser, ...errors },
        },
      },
      async (request, reply) => {
        const { user, token, expiresAt } = await usePasswordLink(
          ctx,
          request.body.token,
          request.body.newPassword,
        );
        // whoever was signed in on this browser is replaced by the account the link set
        if (request.sessionToken) await ctx.sessions.destroy(request.sessionToken);
        setSessionCookie(request, reply, token, expiresAt);
        return toPublicUser(user);
      },
    );

    app.get(
      '/api/staff/password-invitations',
      {
        config: { access: 'staff', list: 'small' },
        schema: {
          tags: ['staff'],
          summary: "Every account's password state and latest invitation: sent, until when, used when",
          response: { 200: accountInvitations, ...errors },
        },
      },
      async () => listInvitations(ctx.db),
    );

    app.get(
      '/api/staff/users/:id/password-invitation',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['staff'],
          summary: "An account's latest invitation to set its own password: sent when, by whom, used when",
          params: idParam,
          response: { 200: passwordInvitationStatus, ...errors },
        },
      },
      async (request) => invitationStatus(ctx, request.params.id),
    );

    app.post(
      '/api/staff/users/:id/password-invitation',
      {
        config: { access: 'staff', rateLimit: ctx.limits.rateLimit('passwordInvitations') },
        schema: {
          tags: ['staff'],
          summary:
            "Email the account's owner a link to set their own password (again: the earlier link stops working)",
          params: idParam,
          response: { 200: passwordInvitationStatus, ...errors },
        },
      },
      async (request) => sendInvitation(ctx, currentUser(request), request.params.id),
    );
  };
}
