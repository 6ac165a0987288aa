/**
 * The link in an offer email: `<payload>.<signature>`, both base64url. The payload names the offer,
 * the link's own id (its nonce, kept on the offer row while the link is usable) and when it stops
 * working; the signature is an HMAC under a key derived from APP_SECRET for this purpose only. A
 * link works once: answering through it (or in the portal) clears the nonce. ADR 0020.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { deriveKey } from '../../crypto';

export interface OfferLink {
  offerId: number;
  nonce: string;
  /** milliseconds since the epoch */
  expiresAt: number;
}

const keyFor = (appSecret: string) => deriveKey(appSecret, 'offer-links');

function sign(appSecret: string, payload: string): string {
  return createHmac('sha256', keyFor(appSecret)).update(payload).digest('base64url');
}

export function signOfferLink(appSecret: string, link: OfferLink): string {
  const payload = Buffer.from(JSON.stringify([link.offerId, link.nonce, link.expiresAt])).toString(
    'base64url',
  );
  return `${payload}.${sign(appSecret, payload)}`;
}

export type LinkCheck = { ok: true; link: OfferLink } | { ok: false; why: 'invalid' | 'expired' };

/** The link's contents if the signature holds and it has not expired; says nothing about its use. */
export function readOfferLink(appSecret: string, token: string, now: Date): LinkCheck {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return { ok: false, why: 'invalid' };
  const expected = Buffer.from(sign(appSecret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given))
    return { ok: false, why: 'invalid' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, why: 'invalid' };
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 3 ||
    !Number.isSafeInteger(parsed[0]) ||
    typeof parsed[1] !== 'string' ||
    !Number.isSafeInteger(parsed[2])
  )
    return { ok: false, why: 'invalid' };
  const link: OfferLink = { offerId: parsed[0], nonce: parsed[1], expiresAt: parsed[2] };
  if (link.expiresAt <= now.getTime()) return { ok: false, why: 'expired' };
  return { ok: true, link };
}
