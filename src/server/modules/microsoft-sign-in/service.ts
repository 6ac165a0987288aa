import { and, count, eq, gt, lt } from 'drizzle-orm';
import * as oidc from 'openid-client';
import type {
  MicrosoftInvitation,
  MicrosoftSignInError,
  MicrosoftSignInSettings,
  MicrosoftSignInStatus,
} from '../../../shared/schemas/microsoft-sign-in';
import type { AppContext } from '../../context';
import { decryptSecret, deriveKey, encryptSecret, randomToken, sha256 } from '../../crypto';
import type { Queryable } from '../../db/client';
import {
  microsoftIdentities,
  microsoftInvitations,
  microsoftSignInRequests,
  microsoftSignInSettings,
  users,
} from '../../db/schema';
import { AppError, badRequest, notFound } from '../../errors';
import { findUserById, STAFF_ROLE, type UserRow } from '../users/service';

/** How long the browser has between leaving for Microsoft and coming back. */
export const SIGN_IN_REQUEST_MS = 10 * 60 * 1000;
export const INVITATION_MS = 7 * 24 * 60 * 60 * 1000;
export const CALLBACK_PATH = '/api/auth/microsoft/callback';

/** Test-only tuning passed through BuildOptions; the product reads everything from the configuration. */
export interface MicrosoftSignInRuntimeOptions {
  /** Where the identity provider lives instead of AUTHORITY_HOST (the e2e server's test provider). */
  authorityHost?: string;
}

export interface MicrosoftSignInConfig {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  issuer: string;
  redirectUri: string;
  staffRole: string;
}

/** A sign-in that ends on the login page with a reason rather than in a session. */
export class SignInFailure extends Error {
  constructor(
    readonly code: MicrosoftSignInError,
    detail: string,
  ) {
    super(detail);
    this.name = 'SignInFailure';
  }
}

const runtime = new WeakMap<AppContext, MicrosoftSignInRuntimeOptions>();
const serverMetadata = new WeakMap<AppContext, Promise<oidc.ServerMetadata>>();

export function configureMicrosoftSignIn(ctx: AppContext, options: MicrosoftSignInRuntimeOptions = {}): void {
  runtime.set(ctx, options);
}

export function signInConfig(ctx: AppContext): MicrosoftSignInConfig | null {
  const { ENTRA_TENANT_ID, ENTRA_CLIENT_ID, ENTRA_CLIENT_SECRET, PUBLIC_URL } = ctx.config;
  if (!ENTRA_TENANT_ID || !ENTRA_CLIENT_ID || !ENTRA_CLIENT_SECRET || !PUBLIC_URL) return null;
  const authority = (runtime.get(ctx)?.authorityHost ?? ctx.config.AUTHORITY_HOST).replace(/\/+$/, '');
  return {
    tenantId: ENTRA_TENANT_ID,
    clientId: ENTRA_CLIENT_ID,
    clientSecret: ENTRA_CLIENT_SECRET,
    // The single-tenant issuer: the /common and /organizations documents name a templated issuer, and
    // a token from any other directory must not validate.
    issuer: `${authority}/${ENTRA_TENANT_ID}/v2.0`,
    redirectUri: `${PUBLIC_URL}${CALLBACK_PATH}`,
    staffRole: ctx.config.ENTRA_STAFF_ROLE ?? '',
  };
}

function isLoopback(url: URL): boolean {
  return ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
}

/**
 * The client for one request. Discovery is fetched once per app (and again after a failure); the
 * client is rebuilt per request so token checks keep time by the app's clock.
 */
async function clientFor(ctx: AppContext, config: MicrosoftSignInConfig): Promise<oidc.Configuration> {
  const issuer = new URL(config.issuer);
  // Plain http only for a test server on this machine; a real authority is always https.
  const insecure = issuer.protocol === 'http:' && isLoopback(issuer);
  let metadata = serverMetadata.get(ctx);
  if (!metadata) {
    metadata = oidc
      .discovery(issuer, config.clientId, undefined, undefined, {
        ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
      })
      .then((found) => found.serverMetadata());
    serverMetadata.set(ctx, metadata);
    metadata.catch(() => serverMetadata.delete(ctx));
  }
  let server: oidc.ServerMetadata;
  try {
    server = await metadata;
  } catch (error) {
    throw discoveryFailure(error);
  }
  const skewSeconds = Math.round((ctx.now().getTime() - Date.now()) / 1000);
  const client = new oidc.Configuration(
    server,
    config.clientId,
    { client_secret: config.clientSecret, [oidc.clockSkew]: skewSeconds },
    // HTTP Basic: what OpenID Connect servers accept by default (Entra takes either)
    oidc.ClientSecretBasic(config.clientSecret),
  );
  if (insecure) oidc.allowInsecureRequests(client);
  return client;
}

