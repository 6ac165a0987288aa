/**
 * A working connection to the organisation's site: settings → token provider → Graph client, with the
 * site and list ids resolved once and kept. Sessions are reused while the settings stay the same, so
 * the token cache survives between refreshes and outbox drains.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ListKind } from '../../shared/schemas/sharepoint-columns';
import type { Config } from '../config';
import {
  type ColumnNames,
  columnNamesOf,
  LIST_LABELS,
  matchColumns,
  unindexedFilterColumns,
} from './column-mapping';
import type { ResolvedSharePointSettings } from './connection';
import { SharePointError } from './errors';
import { GraphClient } from './graph-client';
import type { PauseGate, RetryTimings } from './retry';
import { type TokenCredential, TokenProvider } from './token';

export interface SharePointTuning {
  /** Retry timings for Graph and the token endpoint (tests make them short). */
  timings?: Partial<RetryTimings>;
  gate?: PauseGate;
  fetch?: typeof fetch;
  /** `$top` for item reads (default 500). */
  pageSize?: number;
}

export type SharePointConfig = Pick<Config, 'GRAPH_BASE_URL' | 'AUTHORITY_HOST' | 'ORG_TIMEZONE'>;

const version = (() => {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
})();

/** `NONISV|<organisation>|ArtsFacilitatorPortal/<version>`; the organisation is the tenant's host name. */
export function userAgentFor(siteUrl: string): string {
  let organisation = 'unknown';
  try {
    organisation = new URL(siteUrl).hostname.split('.')[0] || organisation;
  } catch {
    // an unparsable URL fails later with a clear message
  }
  return `NONISV|${organisation.replace(/[|\s]/g, '')}|ArtsFacilitatorPortal/${version}`;
}

/** Which grant the settings allow, or a sentence saying what is missing. */
export function credentialFrom(settings: ResolvedSharePointSettings): TokenCredential | string {
  // A certificate is preferred: its key never leaves the portal, only signed assertions do.
  if (settings.clientCertificate && settings.clientCertificateKey) {
    return {
      grant: 'client_credentials',
      certificate: {
        certificatePem: settings.clientCertificate,
        privateKeyPem: settings.clientCertificateKey,
      },
    };
  }
  if (settings.clientSecret) return { grant: 'client_credentials', clientSecret: settings.clientSecret };
  if (settings.username && settings.password) {
    return { grant: 'password', username: settings.username, password: settings.password };
  }
  if (settings.username) return 'No password is saved for the SharePoint username.';
  return 'Neither a certificate, a client secret nor a username and password are saved.';
}

/** What is missing before any call can be made; undefined when the settings are complete. */
export function missingSettings(settings: ResolvedSharePointSettings | null): string | undefined {
  if (!settings) return 'SharePoint is not configured: save the SharePoint settings first.';
  const missing: string[] = [];
  if (!settings.siteUrl) missing.push('site URL');
  if (!settings.tenantId) missing.push('tenant ID');
  if (!settings.clientId) missing.push('client ID');
  if (missing.length > 0)
    return `SharePoint is not configured: the ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing.`;
  const credential = credentialFrom(settings);
  if (typeof credential === 'string') return `SharePoint is not configured: ${credential}`;
  return undefined;
}

export class SharePointSession {
  readonly client: GraphClient;
  readonly tokens: TokenProvider;
  private siteIdPromise: Promise<string> | undefined;
  private readonly listIds = new Map<string, Promise<string>>();
  private readonly mappings = new Map<
    ListKind,
    Promise<{ names: ColumnNames<ListKind>; mustIndex: string[] }>
  >();

