/**
 * Sign in with Microsoft: the sign-in itself, from the browser leaving for Microsoft to the session
 * (or the reason there is none), and where signing out of Microsoft too sends the browser.
 */
import { and, eq, gt, lt, or } from 'drizzle-orm';
import * as oidc from 'openid-client';
import type { MicrosoftSignInError, MicrosoftSignInPage } from '../../../shared/schemas/microsoft-sign-in';
import { usernameField } from '../../../shared/schemas/users';
import { CLIENT_ASSERTION_TYPE, clientAssertion } from '../../auth/client-certificate';
import { decryptSecret, deriveKey, encryptSecret, sha256 } from '../../crypto';
import type { Queryable } from '../../db/client';
import { microsoftIdentities, microsoftInvitations, microsoftSignInRequests, users } from '../../db/schema';
import { isUniqueViolation } from '../../errors';
import { recordChanges } from '../history/record';
import { accountValues, findUserById, STAFF_ROLE, type UserRow, usernameKeys } from '../users/service';
import {
  CLOCK_TOLERANCE_SECONDS,
  type Discovered,
  DiscoveryError,
  isLoopback,
  type MicrosoftSignInConfig,
} from './discovery';
import { describeIdentity, endMicrosoftSessions, identityChange, tellOwner } from './identities';
import { readSettingsRow, resolveSettings, type SignInDeps, signInConfig } from './settings';

/** How long the browser has between leaving for Microsoft and coming back. */
export const SIGN_IN_REQUEST_MS = 10 * 60 * 1000;

/** A sign-in that ends on the login page with a reason rather than in a session. */
export class SignInFailure extends Error {
  /** the login page the sign-in started from, where the browser is sent back to read the reason */
  page: MicrosoftSignInPage = 'staff';

  constructor(
    readonly code: MicrosoftSignInError,
    detail: string,
  ) {
    super(detail);
    this.name = 'SignInFailure';
  }
}

/**
 * The client for one request. Discovery is fetched once per app and configuration (and again after
 * a failure); the client is rebuilt per request so token checks keep time by the app's clock.
 */
async function clientFor(
  ctx: Pick<SignInDeps, 'now' | 'signInDiscovery'>,
  config: MicrosoftSignInConfig,
): Promise<{ client: oidc.Configuration; tenantId: string; server: Discovered }> {
  const pending = ctx.signInDiscovery.get(config);
  let server: Discovered;
  try {
    server = await pending;
  } catch (error) {
    throw discoveryFailure(error);
  }
  const skewSeconds = Math.round((ctx.now().getTime() - Date.now()) / 1000);
  const clock = { [oidc.clockSkew]: skewSeconds, [oidc.clockTolerance]: CLOCK_TOLERANCE_SECONDS };
  const client = config.certificate
    ? new oidc.Configuration(
        server.metadata,
        config.clientId,
        clock,
        certificateAuthentication(ctx, config.clientId, config.certificate),
      )
    : new oidc.Configuration(
        server.metadata,
        config.clientId,
        { client_secret: config.clientSecret, ...clock },
        // HTTP Basic: what OpenID Connect servers accept by default (Entra takes either)
        oidc.ClientSecretBasic(config.clientSecret),
      );
  const issuer = new URL(server.issuer);
  if (issuer.protocol === 'http:' && isLoopback(issuer)) oidc.allowInsecureRequests(client);
  // The ID token's signature is checked against the provider's published keys (from the pinned
  // jwks_uri), not only trusted for arriving over TLS from the token endpoint.
  oidc.enableNonRepudiationChecks(client);
  if (server.jwks) oidc.setJwksCache(client, server.jwks);
  return { client, tenantId: server.tenantId, server };
}

/**
 * private_key_jwt with the assertion SharePoint's connector sends too: openid-client's own
 * PrivateKeyJwt cannot put `x5t#S256` in the header, which is how Entra finds the certificate,
 * and its audience is the issuer where Entra wants the token endpoint.
 */
