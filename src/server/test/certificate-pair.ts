/**
 * Self-signed certificates and their keys, made by openssl as an administrator would before
 * uploading one to an app registration. Test support only.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface CertificatePair {
  certificate: string;
  key: string;
}

let dir: string | undefined;

/**
 * A key (2048-bit RSA, or P-256 for `ec`) and a certificate for it with the subject `CN={name}`,
 * valid for `days` days.
 */
export function makeCertificatePair(name: string, days: number, ec = false): CertificatePair {
  dir ??= mkdtempSync(join(tmpdir(), 'afp-cert-'));
  const keyFile = join(dir, `${name}.key`);
  const certFile = join(dir, `${name}.crt`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      ...(ec ? ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256'] : ['-newkey', 'rsa:2048']),
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      String(days),
      '-subj',
      `/CN=${name}`,
    ],
    { stdio: 'ignore' },
  );
  return { certificate: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
}

/** Delete the files the pairs were made in (the pairs already read stay usable). */
export function removeCertificateFiles(): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
}
