import { createHash, randomBytes, randomUUID, verify as verifySignature, X509Certificate } from 'node:crypto';
import type { Clock } from './clock';
import { GraphError } from './errors';

export interface ClientCredential {
  clientId: string;
  clientSecret: string;
  /** PEM certificates registered for the app: client assertions signed with their keys are accepted */
  certificates?: string[];
}

const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** Clock skew Entra ID tolerates on exp and nbf. */
const SKEW_SECONDS = 300;

export interface UserCredential {
  username: string;
  password: string;
  /** ROPC cannot satisfy MFA; such users get `invalid_grant` AADSTS50076, as in Entra ID. */
  mfaRequired?: boolean;
}

export interface AuthOptions {
  tenantId?: string;
  /** Apps allowed to use client_credentials (and ROPC, which also names a client). */
  clients?: ClientCredential[];
  users?: UserCredential[];
  /** `expires_in` of issued tokens. */
  tokenLifetimeSeconds?: number;
}

export const DEFAULT_TENANT_ID = '11111111-2222-3333-4444-555555555555';
export const DEFAULT_CLIENT: ClientCredential = {
  clientId: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
  clientSecret: 'emulator-secret',
};
export const DEFAULT_USER: UserCredential = {
  username: 'sync@contoso.onmicrosoft.com',
  password: 'emulator-password',
};
export const GRAPH_SCOPE = 'https://graph.microsoft.com/.default';

interface IssuedToken {
  expiresAt: number;
  clientId: string;
  grant: 'client_credentials' | 'password';
}

export interface TokenResponse {
  status: number;
  body: Record<string, unknown>;
}

export class AuthService {
  tenantId: string;
  clients: ClientCredential[];
  users: UserCredential[];
  tokenLifetimeSeconds: number;
  private tokens = new Map<string, IssuedToken>();

  constructor(
    private readonly clock: Clock,
    options: AuthOptions = {},
  ) {
    this.tenantId = options.tenantId ?? DEFAULT_TENANT_ID;
    this.clients = options.clients ?? [DEFAULT_CLIENT];
    this.users = options.users ?? [DEFAULT_USER];
    this.tokenLifetimeSeconds = options.tokenLifetimeSeconds ?? 3599;
  }

  private aadError(status: number, error: string, code: number, description: string): TokenResponse {
    return {
      status,
      body: {
        error,
        error_description: `AADSTS${code}: ${description} Trace ID: ${randomUUID()} Timestamp: ${new Date(this.clock.now()).toISOString()}`,
        error_codes: [code],
        timestamp: new Date(this.clock.now()).toISOString().replace('T', ' ').slice(0, 19),
        trace_id: randomUUID(),
        correlation_id: randomUUID(),
      },
    };
  }

  /**
   * Checks a client assertion as Entra ID does: an RS256 JWT whose `x5t#S256` header names a
   * certificate registered for the client, signed with that certificate's key, for this token
   * endpoint (`aud`), issued by and about the client (`iss` = `sub` = client id), within its time.
   * Undefined when it passes, else the error answer.
   */
  private checkAssertion(
    client: ClientCredential,
    assertion: string,
    audience: string,
  ): TokenResponse | undefined {
    const refuse = (code: number, description: string) =>
      this.aadError(401, 'invalid_client', code, description);
    const parts = assertion.split('.');
    if (parts.length !== 3) return refuse(50027, 'JWT token is invalid or malformed.');
    let header: Record<string, unknown>;
    let claims: Record<string, unknown>;
    try {
      header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8'));
      claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    } catch {
      return refuse(50027, 'JWT token is invalid or malformed.');
    }
    if (header.alg !== 'RS256')
      return refuse(5002738, `The assertion algorithm '${String(header.alg)}' is not supported.`);
    const thumbprint = header['x5t#S256'];
    const certificate = (client.certificates ?? [])
      .map((pem) => new X509Certificate(pem))
      .find((c) => createHash('sha256').update(c.raw).digest('base64url') === thumbprint);
    if (!certificate) {
      return refuse(
        700027,
        `The certificate with identifier used to sign the client assertion is not registered on application. [Reason - The key was not found., Thumbprint of key used by client: '${String(thumbprint)}']`,
      );
    }
    const signed = verifySignature(
      'RSA-SHA256',
      Buffer.from(`${parts[0]}.${parts[1]}`),
      certificate.publicKey,
      Buffer.from(parts[2]!, 'base64url'),
    );
    if (!signed) return refuse(700027, 'Client assertion failed signature validation.');
    if (claims.aud !== audience) {
      return refuse(
        700212,
        `The client assertion's audience claim does not match the token endpoint '${audience}'.`,
      );
    }
    if (claims.iss !== client.clientId || claims.sub !== client.clientId) {
      return refuse(
        700021,
        'Client assertion application identifier does not match the client_id parameter.',
      );
    }
    const now = Math.floor(this.clock.now() / 1000);
    if (typeof claims.exp !== 'number' || claims.exp + SKEW_SECONDS <= now) {
      return refuse(700024, 'Client assertion is not within its valid time range.');
    }
    if (typeof claims.nbf === 'number' && claims.nbf - SKEW_SECONDS > now) {
      return refuse(700024, 'Client assertion is not within its valid time range.');
    }
    return undefined;
  }

