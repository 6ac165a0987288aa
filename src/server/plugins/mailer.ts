import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { MailRuntime } from '../mail/transport';

declare module 'fastify' {
  interface FastifyInstance {
    /** what outgoing email trusts besides the settings (extra certificate authorities, timeouts) */
    mailer: MailRuntime;
  }
}

const mailerPlugin: FastifyPluginAsync = async (app) => {
  const { SMTP_CA, SMTP_TIMEOUT_SECONDS } = app.config;
  app.decorate(
    'mailer',
    new MailRuntime({
      ...(SMTP_CA ? { extraCa: SMTP_CA } : {}),
      connectionTimeoutMs: SMTP_TIMEOUT_SECONDS * 1000,
    }),
  );
};

export default fp(mailerPlugin, { name: 'mailer', dependencies: ['database'] });