function discoveryFailure(error: unknown): SignInFailure {
  const code = (error as { code?: string }).code;
  if (code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED') {
    return new SignInFailure('wrong_issuer', 'the discovery document names another issuer');
  }
  return new SignInFailure('provider_unreachable', 'Microsoft sign-in could not be reached');
}

function requestKey(ctx: AppContext, browserKey: string): Buffer {
  return deriveKey(ctx.appSecret, `microsoft-sign-in:${browserKey}`);
}

interface SealedRequest {
  nonce: string;
  verifier: string;
  invitationHash: string | null;
}

/**
 * Begin a sign-in: returns where to send the browser. `browserKey` is the value of the browser's
 * sign-in cookie; the request can only be finished by a browser that presents it again.
 */
export async function startSignIn(
  ctx: AppContext,
  input: { invitation?: string | undefined; browserKey: string },
): Promise<URL> {
  const config = signInConfig(ctx);
  if (!config) throw new SignInFailure('not_configured', 'Microsoft sign-in is not configured');
  const invitationHash = input.invitation ? sha256(input.invitation) : null;
  if (invitationHash && !(await openInvitation(ctx, invitationHash))) {
    throw new SignInFailure('invitation_invalid', 'the invitation is unknown, used or expired');
  }
  const client = await clientFor(ctx, config);
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const verifier = oidc.randomPKCECodeVerifier();
  const sealed: SealedRequest = { nonce, verifier, invitationHash };
  const now = ctx.now();
  await ctx.db.delete(microsoftSignInRequests).where(lt(microsoftSignInRequests.expiresAt, now));
  await ctx.db.insert(microsoftSignInRequests).values({
    stateHash: sha256(state),
    sealed: encryptSecret(requestKey(ctx, input.browserKey), JSON.stringify(sealed)),
    expiresAt: new Date(now.getTime() + SIGN_IN_REQUEST_MS),
  });
  return oidc.buildAuthorizationUrl(client, {
    redirect_uri: config.redirectUri,
    response_type: 'code',
    response_mode: 'query',
    scope: 'openid profile',
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
}

async function openInvitation(ctx: AppContext, tokenHash: string) {
  const [row] = await ctx.db
    .select()
    .from(microsoftInvitations)
    .where(and(eq(microsoftInvitations.tokenHash, tokenHash), gt(microsoftInvitations.expiresAt, ctx.now())));
  return row;
}

/** Take the request for this state out of the store (so it works once) and open it with the cookie. */
async function takeRequest(
  ctx: AppContext,
  state: string | undefined,
  browserKey: string | undefined,
): Promise<SealedRequest> {
  const expired = new SignInFailure('expired_request', 'unknown, used or expired state');
  if (!state) throw expired;
  const [row] = await ctx.db
    .delete(microsoftSignInRequests)
    .where(eq(microsoftSignInRequests.stateHash, sha256(state)))
    .returning();
  if (!row || row.expiresAt <= ctx.now() || !browserKey) throw expired;
  try {
    return JSON.parse(decryptSecret(requestKey(ctx, browserKey), row.sealed)) as SealedRequest;
  } catch {
    // another browser's cookie, or none: the state was carried away from where it started
    throw expired;
  }
}

export interface FinishedSignIn {
  user: UserRow;
  token: string;
  expiresAt: Date;
}

/**
 * Finish a sign-in from the provider's answer (`currentUrl` is the callback URL as the browser asked
 * for it). Throws SignInFailure with the reason the login page shows.
 */
export async function finishSignIn(
  ctx: AppContext,
  input: {
    currentUrl: URL;
    browserKey: string | undefined;
    previousToken: string | null;
  },
): Promise<FinishedSignIn> {
  const config = signInConfig(ctx);
  if (!config) throw new SignInFailure('not_configured', 'Microsoft sign-in is not configured');
  const params = input.currentUrl.searchParams;
  const request = await takeRequest(ctx, params.get('state') ?? undefined, input.browserKey);
  if (params.get('error')) {
    const error = params.get('error');
    throw new SignInFailure(
      error === 'access_denied' ? 'cancelled' : 'failed',
      `the provider answered ${error?.slice(0, 100)}`,
    );
  }
  const client = await clientFor(ctx, config);
  // the URL Microsoft was told to come back to, whatever host header the request arrived with
  const callbackUrl = new URL(config.redirectUri);
  callbackUrl.search = input.currentUrl.search;
  let claims: oidc.IDToken;
  try {
    const tokens = await oidc.authorizationCodeGrant(client, callbackUrl, {
      pkceCodeVerifier: request.verifier,
      expectedNonce: request.nonce,
      expectedState: params.get('state') ?? undefined,
      idTokenExpected: true,
    });
    const found = tokens.claims();
    if (!found) throw new SignInFailure('failed', 'no ID token');
    claims = found;
  } catch (error) {
    throw tokenFailure(error);
  }

  // The issuer, already checked, names the tenant; a `tid` that says otherwise is refused. A server
  // without Entra's claims is still one tenant's server, and its `sub` is then the person's id.
  const tenantId = typeof claims.tid === 'string' ? claims.tid : config.tenantId;
  const objectId = typeof claims.oid === 'string' ? claims.oid : claims.sub;
  if (tenantId.toLowerCase() !== config.tenantId.toLowerCase()) {
    throw new SignInFailure('wrong_tenant', 'the token comes from another directory');
  }
  if (!objectId) throw new SignInFailure('failed', 'the ID token has no oid claim');
  const roles = Array.isArray(claims.roles) ? claims.roles.filter((r) => typeof r === 'string') : [];
  const subject = { issuer: claims.iss, tenantId, objectId };

  const user = await ctx.db.transaction(async (tx) => {
    const linked = await linkedUser(tx, subject);
    if (linked) return linked;
    if (!request.invitationHash) return null;
    const [invitation] = await tx
      .delete(microsoftInvitations)
      .where(
        and(
          eq(microsoftInvitations.tokenHash, request.invitationHash),
          gt(microsoftInvitations.expiresAt, ctx.now()),
        ),
      )
      .returning();
    if (!invitation) return null;
    // an invitation replaces whatever identity the account had: staff chose to send it
    await tx.delete(microsoftIdentities).where(eq(microsoftIdentities.userId, invitation.userId));
    await tx.insert(microsoftIdentities).values({ userId: invitation.userId, ...subject });
    return (await findUserById(tx, invitation.userId)) ?? null;
  });
  if (!user) {
    throw new SignInFailure(
      request.invitationHash ? 'invitation_invalid' : 'no_invitation',
      'no account is linked to this Microsoft identity',
    );
  }
  if (user.role === STAFF_ROLE && config.staffRole && !roles.includes(config.staffRole)) {
    // staff access follows the app role: whoever lost it loses the sessions they still hold
    await ctx.sessions.destroyAllForUser(user.id);
    throw new SignInFailure('missing_role', `the token lacks the ${config.staffRole} role`);
  }
  await ctx.db
    .update(microsoftIdentities)
    .set({ lastSignInAt: ctx.now() })
    .where(eq(microsoftIdentities.userId, user.id));
  if (input.previousToken) await ctx.sessions.destroy(input.previousToken);
  const { token, expiresAt } = await ctx.sessions.create(user.id);
  return { user, token, expiresAt };
}

async function linkedUser(
  db: Queryable,
  subject: { issuer: string; tenantId: string; objectId: string },
): Promise<UserRow | null> {
  const [row] = await db
    .select({ user: users })
    .from(microsoftIdentities)
    .innerJoin(users, eq(users.id, microsoftIdentities.userId))
    .where(
      and(
        eq(microsoftIdentities.issuer, subject.issuer),
        eq(microsoftIdentities.tenantId, subject.tenantId),
        eq(microsoftIdentities.objectId, subject.objectId),
      ),
    );
  return row?.user ?? null;
}

function tokenFailure(error: unknown): SignInFailure {
  if (error instanceof SignInFailure) return error;
  const { code, message } = error as { code?: string; message?: string };
  if (code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED') {
    return new SignInFailure('clock_skew', message ?? 'token time check failed');
  }
  if (code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' && failedClaim(error) === 'iss') {
    return new SignInFailure('wrong_issuer', message ?? 'unexpected issuer');
  }
  if (error instanceof TypeError || code === 'ECONNREFUSED') {
    return new SignInFailure('provider_unreachable', 'the token endpoint could not be reached');
  }
  return new SignInFailure('failed', message ?? 'the token was refused');
}

/** The claim a validation error names, looked for down the chain of causes openid-client wraps. */
function failedClaim(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const { cause } = current as { cause?: unknown };
    const claim = (cause as { claim?: unknown } | undefined)?.claim;
    if (typeof claim === 'string') return claim;
    current = cause;
  }
  return undefined;
}

export async function signInStatus(ctx: AppContext): Promise<MicrosoftSignInStatus> {
  return {
    enabled: signInConfig(ctx) !== null,
    staffPasswordSignIn: await staffPasswordSignInAllowed(ctx),
  };
}

/**
 * Whether staff may still sign in with a password. Only off while Microsoft sign-in is configured:
 * removing the configuration brings passwords back rather than locking every staff member out.
 */
export async function staffPasswordSignInAllowed(ctx: AppContext): Promise<boolean> {
  if (!signInConfig(ctx)) return true;
  const [row] = await ctx.db.select().from(microsoftSignInSettings).where(eq(microsoftSignInSettings.id, 1));
  return row?.staffPasswordSignIn ?? true;
}

export const STAFF_PASSWORD_OFF_MESSAGE =
  'Staff at this organisation sign in with Microsoft. Use "Sign in with Microsoft" on the staff login page.';

export async function getSignInSettings(ctx: AppContext, me: UserRow): Promise<MicrosoftSignInSettings> {
  const config = signInConfig(ctx);
  const [linked] = await ctx.db
    .select({ n: count() })
    .from(microsoftIdentities)
    .innerJoin(users, eq(users.id, microsoftIdentities.userId))
    .where(eq(users.role, STAFF_ROLE));
  const [mine] = await ctx.db
    .select({ id: microsoftIdentities.id })
    .from(microsoftIdentities)
    .where(eq(microsoftIdentities.userId, me.id));
  return {
    configured: config !== null,
    tenantId: config?.tenantId ?? '',
    clientId: config?.clientId ?? '',
    redirectUri:
      config?.redirectUri ?? (ctx.config.PUBLIC_URL ? `${ctx.config.PUBLIC_URL}${CALLBACK_PATH}` : ''),
    staffRole: config?.staffRole ?? '',
    staffPasswordSignIn: await staffPasswordSignInAllowed(ctx),
    linkedStaff: linked?.n ?? 0,
    youAreLinked: Boolean(mine),
  };
}

/**
 * Turn staff password sign-in on or off. Off only while Microsoft sign-in is configured and the staff
 * member asking has a linked Microsoft identity: whoever switches passwords off can still get in.
 */
export async function saveSignInSettings(
  ctx: AppContext,
  me: UserRow,
  body: { staffPasswordSignIn: boolean },
): Promise<MicrosoftSignInSettings> {
  if (!body.staffPasswordSignIn) {
    if (!signInConfig(ctx)) {
      throw badRequest('Microsoft sign-in is not configured, so staff passwords must stay on.', {
        staffPasswordSignIn: ['Configure Sign in with Microsoft first'],
      });
    }
    const [mine] = await ctx.db
      .select({ id: microsoftIdentities.id })
      .from(microsoftIdentities)
      .where(eq(microsoftIdentities.userId, me.id));
    if (!mine) {
      throw badRequest(
        'Sign in with Microsoft yourself first: password sign-in can only be turned off by a staff member whose account is linked to Microsoft, so that somebody can still get in.',
        { staffPasswordSignIn: ['Link your own account to Microsoft first'] },
      );
    }
  }
  const values = { staffPasswordSignIn: body.staffPasswordSignIn, updatedAt: ctx.now() };
  await ctx.db
    .insert(microsoftSignInSettings)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: microsoftSignInSettings.id, set: values });
  return getSignInSettings(ctx, me);
}

