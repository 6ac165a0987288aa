/**
 * A real OpenID Connect server (oidc-provider) that answers like Entra ID: issuer
 * `{host}/{tenant}/v2.0`, ID tokens with `tid`, `oid` and `roles`. Started by the tests on 127.0.0.1 and
 * by the e2e server; never part of the product.
 *
 * The sign-in page is ours, not oidc-provider's development page: a test either names the account the
 * next sign-in uses (`nextSignIn`) or, in a browser, picks one from a small form.
 *
 * A second provider under another tenant path shares the signing keys and clients, so tests can make
 * the server misbehave the way an attacker or a misconfiguration would (`misbehave`): answer with a
 * token from another issuer, for another client, or with another nonce.
 */
import { X509Certificate } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from 'jose';
import Provider, { type ProviderContext } from 'oidc-provider';

export interface EntraAccount {
  oid: string;
  /** defaults to the provider's tenant */
  tid?: string;
  name?: string;
  email?: string;
  preferredUsername?: string;
  roles?: string[];
  /**
   * A guest in the directory, from another organisation: the token then says so as Entra's does, with
   * `idp` (the guest's home issuer) and the optional `acct` claim 1.
   */
  guestFrom?: string;
}

export interface EntraMisbehaviour {
  /** the answer comes from another issuer that shares the keys */
  issuer?: boolean;
  /** the ID token is made out to another client */
  audience?: boolean;
  /** the ID token carries a nonce the portal did not send */
  nonce?: boolean;
  /** the discovery document names these addresses instead of the provider's own */
  endpoints?: Partial<
    Record<'authorization_endpoint' | 'token_endpoint' | 'jwks_uri' | 'end_session_endpoint', string>
  >;
  /** the token endpoint's ID token is signed with a key the provider does not publish */
  forgedSignature?: boolean;
  /** the ID token says it was issued this many seconds after now (signed with the provider's key) */
  issuedAheadSeconds?: number;
}

export interface TestEntra {
  /** what AUTHORITY_HOST would be: `http://127.0.0.1:{port}` */
  authorityHost: string;
  tenantId: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, EntraAccount>;
  /** the account (oid) the next interaction signs in as, or 'cancel'; unset: show the form */
  nextSignIn: string | undefined;
  misbehave: EntraMisbehaviour;
  close(): Promise<void>;
}

export interface TestEntraOptions {
  tenantId?: string;
  clientId?: string;
  clientSecret?: string;
  /** the portal's PUBLIC_URL */
  portalUrl: string;
  port?: number;
  accounts?: EntraAccount[];
  /**
   * A PEM certificate uploaded to the app registration: the client then authenticates with a
   * private_key_jwt assertion signed by its key (checked against the certificate's public key), not
   * with the secret.
   */
  clientCertificate?: string;
  /** verified domains of the directory: their discovery documents name the tenant's GUID issuer */
  domains?: string[];
}

