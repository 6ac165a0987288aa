import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  changePasswordBody,
  loginBody,
  logoutResponse,
  registerBody,
  SIGNED_OUT_OF_PORTAL_ONLY,
  staffLoginBody,
} from '../../../shared/schemas/auth';
import { errorResponse, idParam, messageResponse } from '../../../shared/schemas/common';
import { publicUser } from '../../../shared/schemas/users';
import { sessionCookies } from '../../auth/session-cookies';
import type { AppContext } from '../../context';
import { currentUser } from '../../http/access';
import { signInConfig } from '../microsoft-sign-in/settings';
import { toPublicUser } from '../users/service';
import { changePassword, clearSignInPauses, register, signIn } from './service';

const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
  429: errorResponse,
};

export function authRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { set: setSessionCookie, clear: clearSessionCookie } = sessionCookies(ctx.config);

  /** Ends the session; true when Microsoft signed it in and can be signed out of too. */
  const endSession = async (request: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
    const ended = request.sessionToken ? await ctx.sessions.destroy(request.sessionToken) : null;
    clearSessionCookie(request, reply);
    return Boolean(ended?.signedInWithMicrosoft) && (await signInConfig(ctx)) !== null;
  };

  return async (app) => {
    app.post(
      '/api/login',
      {
        config: { access: 'public', rateLimit: ctx.limits.rateLimit('login') },
        schema: {
          tags: ['auth'],
          summary: 'Facilitator sign-in',
          body: loginBody,
          response: { 200: publicUser, ...errors },
        },
      },
      async (request, reply) => {
        const { user, token, expiresAt } = await signIn(ctx, {
          ...request.body,
          address: request.ip,
          previousToken: request.sessionToken,
          staffOnly: false,
        });
        setSessionCookie(request, reply, token, expiresAt);
        return toPublicUser(user);
      },
    );

    app.post(
      '/api/auth/staff-login',
      {
        config: { access: 'public', rateLimit: ctx.limits.rateLimit('login') },
        schema: {
          tags: ['auth'],
          summary: 'Staff sign-in (staff role only)',
          body: staffLoginBody,
          response: { 200: publicUser, ...errors },
        },
      },
      async (request, reply) => {
        const { user, token, expiresAt } = await signIn(ctx, {
          ...request.body,
          address: request.ip,
          previousToken: request.sessionToken,
          staffOnly: true,
        });
        setSessionCookie(request, reply, token, expiresAt);
        return toPublicUser(user);
      },
    );

    app.post(
      '/api/register',
      {
        config: { access: 'public', rateLimit: ctx.limits.rateLimit('register') },
        schema: {
          tags: ['auth'],
          summary: 'Create an account (only when ALLOW_REGISTRATION)',
          body: registerBody,
          response: { 201: publicUser, ...errors },
        },
      },
      async (request, reply) => {
        const { user, token, expiresAt } = await register(ctx, request.body, request.sessionToken);
        setSessionCookie(request, reply, token, expiresAt);
        return reply.code(201).send(toPublicUser(user));
      },
    );

    app.post(
      '/api/logout',
      {
        config: { access: 'public' },
        schema: {
          tags: ['auth'],
          summary: 'Sign out of the portal (microsoftSignOut: Microsoft can be signed out of too)',
          response: { 200: logoutResponse },
        },
      },
      async (request, reply) => {
        const microsoftSignOut = await endSession(request, reply);
        return { message: 'Logged out', microsoftSignOut };
      },
    );

    for (const [url, loginPage] of [
      ['/api/logout', '/auth'],
      ['/api/auth/logout', '/staff-login'],
    ] as const) {
      app.get(
        url,
        {
          config: { access: 'public', changesState: true },
          schema: { tags: ['auth'], summary: `Sign out and go to ${loginPage}`, response: { 302: z.null() } },
        },
        async (request, reply) => {
          const microsoft = await endSession(request, reply);
          // after a Microsoft sign-in, the login page offers to sign out of Microsoft too
          return reply.redirect(microsoft ? SIGNED_OUT_OF_PORTAL_ONLY : loginPage, 302);
        },
      );
    }

    app.get(
      '/api/user',
      {
        config: { access: 'user' },
        schema: {
          tags: ['auth'],
          summary: 'The signed-in user',
          response: { 200: publicUser, 401: errorResponse },
        },
      },
      async (request) => toPublicUser(currentUser(request)),
    );

    app.post(
      '/api/staff/users/:id/unlock',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['staff'],
          summary: "Clear an account's sign-in pauses (failed sign-ins); per-address limits stay",
          params: idParam,
          response: { 200: messageResponse, ...errors },
        },
      },
      async (request) => {
        const username = await clearSignInPauses(ctx, request.params.id);
        return { message: `Sign-in pauses cleared for ${username}` };
      },
    );

    app.put(
      '/api/user/password',
      {
        config: { access: 'user' },
        schema: {
          tags: ['auth'],
          summary: 'Change your own password',
          body: changePasswordBody,
          response: { 200: messageResponse, ...errors },
        },
      },
      async (request, reply) => {
        const { token, expiresAt } = await changePassword(
          ctx,
          currentUser(request),
          request.body,
          request.ip,
        );
        setSessionCookie(request, reply, token, expiresAt);
        return { message: 'Password updated' };
      },
    );
  };
}
