/**
 * A real SMTP server (the `smtp-server` package) for tests: it records every message it accepts, and
 * can require TLS or STARTTLS, a username and password, or refuse chosen recipients. Test support only;
 * nothing in the product imports it. Used by the API tests and by the e2e specs.
 */
import { renameSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

/**
 * A self-signed certificate for localhost and 127.0.0.1, valid until 2126, made for these tests with
 * `openssl req -x509 -newkey ec ...`. Its key is public (it is right here): never trust it anywhere
 * but a test that starts this server. (smtp-server's built-in certificate expired in 2025.)
 */
export const TEST_SMTP_CERT = `-----BEGIN CERTIFICATE-----
MIIBnDCCAUGgAwIBAgIUThaKth2dnEWA4t70vorbCLGOo8QwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyMzEyMzcwNloYDzIxMjYxMDMw
MTIzNzA2WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAATD3DLDXjlElj5eZbENxWYqV2rGAs46yilR2mkwNIt4w944Q7i6/b3w
ump+hfrXXSA08f0kIL9z4yTLmbepP42to28wbTAdBgNVHQ4EFgQUBRuDZZHCotIw
n0+f+KSxf1nYrgUwHwYDVR0jBBgwFoAUBRuDZZHCotIwn0+f+KSxf1nYrgUwDwYD
VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARgglsb2NhbGhvc3SHBH8AAAEwCgYIKoZI
zj0EAwIDSQAwRgIhAO0Li/PCzE3qHV1spAk29uwFwWxFMn5+Ts/OvltZXnrOAiEA
1+l/0UGlAzsW8xlwc14AXPQhmJ+sZJrUmzy5ijpY9GA=
-----END CERTIFICATE-----\n`;
const TEST_SMTP_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgx6IWPZzWtaDUBxZ/
c/tCpsKy+Ksy73/EDS71dXobfkShRANCAATD3DLDXjlElj5eZbENxWYqV2rGAs46
yilR2mkwNIt4w944Q7i6/b3wump+hfrXXSA08f0kIL9z4yTLmbepP42t
-----END PRIVATE KEY-----\n`;

let caFile: string | undefined;

/**
 * TEST_SMTP_CERT in a file of its own, for a test app's SMTP_CA_FILE: one file in the system's
 * temporary directory, the same for every run and worker (a folder per process was never removed:
 * test workers end without an exit event). Written once per process, to a name of its own and then
 * renamed over it, so a worker never reads another's half-written copy.
 */
export function testSmtpCaFile(): string {
  if (!caFile) {
    const file = join(tmpdir(), 'afp-test-smtp-ca.pem');
    const writing = `${file}.${process.pid}`;
    writeFileSync(writing, TEST_SMTP_CERT);
    renameSync(writing, file);
    caFile = file;
  }
  return caFile;
}

export interface ReceivedMail {
  from: string;
  to: string[];
  /** the whole message as sent (headers and body) */
  raw: string;
  subject: string;
  /** the plain-text part, decoded */
  text: string;
  /** the HTML part, decoded */
  html: string;
}

export interface TestSmtpOptions {
  /** "tls": TLS from the first byte; "starttls": plain with STARTTLS offered; "none": no TLS at all */
  security?: 'none' | 'starttls' | 'tls';
  /** require this username and password */
  auth?: { user: string; pass: string };
  /** recipients answered with 550 */
  refuse?: string[];
  /** listen here (default: any free port) */
  port?: number;
  /** called with each message as it arrives */
  onMessage?: (mail: ReceivedMail) => void;
}

export interface TestSmtpServer {
  host: string;
  port: number;
  messages: ReceivedMail[];
  /** attempts to sign in, successful or not */
  logins: number;
  close(): Promise<void>;
}

export async function startTestSmtpServer(options: TestSmtpOptions = {}): Promise<TestSmtpServer> {
  const security = options.security ?? 'none';
  const messages: ReceivedMail[] = [];
  const state = { logins: 0 };
  const serverOptions: SMTPServerOptions = {
    secure: security === 'tls',
    key: TEST_SMTP_KEY,
    cert: TEST_SMTP_CERT,
    disabledCommands: security === 'none' ? ['STARTTLS'] : [],
    authOptional: !options.auth,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      state.logins += 1;
      if (options.auth && auth.username === options.auth.user && auth.password === options.auth.pass) {
        callback(null, { user: auth.username });
      } else {
        callback(new Error('Invalid username or password'));
      }
    },
    onRcptTo(address, _session, callback) {
      if (options.refuse?.includes(address.address.toLowerCase())) {
        const error = Object.assign(new Error(`Mailbox ${address.address} unavailable`), {
          responseCode: 550,
        });
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const mail: ReceivedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          subject: headerOf(raw, 'subject'),
          text: partOf(raw, 'plain'),
          html: partOf(raw, 'html'),
        };
        messages.push(mail);
        options.onMessage?.(mail);
        callback();
      });
    },
  };
  const server = new SMTPServer(serverOptions);
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    host: '127.0.0.1',
    port,
    messages,
    get logins() {
      return state.logins;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function headerOf(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const line = unfolded.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name}:`));
  return line ? decodeWords(line.slice(name.length + 1).trim()) : '';
}

/** RFC 2047 encoded words (=?UTF-8?Q?...?= / =?UTF-8?B?...?=), as a long or non-ASCII subject comes. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_m, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const source = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === '=' && /^[0-9A-F]{2}$/i.test(source.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(source.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(char, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The text/plain or text/html part of a message (nodemailer's multipart/alternative, or a single part). */
function partOf(raw: string, subtype: 'plain' | 'html'): string {
  const parts = raw.split(/\r?\n--[^\r\n]+/);
  for (const part of parts) {
    const [head = '', ...body] = part.split(/\r?\n\r?\n/);
    if (!new RegExp(`content-type:\\s*text/${subtype}`, 'i').test(head)) continue;
    const content = body.join('\n\n');
    if (/content-transfer-encoding:\s*quoted-printable/i.test(head))
      return decodeQuotedPrintable(content).trim();
    if (/content-transfer-encoding:\s*base64/i.test(head))
      return Buffer.from(content.replace(/\s+/g, ''), 'base64').toString('utf8').trim();
    return content.trim();
  }
  return '';
}

/** The environment a portal needs to send through a test server: loopback allowed, its CA trusted. */
export function testSmtpEnvironment(): Record<string, string> {
  return { SMTP_ALLOWED_NETWORKS: '127.0.0.1/32', SMTP_CA_FILE: testSmtpCaFile(), SMTP_TIMEOUT_SECONDS: '5' };
}

/** Email settings that send through this test server: plain SMTP, no sign-in, no automatic reminders. */
export function testMailSettings(server: TestSmtpServer) {
  return {
    host: server.host,
    port: server.port,
    security: 'none',
    username: '',
    password: '',
    fromAddress: 'portal@example.org',
    autoEnabled: false,
    autoDay: 25,
    autoMonth: 'next',
  } as const;
}