const OTHER_TENANT = 'ffffffff-0000-4000-8000-0000000000ff';
const OTHER_CLIENT = 'another-application';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startTestEntra(options: TestEntraOptions): Promise<TestEntra> {
  const tenantId = options.tenantId ?? '11111111-2222-4333-8444-555555555555';
  const clientId = options.clientId ?? 'portal-application';
  const clientSecret = options.clientSecret ?? 'test-client-secret-value-0123456789';
  const accounts = new Map((options.accounts ?? []).map((a) => [a.oid, a]));

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  // a key of nobody's: what a forged ID token is signed with
  const { privateKey: strangerKey } = await generateKeyPair('RS256');
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };

  const server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const redirectUri = `${options.portalUrl}/api/auth/microsoft/callback`;
  const certificateKey = options.clientCertificate
    ? {
        ...new X509Certificate(options.clientCertificate).publicKey.export({ format: 'jwk' }),
        alg: 'RS256',
        use: 'sig',
      }
    : undefined;
  const client = (id: string) => ({
    client_id: id,
    redirect_uris: [redirectUri],
    post_logout_redirect_uris: [`${options.portalUrl}/staff-login`],
    ...(certificateKey
      ? {
          token_endpoint_auth_method: 'private_key_jwt',
          token_endpoint_auth_signing_alg: 'RS256',
          jwks: { keys: [certificateKey] },
        }
      : { client_secret: clientSecret, token_endpoint_auth_method: 'client_secret_basic' }),
    response_types: ['code'],
    grant_types: ['authorization_code'],
  });
  const interactionOwner = new Map<string, Provider>();

  const makeProvider = (tenant: string) => {
    const provider: Provider = new Provider(`${host}/${tenant}/v2.0`, {
      clients: [client(clientId), client(OTHER_CLIENT)],
      jwks: { keys: [signingKey] },
      claims: {
        openid: ['sub', 'tid', 'oid', 'roles', 'idp', 'acct'],
        profile: ['name', 'preferred_username', 'email'],
      },
      // Entra puts these claims in the ID token of a code flow; oidc-provider would keep them for
      // /userinfo unless told otherwise.
      conformIdTokenClaims: false,
      features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: true } },
      interactions: {
        url: (_ctx: unknown, interaction: { uid: string }) => {
          interactionOwner.set(interaction.uid, provider);
          return `/interaction/${interaction.uid}`;
        },
      },
      // Consent is given by the directory's administrator in Entra; here every grant is implied.
      loadExistingGrant: async (ctx: ProviderContext) => {
        const accountId = ctx.oidc.session?.accountId;
        const grantClient = ctx.oidc.client?.clientId;
        if (!accountId || !grantClient) return undefined;
        const grant = new provider.Grant({ accountId, clientId: grantClient });
        grant.addOIDCScope('openid profile');
        await grant.save();
        return grant;
      },
      findAccount: (_ctx: unknown, id: string) => {
        const account = accounts.get(id);
        if (!account) return undefined;
        return {
          accountId: id,
          claims: () => ({
            sub: account.oid,
            oid: account.oid,
            tid: account.tid ?? tenantId,
            roles: account.roles ?? [],
            name: account.name ?? account.oid,
            preferred_username: account.preferredUsername ?? account.email ?? account.oid,
            email: account.email,
            ...(account.guestFrom ? { idp: account.guestFrom, acct: 1 } : {}),
          }),
        };
      },
      pkce: { required: () => true },
      ttl: { Session: 3600, Interaction: 600, Grant: 3600, AccessToken: 600, IdToken: 3600 },
    });
    return provider;
  };
  const home = makeProvider(tenantId);
  const impostor = makeProvider(OTHER_TENANT);
  const homeListener = home.callback();
  const impostorListener = impostor.callback();
  const homePrefix = `/${tenantId}/v2.0`;
  const impostorPrefix = `/${OTHER_TENANT}/v2.0`;

  const entra: TestEntra = {
    authorityHost: host,
    tenantId,
    issuer: `${host}${homePrefix}`,
    clientId,
    clientSecret,
    accounts,
    nextSignIn: undefined,
    misbehave: {},
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const finish = async (req: IncomingMessage, res: ServerResponse, provider: Provider, choice: string) => {
    const result =
      choice === 'cancel'
        ? { error: 'access_denied', error_description: 'The user cancelled the sign-in' }
        : { login: { accountId: choice } };
    await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
  };

  const interaction = async (req: IncomingMessage, res: ServerResponse, uid: string) => {
    const provider = interactionOwner.get(uid) ?? home;
    if (req.method === 'POST') {
      const choice = new URLSearchParams(await readBody(req)).get('account') ?? 'cancel';
      return finish(req, res, provider, accounts.has(choice) ? choice : 'cancel');
    }
    await provider.interactionDetails(req, res);
    if (entra.nextSignIn) return finish(req, res, provider, entra.nextSignIn);
    const buttons = [...accounts.values()]
      .map(
        (a) =>
          `<button name="account" value="${escapeHtml(a.oid)}">Sign in as ${escapeHtml(a.name ?? a.oid)}</button>`,
      )
      .join('\n');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><title>Test identity provider</title></head><body><main>
<h1>Test identity provider</h1>
<form method="post" action="/interaction/${escapeHtml(uid)}">${buttons}
<button name="account" value="cancel">Cancel</button></form></main></body></html>`);
  };

  /** Let the provider answer, then change its JSON answer before it leaves (the length follows). */
  const rewriteJson = (res: ServerResponse, change: (body: Record<string, unknown>) => Promise<void>) => {
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (chunk === undefined || typeof chunk === 'function') return end(chunk, ...rest);
      const body = JSON.parse(Buffer.from(chunk as string | Buffer).toString('utf8')) as Record<
        string,
        unknown
      >;
      void change(body).then(() => {
        const text = JSON.stringify(body);
        if (!res.headersSent) res.setHeader('content-length', Buffer.byteLength(text));
        end(text);
      });
      return res;
    }) as typeof res.end;
  };

  /** An ID token with its claims changed, signed with the provider's key or a stranger's. */
  const resign = async (
    token: string,
    key: 'own' | 'stranger',
    change: (claims: Record<string, unknown>) => void,
  ) => {
    const claims = decodeJwt(token) as Record<string, unknown>;
    change(claims);
    return new SignJWT(claims)
      .setProtectedHeader(decodeProtectedHeader(token) as { alg: string })
      .sign(key === 'own' ? privateKey : strangerKey);
  };

  /** Hand a request to a provider mounted under `prefix` (oidc-provider reads the mount from originalUrl). */
  const delegate = (
    req: IncomingMessage & { originalUrl?: string; body?: string },
    res: ServerResponse,
    listener: (req: IncomingMessage, res: ServerResponse) => void,
    prefix: string,
  ) => {
    req.originalUrl = req.url;
    req.url = req.url?.slice(prefix.length) || '/';
    listener(req, res);
  };

  server.on('request', (req: IncomingMessage & { originalUrl?: string; body?: string }, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', host);
      const uid = /^\/interaction\/([^/]+)$/.exec(url.pathname)?.[1];
      if (uid) return interaction(req, res, uid);
      if (url.pathname.startsWith(impostorPrefix))
        return delegate(req, res, impostorListener, impostorPrefix);
      const domain = (options.domains ?? []).find(
        (d) => url.pathname.toLowerCase() === `/${d.toLowerCase()}/v2.0/.well-known/openid-configuration`,
      );
      if (domain) {
        req.url = `${homePrefix}/.well-known/openid-configuration`;
        return delegate(req, res, homeListener, homePrefix);
      }
      if (!url.pathname.startsWith(homePrefix)) {
        // what Entra answers for a directory it does not know
        res.writeHead(url.pathname.endsWith('/.well-known/openid-configuration') ? 400 : 404, {
          'content-type': 'application/json',
        });
        res.end(JSON.stringify({ error: 'invalid_tenant' }));
        return;
      }
      const rest = url.pathname.slice(homePrefix.length);
      const discovery = rest.startsWith('/.well-known/') || rest === '/jwks';
      const { endpoints, forgedSignature, issuedAheadSeconds } = entra.misbehave;
      if (endpoints && rest === '/.well-known/openid-configuration') {
        rewriteJson(res, async (document) => {
          Object.assign(document, endpoints);
        });
      }
      if ((forgedSignature || issuedAheadSeconds) && rest === '/token') {
        rewriteJson(res, async (answer) => {
          if (typeof answer.id_token !== 'string') return;
          answer.id_token = await resign(answer.id_token, forgedSignature ? 'stranger' : 'own', (claims) => {
            if (!issuedAheadSeconds) return;
            claims.iat = Math.floor(Date.now() / 1000) + issuedAheadSeconds;
            claims.exp = (claims.iat as number) + 3600;
          });
        });
      }
      if (!discovery && entra.misbehave.nonce && rest === '/auth' && url.searchParams.has('nonce')) {
        url.searchParams.set('nonce', 'a-nonce-the-portal-never-sent');
        req.url = `${url.pathname}${url.search}`;
      }
      if (!discovery && entra.misbehave.audience) {
        if (url.searchParams.get('client_id') === clientId) {
          url.searchParams.set('client_id', OTHER_CLIENT);
          req.url = `${url.pathname}${url.search}`;
        }
        if (req.method === 'POST') {
          const form = new URLSearchParams(await readBody(req));
          if (form.get('client_id') === clientId) form.set('client_id', OTHER_CLIENT);
          req.body = form.toString();
          const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
          if (basic) {
            const [id, secret] = Buffer.from(basic, 'base64').toString('utf8').split(':');
            if (decodeURIComponent(id ?? '') === clientId) {
              const swapped = `${encodeURIComponent(OTHER_CLIENT)}:${secret ?? ''}`;
              req.headers.authorization = `Basic ${Buffer.from(swapped).toString('base64')}`;
            }
          }
        }
      }
      if (!discovery && entra.misbehave.issuer) {
        // the other issuer answers at this issuer's addresses; the `iss` response parameter is made to
        // look right, so only the ID token can give it away
        const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
        res.writeHead = ((status: number, ...args: unknown[]) => {
          const location = res.getHeader('location');
          if (typeof location === 'string' && location.startsWith(redirectUri)) {
            const answer = new URL(location);
            if (answer.searchParams.has('iss')) answer.searchParams.set('iss', entra.issuer);
            res.setHeader('location', answer.toString());
          }
          return writeHead(status, ...args);
        }) as typeof res.writeHead;
        return delegate(req, res, impostorListener, homePrefix);
      }
      return delegate(req, res, homeListener, homePrefix);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });

  return entra;
}
