/**
 * A push endpoint is an address a browser hands the server, so it is checked like the SMTP host staff
 * name (outbound-address.ts): https on a public address only, unless its origin is on the operator's
 * allow-list (PUSH_ALLOWED_ORIGINS, a local push service in tests). The check is made when a browser
 * subscribes and again at every send, where the connection is then made to the address that passed.
 */
import { type AddressLookup, blockedAddresses, pinAllowedAddress } from '../../outbound-address';

export type EndpointCheck = { ok: true; url: URL; allowListed: boolean } | { ok: false; reason: string };

function parse(endpoint: string): URL | null {
  try {
    const url = new URL(endpoint);
    return url.username || url.password ? null : url;
  } catch {
    return null;
  }
}

/** Whether a browser's endpoint may be stored: its form, and (unless allow-listed) where it resolves now. */
export async function checkPushEndpoint(
  endpoint: string,
  allowedOrigins: readonly string[],
  resolve?: AddressLookup,
): Promise<EndpointCheck> {
  const url = parse(endpoint);
  if (!url) return { ok: false, reason: 'The push endpoint must be a plain URL' };
  if (allowedOrigins.includes(url.origin)) return { ok: true, url, allowListed: true };
  if (url.protocol !== 'https:') return { ok: false, reason: 'The push endpoint must be an https URL' };
  const blocked = await blockedAddresses(url.hostname, [], resolve);
  if (blocked) return { ok: false, reason: 'The push endpoint must be on a public address' };
  return { ok: true, url, allowListed: false };
}

/**
 * Where a send connects: the allow-listed origin as it is, or one public address of the endpoint's
 * host, resolved now (throws BlockedAddressError / UnresolvedHostError otherwise).
 */
export async function pinPushEndpoint(
  endpoint: string,
  allowedOrigins: readonly string[],
  resolve?: AddressLookup,
): Promise<{ url: URL; address: string | null }> {
  const url = parse(endpoint);
  if (!url) throw new Error('The push endpoint is not a plain URL');
  if (allowedOrigins.includes(url.origin)) return { url, address: null };
  if (url.protocol !== 'https:') throw new Error('The push endpoint is not https');
  const pinned = await pinAllowedAddress(url.hostname, [], resolve);
  return { url, address: pinned.address };
}
