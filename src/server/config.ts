import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Cron } from 'croner';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { checkCertificatePair } from './auth/client-certificate';
import type { ThrottleLimits } from './auth/throttle';
import { parseBudgetOverrides } from './http/budgets';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const validTimeZone = z.string().refine((zone) => {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}, 'must be an IANA time zone such as Europe/London');

/**
 * Which proxies in front of the portal are believed about the client's address (X-Forwarded-For):
 * none, the nearest `n` hops, or the proxies at these addresses. Never "every hop": then a client's
 * own X-Forwarded-For header would choose the address the sign-in limits count.
 */
export function parseTrustProxy(text: string): false | number | string[] | { error: string } {
  const value = text.trim().toLowerCase();
  if (value === '' || value === 'false' || value === 'no' || value === '0') return false;
  if (value === 'true' || value === 'yes')
    return {
      error:
        'true would believe every X-Forwarded-For hop, which clients can forge; give the number of proxies in front of the portal (such as 1) or their addresses',
    };
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops <= 32 ? hops : { error: 'must be at most 32 hops' };
  }
  const entries = value.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const valid = entry.includes('/') ? ipaddr.isValidCIDR(entry) : ipaddr.isValid(entry);
    if (!valid)
      return { error: `"${entry}" is not an address or CIDR range (use false, a hop count, or a list)` };
    if (entry.includes('/') && trustsTooWide(entry))
      return {
        error: `"${entry}" would believe the X-Forwarded-For of clients all over the internet, as true would; name your proxies' addresses or their own network (an IPv4 range of /8 or narrower, IPv6 /16 or narrower, or within fc00::/7 or fe80::/10)`,
      };
  }
  return entries;
}

/**
 * A range wider than any proxy network: shorter than /8 for IPv4 (10.0.0.0/8 is the widest private
 * network) or /16 for IPv6 outside the unique-local and link-local ranges. `0.0.0.0/0,::/0` is `true`
 * in other words, and so is `::ffff:0:0/96`, every IPv4 address written as IPv4-mapped IPv6.
 */
function trustsTooWide(cidr: string): boolean {
  const [address, bits] = ipaddr.parseCIDR(cidr);
  if (address.kind() === 'ipv4') return bits < 8;
  const v6 = address as ipaddr.IPv6;
  // how proxy-addr reads it: an IPv4-mapped range is the IPv4 range it carries
  if (v6.isIPv4MappedAddress()) return bits - 96 < 8;
  if (bits < 16) {
    const local = ['fc00::/7', 'fe80::/10'].some((range) => {
      const [network, width] = ipaddr.parseCIDR(range);
      return bits >= width && v6.match(network as ipaddr.IPv6, width);
    });
    return !local;
  }
  return false;
}

const DAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

export interface OfficeHours {
  /** 0 = Sunday … 6 = Saturday */
  days: number[];
  /** minutes after midnight, local to ORG_TIMEZONE */
  startMinute: number;
  endMinute: number;
}

/** `Mon-Fri 08:00-18:00`, `Mon,Wed,Fri 09:00-17:30` or `Sun-Sat 00:00-24:00`. */
export function parseOfficeHours(text: string): OfficeHours | string {
  const match = /^\s*([A-Za-z,-]+)\s+(\d{2}):(\d{2})-(\d{2}):(\d{2})\s*$/.exec(text);
  if (!match) return 'must look like "Mon-Fri 08:00-18:00"';
  const [, dayPart, sh, sm, eh, em] = match as unknown as [string, string, string, string, string, string];
  const dayIndex = (name: string) => DAY_NAMES.findIndex((d) => d.toLowerCase() === name.toLowerCase());
  const days = new Set<number>();
  for (const piece of dayPart.split(',')) {
    const [first, last] = piece.split('-');
    const from = dayIndex(first ?? '');
    const to = last === undefined ? from : dayIndex(last);
    if (from < 0 || to < 0) return `unknown day in "${piece}" (use Sun Mon Tue Wed Thu Fri Sat)`;
    for (let d = from; ; d = (d + 1) % 7) {
      days.add(d);
      if (d === to) break;
    }
  }
  const startMinute = Number(sh) * 60 + Number(sm);
  const endMinute = Number(eh) * 60 + Number(em);
  if (Number(sm) > 59 || Number(em) > 59 || startMinute > 24 * 60 || endMinute > 24 * 60) {
    return 'has an impossible time';
  }
  if (startMinute >= endMinute) return 'must end after it starts';
  return { days: [...days].sort(), startMinute, endMinute };
}

