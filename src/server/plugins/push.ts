import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { resolveVapidKeys } from '../db/vapid-keys';
import { PushRuntime } from '../modules/notifications/delivery';

declare module 'fastify' {
  interface FastifyInstance {
    /** web push: the VAPID keys every instance signs with, and the wake-up of push delivery */
    push: PushRuntime;
  }
}

/**
 * Who push services may contact: VAPID_SUBJECT, else the portal's own https address, else a mailto:
 * address that names no one (push services accept it; an operator sets VAPID_SUBJECT for production).
 */
function subjectOf(config: FastifyInstance['config']): string {
  if (config.VAPID_SUBJECT) return config.VAPID_SUBJECT;
  if (config.PUBLIC_URL?.startsWith('https://')) return config.PUBLIC_URL;
  return 'mailto:webpush@localhost.invalid';
}

type FastifyInstance = Parameters<FastifyPluginAsync>[0];

const pushPlugin: FastifyPluginAsync = async (app) => {
  const keys = await resolveVapidKeys(
    { publicKey: app.config.VAPID_PUBLIC_KEY, privateKey: app.config.VAPID_PRIVATE_KEY },
    app.database,
  );
  app.decorate('push', new PushRuntime({ ...keys, subject: subjectOf(app.config) }));
};

export default fp(pushPlugin, { name: 'push', dependencies: ['database'] });
