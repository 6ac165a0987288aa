import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../shared/schemas/common';
import { settingsBody, settingsResponse, testConnectionResult } from '../../../shared/schemas/settings';
import { columnCheckResult } from '../../../shared/schemas/sharepoint-columns';
import type { AppContext } from '../../context';
import { currentUser } from '../../http/access';
import {
  type ColumnChecker,
  type ConnectionTester,
  unavailableColumnChecker,
  unavailableConnectionTester,
} from '../../sharepoint/connection';
import { checkColumns, getSettings, testConnection } from '../../sharepoint/settings';
import { saveSettings } from './service';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse };

export interface SettingsRouteOptions {
  /** Tries settings against SharePoint; plugins/routes.ts passes the connector's. */
  connectionTester?: ConnectionTester | undefined;
  /** Reads the lists' columns for the mapping on the settings page; plugins/routes.ts passes the connector's. */
  columnChecker?: ColumnChecker | undefined;
}

export function settingsRoutes(ctx: AppContext, options: SettingsRouteOptions = {}): FastifyPluginAsyncZod {
  const tester = options.connectionTester ?? unavailableConnectionTester;
  const columnChecker = options.columnChecker ?? unavailableColumnChecker;

  return async (app) => {
    app.get(
      '/api/sharepoint/settings',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['sharepoint'],
          summary: 'SharePoint settings without secrets (hasPassword / hasClientSecret say what is stored)',
          response: { 200: settingsResponse, ...errors },
        },
      },
      () => getSettings(ctx.db),
    );

    app.post(
      '/api/sharepoint/settings',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['sharepoint'],
          summary:
            'Save SharePoint settings; a blank password or client secret keeps the stored one while tenant, client and site (and username) stay the same, else it is cleared (passwordCleared, clientSecretCleared)',
          body: settingsBody,
          response: { 200: settingsResponse, ...errors },
        },
      },
      async (request) => {
        const saved = await saveSettings(ctx.db, ctx.appSecret, request.body, {
          actorId: currentUser(request).id,
          via: 'staff',
        });
        // flags only: a secret's value never reaches a log line
        request.log.info(
          {
            userId: currentUser(request).id,
            passwordChanged: Boolean(request.body.password),
            clientSecretChanged: Boolean(request.body.clientSecret),
            clientCertificateChanged: Boolean(request.body.clientCertificateKey),
          },
          'SharePoint settings saved',
        );
        return saved;
      },
    );

    app.post(
      '/api/sharepoint/test-connection-with-credentials',
      {
        config: { access: 'staff', rateLimit: ctx.limits.rateLimit('testConnection') },
        schema: {
          tags: ['sharepoint'],
          summary:
            'Try settings against SharePoint without saving them; a blank secret uses the stored one only for the tenant, client and site it was stored for',
          body: settingsBody,
          response: { 200: testConnectionResult, ...errors },
        },
      },
      async (request) => {
        const result = await testConnection(ctx.db, ctx.appSecret, request.body, tester);
        request.log.info(
          { userId: currentUser(request).id, success: result.success, result: result.message },
          'SharePoint connection test',
        );
        return result;
      },
    );

    app.post(
      '/api/sharepoint/columns',
      {
        config: { access: 'staff' },
        schema: {
          tags: ['sharepoint'],
          summary:
            "Read the typed settings' lists and match each portal field to a column (nothing is saved)",
          body: settingsBody,
          response: { 200: columnCheckResult, ...errors },
        },
      },
      async (request) => {
        const result = await checkColumns(ctx.db, ctx.appSecret, request.body, columnChecker);
        request.log.info(
          {
            userId: currentUser(request).id,
            reached: result.reached,
            problems: result.lists.flatMap((l) =>
              l.fields.filter((f) => f.problem).map((f) => `${l.list}.${f.field}`),
            ),
          },
          'SharePoint column check',
        );
        return result;
      },
    );
  };
}
