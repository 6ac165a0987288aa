import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { MailRuntime, type MailRuntimeOptions } from '../mail/transport';

declare module 'fastify' {
  interface FastifyInstance {
    /** what outgoing email trusts besides the settings (extra certificate authorities, timeouts) */
    mailer: MailRuntime;
  }
}

const mailerPlugin: FastifyPluginAsync<MailRuntimeOptions> = async (app, options) => {
  app.decorate('mailer', new MailRuntime(options));
};

export default fp(mailerPlugin, { name: 'mailer' });