/** `10.0.0.0/8, 127.0.0.1, fd00::/8`: networks (a bare address is one host) as normalised CIDRs. */
const networkList = z.string().transform((text, ctx) => {
  const networks: string[] = [];
  for (const piece of text.split(/[\s,]+/).filter(Boolean)) {
    try {
      const [address, bits] = piece.includes('/')
        ? ipaddr.parseCIDR(piece)
        : [ipaddr.parse(piece), ipaddr.parse(piece).kind() === 'ipv4' ? 32 : 128];
      networks.push(`${address.toString()}/${bits}`);
    } catch {
      ctx.addIssue({ code: 'custom', message: `"${piece}" is not an address or network such as 10.0.0.0/8` });
      return z.NEVER;
    }
  }
  return networks;
});

/** Origins (`http://127.0.0.1:8080`) a push endpoint may have although not https on a public address. */
const originList = z.string().transform((text, ctx) => {
  const origins: string[] = [];
  for (const piece of text.split(/[\s,]+/).filter(Boolean)) {
    let url: URL | undefined;
    try {
      url = new URL(piece);
    } catch {
      url = undefined;
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== piece.replace(/\/+$/, '')) {
      ctx.addIssue({ code: 'custom', message: `"${piece}" is not an origin such as http://127.0.0.1:8080` });
      return z.NEVER;
    }
    origins.push(url.origin);
  }
  return origins;
});

const publicUrl = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http:// or https:// URL' })
  .refine((value) => {
    try {
      const url = new URL(value);
      return !url.username && !url.password && !url.search && !url.hash;
    } catch {
      return true; // the URL check above has said what is wrong
    }
  }, 'must be the plain address people open the portal at, without credentials, query or fragment')
  .transform((value) => value.replace(/\/+$/, ''));

/**
 * `name=number` pairs, comma separated, for the named settings (`maxAttempts=3,requestTimeoutMs=5000`):
 * each replaces that setting's default, the others keep theirs.
 */
function numberPairs<Name extends string>(names: readonly Name[]) {
  return z
    .string()
    .default('')
    .transform((text, ctx) => {
      const values: Partial<Record<Name, number>> = {};
      for (const entry of text.split(',').map((part) => part.trim())) {
        if (entry === '') continue;
        const match = /^([A-Za-z]+)\s*=\s*(\d{1,10})$/.exec(entry);
        if (!match) {
          ctx.addIssue({ code: 'custom', message: `"${entry}" is not name=number (such as ${names[0]}=5)` });
          return z.NEVER;
        }
        const [, name, value] = match as unknown as [string, Name, string];
        if (!names.includes(name)) {
          ctx.addIssue({ code: 'custom', message: `"${name}" is not one of ${names.join(', ')}` });
          return z.NEVER;
        }
        values[name] = Number(value);
      }
      return values;
    });
}

/** The sign-in failure limits (auth/throttle.ts) an operator may change. */
const THROTTLE_NAMES = [
  'perAccountAddress',
  'perAddress',
  'perAccount',
  'accountPauseMs',
  'windowMs',
  'blockMs',
] as const satisfies readonly (keyof ThrottleLimits)[];

/**
 * SharePoint's retry ladder (sharepoint/retry.ts), in milliseconds and tries. plugins/sharepoint.ts
 * checks these names against the adapter's options (importing its types here would make a cycle).
 */
export const RETRY_NAMES = [
  'baseDelayMs',
  'maxDelayMs',
  'maxAttempts',
  'maxRetryAfterMs',
  'requestTimeoutMs',
  'totalBudgetMs',
] as const;

/** The availability outbox (sharepoint/outbox-worker.ts) and `idleMs`, its drain loop's wait when nothing is due. */
export const OUTBOX_NAMES = [
  'batchSize',
  'concurrency',
  'leaseMs',
  'retryBaseMs',
  'retryMaxMs',
  'skipRecheckMs',
  'idleMs',
] as const;

const PROXY_VARIABLES = ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY'] as const;

const proxyUrl = z
  .url({
    protocol: /^https?$/,
    error: 'must be an http:// or https:// URL such as http://proxy.example.org:3128',
  })
  .refine((value) => {
    try {
      return !new URL(value).search && !new URL(value).hash;
    } catch {
      return true; // the URL check above has said what is wrong
    }
  }, 'must be the proxy address, without query or fragment');

