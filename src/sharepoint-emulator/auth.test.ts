import { afterEach, describe, expect, it } from 'vitest';
import { GRAPH_SCOPE } from './auth';
import { type RunningEmulator, startEmulator } from './index';
import { requestToken } from './test-support';

let emu: RunningEmulator;

afterEach(async () => {
  await emu?.close();
});

async function start(options: Parameters<typeof startEmulator>[0] = {}) {
  emu = await startEmulator(options);
  const { site } = emu.control.seedPortalSite({ seed: 'auth', bookingCount: 1 });
  return `${emu.graphBaseUrl}/sites/${site.id}`;
}

describe('token endpoint', () => {
  it('issues a bearer token for client credentials that Graph accepts', async () => {
    const siteUrl = await start({ tokenLifetimeSeconds: 120 });
    const { clientId, clientSecret } = emu.control.credentials;
    const res = await requestToken(emu, {
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
      scope: GRAPH_SCOPE,
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 120 });
    expect(typeof body.access_token).toBe('string');
    const graph = await fetch(siteUrl, { headers: { Authorization: `Bearer ${body.access_token}` } });
    expect(graph.status).toBe(200);
  });

  it('accepts the client secret as HTTP Basic authentication', async () => {
    await start();
    const { tenantId, clientId, clientSecret } = emu.control.credentials;
    const res = await fetch(`${emu.authorityHost}/${tenantId}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: GRAPH_SCOPE }).toString(),
    });
    expect(res.status).toBe(200);
  });

  it('issues a token for the password grant with configured users', async () => {
    await start({ users: [{ username: 'Ann@contoso.example', password: 'pw 1' }] });
    const res = await requestToken(emu, {
      grant_type: 'password',
      client_id: emu.control.credentials.clientId,
      username: 'ann@contoso.example',
      password: 'pw 1',
      scope: GRAPH_SCOPE,
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { access_token: string }).access_token).toMatch(/^emu\./);
  });

  it('answers AAD-style errors for bad credentials', async () => {
    await start({ users: [{ username: 'mfa@contoso.example', password: 'x', mfaRequired: true }] });
    const { clientId, clientSecret } = emu.control.credentials;
    const cases: Array<[Record<string, string>, number, string, string?]> = [
      [
        { grant_type: 'client_credentials', client_id: clientId, client_secret: 'wrong', scope: GRAPH_SCOPE },
        401,
        'invalid_client',
        'AADSTS7000215',
      ],
      [{ grant_type: 'client_credentials', client_id: clientId, scope: GRAPH_SCOPE }, 401, 'invalid_client'],
      [
        {
          grant_type: 'client_credentials',
          client_id: 'nobody',
          client_secret: clientSecret,
          scope: GRAPH_SCOPE,
        },
        400,
        'unauthorized_client',
      ],
      [
        {
          grant_type: 'client_credentials',
          client_id: clientId,
          client_secret: clientSecret,
          scope: 'openid',
        },
        400,
        'invalid_scope',
      ],
      [
        { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret },
        400,
        'invalid_request',
      ],
      [
        { grant_type: 'authorization_code', client_id: clientId, scope: GRAPH_SCOPE },
        400,
        'unsupported_grant_type',
      ],
      [
        {
          grant_type: 'password',
          client_id: clientId,
          username: 'sync@contoso.onmicrosoft.com',
          password: 'nope',
          scope: GRAPH_SCOPE,
        },
        400,
        'invalid_grant',
        'AADSTS50126',
      ],
      [
        {
          grant_type: 'password',
          client_id: clientId,
          username: 'mfa@contoso.example',
          password: 'x',
          scope: GRAPH_SCOPE,
        },
        400,
        'invalid_grant',
        'AADSTS50076',
      ],
    ];
    for (const [form, status, error, aadsts] of cases) {
      const res = await requestToken(emu, form);
      expect(res.status, JSON.stringify(form)).toBe(status);
      const body = (await res.json()) as { error: string; error_description: string };
      expect(body.error).toBe(error);
      expect(body.error_description).toMatch(aadsts ?? /^AADSTS\d+/);
    }
  });

  it('rejects an unknown tenant', async () => {
    await start();
    const res = await requestToken(
      emu,
      { grant_type: 'client_credentials', client_id: 'x', client_secret: 'y', scope: GRAPH_SCOPE },
      'another-tenant',
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('invalid_request');
  });

  it('honours configured credentials and changes made later', async () => {
    await start({ tenantId: 'my-tenant', clients: [{ clientId: 'app-1', clientSecret: 's1' }] });
    const ok = await requestToken(
      emu,
      { grant_type: 'client_credentials', client_id: 'app-1', client_secret: 's1', scope: GRAPH_SCOPE },
      'my-tenant',
    );
    expect(ok.status).toBe(200);
    emu.control.setCredentials({ clients: [{ clientId: 'app-1', clientSecret: 's2' }] });
    const old = await requestToken(
      emu,
      { grant_type: 'client_credentials', client_id: 'app-1', client_secret: 's1', scope: GRAPH_SCOPE },
      'my-tenant',
    );
    expect(old.status).toBe(401);
  });
});

describe('Graph authentication', () => {
  async function token(): Promise<string> {
    const { clientId, clientSecret } = emu.control.credentials;
    const res = await requestToken(emu, {
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
      scope: GRAPH_SCOPE,
    });
    return ((await res.json()) as { access_token: string }).access_token;
  }

  it('answers 401 InvalidAuthenticationToken without or with an unknown token', async () => {
    const siteUrl = await start();
    const variants: Array<Record<string, string>> = [
      {},
      { Authorization: 'Bearer not-issued' },
      { Authorization: 'Basic abc' },
    ];
    for (const headers of variants) {
      const res = await fetch(siteUrl, { headers });
      expect(res.status).toBe(401);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('InvalidAuthenticationToken');
    }
  });

  it('rejects a token once it has expired by time', async () => {
    const siteUrl = await start({ tokenLifetimeSeconds: 60 });
    const t = await token();
    expect((await fetch(siteUrl, { headers: { Authorization: `Bearer ${t}` } })).status).toBe(200);
    emu.control.advanceClock(61_000);
    const res = await fetch(siteUrl, { headers: { Authorization: `Bearer ${t}` } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/expired/);
  });

  it('forces expiry of every token issued so far, but not of new ones', async () => {
    const siteUrl = await start();
    const old = await token();
    emu.control.expireTokens();
    expect((await fetch(siteUrl, { headers: { Authorization: `Bearer ${old}` } })).status).toBe(401);
    const fresh = await token();
    expect((await fetch(siteUrl, { headers: { Authorization: `Bearer ${fresh}` } })).status).toBe(200);
  });
});
