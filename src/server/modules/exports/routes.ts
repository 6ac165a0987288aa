import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '../../../shared/schemas/common';
import { ownExportQuery, staffExportQuery } from '../../../shared/schemas/exports';
import type { AppContext } from '../../context';
import { currentUser } from '../../http/access';
import { ownUserId } from '../own-user';
import {
  checkExportRange,
  csvStream,
  exportFilename,
  OWN_COLUMNS,
  ownRows,
  STAFF_COLUMNS,
  staffRows,
  xlsxStream,
} from './service';

/** The file itself: its type is in the content-type header. */
const file = z.any().describe('the file (CSV or .xlsx)');

const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
};

const CSV_TYPE = 'text/csv; charset=utf-8; header=present';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Downloads: the staff grid as CSV or .xlsx, and a facilitator's own availability as CSV. */
export function exportRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/staff/export',
      {
        config: { access: 'staff', rateLimit: ctx.limits.rateLimit('staffExport') },
        schema: {
          tags: ['exports'],
          summary: 'The staff grid (range and filters) as CSV or .xlsx: one row per facilitator per weekday',
          querystring: staffExportQuery,
          response: { 200: file, ...errors },
        },
      },
      async (request, reply) => {
        const { format, from, to, area, exclude } = request.query;
        const range = { from, to };
        checkExportRange(range);
        const batches = staffRows(ctx.db, range, { areas: area, exclude });
        const filename = exportFilename('facilitator-schedule', range, format);
        reply.header('content-disposition', `attachment; filename="${filename}"`);
        if (format === 'xlsx') {
          const stream = xlsxStream(STAFF_COLUMNS, batches, 'Schedule', (error) =>
            request.log.error({ err: error }, 'xlsx export failed'),
          );
          return reply.type(XLSX_TYPE).send(stream);
        }
        return reply.type(CSV_TYPE).send(csvStream(STAFF_COLUMNS, batches));
      },
    );

    app.get(
      '/api/availability/export',
      {
        config: { access: 'user', rateLimit: ctx.limits.rateLimit('export') },
        schema: {
          tags: ['exports'],
          summary: "The signed-in user's availability and bookings as CSV, one row per weekday",
          querystring: ownExportQuery,
          response: { 200: file, ...errors },
        },
      },
      async (request, reply) => {
        const { from, to, userId: requested } = request.query;
        const userId = ownUserId(currentUser(request).id, requested);
        const range = { from, to };
        checkExportRange(range);
        const batches = await ownRows(ctx.db, range, userId);
        reply.header(
          'content-disposition',
          `attachment; filename="${exportFilename('my-availability', range, 'csv')}"`,
        );
        return reply.type(CSV_TYPE).send(csvStream(OWN_COLUMNS, batches));
      },
    );
  };
}