const cronPattern = z.string().refine((pattern) => {
  try {
    new Cron(pattern, { paused: true }).stop();
    return true;
  } catch {
    return false;
  }
}, 'must be a cron pattern with seconds, such as */30 * * * * *');

const env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  INITIAL_STAFF_USERNAME: z.string().trim().min(3, 'must be at least 3 characters').optional(),
  INITIAL_STAFF_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  APP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ORG_TIMEZONE: validTimeZone.default('Europe/London'),
  OFFICE_HOURS: z
    .string()
    .default('Mon-Fri 08:00-18:00')
    .transform((text, ctx) => {
      const parsed = parseOfficeHours(text);
      if (typeof parsed === 'string') {
        ctx.addIssue({ code: 'custom', message: parsed });
        return z.NEVER;
      }
      return parsed;
    }),
  BOOKINGS_REFRESH_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  /**
   * subscribe to SharePoint change notifications although PUBLIC_URL is http: only for tests and
   * local trials against the emulator (Microsoft Graph itself delivers to https only)
   */
  SHAREPOINT_NOTIFICATIONS_ALLOW_HTTP: booleanFlag.default(false),
  /** days between full reads of the Bookings list, which correct what the change feed missed */
  SHAREPOINT_RECONCILE_DAYS: z.coerce.number().int().min(1).max(90).default(7),
  GRAPH_BASE_URL: z.url().default('https://graph.microsoft.com/v1.0'),
  AUTHORITY_HOST: z.url().default('https://login.microsoftonline.com'),
  ALLOW_REGISTRATION: booleanFlag.default(false),
  COOKIE_SECURE: z.enum(['auto', 'true', 'false'], { error: 'must be auto, true or false' }).default('auto'),
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((text, ctx) => {
      const parsed = parseTrustProxy(text);
      if (typeof parsed === 'object' && !Array.isArray(parsed)) {
        ctx.addIssue({ code: 'custom', message: parsed.error });
        return z.NEVER;
      }
      return parsed;
    }),
  /** larger or smaller request budgets than the defaults, as `name=max` pairs */
  REQUEST_BUDGETS: z
    .string()
    .default('')
    .transform((text, ctx) => {
      const parsed = parseBudgetOverrides(text);
      if ('error' in parsed && typeof parsed.error === 'string') {
        ctx.addIssue({ code: 'custom', message: parsed.error });
        return z.NEVER;
      }
      return parsed as Exclude<typeof parsed, { error: string }>;
    }),
  /** sign-in failure limits replacing the defaults, as `name=number` pairs */
  LOGIN_THROTTLE: numberPairs(THROTTLE_NAMES),
  /**
   * the built client to serve; unset: dist/client beside the server. A relative path is read from the
   * directory the portal starts in (`dist/client`, the default written out, works from the project).
   */
  CLIENT_DIR: z
    .string()
    .min(1)
    .transform((dir) => resolve(dir))
    .refine(
      (dir) => !existsSync(dir) || statSync(dir).isDirectory(),
      'must be a directory (the built client)',
    )
    .optional(),
  /** the background jobs (bookings refresh, outbox, reminders); off only for tests and one-off scripts */
  BACKGROUND_JOBS: booleanFlag.default(true),
  /** how often the background jobs look whether something is due */
  BACKGROUND_JOBS_TICK: cronPattern.default('*/30 * * * * *'),
  /** SharePoint's retry waits and timeouts replacing the defaults, as `name=number` pairs */
  SHAREPOINT_RETRY: numberPairs(RETRY_NAMES),
  /** the availability outbox's batches, retries and waits replacing the defaults */
  SHAREPOINT_OUTBOX: numberPairs(OUTBOX_NAMES),
  /** a PEM file of certificate authorities the email server's certificate may chain to (a private CA) */
  SMTP_CA_FILE: z.string().min(1).max(4096).optional(),
  /** how long connecting to the email server, and each step of the conversation, may take */
  SMTP_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(15),
  /** the portal's public address: links in emails, and the origin browsers must send */
  PUBLIC_URL: publicUrl.optional(),
  /** private or local networks the SMTP server may be on (an organisation's internal relay) */
  SMTP_ALLOWED_NETWORKS: networkList.default([]),
  /**
   * the VAPID key pair web push is signed with (base64url, as `web-push generate-vapid-keys` prints);
   * both or neither: unset, one is generated once and kept like the app secret
   */
  VAPID_PUBLIC_KEY: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{87}$/, 'must be a P-256 public key, 65 bytes in base64url')
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'must be a P-256 private key, 32 bytes in base64url')
    .optional(),
  /** who push services may contact about this portal's pushes: a mailto: or https: URL */
  VAPID_SUBJECT: z
    .string()
    .trim()
    .regex(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/, 'must be a mailto: or https: URL')
    .optional(),
  /** push services that may be reached although not https on a public address (a local one in tests) */
  PUSH_ALLOWED_ORIGINS: originList.default([]),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Sign in with Microsoft (Entra ID): a directory (tenant) id, the app registration's client id and a
  // client secret; all three, with PUBLIC_URL, or none.
  ENTRA_TENANT_ID: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9.-]{0,99}$/, 'must be the directory (tenant) id, a GUID')
    .refine(
      (tenant) => !['common', 'organizations', 'consumers'].includes(tenant.toLowerCase()),
      'must be your own tenant id, not common, organizations or consumers',
    )
    .optional(),
  ENTRA_CLIENT_ID: z.string().trim().min(1).max(200).optional(),
  // where Sign in with Microsoft finds the identity provider when it is not AUTHORITY_HOST
  ENTRA_AUTHORITY_HOST: z.url().optional(),
  ENTRA_CLIENT_SECRET: z.string().min(1).max(2000).optional(),
  // or, instead of the secret, a certificate uploaded to the app registration and its private key
  // (PEM files, read and checked at start; ADR 0025)
  ENTRA_CLIENT_CERTIFICATE_FILE: z.string().min(1).max(4096).optional(),
  ENTRA_CLIENT_KEY_FILE: z.string().min(1).max(4096).optional(),
  // the app role (the `roles` claim) that makes a linked account staff; unset: invitations decide
  ENTRA_STAFF_ROLE: z.string().trim().min(1).max(200).optional(),
  /**
   * the proxy outbound connections (Graph, Entra ID, tokens, email) go through, and the hosts that go
   * direct; the lower-case spellings are read too (loadConfig)
   */
  HTTPS_PROXY: proxyUrl.optional(),
  HTTP_PROXY: proxyUrl.optional(),
  NO_PROXY: z.string().max(4096).optional(),
  /** a PEM file of certificate authorities every outbound TLS connection trusts besides the system's */
  OUTBOUND_CA_FILE: z.string().min(1).max(4096).optional(),
  /** apply the migrations at start (off: a start on a database behind its code stops, saying so) */
  MIGRATE_AT_START: booleanFlag.default(true),
  /** hold the portal: it answers "down for maintenance" and leaves the database alone */
  MAINTENANCE: booleanFlag.default(false),
  /** the bearer token /metrics asks for; unset, /metrics is off */
  METRICS_TOKEN: z.string().min(32, 'must be at least 32 characters').max(512).optional(),
});

