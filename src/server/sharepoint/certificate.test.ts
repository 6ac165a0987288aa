/**
 * App-only sign-in with a certificate (ADR 0017): the settings page stores the certificate and its
 * sealed key, the token request carries a signed client assertion, and the emulator's token endpoint
 * checks it as Entra ID does, refusing a wrong key, an expired assertion and an unknown thumbprint.
 */
import { createHash, createPrivateKey, X509Certificate } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portalSettingsFor } from '../../sharepoint-emulator/index';
import { CLIENT_ASSERTION_TYPE } from '../auth/client-certificate';
import { changeHistory, sharepointSettings } from '../db/schema';
import { type CertificatePair, makeCertificatePair, removeCertificateFiles } from '../test/certificate-pair';
import { type ConnectorSetup, FAST_TIMINGS, setupConnector } from './test-support';
import { TokenProvider } from './token';

type Pair = CertificatePair;
const makePair = (name: string, days: number) => makeCertificatePair(name, days);

let s: ConnectorSetup;
let staff: string;
let registered: Pair;
let other: Pair;
let soon: Pair;

beforeAll(async () => {
  registered = makePair('portal-app', 365);
  other = makePair('unregistered', 365);
  soon = makePair('expiring-soon', 10);
  s = await setupConnector({ seed: { seed: 'certificate', bookingCount: 8, facilitatorCount: 2 } });
  staff = await s.t.loginStaff();
  s.emu.control.addClientCertificate(s.emu.control.credentials.clientId, registered.certificate);
  s.emu.control.addClientCertificate(s.emu.control.credentials.clientId, soon.certificate);
});
afterAll(async () => {
  await s.close();
  removeCertificateFiles();
});

const tokenUrl = () => `${s.emu.authorityHost}/${s.emu.control.credentials.tenantId}/oauth2/v2.0/token`;
const clientId = () => s.emu.control.credentials.clientId;
const x5tS256 = (pem: string) =>
  createHash('sha256').update(new X509Certificate(pem).raw).digest('base64url');

/** An assertion built by hand, to send what the portal never would. */
async function assertion(
  options: { signWith?: string; thumbprintOf?: string; aud?: string; iss?: string; exp?: number } = {},
) {
  const now = Math.floor(s.emu.control.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'RS256', 'x5t#S256': x5tS256(options.thumbprintOf ?? registered.certificate) })
    .setIssuer(options.iss ?? clientId())
    .setSubject(options.iss ?? clientId())
    .setAudience(options.aud ?? tokenUrl())
    .setJti(crypto.randomUUID())
    .setIssuedAt(now)
    .setExpirationTime(options.exp ?? now + 600)
    .sign(createPrivateKey(options.signWith ?? registered.key));
}

