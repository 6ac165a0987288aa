/**
 * Sign-in with a certificate instead of a client secret (ADR 0017 for SharePoint, ADR 0023 for staff
 * sign-in with Microsoft): the certificate and private key staff paste on the
 * settings page, checked before they are stored, described for the page (subject, thumbprint,
 * expiry), and the signed client assertion the token endpoint receives instead of a client secret.
 */
import { createHash, createPrivateKey, type KeyObject, randomUUID, X509Certificate } from 'node:crypto';
import { SignJWT } from 'jose';
import { badRequest } from '../errors';

/** Warn this many days before the certificate expires. */
export const EXPIRY_WARNING_DAYS = 30;
/** How long a client assertion is valid: long enough for one token request and its retries. */
const ASSERTION_LIFETIME_SECONDS = 10 * 60;
const DAY_MS = 24 * 3600_000;

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

export interface CertificateDescription {
  subject: string;
  /** SHA-1 of the DER certificate in hex, as the Entra admin centre lists certificates */
  thumbprint: string;
  expiresAt: string;
  /** whole days left (negative once expired) */
  expiresInDays: number;
  /** fewer than EXPIRY_WARNING_DAYS days left, or expired */
  expiringSoon: boolean;
  expired: boolean;
}

export type CertificateCheck =
  | { ok: true; certificate: X509Certificate; key: KeyObject }
  | { ok: false; fieldErrors: Record<'clientCertificate' | 'clientCertificateKey', string[]> };

/** The first certificate of a PEM text, or undefined when there is none that parses. */
export function readCertificate(pem: string): X509Certificate | undefined {
  try {
    return new X509Certificate(pem);
  } catch {
    return undefined;
  }
}

/** Both parse, the key is an RSA private key (RS256), it belongs to the certificate, which has not expired. */
export function checkCertificatePair(certificatePem: string, keyPem: string, now: Date): CertificateCheck {
  const fieldErrors: Record<'clientCertificate' | 'clientCertificateKey', string[]> = {
    clientCertificate: [],
    clientCertificateKey: [],
  };
  const certificate = readCertificate(certificatePem);
  if (!certificate) {
    fieldErrors.clientCertificate.push(
      'Paste the certificate in PEM form, from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----.',
    );
  } else if (Date.parse(certificate.validTo) <= now.getTime()) {
    fieldErrors.clientCertificate.push(
      `This certificate expired on ${new Date(certificate.validTo).toUTCString()}: use a current one.`,
    );
  }
  let key: KeyObject | undefined;
  try {
    key = createPrivateKey({ key: keyPem, format: 'pem' });
  } catch {
    fieldErrors.clientCertificateKey.push(
      'Paste the private key in PEM form (-----BEGIN PRIVATE KEY-----), without a passphrase.',
    );
  }
  if (key && key.asymmetricKeyType !== 'rsa') {
    fieldErrors.clientCertificateKey.push(
      'The private key must be an RSA key (the token request is signed with RS256).',
    );
  } else if (key && certificate && !certificate.checkPrivateKey(key)) {
    fieldErrors.clientCertificateKey.push('This private key does not belong to the certificate.');
  }
  if (
    !certificate ||
    !key ||
    fieldErrors.clientCertificate.length > 0 ||
    fieldErrors.clientCertificateKey.length > 0
  ) {
    return { ok: false, fieldErrors };
  }
  return { ok: true, certificate, key };
}

/**
 * A typed certificate must come with its key, parse, match it and not have expired; refused with
 * field errors otherwise, before anything is stored. Both blank: nothing typed, nothing to check.
 */
export function refuseUnusableCertificate(certificatePem: string, keyPem: string, now: Date): void {
  if (!certificatePem && !keyPem) return;
  if (!certificatePem || !keyPem) {
    const missing = certificatePem ? 'clientCertificateKey' : 'clientCertificate';
    throw badRequest('Enter the certificate and its private key together.', {
      [missing]: [
        missing === 'clientCertificate'
          ? 'Paste the certificate that belongs to this private key.'
          : 'Paste the private key that belongs to this certificate.',
      ],
    });
  }
  const check = checkCertificatePair(certificatePem, keyPem, now);
  if (!check.ok) {
    const fieldErrors = Object.fromEntries(
      Object.entries(check.fieldErrors).filter(([, errors]) => errors.length > 0),
    );
    throw badRequest('Check the certificate and its private key.', fieldErrors);
  }
}

export function describeCertificate(pem: string, now: Date): CertificateDescription | null {
  const certificate = readCertificate(pem);
  if (!certificate) return null;
  const expiresAt = new Date(certificate.validTo);
  const left = expiresAt.getTime() - now.getTime();
  return {
    subject: certificate.subject.replace(/\n/g, ', '),
    thumbprint: certificate.fingerprint.replace(/:/g, ''),
    expiresAt: expiresAt.toISOString(),
    expiresInDays: Math.floor(left / DAY_MS),
    expiringSoon: left < EXPIRY_WARNING_DAYS * DAY_MS,
    expired: left <= 0,
  };
}

/** `x5t#S256`: base64url of the SHA-256 of the DER certificate, how Entra ID finds the key to check. */
export function sha256Thumbprint(certificate: X509Certificate): string {
  return createHash('sha256').update(certificate.raw).digest('base64url');
}

/**
 * The client assertion of a token request: a JWT signed with the certificate's key (RS256), issued
 * by and about the client, for the token endpoint's URL, valid for a few minutes, never reused (jti).
 */
export async function clientAssertion(options: {
  certificatePem: string;
  privateKeyPem: string;
  clientId: string;
  tokenUrl: string;
  now: number;
}): Promise<string> {
  const certificate = new X509Certificate(options.certificatePem);
  const key = createPrivateKey({ key: options.privateKeyPem, format: 'pem' });
  const issuedAt = Math.floor(options.now / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', 'x5t#S256': sha256Thumbprint(certificate) })
    .setIssuer(options.clientId)
    .setSubject(options.clientId)
    .setAudience(options.tokenUrl)
    .setJti(randomUUID())
    .setIssuedAt(issuedAt)
    .setNotBefore(issuedAt)
    .setExpirationTime(issuedAt + ASSERTION_LIFETIME_SECONDS)
    .sign(key);
}
