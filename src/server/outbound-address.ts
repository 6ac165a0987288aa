/**
 * Where the portal may open a connection that staff can aim (the SMTP server). Only public unicast
 * addresses, unless the operator names a private network in the environment: otherwise the settings
 * page could reach the cloud metadata service, the database or anything else on the portal's own
 * network. The check is on the resolved address, made for every connection, and the connection is
 * then made to that same address, so a name that resolves differently a moment later (DNS rebinding)
 * cannot slip through.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export type AddressLookup = (host: string) => Promise<string[]>;

const systemLookup: AddressLookup = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/** The host's address is one the portal will not connect to. */
export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKED';
  constructor(host: string) {
    super(`${host} is on a private, local or reserved network`);
    this.name = 'BlockedAddressError';
  }
}

/** The host name could not be resolved. */
export class UnresolvedHostError extends Error {
  readonly code = 'EDNS';
  constructor(host: string) {
    super(`${host} could not be resolved`);
    this.name = 'UnresolvedHostError';
  }
}

function parse(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  try {
    // an IPv4-mapped IPv6 address is judged as the IPv4 address it carries
    return ipaddr.process(address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, ''));
  } catch {
    return null;
  }
}

/**
 * Public unicast only: ipaddr.js names every special range (loopback, private, link-local with the
 * metadata service, carrier-grade NAT, unique local, NAT64 and 6to4 and Teredo, which can carry an
 * inner IPv4 address, multicast, reserved, documentation...) and calls only the rest "unicast".
 */
export function isPublicAddress(address: string): boolean {
  return parse(address)?.range() === 'unicast';
}

/** Public, or inside one of the operator's networks (normalised CIDRs from config). */
export function isAllowedAddress(address: string, allowedNetworks: readonly string[]): boolean {
  const parsed = parse(address);
  if (!parsed) return false;
  if (parsed.range() === 'unicast') return true;
  return allowedNetworks.some((cidr) => {
    const [network, bits] = ipaddr.parseCIDR(cidr);
    if (network instanceof ipaddr.IPv4) return parsed instanceof ipaddr.IPv4 && parsed.match(network, bits);
    return parsed instanceof ipaddr.IPv6 && parsed.match(network, bits);
  });
}

export interface PinnedAddress {
  /** connect here */
  address: string;
  /** the name to present and verify in TLS; undefined when the host was an address */
  servername: string | undefined;
}

/**
 * Resolve once and choose an allowed address to connect to. Throws BlockedAddressError when the
 * host has no allowed address (a name with one public and one private address keeps the public
 * one only), UnresolvedHostError when it has none at all.
 */
export async function pinAllowedAddress(
  host: string,
  allowedNetworks: readonly string[],
  resolve: AddressLookup = systemLookup,
): Promise<PinnedAddress> {
  const bare = host.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  const literal = isIP(bare) !== 0;
  let addresses: string[];
  if (literal) addresses = [bare];
  else {
    try {
      addresses = await resolve(bare);
    } catch {
      throw new UnresolvedHostError(host);
    }
  }
  if (addresses.length === 0) throw new UnresolvedHostError(host);
  const allowed = addresses.filter((address) => isAllowedAddress(address, allowedNetworks));
  const chosen = allowed.find((address) => isIP(address) === 4) ?? allowed[0];
  if (!chosen) throw new BlockedAddressError(host);
  return { address: chosen, servername: literal ? undefined : bare };
}

/** How long a check at save time waits for a name to resolve before leaving it to the connection. */
const SAVE_LOOKUP_MS = 5000;

/**
 * Whether a host staff are saving would be refused at every connection: an address, or a name that
 * resolves (now) only to addresses, on a private, local or reserved network outside the operator's
 * allowed ones. Returns the addresses it stands for then, or null when it may be used, or cannot be
 * told yet (a name that does not resolve now: the connection decides, as it does for every send).
 */
export async function blockedAddresses(
  host: string,
  allowedNetworks: readonly string[],
  resolve: AddressLookup = systemLookup,
): Promise<string[] | null> {
  let seen: string[] = [];
  const watched: AddressLookup = (name) =>
    Promise.race([
      resolve(name).then((addresses) => {
        seen = addresses;
        return addresses;
      }),
      new Promise<string[]>((_, reject) =>
        setTimeout(() => reject(new UnresolvedHostError(name)), SAVE_LOOKUP_MS).unref(),
      ),
    ]);
  try {
    await pinAllowedAddress(host, allowedNetworks, watched);
    return null;
  } catch (error) {
    if (!(error instanceof BlockedAddressError)) return null;
    const bare = host.replace(/^\[(.*)\]$/, '$1');
    return isIP(bare) ? [bare] : seen;
  }
}
