/**
 * Outgoing email over SMTP (nodemailer). One transport per sending run, closed afterwards: settings
 * can change between runs and an idle pooled connection would only be dropped by the server.
 */
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { SmtpSecurity } from '../../shared/schemas/reminders';
import type { AppContext } from '../context';

export interface SmtpSettings {
  host: string;
  port: number;
  security: SmtpSecurity;
  username: string;
  password: string;
}

/** Runtime knobs that are not settings: certificate authorities to trust besides the system's. */
export interface MailRuntimeOptions {
  /** PEM certificates (a private CA, or the test server's own certificate) */
  extraCa?: string | string[];
  connectionTimeoutMs?: number;
}

const runtime = new WeakMap<AppContext, MailRuntimeOptions>();

export function configureMail(ctx: AppContext, options: MailRuntimeOptions = {}): void {
  runtime.set(ctx, options);
}

export function mailOptionsFor(ctx: AppContext): MailRuntimeOptions {
  return runtime.get(ctx) ?? {};
}

export interface Mailer {
  /** Connects (and signs in) once; resolves, or rejects with the reason a send would fail. */
  verify(): Promise<void>;
  send(message: {
    from: { name: string; address: string };
    to: string;
    subject: string;
    text: string;
    html: string;
  }): Promise<void>;
  close(): void;
}

export function createMailer(settings: SmtpSettings, options: MailRuntimeOptions = {}): Mailer {
  const timeout = options.connectionTimeoutMs ?? 15_000;
  const transportOptions: SMTPTransport.Options = {
    host: settings.host,
    port: settings.port,
    // "tls": TLS from the first byte (usually 465); "starttls": plain, then upgraded, and never sent
    // unencrypted if the server cannot upgrade (usually 587); "none": never encrypted (a relay on
    // the local network)
    secure: settings.security === 'tls',
    requireTLS: settings.security === 'starttls',
    ignoreTLS: settings.security === 'none',
    tls: {
      minVersion: 'TLSv1.2',
      ...(options.extraCa ? { ca: options.extraCa } : {}),
    },
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout * 2,
    ...(settings.username ? { auth: { user: settings.username, pass: settings.password } } : {}),
  };
  const transport = nodemailer.createTransport({ ...transportOptions, pool: true, maxConnections: 1 });
  return {
    async verify() {
      await transport.verify();
    },
    async send(message) {
      await transport.sendMail({ ...message, disableFileAccess: true, disableUrlAccess: true });
    },
    close() {
      transport.close();
    },
  };
}

const REASONS: Record<string, string> = {
  EAUTH: 'The email server refused the username or password',
  ENOAUTH: 'The email server wants a username and password',
  ECONNECTION: 'Could not connect to the email server',
  ETIMEDOUT: 'The email server did not answer in time',
  ESOCKET: 'The connection to the email server failed',
  ETLS: 'A secure (TLS) connection to the email server could not be made',
  EDNS: 'The email server name could not be found',
  EENVELOPE: 'The email server refused the recipient',
  EMESSAGE: 'The email server refused the message',
  EPROTOCOL: 'The email server answered in a way that was not understood',
};

/** A short reason for a failed send, safe to show staff: known causes in words, never the password. */
export function describeMailError(error: unknown, secrets: string[] = []): string {
  const err = error as { code?: unknown; message?: unknown; response?: unknown } | null;
  const code = typeof err?.code === 'string' ? err.code : '';
  const detail = (
    typeof err?.response === 'string' && err.response
      ? err.response
      : typeof err?.message === 'string'
        ? err.message
        : String(error)
  ).replace(/\s+/g, ' ');
  const certificate = /certificate|self[- ]signed|CERT_|altnames/i.test(detail);
  const prefix = certificate
    ? 'The email server’s certificate is not trusted'
    : (REASONS[code] ?? 'Sending failed');
  let text = `${prefix}: ${detail}`.trim();
  for (const secret of secrets) if (secret) text = text.split(secret).join('[hidden]');
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}
