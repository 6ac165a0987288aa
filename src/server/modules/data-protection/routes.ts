import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse, idParam, urlNumber } from '../../../shared/schemas/common';
import {
  assuranceQuery,
  assuranceResponse,
  assuranceStatementBody,
  assuranceStatementResponse,
  certificateViewsResponse,
  PHOTO_MAX_BYTES,
  photoBody,
  photoResponse,
} from '../../../shared/schemas/data-protection';
import type { AppContext } from '../../context';
import { users } from '../../db/schema';
import { notFound } from '../../errors';
import { currentUser } from '../../http/access';
import { assurance, readAssuranceStatement, saveAssuranceStatement } from './assurance';
import { assurancePdf } from './assurance-pdf';
import { deletePhoto, readPhoto, savePhoto } from './photos';
import { subjectAccessArchive } from './subject-access';
import { listCertificateViews } from './viewing-log';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

const viewsQuery = z.object({
  limit: z.preprocess((v) => (v === '' ? undefined : v), urlNumber(500).optional()),
  before: z.preprocess((v) => (v === '' ? undefined : v), urlNumber(Number.MAX_SAFE_INTEGER).optional()),
});

/**
 * What data protection asks of the portal: the log of who saw whose certificate, the subject access
 * archive (staff for anyone, a person for themselves), the school's assurance and the photos on it.
 * All staff's, except a person's own archive.
 */
export function dataProtectionRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const personExists = async (id: number) => {
      const [row] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.id, id));
      if (!row) throw notFound('Person not found');
    };

    app.get(
      '/api/staff/users/:id/certificate-views',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['data protection'],
          summary:
            'Who was shown or sent this person’s whole DBS certificate number, and when (newest first)',
          params: idParam,
          querystring: viewsQuery,
          response: { 200: certificateViewsResponse, ...errors },
        },
      },
      async (request) => {
        await personExists(request.params.id);
        const { limit, before } = request.query;
        return listCertificateViews(ctx.db, request.params.id, { limit: limit ?? 200, before });
      },
    );

    const sendArchive = async (
      reply: import('fastify').FastifyReply,
      userId: number,
      requestedBy: number,
    ) => {
      const { fileName, zip } = await subjectAccessArchive(ctx.db, userId, requestedBy, ctx.now());
      reply.header('content-disposition', `attachment; filename="${fileName}"`);
      reply.header('cache-control', 'no-store');
      return reply.type('application/zip').send(Buffer.from(zip));
    };

    app.get(
      '/api/staff/users/:id/subject-access',
      {
        config: { access: 'staff', rateLimit: ctx.limits.rateLimit('subjectAccess') },
        schema: {
          tags: ['data protection'],
          summary:
            'Everything the portal holds about a person, as a zip of JSON and CSV files with a guide (entered in the viewing log)',
          params: idParam,
          response: { 200: z.any().describe('the zip file'), ...errors },
        },
      },
      (request, reply) => sendArchive(reply, request.params.id, currentUser(request).id),
    );

    app.get(
      '/api/account/subject-access',
      {
        config: { access: 'user', rateLimit: ctx.limits.rateLimit('subjectAccess') },
        schema: {
          tags: ['data protection'],
          summary: 'Everything the portal holds about the signed-in person, as a zip of JSON and CSV files',
          response: { 200: z.any().describe('the zip file'), ...errors },
        },
      },
      (request, reply) => {
        const me = currentUser(request).id;
        return sendArchive(reply, me, me);
      },
    );

    app.get(
      '/api/staff/assurance',
      {
        config: { access: 'staff', rateLimit: ctx.limits.rateLimit('safeguardingExport') },
        schema: {
          tags: ['data protection'],
          summary:
            'The school’s assurance: each person sent to one session, or to a school’s sessions between two days, with their checks as they stood on the session’s day',
          querystring: assuranceQuery,
          response: { 200: assuranceResponse, ...errors },
        },
      },
      (request) => assurance(ctx.db, request.query, ctx.now()),
    );

    app.get(
      '/api/staff/assurance/pdf',
      {
        config: { access: 'staff', rateLimit: ctx.limits.rateLimit('safeguardingExport') },
        schema: {
          tags: ['data protection'],
          summary:
            'The school’s assurance as a PDF to send: the same sessions, people and checks as the page, certificate numbers masked',
          querystring: assuranceQuery,
          response: { 200: z.any().describe('the PDF file'), ...errors },
        },
      },
      async (request, reply) => {
        const query = request.query;
        const answer = await assurance(ctx.db, query, ctx.now());
        const pdf = await assurancePdf(ctx.db, answer, ctx.config.ORG_TIMEZONE);
        const name =
          query.bookingId !== undefined
            ? `assurance-session-${query.bookingId}.pdf`
            : `assurance-${query.from}-to-${query.to}.pdf`;
        reply.header('content-disposition', `attachment; filename="${name}"`);
        reply.header('cache-control', 'no-store');
        return reply.type('application/pdf').send(pdf);
      },
    );

    app.get(
      '/api/staff/assurance/statement',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['data protection'],
          summary: 'The confirmation statement printed on the school’s assurance',
          response: { 200: assuranceStatementResponse, ...errors },
        },
      },
      () => readAssuranceStatement(ctx.db),
    );

    app.put(
      '/api/staff/assurance/statement',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['data protection'],
          summary: 'Save the confirmation statement (recorded in the history)',
          body: assuranceStatementBody,
          response: { 200: assuranceStatementResponse, ...errors },
        },
      },
      (request) => saveAssuranceStatement(ctx.db, request.body, currentUser(request).id, ctx.now()),
    );

    app.get(
      '/api/staff/users/:id/photo',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['data protection'],
          summary: 'A facilitator’s photo (JPEG, no metadata), for staff and the school’s assurance',
          params: idParam,
          response: { 200: z.any().describe('the JPEG'), ...errors },
        },
      },
      async (request, reply) => {
        const image = await readPhoto(ctx.db, request.params.id);
        reply.header('cache-control', 'private, no-store');
        return reply.type('image/jpeg').send(image);
      },
    );

    app.put(
      '/api/staff/users/:id/photo',
      {
        config: { access: 'staff', rateLimit: ctx.limits.rateLimit('photoUpload') },
        bodyLimit: Math.ceil(PHOTO_MAX_BYTES / 3) * 4 + 1024,
        schema: {
          tags: ['data protection'],
          summary:
            'Keep a photo of a facilitator: a JPEG, PNG or WebP (checked by its content) of at most 5 MB, sent base64; it is resized and its metadata removed',
          params: idParam,
          body: photoBody,
          response: { 200: photoResponse, ...errors },
        },
      },
      (request) =>
        savePhoto(
          ctx.db,
          request.params.id,
          Buffer.from(request.body.image, 'base64'),
          currentUser(request).id,
          ctx.now(),
        ),
    );

    app.delete(
      '/api/staff/users/:id/photo',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['data protection'],
          summary: 'Remove a facilitator’s photo',
          params: idParam,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await deletePhoto(ctx.db, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