function certificateAuthentication(
  ctx: Pick<SignInDeps, 'now'>,
  clientId: string,
  certificate: { certificatePem: string; privateKeyPem: string },
): oidc.ClientAuth {
  return async (as, _client, body) => {
    if (!as.token_endpoint) throw new SignInFailure('failed', 'the provider names no token endpoint');
    body.set('client_id', clientId);
    body.set('client_assertion_type', CLIENT_ASSERTION_TYPE);
    body.set(
      'client_assertion',
      await clientAssertion({
        ...certificate,
        clientId,
        tokenUrl: as.token_endpoint,
        now: ctx.now().getTime(),
      }),
    );
  };
}

function discoveryFailure(error: unknown): SignInFailure {
  const code = (error as { code?: string }).code;
  if (
    code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED' ||
    (error instanceof DiscoveryError && error.kind === 'wrong_issuer')
  ) {
    return new SignInFailure('wrong_issuer', 'the discovery document names another issuer');
  }
  if (error instanceof DiscoveryError && error.kind === 'foreign_endpoint') {
    return new SignInFailure('wrong_issuer', error.message);
  }
  return new SignInFailure('provider_unreachable', 'Microsoft sign-in could not be reached');
}

function requestKey(ctx: Pick<SignInDeps, 'appSecret'>, browserKey: string): Buffer {
  return deriveKey(ctx.appSecret, `microsoft-sign-in:${browserKey}`);
}

interface SealedRequest {
  nonce: string;
  verifier: string;
  invitationHash: string | null;
  /** absent in requests sealed before facilitators could sign in: those began on the staff page */
  page?: MicrosoftSignInPage;
}

export const FACILITATORS_OFF_DETAIL = 'facilitator sign-in with Microsoft is turned off';

/**
 * Begin a sign-in: returns where to send the browser. `browserKey` is the value of the browser's
 * sign-in cookie; the request can only be finished by a browser that presents it again.
 */
export async function startSignIn(
  ctx: Pick<SignInDeps, 'appSecret' | 'config' | 'db' | 'now' | 'signInDiscovery'>,
  input: { invitation?: string | undefined; browserKey: string; page?: MicrosoftSignInPage | undefined },
): Promise<URL> {
  const page = input.page ?? 'staff';
  try {
    return await beginSignIn(ctx, { ...input, page });
  } catch (error) {
    if (error instanceof SignInFailure) error.page = page;
    throw error;
  }
}

