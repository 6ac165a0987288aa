/**
 * Finding the identity provider for Sign in with Microsoft: the directory's address below the
 * authority, its discovery document (issuer checked, endpoints pinned to the authority: ADR 75) and
 * the cache of what was discovered, one per app.
 */
import * as oidc from 'openid-client';
import { isGuid } from '../../../shared/schemas/microsoft-sign-in';

export interface MicrosoftSignInConfig {
  /** as configured: the directory's GUID or one of its verified domains */
  tenant: string;
  clientId: string;
  /** empty when a certificate signs in instead */
  clientSecret: string;
  /** a client certificate and its private key (PEM): used in preference to the secret (ADR 0023) */
  certificate: { certificatePem: string; privateKeyPem: string } | null;
  /** the identity provider's host, ENTRA_AUTHORITY_HOST or else AUTHORITY_HOST, without a trailing slash */
  authority: string;
  redirectUri: string;
  staffRole: string;
}

/** The identity provider as discovered: its metadata and the directory's GUID. */
export interface Discovered {
  /** only the endpoints the portal uses, each checked to be on the authority's origin */
  metadata: oidc.ServerMetadata;
  /** the GUID, also when the tenant was configured as a domain */
  tenantId: string;
  issuer: string;
  /** the provider's signing keys as last fetched, shared by the sign-ins of this discovery */
  jwks?: ReturnType<typeof oidc.getJwksCache>;
}

/**
 * How far an ID token's times may be off the portal's clock: its issue time may be this far in the
 * future, its expiry this far in the past.
 */
export const CLOCK_TOLERANCE_SECONDS = 60;

/**
 * Discovery of one app (plugins/microsoft-sign-in.ts holds it), by authority, tenant and client:
 * fetched once, again after a failure, and forgotten when the settings change.
 */
export class DiscoveryCache {
  private readonly pending = new Map<string, Promise<Discovered>>();

  get(config: MicrosoftSignInConfig): Promise<Discovered> {
    const key = JSON.stringify([config.authority, config.tenant.toLowerCase(), config.clientId]);
    let found = this.pending.get(key);
    if (!found) {
      found = discover(config);
      this.pending.set(key, found);
      found.catch(() => this.pending.delete(key));
    }
    return found;
  }

  clear(): void {
    this.pending.clear();
  }
}

export function isLoopback(url: URL): boolean {
  return ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
}

/** A failed look at the identity provider, by what staff can do about it. */
export class DiscoveryError extends Error {
  constructor(
    readonly kind: 'unreachable' | 'not_found' | 'wrong_issuer' | 'foreign_endpoint' | 'invalid',
    detail: string,
  ) {
    super(detail);
    this.name = 'DiscoveryError';
  }
}

/**
 * The directory's address below the authority: `{authority}/{tenant}/v2.0`. The tenant passed the
 * shared schema (a GUID or a domain name), and the result is checked again to be on the authority's
 * origin and below its path, so what staff type can never aim the portal's connections elsewhere.
 */
export function tenantAddress(authority: string, tenant: string): URL {
  const base = new URL(`${authority}/`);
  const url = new URL(`${authority}/${encodeURIComponent(tenant)}/v2.0`);
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname) || url.search || url.hash) {
    throw new DiscoveryError('invalid', 'the tenant does not make an address below the authority');
  }
  return url;
}

const DISCOVERY_TIMEOUT_MS = 15_000;

/** The provider's addresses the portal talks to, or sends the browser to. */
const USED_ENDPOINTS = ['authorization_endpoint', 'token_endpoint', 'jwks_uri', 'end_session_endpoint'];

/**
 * A discovery document's metadata with every address the portal uses checked to be on the
 * authority's origin, and every other address left out. The token endpoint receives the client
 * secret or assertion and the code; the authorisation and end-session endpoints are where the
 * browser is sent; the key set decides which signatures count. A document naming any of them on
 * another host (a compromised or misconfigured provider, a proxy in between) is refused whole, so
 * nothing of the sign-in ever leaves the authority. Throws DiscoveryError('foreign_endpoint').
 */