export type Config = Omit<z.output<typeof env>, 'INITIAL_STAFF_USERNAME' | 'INITIAL_STAFF_PASSWORD'> & {
  INITIAL_STAFF_USERNAME?: string | undefined;
  INITIAL_STAFF_PASSWORD?: string | undefined;
  /** the contents of ENTRA_CLIENT_CERTIFICATE_FILE and ENTRA_CLIENT_KEY_FILE, checked to be a usable pair */
  ENTRA_CLIENT_CERTIFICATE?: { certificatePem: string; privateKeyPem: string } | undefined;
  /** the contents of SMTP_CA_FILE */
  SMTP_CA?: string | undefined;
  /** the contents of OUTBOUND_CA_FILE */
  OUTBOUND_CA?: string | undefined;
};

export class ConfigError extends Error {}

/**
 * Read the sign-in certificate and its key from their files and check them as the settings page
 * checks a pasted pair: both parse, the key is RSA and belongs to the certificate, which has not
 * expired. The messages name the variable and the file, never what the key file holds.
 */
function readEntraCertificate(
  certificateFile: string,
  keyFile: string,
  now: Date,
): { certificatePem: string; privateKeyPem: string } {
  const read = (variable: string, path: string) => {
    try {
      return readFileSync(path, 'utf8');
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'unreadable';
      throw new ConfigError(`Invalid configuration:\n  ${variable}: cannot read ${path} (${code})`);
    }
  };
  const certificatePem = read('ENTRA_CLIENT_CERTIFICATE_FILE', certificateFile);
  const privateKeyPem = read('ENTRA_CLIENT_KEY_FILE', keyFile);
  const check = checkCertificatePair(certificatePem, privateKeyPem, now);
  if (!check.ok) {
    const lines = [
      ...check.fieldErrors.clientCertificate.map(
        (message) => `  ENTRA_CLIENT_CERTIFICATE_FILE (${certificateFile}): ${message}`,
      ),
      ...check.fieldErrors.clientCertificateKey.map(
        (message) => `  ENTRA_CLIENT_KEY_FILE (${keyFile}): ${message}`,
      ),
    ];
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return { certificatePem, privateKeyPem };
}

/**
 * Parse the environment; throws ConfigError naming every bad variable. `now` is when a certificate
 * from the environment must still be valid.
 */
export function loadConfig(
  source: Record<string, string | undefined> = process.env,
  now: Date = new Date(),
): Config {
  // Empty variables count as unset, the way most deployment tools write them.
  const present = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value !== ''),
  );
  // the proxy variables are as often written in lower case; the upper-case spelling wins
  for (const name of PROXY_VARIABLES) {
    const lower = present[name.toLowerCase()];
    if (present[name] === undefined && lower !== undefined) present[name] = lower;
  }
  const result = env.safeParse(present);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = result.data;
  if (Boolean(config.INITIAL_STAFF_USERNAME) !== Boolean(config.INITIAL_STAFF_PASSWORD)) {
    throw new ConfigError(
      'Invalid configuration:\n  INITIAL_STAFF_USERNAME and INITIAL_STAFF_PASSWORD must be set together',
    );
  }
  const { ENTRA_CLIENT_CERTIFICATE_FILE: certificateFile, ENTRA_CLIENT_KEY_FILE: keyFile } = config;
  if (Boolean(certificateFile) !== Boolean(keyFile)) {
    throw new ConfigError(
      'Invalid configuration:\n  ENTRA_CLIENT_CERTIFICATE_FILE and ENTRA_CLIENT_KEY_FILE must be set together',
    );
  }
  // a secret or a certificate: either one completes the tenant and client
  const credential = config.ENTRA_CLIENT_SECRET || certificateFile;
  const entra = [config.ENTRA_TENANT_ID, config.ENTRA_CLIENT_ID, credential];
  if (entra.some(Boolean) && !entra.every(Boolean)) {
    throw new ConfigError(
      'Invalid configuration:\n  ENTRA_TENANT_ID, ENTRA_CLIENT_ID and ENTRA_CLIENT_SECRET (or ENTRA_CLIENT_CERTIFICATE_FILE with ENTRA_CLIENT_KEY_FILE) must be set together',
    );
  }
  if (Boolean(config.VAPID_PUBLIC_KEY) !== Boolean(config.VAPID_PRIVATE_KEY)) {
    throw new ConfigError(
      'Invalid configuration:\n  VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together',
    );
  }
  if (entra.every(Boolean) && !config.PUBLIC_URL) {
    throw new ConfigError(
      'Invalid configuration:\n  PUBLIC_URL is needed for Sign in with Microsoft (the redirect URI is built from it)',
    );
  }
  return {
    ...config,
    ...(certificateFile && keyFile
      ? { ENTRA_CLIENT_CERTIFICATE: readEntraCertificate(certificateFile, keyFile, now) }
      : {}),
    ...(config.SMTP_CA_FILE ? { SMTP_CA: readCaFile('SMTP_CA_FILE', config.SMTP_CA_FILE) } : {}),
    ...(config.OUTBOUND_CA_FILE
      ? { OUTBOUND_CA: readCaFile('OUTBOUND_CA_FILE', config.OUTBOUND_CA_FILE) }
      : {}),
  };
}

/** The certificate authorities in a PEM file a variable names; a file without one stops the start. */
function readCaFile(variable: string, path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'unreadable';
    throw new ConfigError(`Invalid configuration:\n  ${variable}: cannot read ${path} (${code})`);
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----'))
    throw new ConfigError(`Invalid configuration:\n  ${variable}: ${path} holds no PEM certificate`);
  return text;
}
