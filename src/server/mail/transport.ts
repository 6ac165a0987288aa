/**
 * Outgoing email over SMTP (nodemailer). One transport per sending run, closed afterwards: settings
 * can change between runs and an idle pooled connection would only be dropped by the server.
 */
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { SmtpSecurity } from '../../shared/schemas/reminders';
import { type AddressLookup, pinAllowedAddress } from '../outbound-address';
import { type OutboundSettings, proxyFor } from '../outbound-proxy';

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
  /** the proxy settings: a connection to a host NO_PROXY does not name goes through HTTPS_PROXY */
  proxy?: Pick<OutboundSettings, 'HTTPS_PROXY' | 'HTTP_PROXY' | 'NO_PROXY'>;
  /** told of every message's fate: handed to the server, or not (the metrics count them) */
  onOutcome?: (outcome: 'sent' | 'failed') => void;
}

/** The app's mail runtime (plugins/mailer.ts decorates the app with one); senders spread `options`. */
export class MailRuntime {
  constructor(public options: MailRuntimeOptions = {}) {}

  /** Replaces the options (tests trust another SMTP server's certificate). */
  configure(options: MailRuntimeOptions): void {
    this.options = options;
  }
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

/**
 * A mailer for one run (a send, a test). The host is resolved and checked here, every time: only a
 * public address or one in the operator's SMTP_ALLOWED_NETWORKS (outbound-address.ts), and every
 * connection of the run goes to that one address, with the typed name kept for TLS. Rejects with
 * BlockedAddressError or UnresolvedHostError before any connection is made.
 */
export async function openMailer(
  settings: SmtpSettings,
  options: MailRuntimeOptions & { allowedNetworks: readonly string[]; lookup?: AddressLookup },
): Promise<Mailer> {
  const pinned = await pinAllowedAddress(settings.host, options.allowedNetworks, options.lookup);
  const timeout = options.connectionTimeoutMs ?? 15_000;
  // the proxy is asked by the typed name (NO_PROXY lists names); the tunnel goes to the checked address
  const proxy = options.proxy ? proxyFor(settings.host, settings.port, options.proxy) : null;
  const transportOptions: SMTPTransport.Options = {
    host: pinned.address,
    ...(pinned.servername ? { servername: pinned.servername } : {}),
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
    ...(proxy ? { proxy } : {}),
  };
  const transport = nodemailer.createTransport({ ...transportOptions, pool: true, maxConnections: 1 });
  return {
    async verify() {
      await transport.verify();
    },
    async send(message) {
      try {
        await transport.sendMail({ ...message, disableFileAccess: true, disableUrlAccess: true });
      } catch (error) {
        options.onOutcome?.('failed');
        throw error;
      }
      options.onOutcome?.('sent');
    },
    close() {
      transport.close();
    },
  };
}

/*
 * What staff are told when mail fails: a category, never the server's own words. The reply of a
 * server staff aimed the portal at is theirs to read back otherwise (a banner, an error page of an
 * internal service), which turns the settings page into a probe of the portal's network.
 */
export const MAIL_ERRORS = {
  blocked:
    'Could not connect to the mail server: its address is on a private, local or reserved network (the operator can allow it with SMTP_ALLOWED_NETWORKS)',
  connect: 'Could not connect to the mail server',
  tls: 'TLS failed: a secure connection to the mail server could not be made',
  auth: 'Authentication failed: the mail server refused the username or password',
  recipient: 'Recipient refused by the mail server',
  message: 'Message refused by the mail server',
  other: 'Sending failed',
} as const;

const CATEGORIES: Record<string, keyof typeof MAIL_ERRORS> = {
  EBLOCKED: 'blocked',
  EDNS: 'connect',
  ECONNECTION: 'connect',
  ETIMEDOUT: 'connect',
  ESOCKET: 'connect',
  EPROTOCOL: 'connect',
  ETLS: 'tls',
  EAUTH: 'auth',
  ENOAUTH: 'auth',
  EENVELOPE: 'recipient',
  EMESSAGE: 'message',
};

/** The category of a failed connection or send (see MAIL_ERRORS), safe to show staff. */
export function describeMailError(error: unknown): string {
  const err = error as { code?: unknown; message?: unknown } | null;
  const code = typeof err?.code === 'string' ? err.code : '';
  // a certificate nodemailer or Node rejected is known from our side (Node's own message and codes)
  const ownMessage = typeof err?.message === 'string' ? err.message : '';
  if (/CERT_|certificate|self[- ]signed|altnames|SSL routines/i.test(`${code} ${ownMessage}`))
    return MAIL_ERRORS.tls;
  return MAIL_ERRORS[CATEGORIES[code] ?? 'other'];
}
