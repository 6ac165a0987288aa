import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import {
  type CertificatePair,
  makeCertificatePair,
  removeCertificateFiles,
} from '../../test/certificate-pair';
import { EntraBrowser } from '../../test/entra-browser';
import { startTestEntra, type TestEntra } from '../../test/entra-provider';
import { createTestApp, type TestApp } from '../../test/harness';
import {
  invitationLink,
  invitationTokenOf,
  landing,
  SIGN_IN_PORTAL as PORTAL,
  whoAmI,
} from '../../test/microsoft-sign-in';

let dir: string;
let registered: CertificatePair;
let unknown: CertificatePair;
let shortLived: CertificatePair;

/** The pair as an administrator leaves it on the server: two PEM files. */
function files(pair: CertificatePair, name: string) {
  const certificate = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  writeFileSync(certificate, pair.certificate);
  writeFileSync(key, pair.key);
  return { certificate, key };
}

const tenant = {
  ENTRA_TENANT_ID: '11111111-1111-4111-8111-111111111111',
  ENTRA_CLIENT_ID: '22222222-2222-4222-8222-222222222222',
  PUBLIC_URL: PORTAL,
};

/** The start-up error, which must name the variable and never show what the key file holds. */
function startUpError(source: Record<string, string>, now?: Date): string {
  try {
    loadConfig(source, now);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const pair of [registered, unknown, shortLived]) {
      const keyBody = pair.key.split('\n')[1] ?? '';
      expect(message).not.toContain(keyBody);
    }
    return message;
  }
  throw new Error('the configuration was accepted');
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'afp-entra-env-'));
  registered = makeCertificatePair('portal-sign-in-env', 365);
  unknown = makeCertificatePair('not-uploaded-env', 365);
  shortLived = makeCertificatePair('short-lived-env', 1);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  removeCertificateFiles();
});