async function beginSignIn(
  ctx: Pick<SignInDeps, 'appSecret' | 'config' | 'db' | 'now' | 'signInDiscovery'>,
  input: { invitation?: string | undefined; browserKey: string; page: MicrosoftSignInPage },
): Promise<URL> {
  const resolved = await resolveSettings(ctx);
  const config = resolved.config;
  if (!config) throw new SignInFailure('not_configured', 'Microsoft sign-in is not configured');
  const invitationHash = input.invitation ? sha256(input.invitation) : null;
  const invitation = invitationHash ? await openInvitation(ctx, invitationHash) : undefined;
  if (invitationHash && !invitation) {
    throw new SignInFailure('invitation_invalid', 'the invitation is unknown, used or expired');
  }
  // Said before the trip to Microsoft: a facilitator's invitation, or the facilitator page, while
  // staff have not let facilitators in. The callback checks again (the setting may change meanwhile).
  if (!resolved.facilitatorSignIn) {
    const invited = invitation ? await findUserById(ctx.db, invitation.userId) : undefined;
    if (invited ? invited.role !== STAFF_ROLE : input.page === 'facilitator') {
      throw new SignInFailure('facilitators_off', FACILITATORS_OFF_DETAIL);
    }
  }
  const { client } = await clientFor(ctx, config);
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const verifier = oidc.randomPKCECodeVerifier();
  const sealed: SealedRequest = { nonce, verifier, invitationHash, page: input.page };
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

async function openInvitation(ctx: Pick<SignInDeps, 'db' | 'now'>, tokenHash: string) {
  const [row] = await ctx.db
    .select()
    .from(microsoftInvitations)
    .where(and(eq(microsoftInvitations.tokenHash, tokenHash), gt(microsoftInvitations.expiresAt, ctx.now())));
  return row;
}

/** Take the request for this state out of the store (so it works once) and open it with the cookie. */
async function takeRequest(
  ctx: Pick<SignInDeps, 'appSecret' | 'db' | 'now'>,
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
  ctx: SignInDeps,
  input: {
    currentUrl: URL;
    browserKey: string | undefined;
    previousToken: string | null;
  },
): Promise<FinishedSignIn> {
  const params = input.currentUrl.searchParams;
  const request = await takeRequest(ctx, params.get('state') ?? undefined, input.browserKey);
  try {
    return await completeSignIn(ctx, input, request);
  } catch (error) {
    if (error instanceof SignInFailure) error.page = request.page ?? 'staff';
    throw error;
  }
}

/**
 * A token says its person is a guest in the directory: Entra's optional `acct` claim (1 = guest), an
 * `idp` claim naming another issuer than the token's (a guest's home directory, or a personal
 * Microsoft account), or a sign-in name in the form Entra gives guests (`alex_example.org#EXT#@…`),
 * which it does even when the token carries neither optional claim. Such a token never gets a staff
 * account from the app role.
 */
export function isGuestToken(claims: oidc.IDToken): boolean {
  if (claims.acct === 1 || (typeof claims.idp === 'string' && claims.idp !== claims.iss)) return true;
  return [claims.preferred_username, claims.upn, claims.unique_name, claims.email].some(
    (name) => typeof name === 'string' && name.toUpperCase().includes('#EXT#'),
  );
}

async function completeSignIn(
  ctx: SignInDeps,
  input: { currentUrl: URL; previousToken: string | null },
  request: SealedRequest,
): Promise<FinishedSignIn> {
  const resolved = await resolveSettings(ctx);
  const config = resolved.config;
  if (!config) throw new SignInFailure('not_configured', 'Microsoft sign-in is not configured');
  const params = input.currentUrl.searchParams;
  if (params.get('error')) {
    const error = params.get('error');
    throw new SignInFailure(
      error === 'access_denied' ? 'cancelled' : 'failed',
      `the provider answered ${error?.slice(0, 100)}`,
    );
  }
  const { client, tenantId: configuredTenant, server } = await clientFor(ctx, config);
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
  } finally {
    server.jwks = oidc.getJwksCache(client) ?? server.jwks;
  }
  // openid-client checks the expiry, not that the token was not issued in the future
  if (claims.iat > ctx.now().getTime() / 1000 + CLOCK_TOLERANCE_SECONDS) {
    throw new SignInFailure('clock_skew', 'the ID token says it was issued in the future');
  }

  // The issuer, already checked, names the tenant; a `tid` that says otherwise is refused. A server
  // without Entra's claims is still one tenant's server, and its `sub` is then the person's id.
  const tenantId = typeof claims.tid === 'string' ? claims.tid : configuredTenant;
  const objectId = typeof claims.oid === 'string' ? claims.oid : claims.sub;
  if (tenantId.toLowerCase() !== configuredTenant.toLowerCase()) {
    throw new SignInFailure('wrong_tenant', 'the token comes from another directory');
  }
  if (!objectId) throw new SignInFailure('failed', 'the ID token has no oid claim');
  const roles = Array.isArray(claims.roles) ? claims.roles.filter((r) => typeof r === 'string') : [];
  const subject = { issuer: claims.iss, tenantId, objectId };

  const signInName = signInNameOf(claims);
  const hasStaffRole = Boolean(config.staffRole) && roles.includes(config.staffRole);
  const facilitatorsOff = () => new SignInFailure('facilitators_off', FACILITATORS_OFF_DETAIL);
  /** set when an invitation linked (or replaced) the account's identity: its owner is told */
  let changed: { event: 'linked' | 'replaced'; invitedBy: number | null } | null = null;
  const linkOrCreate = () =>
    ctx.db.transaction(async (tx) => {
      changed = null;
      const linked = await linkedUser(tx, subject);
      if (linked) return linked;
      if (!request.invitationHash) {
        // the app role makes staff only of members of the directory: a guest needs an invitation
        if (!hasStaffRole || isGuestToken(claims) || !(await readSettingsRow(tx))?.createStaffFromRole)
          return null;
        return createStaffAccount(tx, subject, claims, signInName);
      }
      const [open] = await tx
        .select({ userId: microsoftInvitations.userId })
        .from(microsoftInvitations)
        .where(
          and(
            eq(microsoftInvitations.tokenHash, request.invitationHash),
            gt(microsoftInvitations.expiresAt, ctx.now()),
          ),
        );
      const invited = open ? await findUserById(tx, open.userId) : undefined;
      // a facilitator's invitation waits, unused, until staff let facilitators in again
      if (invited && invited.role !== STAFF_ROLE && !resolved.facilitatorSignIn) throw facilitatorsOff();
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
      // An account linked to another identity keeps it, unless staff made this invitation to replace
      // it; then the sessions that identity opened end, and its owner is told (after the commit).
      const [current] = await tx
        .select()
        .from(microsoftIdentities)
        .where(eq(microsoftIdentities.userId, invitation.userId))
        .for('update');
      if (current && !invitation.replacesIdentity) {
        throw new SignInFailure('already_linked', 'the account is linked to another Microsoft identity');
      }
      if (current) {
        await tx.delete(microsoftIdentities).where(eq(microsoftIdentities.id, current.id));
        await endMicrosoftSessions(tx, [invitation.userId]);
      }
      changed = { event: current ? 'replaced' : 'linked', invitedBy: invitation.createdBy };
      const [identity] = await tx
        .insert(microsoftIdentities)
        .values({ userId: invitation.userId, ...subject, signInName })
        .returning();
      const user = (await findUserById(tx, invitation.userId)) ?? null;
      const inviter = invitation.createdBy ? await findUserById(tx, invitation.createdBy) : undefined;
      await recordChanges(tx, [
        identityChange(
          invitation.userId,
          { actorId: invitation.userId, via: user?.role === STAFF_ROLE ? 'staff' : 'facilitator' },
          current ? 'replaced' : 'linked',
          {
            before: { microsoftAccount: describeIdentity(current) },
            after: {
              microsoftAccount: describeIdentity(identity),
              ...(inviter ? { invitedBy: inviter.displayName?.trim() || inviter.username } : {}),
            },
          },
        ),
      ]);
      return user;
    });
  let user: UserRow | null;
  try {
    user = await linkOrCreate();
  } catch (error) {
    // the same person's other tab linked or created the account a moment ago: use that one
    if (!isUniqueViolation(error)) throw error;
    user = await linkedUser(ctx.db, subject);
  }
  if (!user) {
    throw new SignInFailure(
      request.invitationHash ? 'invitation_invalid' : 'no_invitation',
      'no account is linked to this Microsoft identity',
    );
  }
  // a leaver's account stays refused whoever Microsoft says they are
  if (user.deactivatedAt) throw new SignInFailure('deactivated', 'the account is deactivated');
  // The account decides the session: a facilitator's is a facilitator's whatever `roles` says.
  if (user.role !== STAFF_ROLE && !resolved.facilitatorSignIn) throw facilitatorsOff();
  if (user.role === STAFF_ROLE && config.staffRole && !roles.includes(config.staffRole)) {
    // staff access follows the app role: whoever lost it loses the sessions they still hold
    await ctx.sessions.destroyAllForUser(user.id);
    throw new SignInFailure('missing_role', `the token lacks the ${config.staffRole} role`);
  }
  await ctx.db
    .update(microsoftIdentities)
    .set({ lastSignInAt: ctx.now(), signInName })
    .where(eq(microsoftIdentities.userId, user.id));
  if (input.previousToken) await ctx.sessions.destroy(input.previousToken);
  const { token, expiresAt } = await ctx.sessions.create(user.id, { microsoft: true });
  // narrowed for TypeScript: `changed` is set inside the transaction's callback
  const link = changed as { event: 'linked' | 'replaced'; invitedBy: number | null } | null;
  // someone else's invitation linked a Microsoft account to this one: its owner hears of it
  if (link && link.invitedBy !== user.id)
    await tellOwner(ctx, user, link.event, signInName ?? subject.objectId, link.invitedBy);
  return { user, token, expiresAt };
}

