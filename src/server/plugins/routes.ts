import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { authRoutes } from '../modules/auth/routes';
import { availabilityRoutes } from '../modules/availability/routes';
import { bookingRoutes } from '../modules/bookings/routes';
import { calendarFeedRoutes } from '../modules/calendar-feed/routes';
import { completenessRoutes } from '../modules/completeness/routes';
import { dataProtectionRoutes } from '../modules/data-protection/routes';
import { exportRoutes } from '../modules/exports/routes';
import { facilitatorImportRoutes } from '../modules/facilitators-import/routes';
import { freeRoutes } from '../modules/free/routes';
import { healthRoutes } from '../modules/health/routes';
import { historyRoutes } from '../modules/history/routes';
import { microsoftSignInRoutes } from '../modules/microsoft-sign-in/routes';
import { noteRoutes } from '../modules/notes/routes';
import { notificationRoutes } from '../modules/notifications/routes';
import { offerRoutes } from '../modules/offers/routes';
import { passkeyRoutes } from '../modules/passkeys/routes';
import { passwordLinkRoutes } from '../modules/password-links/routes';
import { patternRoutes } from '../modules/patterns/routes';
import { reminderRoutes } from '../modules/reminders/routes';
import { retentionRoutes } from '../modules/retention/routes';
import { safeguardingRoutes } from '../modules/safeguarding/routes';
import { schedulerRoutes } from '../modules/scheduler/routes';
import { settingsRoutes } from '../modules/settings/routes';
import { sharePointNotificationRoutes } from '../modules/sharepoint-notifications/routes';
import { staffRoutes } from '../modules/staff/routes';
import { userRoutes } from '../modules/users/routes';
import type { ConnectionTester } from '../sharepoint/connection';

export interface RoutesPluginOptions {
  /** tries SharePoint settings from the settings page (default: the SharePoint adapter's) */
  connectionTester?: ConnectionTester | undefined;
}

/** Every module's routes, each declaring its schemas and who may call it (`config.access`). */
const routesPlugin: FastifyPluginAsync<RoutesPluginOptions> = async (app, options) => {
  const { ctx } = app;
  await app.register(healthRoutes(ctx));
  await app.register(authRoutes(ctx));
  await app.register(passwordLinkRoutes(ctx));
  await app.register(passkeyRoutes(ctx));
  await app.register(userRoutes(ctx));
  await app.register(availabilityRoutes(ctx));
  await app.register(bookingRoutes(ctx));
  await app.register(staffRoutes(ctx));
  await app.register(noteRoutes(ctx));
  await app.register(
    settingsRoutes(ctx, {
      connectionTester: options.connectionTester ?? app.sharePoint.connectionTester(),
      columnChecker: app.sharePoint.columnChecker(),
    }),
  );
  await app.register(schedulerRoutes(ctx));
  await app.register(sharePointNotificationRoutes(ctx));
  await app.register(facilitatorImportRoutes(ctx));
  await app.register(patternRoutes(ctx));
  await app.register(freeRoutes(ctx));
  await app.register(offerRoutes(ctx));
  await app.register(completenessRoutes(ctx));
  await app.register(reminderRoutes(ctx));
  await app.register(calendarFeedRoutes(ctx));
  await app.register(exportRoutes(ctx));
  await app.register(historyRoutes(ctx));
  await app.register(safeguardingRoutes(ctx));
  await app.register(dataProtectionRoutes(ctx));
  await app.register(retentionRoutes(ctx));
  await app.register(microsoftSignInRoutes(ctx));
  await app.register(notificationRoutes(ctx));
};

export default fp(routesPlugin, { name: 'routes', dependencies: ['context', 'sessions-and-access'] });