describe('ENTRA_CLIENT_CERTIFICATE_FILE and ENTRA_CLIENT_KEY_FILE', () => {
  it('reads a usable pair at start instead of a client secret', () => {
    const paths = files(registered, 'good');
    const config = loadConfig({
      ...tenant,
      ENTRA_CLIENT_CERTIFICATE_FILE: paths.certificate,
      ENTRA_CLIENT_KEY_FILE: paths.key,
    });
    expect(config.ENTRA_CLIENT_CERTIFICATE).toEqual({
      certificatePem: registered.certificate,
      privateKeyPem: registered.key,
    });
    expect(config.ENTRA_CLIENT_SECRET).toBeUndefined();
  });

  it('stops the start with a message naming the variable: one without the other, a missing file, a key of another certificate, an expired certificate', () => {
    const good = files(registered, 'good');
    const alone = startUpError({ ...tenant, ENTRA_CLIENT_CERTIFICATE_FILE: good.certificate });
    expect(alone).toMatch(/ENTRA_CLIENT_CERTIFICATE_FILE and ENTRA_CLIENT_KEY_FILE must be set together/);

    const missing = startUpError({
      ...tenant,
      ENTRA_CLIENT_CERTIFICATE_FILE: join(dir, 'nowhere.crt'),
      ENTRA_CLIENT_KEY_FILE: good.key,
    });
    expect(missing).toMatch(/ENTRA_CLIENT_CERTIFICATE_FILE: cannot read .*nowhere\.crt \(ENOENT\)/);

    const other = files(unknown, 'other');
    const mismatch = startUpError({
      ...tenant,
      ENTRA_CLIENT_CERTIFICATE_FILE: good.certificate,
      ENTRA_CLIENT_KEY_FILE: other.key,
    });
    expect(mismatch).toMatch(/ENTRA_CLIENT_KEY_FILE \(.*other\.key\): .*does not belong to the certificate/);

    const notAKey = startUpError({
      ...tenant,
      ENTRA_CLIENT_CERTIFICATE_FILE: good.certificate,
      ENTRA_CLIENT_KEY_FILE: good.certificate,
    });
    expect(notAKey).toMatch(/ENTRA_CLIENT_KEY_FILE \(.*good\.crt\): .*private key/);

    const brief = files(shortLived, 'brief');
    const twoDaysOn = new Date(Date.now() + 2 * 24 * 3600_000);
    const expired = startUpError(
      { ...tenant, ENTRA_CLIENT_CERTIFICATE_FILE: brief.certificate, ENTRA_CLIENT_KEY_FILE: brief.key },
      twoDaysOn,
    );
    expect(expired).toMatch(/ENTRA_CLIENT_CERTIFICATE_FILE \(.*brief\.crt\): .*expired/);

    const noTenant = startUpError({
      PUBLIC_URL: PORTAL,
      ENTRA_CLIENT_CERTIFICATE_FILE: good.certificate,
      ENTRA_CLIENT_KEY_FILE: good.key,
    });
    expect(noTenant).toMatch(
      /ENTRA_TENANT_ID, ENTRA_CLIENT_ID and ENTRA_CLIENT_SECRET \(or ENTRA_CLIENT_CERTIFICATE_FILE/,
    );
  });
});

describe('Staff sign-in with the certificate from the environment', () => {
  let entra: TestEntra;
  let t: TestApp;
  let staffCookie: string;

  const appWith = (pair: CertificatePair, name: string) => {
    const paths = files(pair, name);
    return createTestApp({
      PUBLIC_URL: PORTAL,
      AUTHORITY_HOST: entra.authorityHost,
      ENTRA_TENANT_ID: entra.tenantId,
      ENTRA_CLIENT_ID: entra.clientId,
      ENTRA_CLIENT_CERTIFICATE_FILE: paths.certificate,
      ENTRA_CLIENT_KEY_FILE: paths.key,
    });
  };

  beforeAll(async () => {
    // the app registration holds the certificate and no secret the portal knows
    entra = await startTestEntra({ portalUrl: PORTAL, clientCertificate: registered.certificate });
    t = await appWith(registered, 'registered');
    staffCookie = await t.loginStaff();
  }, 180_000);

  afterAll(async () => {
    await t?.close();
    await entra?.close();
  });

  it('signs in with an assertion the provider checks against the uploaded certificate, and the page shows the certificate read-only', async () => {
    const staff = await t.createUser({ username: 'env-cert-staff@example.org', role: 'staff' });
    const oid = '00000000-0000-4000-8000-0000000e0001';
    entra.accounts.set(oid, { oid, name: 'Env certificate staff' });
    const token = invitationTokenOf(await invitationLink(t, staffCookie, staff.id));

    const browser = new EntraBrowser(t, entra, PORTAL);
    const answer = await browser.signIn({ invitation: token, as: oid });
    expect(answer.headers.location).toBe('/staff');
    expect(await whoAmI(browser)).toMatchObject({ id: staff.id, role: 'staff' });

    const settings = await t.app.inject({
      url: '/api/staff/microsoft-sign-in',
      headers: { cookie: staffCookie },
    });
    expect(settings.json()).toMatchObject({
      configured: true,
      connectionSource: 'environment',
      hasClientSecret: false,
      hasClientCertificate: true,
      clientCertificate: { subject: 'CN=portal-sign-in-env', expired: false },
    });
    expect(settings.body).not.toContain(registered.key.split('\n')[1]);

    // the page cannot replace what the environment sets
    const replace = await t.app.inject({
      method: 'PUT',
      url: '/api/staff/microsoft-sign-in',
      headers: { cookie: staffCookie },
      payload: {
        staffPasswordSignIn: true,
        clientCertificate: unknown.certificate,
        clientCertificateKey: unknown.key,
      },
    });
    expect(replace.statusCode).toBe(400);
    expect(replace.json().fieldErrors.clientCertificate).toBeDefined();
  });

  it('is refused by the provider when the certificate is not the one on the app registration', async () => {
    const other = await appWith(unknown, 'unknown');
    try {
      const staff = await other.createUser({ username: 'env-cert-other@example.org', role: 'staff' });
      const oid = '00000000-0000-4000-8000-0000000e0002';
      entra.accounts.set(oid, { oid, name: 'Other staff' });
      const cookie = await other.loginStaff();
      const token = invitationTokenOf(await invitationLink(other, cookie, staff.id));
      const answer = await new EntraBrowser(other, entra, PORTAL).signIn({ invitation: token, as: oid });
      expect(landing(answer).error).toBe('client_rejected');
    } finally {
      await other.close();
    }
    // a second portal's fresh database takes a while on a busy machine
  }, 180_000);
});
