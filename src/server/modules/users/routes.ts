import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { todayIn } from '../../../shared/calendar';
import { errorResponse, idParam } from '../../../shared/schemas/common';
import {
  createdUser,
  createUserBody,
  publicUser,
  staffUsersQuery,
  type UsersPage,
  updateUserBody,
  usersPage,
} from '../../../shared/schemas/users';
import type { AppContext } from '../../context';
import { currentUser } from '../../http/access';
import { sendInvitation } from '../password-links/service';
import { facilitatorSafeguardingStatuses } from '../safeguarding/service';
import { createUser, deleteUser, listUsers, listUsersPage, toPublicUser, updateUser } from './service';

const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
};

export function userRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/staff/users',
      {
        config: { access: 'staff', list: 'versioned' },
        schema: {
          tags: ['staff'],
          summary: 'Every account, all roles; or one page of them, by name, with a search and a filter',
          description:
            'Without query parameters, every account (a list). With cursor, limit, search or safeguarding, ' +
            'one page (an object): accounts by name, then id, from the cursor on, those the search finds ' +
            'and, with safeguarding, the facilitators in that state today; nextCursor asks for the next page.',
          querystring: staffUsersQuery,
          response: { 200: z.union([z.array(publicUser), usersPage]), ...errors },
        },
      },
      async (request, reply) => {
        const { cursor, limit, search, safeguarding } = request.query;
        if (Object.values(request.query).every((value) => value === undefined)) {
          return ctx.lists.send(request, reply, { lists: ['users'], key: '' }, () => listUsers(ctx.db));
        }
        // a safeguarding state is as of today: today names the answer too
        const today = todayIn(ctx.config.ORG_TIMEZONE, ctx.now());
        return ctx.lists.send(
          request,
          reply,
          {
            lists: safeguarding ? ['users', 'safeguarding'] : ['users'],
            key: JSON.stringify([cursor, limit, search, safeguarding, safeguarding ? today : null]),
          },
          async (): Promise<UsersPage> => {
            if (!safeguarding) return listUsersPage(ctx.db, request.query);
            const statuses = await facilitatorSafeguardingStatuses(ctx.db, today);
            const only = [...statuses]
              .filter(([, status]) => status.state === safeguarding)
              .map(([id]) => id);
            return listUsersPage(ctx.db, request.query, only);
          },
        );
      },
    );

    app.post(
      '/api/staff/users',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['staff'],
          summary: 'Create an account',
          body: createUserBody,
          response: { 201: createdUser, ...errors },
        },
      },
      async (request, reply) => {
        const me = currentUser(request);
        const by = { actorId: me.id, via: 'staff' } as const;
        const created = await createUser(ctx.db, request.body, by);
        if (!request.body.sendInvitation) return reply.code(201).send(toPublicUser(created));
        // the account exists without a password; the invitation lets its owner choose one
        const { emailError } = await sendInvitation(ctx, me, created.id);
        return reply.code(201).send({ ...toPublicUser(created), invitationEmailError: emailError ?? null });
      },
    );

    app.put(
      '/api/staff/users/:id',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['staff'],
          summary: 'Edit an account; a blank password keeps the current one',
          params: idParam,
          body: updateUserBody,
          response: { 200: publicUser, ...errors },
        },
      },
      async (request) => {
        const me = currentUser(request);
        const self = request.params.id === me.id;
        const row = await updateUser(ctx.db, request.params.id, request.body, {
          endSessionsOnPasswordChange: !self,
          by: { actorId: me.id, via: 'staff' },
        });
        // Staff changing their own password stay signed in here and are signed out elsewhere.
        if (self && request.body.password) {
          await ctx.sessions.destroyAllForUser(me.id, request.sessionToken ?? undefined);
        }
        return toPublicUser(row);
      },
    );

    app.delete(
      '/api/staff/users/:id',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['staff'],
          summary: 'Delete an account',
          params: idParam,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await deleteUser(ctx.db, request.params.id, currentUser(request).id);
        return reply.code(204).send(null);
      },
    );
  };
}
