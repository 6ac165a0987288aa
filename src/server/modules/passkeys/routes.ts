import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse, idParam } from '../../../shared/schemas/common';
import {
  addPasskeyBody,
  passkeyList,
  passkeyOptionsResponse,
  passkeySignInBody,
  passkeyStatus,
  passkeySummary,
  renamePasskeyBody,
  signInPolicy,
  signInPolicyBody,
} from '../../../shared/schemas/passkeys';
import { publicUser } from '../../../shared/schemas/users';
import { sessionCookies } from '../../auth/session-cookies';
import type { AppContext } from '../../context';
import { currentUser } from '../../http/access';
import { STAFF_ROLE, toPublicUser } from '../users/service';
import {
  addPasskey,
  authenticationOptions,
  getSignInPolicy,
  listPasskeys,
  registrationOptions,
  relyingParty,
  removePasskey,
  renamePasskey,
  saveSignInPolicy,
  signInWithPasskey,
} from './service';

const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
  429: errorResponse,
};

export function passkeyRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { set: setSessionCookie } = sessionCookies(ctx.config);
  const viaOf = (role: string): 'staff' | 'facilitator' => (role === STAFF_ROLE ? 'staff' : 'facilitator');

  return async (app) => {
    app.get(
      '/api/passkeys/status',
      {
        config: { access: 'public' },
        schema: {
          tags: ['auth'],
          summary: 'Whether passkeys can be used on this portal (PUBLIC_URL is set)',
          response: { 200: passkeyStatus },
        },
      },
      async () => ({ enabled: relyingParty(ctx.config) !== null }),
    );

    app.get(
      '/api/passkeys',
      {
        config: { access: 'user', list: 'small' },
        schema: {
          tags: ['auth'],
          summary: 'Your passkeys: name, added, last used',
          response: { 200: passkeyList, 401: errorResponse },
        },
      },
      async (request) => listPasskeys(ctx.db, currentUser(request).id),
    );

    app.post(
      '/api/passkeys/options',
      {
        config: { access: 'user', rateLimit: ctx.limits.rateLimit('passkeys') },
        schema: {
          tags: ['auth'],
          summary:
            'Options for adding a passkey to your account (a challenge that works once, for 5 minutes)',
          response: { 200: passkeyOptionsResponse, ...errors },
        },
      },
      async (request) => ({ options: await registrationOptions(ctx, currentUser(request)) }),
    );

    app.post(
      '/api/passkeys',
      {
        config: { access: 'user', rateLimit: ctx.limits.rateLimit('passkeys') },
        schema: {
          tags: ['auth'],
          summary: 'Add the passkey your browser made, with its name',
          body: addPasskeyBody,
          response: { 201: passkeySummary, ...errors },
        },
      },
      async (request, reply) => {
        const me = currentUser(request);
        const added = await addPasskey(ctx, me, request.body, viaOf(me.role));
        return reply.code(201).send(added);
      },
    );

    app.put(
      '/api/passkeys/:id',
      {
        config: { access: 'user' },
        schema: {
          tags: ['auth'],
          summary: 'Rename one of your passkeys',
          params: idParam,
          body: renamePasskeyBody,
          response: { 200: passkeySummary, ...errors },
        },
      },
      async (request) => {
        const me = currentUser(request);
        return renamePasskey(ctx, me, request.params.id, request.body.name, viaOf(me.role));
      },
    );

    app.delete(
      '/api/passkeys/:id',
      {
        config: { access: 'user' },
        schema: {
          tags: ['auth'],
          summary: 'Remove one of your passkeys: it signs nobody in from now on',
          params: idParam,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        const me = currentUser(request);
        await removePasskey(ctx, me, request.params.id, viaOf(me.role));
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/api/passkey-sign-in/options',
      {
        config: { access: 'public', rateLimit: ctx.limits.rateLimit('login') },
        schema: {
          tags: ['auth'],
          summary: 'Options for signing in with a passkey (a challenge that works once, for 5 minutes)',
          response: { 200: passkeyOptionsResponse, ...errors },
        },
      },
      async () => ({ options: await authenticationOptions(ctx) }),
    );

    app.post(
      '/api/passkey-sign-in',
      {
        config: { access: 'public', rateLimit: ctx.limits.rateLimit('login') },
        schema: {
          tags: ['auth'],
          summary: 'Sign in with a passkey (page "staff": staff accounts only)',
          body: passkeySignInBody,
          response: { 200: publicUser, ...errors },
        },
      },
      async (request, reply) => {
        const { user, token, expiresAt } = await signInWithPasskey(ctx, {
          ...request.body,
          address: request.ip,
          previousToken: request.sessionToken,
        });
        setSessionCookie(request, reply, token, expiresAt);
        return toPublicUser(user);
      },
    );

    app.get(
      '/api/staff/sign-in-policy',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['staff'],
          summary: 'Whether staff must sign in with a passkey or Microsoft, and whether you could require it',
          response: { 200: signInPolicy, ...errors },
        },
      },
      async (request) => getSignInPolicy(ctx, currentUser(request)),
    );

    app.put(
      '/api/staff/sign-in-policy',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['staff'],
          summary:
            'Require passkeys or Microsoft sign-in for staff accounts (only by a staff member who has one)',
          body: signInPolicyBody,
          response: { 200: signInPolicy, ...errors },
        },
      },
      async (request) => saveSignInPolicy(ctx, currentUser(request), request.body.staffPasskeyOrMicrosoft),
    );
  };
}