  /** Handles a form-encoded POST to `/{tenant}/oauth2/v2.0/token`; `audience`: this endpoint's URL. */
  issue(
    tenant: string,
    form: URLSearchParams,
    authorization: string | undefined,
    audience = '',
  ): TokenResponse {
    if (tenant.toLowerCase() !== this.tenantId.toLowerCase()) {
      return this.aadError(400, 'invalid_request', 90002, `Tenant '${tenant}' not found.`);
    }
    let clientId = form.get('client_id') ?? undefined;
    let clientSecret = form.get('client_secret') ?? undefined;
    // RFC 6749 lets the secret travel as HTTP Basic instead of in the form.
    if (authorization?.startsWith('Basic ')) {
      const decoded = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
      const sep = decoded.indexOf(':');
      if (sep > 0) {
        clientId = decodeURIComponent(decoded.slice(0, sep));
        clientSecret = decodeURIComponent(decoded.slice(sep + 1));
      }
    }
    const grant = form.get('grant_type');
    if (!grant)
      return this.aadError(
        400,
        'invalid_request',
        900144,
        "The request body must contain the following parameter: 'grant_type'.",
      );
    if (grant !== 'client_credentials' && grant !== 'password') {
      return this.aadError(
        400,
        'unsupported_grant_type',
        70003,
        `The app requested an unsupported grant type '${grant}'.`,
      );
    }
    if (!clientId)
      return this.aadError(
        400,
        'invalid_request',
        900144,
        "The request body must contain the following parameter: 'client_id'.",
      );
    const scope = form.get('scope');
    if (!scope)
      return this.aadError(
        400,
        'invalid_request',
        900144,
        "The request body must contain the following parameter: 'scope'.",
      );
    if (!scope.split(/\s+/).includes(GRAPH_SCOPE)) {
      return this.aadError(
        400,
        'invalid_scope',
        70011,
        "The provided value for the input parameter 'scope' is not valid.",
      );
    }
    const client = this.clients.find((c) => c.clientId.toLowerCase() === clientId.toLowerCase());
    if (!client) {
      return this.aadError(
        400,
        'unauthorized_client',
        700016,
        `Application with identifier '${clientId}' was not found in the directory.`,
      );
    }
    const assertion = form.get('client_assertion');
    if (grant === 'client_credentials' && assertion !== null) {
      if (form.get('client_assertion_type') !== CLIENT_ASSERTION_TYPE) {
        return this.aadError(
          400,
          'invalid_request',
          50027,
          "The 'client_assertion_type' parameter must be urn:ietf:params:oauth:client-assertion-type:jwt-bearer.",
        );
      }
      const refused = this.checkAssertion(client, assertion, audience);
      if (refused) return refused;
    } else if (grant === 'client_credentials') {
      if (!clientSecret) {
        return this.aadError(
          401,
          'invalid_client',
          7000218,
          "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.",
        );
      }
      if (clientSecret !== client.clientSecret) {
        return this.aadError(401, 'invalid_client', 7000215, 'Invalid client secret provided.');
      }
    } else {
      // A confidential client may add its secret to ROPC; if it does, it has to be right.
      if (clientSecret !== undefined && clientSecret !== client.clientSecret) {
        return this.aadError(401, 'invalid_client', 7000215, 'Invalid client secret provided.');
      }
      const username = form.get('username');
      const password = form.get('password');
      if (!username || !password) {
        return this.aadError(
          400,
          'invalid_request',
          900144,
          "The request body must contain the following parameter: 'username' and 'password'.",
        );
      }
      const user = this.users.find((u) => u.username.toLowerCase() === username.toLowerCase());
      if (!user || user.password !== password) {
        return this.aadError(
          400,
          'invalid_grant',
          50126,
          'Error validating credentials due to invalid username or password.',
        );
      }
      if (user.mfaRequired) {
        return this.aadError(
          400,
          'invalid_grant',
          50076,
          'Due to a configuration change made by your administrator, or because you moved to a new location, you must use multi-factor authentication to access this resource.',
        );
      }
    }
    const accessToken = `emu.${randomBytes(24).toString('base64url')}`;
    this.tokens.set(accessToken, {
      expiresAt: this.clock.now() + this.tokenLifetimeSeconds * 1000,
      clientId: client.clientId,
      grant,
    });
    return {
      status: 200,
      body: {
        token_type: 'Bearer',
        expires_in: this.tokenLifetimeSeconds,
        ext_expires_in: this.tokenLifetimeSeconds,
        access_token: accessToken,
      },
    };
  }

  /** Throws the 401 Graph sends for a missing, unknown or expired bearer token. */
  verify(authorization: string | undefined): void {
    const header = {
      'WWW-Authenticate':
        'Bearer realm="", authorization_uri="https://login.microsoftonline.com/common/oauth2/authorize"',
    };
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match) throw new GraphError(401, 'InvalidAuthenticationToken', 'Access token is empty.', header);
    const token = this.tokens.get(match[1]!);
    if (!token)
      throw new GraphError(401, 'InvalidAuthenticationToken', 'IDX14100: JWT is not well formed.', header);
    if (token.expiresAt <= this.clock.now()) {
      throw new GraphError(
        401,
        'InvalidAuthenticationToken',
        'Access token has expired or is not yet valid.',
        header,
      );
    }
  }

  /** Makes every token issued so far expire now; tokens issued later are unaffected. */
  expireAllTokens(): void {
    const now = this.clock.now();
    for (const token of this.tokens.values()) token.expiresAt = Math.min(token.expiresAt, now);
  }

  issuedTokenCount(): number {
    return this.tokens.size;
  }

  reset(): void {
    this.tokens.clear();
  }
}