  constructor(
    readonly settings: ResolvedSharePointSettings,
    readonly config: SharePointConfig,
    readonly tuning: SharePointTuning = {},
  ) {
    const credential = credentialFrom(settings);
    if (typeof credential === 'string') throw new SharePointError('not-configured', credential);
    const userAgent = userAgentFor(settings.siteUrl);
    this.tokens = new TokenProvider({
      authorityHost: config.AUTHORITY_HOST,
      tenantId: settings.tenantId,
      clientId: settings.clientId,
      credential,
      userAgent,
      timings: tuning.timings,
      fetch: tuning.fetch,
    });
    this.client = new GraphClient({
      graphBaseUrl: config.GRAPH_BASE_URL,
      tokens: this.tokens,
      userAgent,
      timings: tuning.timings,
      gate: tuning.gate,
      fetch: tuning.fetch,
    });
  }

  get pageSize(): number {
    return this.tuning.pageSize ?? 500;
  }

  siteId(): Promise<string> {
    this.siteIdPromise ??= this.client.resolveSite(this.settings.siteUrl).then(
      (site) => site.id,
      (error: unknown) => {
        this.siteIdPromise = undefined;
        throw error;
      },
    );
    return this.siteIdPromise;
  }

  /** The id of a list by display name; a SharePointError (not-configured) when the site has none. */
  listId(displayName: string): Promise<string> {
    let promise = this.listIds.get(displayName);
    if (!promise) {
      promise = (async () => {
        const id = await this.client.findList(await this.siteId(), displayName);
        if (!id) {
          throw new SharePointError(
            'not-configured',
            `The SharePoint site has no list called "${displayName}".`,
            {
              status: 404,
            },
          );
        }
        return id;
      })();
      promise.catch(() => this.listIds.delete(displayName));
      this.listIds.set(displayName, promise);
    }
    return promise;
  }

  /**
   * The internal name of the column that holds each portal field of a list (column-mapping.ts), read
   * once per session. A required field without a column stops the work with a message naming it.
   */
  async columns<K extends ListKind>(kind: K): Promise<ColumnNames<K>> {
    return (await this.mapping(kind)).names as ColumnNames<K>;
  }

  /** Columns the portal filters on in this list that are not indexed (named for staff). */
  async unindexedFilterColumns(kind: ListKind): Promise<string[]> {
    return (await this.mapping(kind)).mustIndex;
  }

  private mapping(kind: ListKind): Promise<{ names: ColumnNames<ListKind>; mustIndex: string[] }> {
    let promise = this.mappings.get(kind);
    if (!promise) {
      promise = (async () => {
        const listName = listNameOf(this.settings, kind);
        const siteId = await this.siteId();
        const listId = await this.listId(listName);
        const columns = await this.client.columns(siteId, listId);
        const matches = matchColumns(kind, columns, this.settings.columnMapping[kind]);
        const blocking = matches.filter(
          (m) => m.required && (m.problem === 'missing' || m.problem === 'unknown-column'),
        );
        if (blocking.length > 0) {
          throw new SharePointError(
            'not-configured',
            `The ${LIST_LABELS[kind]} "${listName}" needs a column for ${blocking.map((m) => m.label).join(', ')}: choose one under Columns on the settings page.`,
          );
        }
        return {
          names: columnNamesOf<ListKind>(matches),
          mustIndex: unindexedFilterColumns(kind, matches, columns),
        };
      })();
      promise.catch(() => this.mappings.delete(kind));
      this.mappings.set(kind, promise);
    }
    return promise;
  }
}

const LIST_NAME_SETTING = {
  bookings: 'bookingsListName',
  availability: 'availabilityListName',
  facilitators: 'facilitatorListName',
  schools: 'schoolsListName',
} as const satisfies Record<ListKind, keyof ResolvedSharePointSettings>;

export function listNameOf(settings: ResolvedSharePointSettings, kind: ListKind): string {
  return settings[LIST_NAME_SETTING[kind]];
}

export function settingsFingerprint(settings: ResolvedSharePointSettings, config: SharePointConfig): string {
  return createHash('sha256')
    .update(JSON.stringify([settings, config.GRAPH_BASE_URL, config.AUTHORITY_HOST]))
    .digest('hex');
}