async function requestToken(clientAssertion: string) {
  const response = await fetch(tokenUrl(), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId(),
      scope: 'https://graph.microsoft.com/.default',
      client_assertion_type: CLIENT_ASSERTION_TYPE,
      client_assertion: clientAssertion,
    }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const post = (url: string, payload: Record<string, unknown>) =>
  s.t.app.inject({ method: 'POST', url, payload, headers: { cookie: staff } });
/** The emulator's settings with a certificate instead of a client secret. */
const withCertificate = (pair: Pair, overrides: Record<string, unknown> = {}) => ({
  ...portalSettingsFor(s.portal, s.emu.control.credentials),
  clientSecret: '',
  username: '',
  password: '',
  clientCertificate: pair.certificate,
  clientCertificateKey: pair.key,
  ...overrides,
});

describe("the emulator's token endpoint", () => {
  it("gives a token for the portal's assertion signed with a registered certificate", async () => {
    const provider = new TokenProvider({
      authorityHost: s.emu.authorityHost,
      tenantId: s.emu.control.credentials.tenantId,
      clientId: clientId(),
      credential: {
        grant: 'client_credentials',
        certificate: { certificatePem: registered.certificate, privateKeyPem: registered.key },
      },
      timings: FAST_TIMINGS,
    });
    expect(await provider.getToken()).toMatch(/^emu\./);
    expect((await requestToken(await assertion())).status).toBe(200);
  });

  it('refuses an assertion signed with another key', async () => {
    const refused = await requestToken(await assertion({ signWith: other.key }));
    expect(refused).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(refused.body.error_description).toContain(
      'AADSTS700027: Client assertion failed signature validation.',
    );
  });

  it('refuses an expired assertion', async () => {
    const now = Math.floor(s.emu.control.now() / 1000);
    const refused = await requestToken(await assertion({ exp: now - 3600 }));
    expect(refused).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(refused.body.error_description).toContain('AADSTS700024');
  });

  it('refuses a thumbprint of a certificate the app does not have', async () => {
    const refused = await requestToken(
      await assertion({ signWith: other.key, thumbprintOf: other.certificate }),
    );
    expect(refused).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(refused.body.error_description).toContain('AADSTS700027: The certificate with identifier');
  });

  it('refuses another audience and another issuer', async () => {
    const audience = await requestToken(
      await assertion({ aud: 'https://login.microsoftonline.com/x/oauth2/v2.0/token' }),
    );
    expect(audience.body.error_description).toContain('AADSTS700212');
    const issuer = await requestToken(await assertion({ iss: '99999999-9999-9999-9999-999999999999' }));
    expect(issuer).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  });
});

describe('a certificate in the settings', () => {
  it('is stored sealed, described without its key, and used for the refresh', async () => {
    const saved = await post('/api/sharepoint/settings', withCertificate(registered));
    expect(saved.statusCode, saved.body).toBe(200);
    const body = saved.json();
    const x509 = new X509Certificate(registered.certificate);
    expect(body).toMatchObject({
      hasClientCertificate: true,
      clientCertificate: {
        subject: 'CN=portal-app',
        thumbprint: x509.fingerprint.replace(/:/g, ''),
        expiresAt: new Date(x509.validTo).toISOString(),
        expiringSoon: false,
        expired: false,
      },
    });
    expect(body.clientCertificate.expiresInDays).toBeGreaterThanOrEqual(363);
    expect(saved.body).not.toContain('PRIVATE KEY');
    const [row] = await s.t.ctx.db.select().from(sharepointSettings);
    expect(row!.clientCertificateKeyEncrypted).toBeTruthy();
    expect(row!.clientCertificateKeyEncrypted).not.toContain('PRIVATE KEY');
    const changes = JSON.stringify(await s.t.ctx.db.select().from(changeHistory));
    expect(changes).not.toContain('PRIVATE KEY');
    expect(changes).toContain('"clientCertificate":"changed"');

    // the app's client secret no longer works: only the certificate can sign in
    s.emu.control.setCredentials({
      clients: [
        { clientId: clientId(), clientSecret: 'rotated-away', certificates: [registered.certificate] },
      ],
    });
    const refreshed = await s.t.app.inject({
      method: 'POST',
      url: '/api/staff/bookings/refresh',
      headers: { cookie: staff },
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    // Test Connection with the stored certificate (blank fields)
    const test = await post(
      '/api/sharepoint/test-connection-with-credentials',
      withCertificate(registered, {
        clientCertificate: '',
        clientCertificateKey: '',
      }),
    );
    expect(test.json()).toMatchObject({ success: true });
  });

  it('a certificate the app does not have: the refresh fails and says why', async () => {
    await post('/api/sharepoint/settings', withCertificate(other));
    const refreshed = await s.t.app.inject({
      method: 'POST',
      url: '/api/staff/bookings/refresh',
      headers: { cookie: staff },
    });
    expect(refreshed.statusCode).toBe(503);
    expect(refreshed.json().message).toContain('invalid_client');
    expect(refreshed.body).not.toContain('PRIVATE KEY');
  });

  it('refuses a key of another certificate, and a certificate without its key; nothing changes', async () => {
    await post('/api/sharepoint/settings', withCertificate(registered));
    const [before] = await s.t.ctx.db.select().from(sharepointSettings);
    const mismatched = await post(
      '/api/sharepoint/settings',
      withCertificate(registered, { clientCertificateKey: other.key }),
    );
    expect(mismatched.statusCode).toBe(400);
    expect(mismatched.json().fieldErrors).toEqual({
      clientCertificateKey: ['This private key does not belong to the certificate.'],
    });
    const alone = await post(
      '/api/sharepoint/settings',
      withCertificate(registered, { clientCertificateKey: '' }),
    );
    expect(alone.statusCode).toBe(400);
    expect(alone.json().fieldErrors).toHaveProperty('clientCertificateKey');
    const garbage = await post(
      '/api/sharepoint/settings',
      withCertificate(registered, { clientCertificate: 'not a certificate' }),
    );
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json().fieldErrors).toHaveProperty('clientCertificate');
    const [after] = await s.t.ctx.db.select().from(sharepointSettings);
    expect(after).toEqual(before);
  });

  it('warns from 30 days before it expires', async () => {
    const saved = await post('/api/sharepoint/settings', withCertificate(soon));
    expect(saved.statusCode).toBe(200);
    expect(saved.json().clientCertificate).toMatchObject({
      subject: 'CN=expiring-soon',
      expiringSoon: true,
      expired: false,
    });
    expect(saved.json().clientCertificate.expiresInDays).toBeGreaterThanOrEqual(9);
    expect(saved.json().clientCertificate.expiresInDays).toBeLessThanOrEqual(10);
  });

  it('is bound to its tenant, client and site: another site clears it unless typed again', async () => {
    await post('/api/sharepoint/settings', withCertificate(registered));
    const moved = await post(
      '/api/sharepoint/settings',
      withCertificate(registered, {
        siteUrl: 'https://contoso.sharepoint.com/sites/Elsewhere',
        clientCertificate: '',
        clientCertificateKey: '',
      }),
    );
    expect(moved.json()).toMatchObject({
      hasClientCertificate: false,
      clientCertificate: null,
      clientCertificateCleared: true,
    });
    const [row] = await s.t.ctx.db.select().from(sharepointSettings);
    expect(row).toMatchObject({ clientCertificate: null, clientCertificateKeyEncrypted: null });
  });

  it('can be removed', async () => {
    await post('/api/sharepoint/settings', withCertificate(registered));
    const removed = await post(
      '/api/sharepoint/settings',
      withCertificate(registered, {
        clientCertificate: '',
        clientCertificateKey: '',
        removeClientCertificate: true,
      }),
    );
    expect(removed.json()).toMatchObject({ hasClientCertificate: false, clientCertificateCleared: false });
  });
});