/** The sign-in name a token gives, kept for people reading the history; null when it gives none. */
function signInNameOf(claims: oidc.IDToken): string | null {
  const name = [claims.preferred_username, claims.email].find((v) => typeof v === 'string' && v.trim());
  return typeof name === 'string' ? name.trim().slice(0, 254) : null;
}

async function createStaffAccount(
  tx: Queryable,
  subject: { issuer: string; tenantId: string; objectId: string },
  claims: oidc.IDToken,
  signInName: string | null,
): Promise<UserRow> {
  const text = (value: unknown, max: number) => (typeof value === 'string' ? value.trim().slice(0, max) : '');
  const candidates = [signInName ?? '', `microsoft-${subject.objectId}`].filter(
    (name) => name && usernameField.safeParse(name).success,
  );
  let username = '';
  for (const candidate of [...candidates, ...[2, 3, 4, 5].map((n) => `microsoft-${subject.objectId}-${n}`)]) {
    const keys = usernameKeys(candidate);
    const [taken] = await tx
      .select({ id: users.id })
      .from(users)
      .where(
        or(
          eq(users.usernameCanonical, keys.usernameCanonical),
          eq(users.usernameSkeleton, keys.usernameSkeleton),
        ),
      );
    if (!taken) {
      username = candidate;
      break;
    }
  }
  if (!username) throw new SignInFailure('failed', 'no free username for the new account');
  const [row] = await tx
    .insert(users)
    .values({
      username,
      ...usernameKeys(username),
      passwordHash: null,
      displayName: text(claims.name, 100) || null,
      email: null,
      role: STAFF_ROLE,
    })
    .returning();
  const [identity] = await tx
    .insert(microsoftIdentities)
    .values({ userId: row!.id, ...subject, signInName })
    .returning();
  const by = { actorId: row!.id, via: 'staff' } as const;
  await recordChanges(tx, [
    {
      entity: 'account',
      action: 'create',
      ...{ subjectUserId: row!.id, actorId: by.actorId, via: by.via },
      before: null,
      after: accountValues(row!),
    },
    identityChange(row!.id, by, 'linked', {
      before: { microsoftAccount: null },
      after: { microsoftAccount: describeIdentity(identity), staffAppRole: true },
    }),
  ]);
  return row!;
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
  if ((error as { error?: unknown }).error === 'invalid_client') {
    // the secret or certificate is not (or no longer) on the app registration
    return new SignInFailure('client_rejected', message ?? 'the client was not accepted');
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

/** Where "sign out of Microsoft too" sends the browser, or null when sign-in is not configured. */
export async function microsoftSignOutUrl(
  ctx: Pick<SignInDeps, 'appSecret' | 'config' | 'db' | 'now' | 'signInDiscovery'>,
): Promise<URL | null> {
  const config = await signInConfig(ctx);
  if (!config) return null;
  try {
    const { client } = await clientFor(ctx, config);
    if (!client.serverMetadata().end_session_endpoint) return null;
    return oidc.buildEndSessionUrl(client, {
      post_logout_redirect_uri: `${ctx.config.PUBLIC_URL}/staff-login`,
      client_id: config.clientId,
    });
  } catch {
    return null;
  }
}
