import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { MailRuntime } from '../mail/transport';
import { trustedAuthorities } from '../outbound-proxy';

declare module 'fastify' {
  interface FastifyInstance {
    /** what outgoing email trusts besides the settings (extra certificate authorities, timeouts) */
    mailer: MailRuntime;
  }
}

const mailerPlugin: FastifyPluginAsync = async (app) => {
  const { SMTP_CA, SMTP_TIMEOUT_SECONDS, OUTBOUND_CA, HTTPS_PROXY, HTTP_PROXY, NO_PROXY } = app.config;
  // SMTP_CA_FILE is the email server's own CA; OUTBOUND_CA_FILE adds to the system's, as for fetch
  const extraCa = OUTBOUND_CA
    ? trustedAuthorities([OUTBOUND_CA, SMTP_CA].filter(Boolean).join('\n'))
    : SMTP_CA;
  app.decorate(
    'mailer',
    new MailRuntime({
      ...(extraCa ? { extraCa } : {}),
      connectionTimeoutMs: SMTP_TIMEOUT_SECONDS * 1000,
      proxy: { HTTPS_PROXY, HTTP_PROXY, NO_PROXY },
      onOutcome: (outcome) => app.metrics.emails.inc({ outcome }),
    }),
  );
};

export default fp(mailerPlugin, { name: 'mailer', dependencies: ['database', 'metrics'] });