export function pinEndpoints<T extends Record<string, unknown>>(metadata: T, authority: string): T {
  const origin = new URL(`${authority}/`).origin;
  const pinned: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(metadata)) {
    const isAddress = key.endsWith('_endpoint') || key.endsWith('_uri') || key.endsWith('_aliases');
    if (!isAddress) {
      pinned[key] = value;
      continue;
    }
    if (!USED_ENDPOINTS.includes(key)) continue;
    let url: URL | null = null;
    try {
      url = typeof value === 'string' ? new URL(value) : null;
    } catch {
      url = null;
    }
    if (!url || url.origin !== origin || url.username || url.password) {
      throw new DiscoveryError('foreign_endpoint', `the discovery document puts ${key} outside ${origin}`);
    }
    pinned[key] = value;
  }
  return pinned as T;
}

/**
 * Fetch a directory's discovery document and read the directory's GUID from its issuer
 * (`{authority}/{GUID}/v2.0`). Redirects are not followed: the answer must come from the authority.
 */
export async function lookUpDirectory(authority: string, tenant: string): Promise<{ tenantId: string }> {
  const address = tenantAddress(authority, tenant);
  if (address.protocol !== 'https:' && !isLoopback(address)) {
    throw new DiscoveryError('invalid', 'the authority must use https');
  }
  let response: Response;
  try {
    response = await fetch(`${address.href}/.well-known/openid-configuration`, {
      redirect: 'manual',
      signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS),
      headers: { accept: 'application/json' },
    });
  } catch {
    throw new DiscoveryError('unreachable', 'the discovery document could not be fetched');
  }
  // Entra answers 400 for a directory it does not know
  if (response.status === 400 || response.status === 404) {
    await response.body?.cancel();
    throw new DiscoveryError('not_found', `the authority answered ${response.status}`);
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new DiscoveryError('unreachable', `the authority answered ${response.status}`);
  }
  let document: Record<string, unknown>;
  try {
    document = (await response.json()) as Record<string, unknown>;
  } catch {
    throw new DiscoveryError('invalid', 'the discovery document is not JSON');
  }
  if (!document || typeof document !== 'object' || Array.isArray(document)) {
    throw new DiscoveryError('invalid', 'the discovery document is not an object');
  }
  const issuer = document.issuer;
  const prefix = `${authority}/`;
  const guid =
    typeof issuer === 'string' && issuer.startsWith(prefix) && issuer.endsWith('/v2.0')
      ? issuer.slice(prefix.length, -'/v2.0'.length)
      : '';
  if (!isGuid(guid) || (isGuid(tenant) && guid.toLowerCase() !== tenant.toLowerCase())) {
    throw new DiscoveryError('wrong_issuer', 'the discovery document names another issuer');
  }
  pinEndpoints(document, authority);
  return { tenantId: guid };
}

async function discover(config: MicrosoftSignInConfig): Promise<Discovered> {
  // The single-tenant issuer: the /common and /organizations documents name a templated issuer, and
  // a token from any other directory must not validate. A domain is first turned into its GUID.
  const tenantId = isGuid(config.tenant)
    ? config.tenant
    : (await lookUpDirectory(config.authority, config.tenant)).tenantId;
  const issuer = tenantAddress(config.authority, tenantId);
  // Plain http only for a test server on this machine; a real authority is always https.
  const insecure = issuer.protocol === 'http:' && isLoopback(issuer);
  const found = await oidc.discovery(issuer, config.clientId, undefined, undefined, {
    ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
  });
  const metadata = pinEndpoints(found.serverMetadata() as Record<string, unknown>, config.authority);
  return { metadata: metadata as oidc.ServerMetadata, tenantId, issuer: issuer.href };
}
