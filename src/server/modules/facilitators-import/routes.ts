import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponse } from '../../../shared/schemas/common';
import type { AppContext } from '../../context';
import { currentUser } from '../../http/access';
import { recordImportedAccounts } from './service';

export const facilitatorImportResult = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  total: z.number().int(),
  skipped: z.array(
    z.object({
      itemId: z.string(),
      freelancerId: z.string().nullable(),
      name: z.string().nullable(),
      reason: z.string(),
    }),
  ),
});

export function facilitatorImportRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/staff/facilitators/import',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['staff'],
          summary:
            'Create or update facilitator accounts from the SharePoint Facilitators list (by freelancer ID; never passwords)',
          response: {
            200: facilitatorImportResult,
            401: errorResponse,
            403: errorResponse,
            409: errorResponse,
            503: errorResponse,
          },
        },
      },
      async (request) => {
        const result = await ctx.sharePoint.importFacilitators(
          recordImportedAccounts(currentUser(request).id),
        );
        request.log.info(
          {
            userId: currentUser(request).id,
            created: result.created,
            updated: result.updated,
            skipped: result.skipped.length,
          },
          'facilitators imported from SharePoint',
        );
        return result;
      },
    );
  };
}