/** A single-use link that lets the person who opens it link their Microsoft identity to the account. */
export async function createInvitation(
  ctx: AppContext,
  userId: number,
  createdBy: number,
): Promise<MicrosoftInvitation> {
  const config = signInConfig(ctx);
  if (!config) throw new AppError(409, 'Microsoft sign-in is not configured.');
  if (!(await findUserById(ctx.db, userId))) throw notFound('User not found');
  const token = randomToken(32);
  const expiresAt = new Date(ctx.now().getTime() + INVITATION_MS);
  const values = { tokenHash: sha256(token), createdBy, expiresAt, createdAt: ctx.now() };
  // one open invitation per account: a new link replaces the last one
  await ctx.db
    .insert(microsoftInvitations)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: microsoftInvitations.userId, set: values });
  const link = new URL(`${ctx.config.PUBLIC_URL}/staff-login`);
  link.searchParams.set('invitation', token);
  return { link: link.toString(), expiresAt: expiresAt.toISOString() };
}

/** Remove the account's Microsoft identity and any open invitation. */
export async function unlinkIdentity(ctx: AppContext, userId: number): Promise<void> {
  if (!(await findUserById(ctx.db, userId))) throw notFound('User not found');
  await ctx.db.transaction(async (tx) => {
    await tx.delete(microsoftIdentities).where(eq(microsoftIdentities.userId, userId));
    await tx.delete(microsoftInvitations).where(eq(microsoftInvitations.userId, userId));
  });
}

/** Where "sign out of Microsoft too" sends the browser, or null when sign-in is not configured. */
export async function microsoftSignOutUrl(ctx: AppContext): Promise<URL | null> {
  const config = signInConfig(ctx);
  if (!config) return null;
  try {
    const client = await clientFor(ctx, config);
    if (!client.serverMetadata().end_session_endpoint) return null;
    return oidc.buildEndSessionUrl(client, {
      post_logout_redirect_uri: `${ctx.config.PUBLIC_URL}/staff-login`,
      client_id: config.clientId,
    });
  } catch {
    return null;
  }
}
