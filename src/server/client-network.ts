import { normalizeIP } from '@fastify/rate-limit';

/**
 * The network a client's address stands for, as every limit counts it: an IPv4 address as it is (an
 * IPv4-mapped IPv6 address as its IPv4 address), an IPv6 address as its /64. One /64 is usually one
 * customer, who can use any of its 2^64 addresses: counted one by one, a client rotating through them
 * would never reach a limit. The request budgets (@fastify/rate-limit's own rule) and the sign-in
 * pauses use this one function, so both count the same caller.
 */
export function clientNetwork(address: string): string {
  return normalizeIP(address);
}
