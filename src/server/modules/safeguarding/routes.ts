import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { todayIn } from '../../../shared/calendar';
import { errorResponse, idParam } from '../../../shared/schemas/common';
import type { CertificateViewVia } from '../../../shared/schemas/data-protection';
import {
  type SafeguardingRecordsResponse,
  safeguardingExportQuery,
  safeguardingList,
  safeguardingListQuery,
  safeguardingPolicyBody,
  safeguardingPolicyPreview,
  safeguardingPolicyResponse,
  safeguardingRecordsBody,
  safeguardingRecordsResponse,
} from '../../../shared/schemas/safeguarding';
import type { AppContext } from '../../context';
import { currentUser } from '../../http/access';
import { recordCertificateView } from '../data-protection/viewing-log';
import { csvLine } from '../exports/service';
import {
  getRecords,
  listStatuses,
  previewPolicy,
  readPolicy,
  SCHOOL_RECORD_COLUMNS,
  savePolicy,
  saveRecords,
  schoolRecordRows,
} from './service';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

/**
 * Safeguarding records (DBS and the organisation's other checks), kept by staff. A facilitator reads
 * their own only (GET /api/safeguarding); every other route is staff's.
 */
export function safeguardingRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const today = () => todayIn(ctx.config.ORG_TIMEZONE, ctx.now());
  /** An answer carrying a whole certificate number is entered in the viewing log before it leaves. */
  const logged = async (
    answer: SafeguardingRecordsResponse,
    viewerId: number,
    via: CertificateViewVia,
  ): Promise<SafeguardingRecordsResponse> => {
    if (answer.dbs) {
      await recordCertificateView(ctx.db, { subjectUserId: answer.userId, viewerId, via, at: ctx.now() });
    }
    return answer;
  };
  return async (app) => {
    app.get(
      '/api/staff/safeguarding/policy',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['safeguarding'],
          summary: 'How long checks count, when the warning starts and which other checks are required',
          response: { 200: safeguardingPolicyResponse, ...errors },
        },
      },
      () => readPolicy(ctx.db),
    );

    app.put(
      '/api/staff/safeguarding/policy',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['safeguarding'],
          summary:
            'Save the safeguarding policy: it applies from today on, earlier days keep theirs (recorded in the history)',
          body: safeguardingPolicyBody,
          response: { 200: safeguardingPolicyResponse, ...errors },
        },
      },
      (request) => savePolicy(ctx.db, request.body, currentUser(request).id, today()),
    );

    app.post(
      '/api/staff/safeguarding/policy/preview',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['safeguarding'],
          summary: 'Whose safeguarding state today a policy would change if it were saved (saves nothing)',
          body: safeguardingPolicyBody,
          response: { 200: safeguardingPolicyPreview, ...errors },
        },
      },
      (request) => previewPolicy(ctx.db, request.body, today()),
    );

    app.get(
      '/api/staff/safeguarding',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['safeguarding'],
          summary: 'Every facilitator’s safeguarding status on a day (default today); certificates masked',
          querystring: safeguardingListQuery,
          response: { 200: safeguardingList, ...errors },
        },
      },
      (request) => listStatuses(ctx.db, request.query.date ?? today()),
    );

    app.get(
      '/api/staff/users/:id/safeguarding',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['safeguarding'],
          summary:
            'One facilitator’s safeguarding records in full, with their status today (entered in the viewing log)',
          params: idParam,
          response: { 200: safeguardingRecordsResponse, ...errors },
        },
      },
      async (request) => {
        const answer = await getRecords(ctx.db, request.params.id, today());
        return logged(answer, currentUser(request).id, 'staff-records');
      },
    );

    app.put(
      '/api/staff/users/:id/safeguarding',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['safeguarding'],
          summary:
            'Replace one facilitator’s safeguarding records; send the version they were read at (another edit since: 409)',
          params: idParam,
          body: safeguardingRecordsBody,
          response: { 200: safeguardingRecordsResponse, ...errors, 409: errorResponse },
        },
      },
      async (request) => {
        const actorId = currentUser(request).id;
        const answer = await saveRecords(ctx.db, request.params.id, request.body, actorId, today());
        return logged(answer, actorId, 'staff-records-saved');
      },
    );

    app.get(
      '/api/safeguarding',
      {
        config: { access: 'user' },
        schema: {
          tags: ['safeguarding'],
          summary: 'The signed-in facilitator’s own safeguarding records and what is missing or due',
          response: { 200: safeguardingRecordsResponse, ...errors },
        },
      },
      async (request) => {
        const userId = currentUser(request).id;
        return logged(await getRecords(ctx.db, userId, today(), true), userId, 'own-records');
      },
    );

    app.get(
      '/api/staff/safeguarding/export',
      {
        config: { access: 'staff', rateLimit: ctx.limits.rateLimit('safeguardingExport') },
        schema: {
          tags: ['safeguarding'],
          summary:
            'The record for schools as CSV: who was sent in a range (optionally to one school) and their checks on each session day',
          querystring: safeguardingExportQuery,
          response: { 200: z.any().describe('the CSV file'), ...errors },
        },
      },
      async (request, reply) => {
        const { from, to, school } = request.query;
        const rows = await schoolRecordRows(ctx.db, { from, to }, school);
        const body =
          `\uFEFF${csvLine(SCHOOL_RECORD_COLUMNS.map((c) => c.header))}` +
          rows.map((row) => csvLine(SCHOOL_RECORD_COLUMNS.map((c) => row[c.key]))).join('');
        reply.header(
          'content-disposition',
          `attachment; filename="safeguarding-record-${from}-to-${to}.csv"`,
        );
        return reply.type('text/csv; charset=utf-8; header=present').send(body);
      },
    );
  };
}
