import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { staffViewRange } from '../../../shared/calendar';
import { errorResponse, idParam } from '../../../shared/schemas/common';
import { createNoteBody, notesQuery, staffNote, updateNoteBody } from '../../../shared/schemas/notes';
import type { AppContext } from '../../context';
import { currentUser } from '../../http/access';
import { createNote, deleteNote, listNotes, updateNote } from './service';

const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
};

/** Staff notes about facilitators. Staff only: no facilitator response ever carries them. */
export function noteRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/staff/notes',
      {
        config: { access: 'staff', list: 'versioned' },
        schema: {
          tags: ['notes'],
          summary: 'Notes for the staff view (Monday-Friday week, two weeks or month) containing the date',
          querystring: notesQuery,
          response: { 200: z.array(staffNote), ...errors },
        },
      },
      async (request, reply) => {
        const range = staffViewRange(request.query.view, request.query.date);
        return ctx.lists.send(request, reply, { lists: ['notes'], key: `${range.from}:${range.to}` }, () =>
          listNotes(ctx.db, range),
        );
      },
    );

    app.post(
      '/api/staff/notes',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['notes'],
          summary: 'Create a note about a facilitator for a day',
          body: createNoteBody,
          response: { 201: staffNote, ...errors },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await createNote(ctx.db, request.body, currentUser(request).id)),
    );

    app.put(
      '/api/staff/notes/:id',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['notes'],
          summary: 'Edit a note',
          params: idParam,
          body: updateNoteBody,
          response: { 200: staffNote, ...errors },
        },
      },
      (request) => updateNote(ctx.db, request.params.id, request.body, currentUser(request).id),
    );

    app.delete(
      '/api/staff/notes/:id',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['notes'],
          summary: 'Delete a note',
          params: idParam,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await deleteNote(ctx.db, request.params.id, currentUser(request).id);
        return reply.code(204).send(null);
      },
    );
  };
}
