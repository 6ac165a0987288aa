import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse, idParam, messageResponse } from '../../../shared/schemas/common';
import {
  type MicrosoftSignInPage,
  microsoftCallbackQuery,
  microsoftInvitation,
  microsoftInvitationBody,
  microsoftLinkedAccounts,
  microsoftSignInSettings,
  microsoftSignInSettingsBody,
  microsoftSignInStatus,
  microsoftSignInTestBody,
  microsoftSignInTestResult,
  microsoftStartBody,
} from '../../../shared/schemas/microsoft-sign-in';
import { cookieNames, sessionCookies } from '../../auth/session-cookies';
import type { AppContext } from '../../context';
import { randomToken } from '../../crypto';
import { currentUser } from '../../http/access';
import { STAFF_ROLE } from '../users/service';
import { createInvitation, listLinkedAccounts, unlinkIdentity } from './identities';
import { finishSignIn, microsoftSignOutUrl, SIGN_IN_REQUEST_MS, SignInFailure, startSignIn } from './service';
import { getSignInSettings, saveSignInSettings, signInStatus, testSignInSettings } from './settings';

const COOKIE_PATH = '/api/auth/microsoft/';
const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
};

export function microsoftSignInRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const cookies = sessionCookies(ctx.config);
  const { secureCookie } = cookies;
  const BROWSER_COOKIE = cookieNames(ctx.config).microsoftSignIn;

  /** Back to the login page the sign-in began on, which explains the reason. */
  const failed = (reply: FastifyReply, failure: SignInFailure) => {
    const page: Record<MicrosoftSignInPage, string> = { staff: '/staff-login', facilitator: '/auth' };
    return reply.redirect(`${page[failure.page]}?microsoftError=${encodeURIComponent(failure.code)}`, 302);
  };

  return async (app) => {
    // The login page's "Sign in with Microsoft" is a form posted as a navigation: its fields arrive
    // form-encoded (JSON is read as everywhere else).
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );

    app.get(
      '/api/auth/microsoft',
      {
        config: { access: 'public' },
        schema: {
          tags: ['auth'],
          summary: 'Whether Sign in with Microsoft is offered and staff passwords are still accepted',
          response: { 200: microsoftSignInStatus },
        },
      },
      () => signInStatus(ctx),
    );

    app.post(
      '/api/auth/microsoft/start',
      {
        // each start stores a sign-in request row: the sign-in budget per address bounds them
        config: { access: 'public', rateLimit: ctx.limits.rateLimit('login') },
        schema: {
          tags: ['auth'],
          summary:
            'Leave for Microsoft sign-in (optionally through an invitation, in the body, JSON or form-encoded); page: the login page it starts from, where a failure is explained',
          body: microsoftStartBody,
          response: { 302: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        // One key per browser, kept while sign-ins are under way, so two tabs can each sign in.
        const existing = request.cookies[BROWSER_COOKIE];
        const browserKey = existing && /^[A-Za-z0-9_-]{43}$/.test(existing) ? existing : randomToken(32);
        try {
          const url = await startSignIn(ctx, {
            invitation: request.body.invitation,
            page: request.body.page,
            browserKey,
          });
          reply.setCookie(BROWSER_COOKIE, browserKey, {
            path: COOKIE_PATH,
            httpOnly: true,
            // Lax: the answer comes back as a top-level navigation from Microsoft's site
            sameSite: 'lax',
            secure: secureCookie(request),
            maxAge: SIGN_IN_REQUEST_MS / 1000,
          });
          return reply.redirect(url.toString(), 302);
        } catch (error) {
          if (error instanceof SignInFailure) {
            request.log.warn({ reason: error.code }, 'Microsoft sign-in could not start');
            return failed(reply, error);
          }
          throw error;
        }
      },
    );

    app.get(
      '/api/auth/microsoft/callback',
      {
        // Microsoft's page sends the browser here: a cross-site navigation by design. The state,
        // bound to this browser's cookie and usable once, is what stops a forged answer.
        config: { access: 'public', rateLimit: ctx.limits.rateLimit('login') },
        schema: {
          tags: ['auth'],
          summary: 'Where Microsoft sends the browser back after sign-in',
          querystring: microsoftCallbackQuery,
          response: { 302: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        try {
          const { user, token, expiresAt } = await finishSignIn(ctx, {
            currentUrl: new URL(request.url, 'http://portal.invalid'),
            browserKey: request.cookies[BROWSER_COOKIE],
            previousToken: request.sessionToken,
          });
          cookies.set(request, reply, token, expiresAt);
          request.log.info({ userId: user.id }, 'Signed in with Microsoft');
          return reply.redirect(user.role === STAFF_ROLE ? '/staff' : '/', 302);
        } catch (error) {
          if (error instanceof SignInFailure) {
            request.log.warn({ reason: error.code, detail: error.message }, 'Microsoft sign-in refused');
            // counted beside the password sign-ins' refusals, by its reason
            app.metrics.signInFailures.inc({ route: '/api/auth/microsoft/callback', status: error.code });
            return failed(reply, error);
          }
          throw error;
        }
      },
    );

    app.get(
      '/api/auth/microsoft/logout',
      {
        config: { access: 'public', changesState: true },
        schema: {
          tags: ['auth'],
          summary:
            "Sign out of the portal and of Microsoft: ends any portal session, then the provider's end-session endpoint with post_logout_redirect_uri {PUBLIC_URL}/staff-login",
          response: { 302: z.null() },
        },
      },
      async (request, reply) => {
        if (request.sessionToken) await ctx.sessions.destroy(request.sessionToken);
        cookies.clear(request, reply);
        const url = await microsoftSignOutUrl(ctx);
        return reply.redirect(url ? url.toString() : '/staff-login', 302);
      },
    );

    app.get(
      '/api/staff/microsoft-sign-in',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['auth'],
          summary: 'Sign in with Microsoft: configuration (no secret) and the staff password switch',
          response: { 200: microsoftSignInSettings, ...errors },
        },
      },
      (request) => getSignInSettings(ctx, currentUser(request)),
    );

    app.put(
      '/api/staff/microsoft-sign-in',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['auth'],
          summary:
            'Save the Microsoft sign-in settings: tenant, client, secret (blank keeps it for the same tenant and client, else it is cleared: clientSecretCleared), staff app role, and the staff password switch (off needs your own linked identity); values set by the environment are refused',
          body: microsoftSignInSettingsBody,
          response: { 200: microsoftSignInSettings, ...errors },
        },
      },
      async (request) => {
        const me = currentUser(request);
        const saved = await saveSignInSettings(ctx, me, request.body, { actorId: me.id, via: 'staff' });
        // flags only: the secret's value never reaches a log line
        request.log.info(
          {
            userId: me.id,
            staffPasswordSignIn: saved.staffPasswordSignIn,
            clientSecretChanged: Boolean(request.body.clientSecret),
            clientSecretCleared: saved.clientSecretCleared,
          },
          'Microsoft sign-in settings saved',
        );
        return saved;
      },
    );

    app.post(
      '/api/staff/microsoft-sign-in/test',
      {
        // a request to Microsoft per call
        config: { access: 'staff', rateLimit: ctx.limits.rateLimit('testConnection') },
        schema: {
          tags: ['auth'],
          summary:
            'Look up the typed directory at Microsoft (its discovery document) without saving; the answer names what is wrong',
          body: microsoftSignInTestBody,
          response: { 200: microsoftSignInTestResult, ...errors },
        },
      },
      async (request) => {
        const result = await testSignInSettings(ctx, request.body.tenantId);
        request.log.info(
          { userId: currentUser(request).id, success: result.success },
          'Microsoft sign-in test',
        );
        return result;
      },
    );

    app.get(
      '/api/staff/microsoft-sign-in/linked',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['users'],
          summary: 'The accounts linked to a Microsoft identity, and when each last signed in with it',
          response: { 200: microsoftLinkedAccounts, ...errors },
        },
      },
      () => listLinkedAccounts(ctx),
    );

    app.post(
      '/api/staff/users/:id/microsoft-invitation',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['users'],
          summary:
            "A single-use link that links the next Microsoft sign-in through it to this account (a facilitator's opens on /auth and needs facilitator sign-in turned on: 409). An account already linked needs replaceIdentity: the link then replaces that identity, whose owner is emailed",
          params: idParam,
          body: microsoftInvitationBody,
          response: { 201: microsoftInvitation, ...errors },
        },
      },
      async (request, reply) => {
        const invitation = await createInvitation(ctx, request.params.id, currentUser(request).id, {
          replaceIdentity: request.body.replaceIdentity,
        });
        return reply.code(201).send(invitation);
      },
    );

    app.delete(
      '/api/staff/users/:id/microsoft-identity',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['users'],
          summary:
            'Unlink the account from Microsoft, cancel its invitation and end the sessions Microsoft sign-ins opened for it',
          params: idParam,
          response: { 200: messageResponse, ...errors },
        },
      },
      async (request) => {
        await unlinkIdentity(ctx, request.params.id, { actorId: currentUser(request).id, via: 'staff' });
        return { message: 'Microsoft sign-in removed from this account' };
      },
    );
  };
}
