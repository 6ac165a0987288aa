import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

/** Derive independent keys from APP_SECRET so one purpose never reuses another's key. */
export function deriveKey(appSecret: string, purpose: string): Buffer {
  return createHmac('sha256', appSecret).update(`afp:${purpose}`).digest();
}

/**
 * AES-256-GCM; output is `v1.<iv>.<tag>.<ciphertext>` in base64url, or `v2.…` when sealed for a
 * `boundTo` text (the GCM associated data): such a secret opens only when the same text is given
 * again, so a password sealed for one mail server can never be decrypted for another.
 */
export function encryptSecret(key: Buffer, plaintext: string, boundTo?: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  if (boundTo !== undefined) cipher.setAAD(Buffer.from(boundTo, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [boundTo === undefined ? 'v1' : 'v2', iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/**
 * Opens what encryptSecret sealed. A `v2` secret needs the `boundTo` text it was sealed with and
 * fails with any other. A `v1` secret has no binding; it opens only without `boundTo` unless
 * `acceptUnbound` says the caller knows where it came from (secrets stored before binding existed).
 */
export function decryptSecret(
  key: Buffer,
  sealed: string,
  boundTo?: string,
  options: { acceptUnbound?: boolean } = {},
): string {
  const [version, iv, tag, body] = sealed.split('.');
  if ((version !== 'v1' && version !== 'v2') || !iv || !tag || body === undefined)
    throw new Error('Unrecognised secret format');
  if (version === 'v2' && boundTo === undefined) throw new Error('This secret is bound to a destination');
  if (version === 'v1' && boundTo !== undefined && !options.acceptUnbound)
    throw new Error('This secret is not bound to a destination');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  if (version === 'v2') decipher.setAAD(Buffer.from(boundTo ?? '', 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/** Whether a stored secret predates destination binding (re-sealed bound at its next save). */
export function isUnboundSecret(sealed: string): boolean {
  return sealed.startsWith('v1.');
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
