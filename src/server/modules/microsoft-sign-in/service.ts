import { and, count, eq, gt, inArray, lt, ne, or } from 'drizzle-orm';
import * as oidc from 'openid-client';
import {
  type MicrosoftInvitation,
  type MicrosoftLinkedAccounts,
  type MicrosoftSignInError,
  type MicrosoftSignInPage,
  type MicrosoftSignInSettings,
  type MicrosoftSignInSettingsBody,
  type MicrosoftSignInStatus,
  type MicrosoftSignInTestResult,
  microsoftSignInSettingsBody,
} from '../../../shared/schemas/microsoft-sign-in';
import { usernameField } from '../../../shared/schemas/users';
import {
  CLIENT_ASSERTION_TYPE,
  clientAssertion,
  describeCertificate,
  refuseUnusableCertificate,
} from '../../auth/client-certificate';
import type { AppContext } from '../../context';
import { decryptSecret, deriveKey, encryptSecret, randomToken, sha256 } from '../../crypto';
import type { Queryable } from '../../db/client';
import {
  microsoftIdentities,
  microsoftInvitations,
  microsoftSignInRequests,
  microsoftSignInSettings,
  sessions,
  users,
} from '../../db/schema';
import { AppError, badRequest, isUniqueViolation, notFound } from '../../errors';
import { microsoftIdentityMessage } from '../../mail/account-message';
import { type ChangeBy, type ChangeEntry, recordChanges } from '../history/record';
import { sendMail } from '../reminders/service';
import { accountValues, findUserById, STAFF_ROLE, type UserRow, usernameKeys } from '../users/service';
import {
  CLOCK_TOLERANCE_SECONDS,
  type Discovered,
  DiscoveryError,
  isLoopback,
  lookUpDirectory,
  type MicrosoftSignInConfig,
} from './discovery';

/** How long the browser has between leaving for Microsoft and coming back. */
export const SIGN_IN_REQUEST_MS = 10 * 60 * 1000;
export const INVITATION_MS = 7 * 24 * 60 * 60 * 1000;
export const CALLBACK_PATH = '/api/auth/microsoft/callback';

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

type SettingsRow = typeof microsoftSignInSettings.$inferSelect;

const settingsKey = (appSecret: string) => deriveKey(appSecret, 'microsoft-sign-in-settings');

/**
 * Where the stored client secret may be used: the directory and the application it was typed for. It
 * is the GCM associated data of the sealed secret (ADR 0010), so it opens for nothing else.
 */
export function signInSecretDestination(tenantId: string, clientId: string): string {
  return JSON.stringify(['microsoft-sign-in', tenantId.toLowerCase(), clientId.toLowerCase()]);
}

async function readSettingsRow(db: Queryable, lock = false): Promise<SettingsRow | undefined> {
  const query = db.select().from(microsoftSignInSettings).where(eq(microsoftSignInSettings.id, 1));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

function authorityOf(ctx: AppContext): string {
  return (ctx.config.ENTRA_AUTHORITY_HOST ?? ctx.config.AUTHORITY_HOST).replace(/\/+$/, '');
}

/** Everything the card and the sign-in need: what is in force and where each part comes from. */
interface ResolvedSettings {
  row: SettingsRow | undefined;
  config: MicrosoftSignInConfig | null;
  tenant: string;
  clientId: string;
  hasClientSecret: boolean;
  clientSecretUnreadable: boolean;
  /** the stored certificate (PEM, public), also when its key no longer opens */
  certificatePem: string;
  clientCertificateUnreadable: boolean;
  staffRole: string;
  /** facilitators linked through an invitation may sign in with Microsoft */
  facilitatorSignIn: boolean;
  connectionSource: 'environment' | 'settings';
  staffRoleSource: 'environment' | 'settings';
}

/**
 * The configuration in force. The environment's tenant, client and secret (set together) win over
 * the stored ones, and ENTRA_STAFF_ROLE over the stored role: an operator's setting cannot be
 * changed from a web page.
 */
async function resolveSettings(ctx: AppContext, db: Queryable = ctx.db): Promise<ResolvedSettings> {
  const row = await readSettingsRow(db);
  const {
    ENTRA_TENANT_ID,
    ENTRA_CLIENT_ID,
    ENTRA_CLIENT_SECRET,
    ENTRA_CLIENT_CERTIFICATE,
    ENTRA_STAFF_ROLE,
    PUBLIC_URL,
  } = ctx.config;
  const fromEnvironment = Boolean(ENTRA_TENANT_ID);
  let tenant = '';
  let clientId = '';
  let clientSecret = '';
  let clientSecretUnreadable = false;
  let certificatePem = '';
  let privateKeyPem = '';
  let clientCertificateUnreadable = false;
  if (fromEnvironment) {
    tenant = ENTRA_TENANT_ID ?? '';
    clientId = ENTRA_CLIENT_ID ?? '';
    clientSecret = ENTRA_CLIENT_SECRET ?? '';
    // read and checked at start from ENTRA_CLIENT_CERTIFICATE_FILE and ENTRA_CLIENT_KEY_FILE
    certificatePem = ENTRA_CLIENT_CERTIFICATE?.certificatePem ?? '';
    privateKeyPem = ENTRA_CLIENT_CERTIFICATE?.privateKeyPem ?? '';
  } else if (row) {
    tenant = row.tenantId;
    clientId = row.clientId;
    if (row.clientSecretEncrypted) {
      try {
        clientSecret = decryptSecret(
          settingsKey(ctx.appSecret),
          row.clientSecretEncrypted,
          signInSecretDestination(tenant, clientId),
        );
      } catch {
        // APP_SECRET changed or the row was edited: unusable, so Microsoft sign-in is off until the
        // secret is entered again (and staff passwords are back)
        clientSecretUnreadable = true;
      }
    }
    if (row.clientCertificate && row.clientCertificateKeyEncrypted) {
      certificatePem = row.clientCertificate;
      try {
        privateKeyPem = decryptSecret(
          settingsKey(ctx.appSecret),
          row.clientCertificateKeyEncrypted,
          signInSecretDestination(tenant, clientId),
        );
      } catch {
        // as for the secret: the pair must be entered again
        clientCertificateUnreadable = true;
      }
    }
  }
  const certificate = privateKeyPem ? { certificatePem, privateKeyPem } : null;
  const staffRole = ENTRA_STAFF_ROLE ?? row?.staffRole ?? '';
  const config =
    tenant && clientId && (clientSecret || certificate) && PUBLIC_URL
      ? {
          tenant,
          clientId,
          clientSecret: certificate ? '' : clientSecret,
          certificate,
          authority: authorityOf(ctx),
          redirectUri: `${PUBLIC_URL}${CALLBACK_PATH}`,
          staffRole,
        }
      : null;
  return {
    row,
    config,
    tenant,
    clientId,
    hasClientSecret: Boolean(clientSecret) || clientSecretUnreadable,
    clientSecretUnreadable,
    certificatePem,
    clientCertificateUnreadable,
    staffRole,
    facilitatorSignIn: row?.facilitatorSignIn ?? false,
    connectionSource: fromEnvironment ? 'environment' : 'settings',
    staffRoleSource: ENTRA_STAFF_ROLE ? 'environment' : 'settings',
  };
}

/** The configuration in force, or null when Microsoft sign-in is not (completely) configured. */
export async function signInConfig(ctx: AppContext): Promise<MicrosoftSignInConfig | null> {
  return (await resolveSettings(ctx)).config;
}

/**
 * The client for one request. Discovery is fetched once per app and configuration (and again after
 * a failure); the client is rebuilt per request so token checks keep time by the app's clock.
 */
async function clientFor(
  ctx: AppContext,
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
  ctx: AppContext,
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

function requestKey(ctx: AppContext, browserKey: string): Buffer {
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
  ctx: AppContext,
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
  ctx: AppContext,
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
  ctx: AppContext,
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

/**
 * Email the account's owner, at the account's address, that another person's action changed which
 * Microsoft account signs in to it: linked through someone else's invitation, replaced, or removed. A
 * change they did not expect means someone else may sign in as them, or they were shut out. A
 * failure to send is logged; the history has the change either way.
 */
async function tellOwner(
  ctx: AppContext,
  user: UserRow,
  event: 'linked' | 'replaced' | 'unlinked',
  microsoftAccount: string | null,
  byId: number | null,
): Promise<void> {
  const by = byId ? await findUserById(ctx.db, byId) : undefined;
  const outcome = await sendMail(ctx, [
    {
      key: event,
      to: user.email,
      build: (portalUrl) =>
        microsoftIdentityMessage({
          event,
          name: user.displayName?.trim() || user.username,
          microsoftAccount,
          by: by ? by.displayName?.trim() || by.username : 'a staff member',
          signInLink: `${portalUrl}${user.role === STAFF_ROLE ? '/staff-login' : '/auth'}`,
        }),
    },
  ]);
  const failure = outcome.get(event);
  if (failure)
    ctx.log.warn(
      { userId: user.id, event, reason: failure },
      'could not email a change of Microsoft sign-in',
    );
}

/**
 * A staff account for a Microsoft identity that holds the staff app role, linked to it. Never found
 * or joined by email: an account whose username or email matches the token's is left alone, and the
 * new account gets a username of its own. It has no password; it signs in with Microsoft.
 */
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

export async function signInStatus(ctx: AppContext): Promise<MicrosoftSignInStatus> {
  const resolved = await resolveSettings(ctx);
  return {
    enabled: resolved.config !== null,
    staffPasswordSignIn: passwordsAllowed(resolved),
    facilitatorSignIn: resolved.config !== null && resolved.facilitatorSignIn,
  };
}

function passwordsAllowed(resolved: ResolvedSettings): boolean {
  if (!resolved.config) return true;
  return resolved.row?.staffPasswordSignIn ?? true;
}

/**
 * Whether staff may still sign in with a password. Only off while Microsoft sign-in is configured:
 * removing the configuration brings passwords back rather than locking every staff member out.
 */
export async function staffPasswordSignInAllowed(ctx: AppContext): Promise<boolean> {
  return passwordsAllowed(await resolveSettings(ctx));
}

export const STAFF_PASSWORD_OFF_MESSAGE =
  'Staff at this organisation sign in with Microsoft. Use "Sign in with Microsoft" on the staff login page.';

export async function getSignInSettings(
  ctx: AppContext,
  me: UserRow,
  saved: { clientSecretCleared?: boolean; clientCertificateCleared?: boolean } = {},
): Promise<MicrosoftSignInSettings> {
  const resolved = await resolveSettings(ctx);
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
    configured: resolved.config !== null,
    connectionSource: resolved.connectionSource,
    staffRoleSource: resolved.staffRoleSource,
    publicUrlSet: Boolean(ctx.config.PUBLIC_URL),
    tenantId: resolved.tenant,
    clientId: resolved.clientId,
    hasClientSecret: resolved.hasClientSecret,
    clientSecretUnreadable: resolved.clientSecretUnreadable,
    clientSecretCleared: saved.clientSecretCleared ?? false,
    hasClientCertificate: Boolean(resolved.certificatePem),
    clientCertificate: resolved.certificatePem
      ? describeCertificate(resolved.certificatePem, ctx.now())
      : null,
    clientCertificateUnreadable: resolved.clientCertificateUnreadable,
    clientCertificateCleared: saved.clientCertificateCleared ?? false,
    redirectUri: ctx.config.PUBLIC_URL ? `${ctx.config.PUBLIC_URL}${CALLBACK_PATH}` : '',
    staffRole: resolved.staffRole,
    staffPasswordSignIn: passwordsAllowed(resolved),
    createStaffFromRole: resolved.row?.createStaffFromRole ?? false,
    facilitatorSignIn: resolved.facilitatorSignIn,
    linkedStaff: linked?.n ?? 0,
    youAreLinked: Boolean(mine),
  };
}

/** What the history keeps of the settings: plain values, never the secret. */
function historyValues(
  row: Pick<
    SettingsRow,
    | 'tenantId'
    | 'clientId'
    | 'staffRole'
    | 'staffPasswordSignIn'
    | 'createStaffFromRole'
    | 'facilitatorSignIn'
  >,
) {
  return {
    microsoftSignIn: true,
    tenantId: row.tenantId,
    clientId: row.clientId,
    staffRole: row.staffRole,
    staffPasswordSignIn: row.staffPasswordSignIn,
    createStaffFromRole: row.createStaffFromRole,
    facilitatorSignIn: row.facilitatorSignIn,
  };
}

const NO_SETTINGS = {
  tenantId: '',
  clientId: '',
  staffRole: '',
  staffPasswordSignIn: true,
  createStaffFromRole: false,
  facilitatorSignIn: false,
};

/**
 * Save the card. Tenant, client and secret are refused while the environment sets them, as the role
 * while ENTRA_STAFF_ROLE does. A blank secret keeps the stored one only for the same tenant and
 * client; otherwise it is cleared and the answer says so. Passwords go off only while Microsoft
 * sign-in is configured and the staff member asking has a linked identity: whoever switches them off
 * can still get in.
 */
export async function saveSignInSettings(
  ctx: AppContext,
  me: UserRow,
  body: MicrosoftSignInSettingsBody,
  by?: ChangeBy,
): Promise<MicrosoftSignInSettings> {
  const data = microsoftSignInSettingsBody.parse(body);
  const env = ctx.config;
  const refused: Record<string, string[]> = {};
  if (env.ENTRA_TENANT_ID) {
    if (data.tenantId !== undefined && data.tenantId.toLowerCase() !== env.ENTRA_TENANT_ID.toLowerCase())
      refused.tenantId = ['Set by ENTRA_TENANT_ID on the server'];
    if (
      data.clientId !== undefined &&
      data.clientId.toLowerCase() !== (env.ENTRA_CLIENT_ID ?? '').toLowerCase()
    )
      refused.clientId = ['Set by ENTRA_CLIENT_ID on the server'];
    if (data.clientSecret) refused.clientSecret = ['Set by ENTRA_CLIENT_SECRET on the server'];
    if (data.clientCertificate || data.clientCertificateKey)
      refused.clientCertificate = [
        'The application is set by ENTRA_TENANT_ID and ENTRA_CLIENT_ID on the server',
      ];
  }
  if (env.ENTRA_STAFF_ROLE && data.staffRole !== undefined && data.staffRole !== env.ENTRA_STAFF_ROLE) {
    refused.staffRole = ['Set by ENTRA_STAFF_ROLE on the server'];
  }
  if (Object.keys(refused).length > 0) {
    throw badRequest(
      "These settings come from the server's environment and cannot be changed here.",
      refused,
    );
  }

  refuseUnusableCertificate(data.clientCertificate, data.clientCertificateKey, ctx.now());

  const key = settingsKey(ctx.appSecret);
  const cleared = await ctx.db.transaction(async (tx) => {
    const existing = await readSettingsRow(tx, true);
    const keepConnection = Boolean(env.ENTRA_TENANT_ID);
    const tenantId = keepConnection
      ? (existing?.tenantId ?? '')
      : (data.tenantId ?? existing?.tenantId ?? '');
    const clientId = keepConnection
      ? (existing?.clientId ?? '')
      : (data.clientId ?? existing?.clientId ?? '');
    const staffRole = env.ENTRA_STAFF_ROLE
      ? (existing?.staffRole ?? '')
      : (data.staffRole ?? existing?.staffRole ?? '');
    const destination = signInSecretDestination(tenantId, clientId);

    let clientSecretEncrypted: string | null = existing?.clientSecretEncrypted ?? null;
    if (!keepConnection) {
      if (data.clientSecret) {
        if (!tenantId || !clientId) {
          throw badRequest(
            'Enter the directory (tenant) ID and the application (client) ID with the secret.',
            {
              clientSecret: ['Enter the tenant and client IDs first'],
            },
          );
        }
        clientSecretEncrypted = encryptSecret(key, data.clientSecret, destination);
      } else if (
        !existing ||
        !tenantId ||
        !clientId ||
        signInSecretDestination(existing.tenantId, existing.clientId) !== destination
      ) {
        // a secret is sent only to the application and directory it was typed for
        clientSecretEncrypted = null;
      }
    }
    const secretCleared = Boolean(existing?.clientSecretEncrypted) && !clientSecretEncrypted;

    // The certificate travels with its key, under the same binding as the secret.
    let clientCertificate = existing?.clientCertificate ?? null;
    let clientCertificateKeyEncrypted = existing?.clientCertificateKeyEncrypted ?? null;
    if (!keepConnection) {
      if (data.clientCertificate) {
        if (!tenantId || !clientId) {
          throw badRequest(
            'Enter the directory (tenant) ID and the application (client) ID with the certificate.',
            {
              clientCertificate: ['Enter the tenant and client IDs first'],
            },
          );
        }
        clientCertificate = data.clientCertificate;
        clientCertificateKeyEncrypted = encryptSecret(key, data.clientCertificateKey, destination);
      } else if (
        data.removeClientCertificate ||
        !existing ||
        !tenantId ||
        !clientId ||
        signInSecretDestination(existing.tenantId, existing.clientId) !== destination
      ) {
        clientCertificate = null;
        clientCertificateKeyEncrypted = null;
      }
    }
    const certificateRemoved =
      Boolean(existing?.clientCertificateKeyEncrypted) && !clientCertificateKeyEncrypted;
    const certificateCleared = certificateRemoved && !data.removeClientCertificate;

    if (!data.staffPasswordSignIn) {
      const configuredAfter =
        Boolean(env.PUBLIC_URL) &&
        (keepConnection ||
          Boolean(tenantId && clientId && (clientSecretEncrypted || clientCertificateKeyEncrypted)));
      if (!configuredAfter) {
        throw badRequest('Microsoft sign-in is not configured, so staff passwords must stay on.', {
          staffPasswordSignIn: ['Configure Sign in with Microsoft first'],
        });
      }
      const [mine] = await tx
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

    const createStaffFromRole = data.createStaffFromRole ?? existing?.createStaffFromRole ?? false;
    if (createStaffFromRole && !(env.ENTRA_STAFF_ROLE ?? staffRole)) {
      throw badRequest('Name the staff app role first: accounts are only created for people who hold it.', {
        createStaffFromRole: ['Enter the staff app role first'],
      });
    }

    const facilitatorSignIn = data.facilitatorSignIn ?? existing?.facilitatorSignIn ?? false;
    if (existing?.facilitatorSignIn && !facilitatorSignIn) {
      // turned off: the sessions facilitators opened with Microsoft end now, not at their next sign-in
      await tx
        .delete(sessions)
        .where(
          and(
            eq(sessions.signedInWithMicrosoft, true),
            inArray(
              sessions.userId,
              tx.select({ id: users.id }).from(users).where(ne(users.role, STAFF_ROLE)),
            ),
          ),
        );
    }

    const values = {
      staffPasswordSignIn: data.staffPasswordSignIn,
      createStaffFromRole,
      facilitatorSignIn,
      tenantId,
      clientId,
      clientSecretEncrypted,
      clientCertificate,
      clientCertificateKeyEncrypted,
      staffRole,
      updatedAt: ctx.now(),
    };
    await tx
      .insert(microsoftSignInSettings)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: microsoftSignInSettings.id, set: values });
    if (by) {
      const before = historyValues(existing ?? NO_SETTINGS);
      const after = historyValues(values);
      const secret = data.clientSecret && !keepConnection ? 'changed' : secretCleared ? 'cleared' : null;
      const certificate =
        data.clientCertificate && !keepConnection ? 'changed' : certificateRemoved ? 'cleared' : null;
      if (JSON.stringify(before) !== JSON.stringify(after) || secret || certificate) {
        await recordChanges(tx, [
          {
            entity: 'settings',
            action: existing ? 'update' : 'create',
            subjectUserId: null,
            actorId: by.actorId,
            via: by.via,
            before: existing ? before : null,
            after: {
              ...after,
              ...(secret ? { clientSecret: secret } : {}),
              ...(certificate ? { clientCertificate: certificate } : {}),
            },
          },
        ]);
      }
    }
    return { clientSecretCleared: secretCleared, clientCertificateCleared: certificateCleared };
  });
  // the next sign-in discovers the directory afresh
  ctx.signInDiscovery.clear();
  return getSignInSettings(ctx, me, cleared);
}

/**
 * Try the typed directory against the identity provider: fetch its discovery document and check the
 * issuer it names. Never throws for a failure; the message names a category, never the answer.
 */
export async function testSignInSettings(
  ctx: AppContext,
  tenant: string,
): Promise<MicrosoftSignInTestResult> {
  try {
    const { tenantId } = await lookUpDirectory(authorityOf(ctx), tenant);
    return {
      success: true,
      message: `Microsoft answered for the directory ${tenantId}. The client ID and its secret or certificate are checked at the first sign-in.`,
    };
  } catch (error) {
    const kind = error instanceof DiscoveryError ? error.kind : 'unreachable';
    const messages: Record<DiscoveryError['kind'], string> = {
      not_found:
        "Microsoft does not know this directory: check the directory (tenant) ID on the app registration's Overview page.",
      unreachable:
        'Could not reach Microsoft sign-in from the server. Check its internet access and try again.',
      wrong_issuer:
        'Microsoft answered for another directory than the one entered: use the directory (tenant) ID from the app registration.',
      foreign_endpoint:
        "The directory's sign-in addresses are not all on the sign-in authority's own host, so the portal will not use them. Check AUTHORITY_HOST (or ENTRA_AUTHORITY_HOST) and any proxy in between.",
      invalid: 'Microsoft sign-in gave an answer the portal cannot use.',
    };
    return { success: false, message: messages[kind] };
  }
}

export const ALREADY_LINKED_MESSAGE =
  'This account is already linked to a Microsoft account. To link another one in its place, create an invitation that replaces it: the person is told by email when it is used.';

/**
 * A single-use link that lets the person who opens it link their Microsoft identity to the account.
 * An account already linked is only invited with `replaceIdentity`, staff's explicit choice to let
 * the link replace that identity. Recorded in the history: by whom, for whom.
 */
export async function createInvitation(
  ctx: AppContext,
  userId: number,
  createdBy: number,
  options: { replaceIdentity: boolean } = { replaceIdentity: false },
): Promise<MicrosoftInvitation> {
  const resolved = await resolveSettings(ctx);
  if (!resolved.config) throw new AppError(409, 'Microsoft sign-in is not configured.');
  const user = await findUserById(ctx.db, userId);
  if (!user) throw notFound('User not found');
  const forStaff = user.role === STAFF_ROLE;
  if (!forStaff && !resolved.facilitatorSignIn) {
    throw new AppError(
      409,
      'Facilitators cannot sign in with Microsoft yet: turn on "Let facilitators sign in with Microsoft" in Settings first.',
    );
  }
  const token = randomToken(32);
  const expiresAt = new Date(ctx.now().getTime() + INVITATION_MS);
  await ctx.db.transaction(async (tx) => {
    const [linked] = await tx
      .select()
      .from(microsoftIdentities)
      .where(eq(microsoftIdentities.userId, userId))
      .for('update');
    if (linked && !options.replaceIdentity) throw new AppError(409, ALREADY_LINKED_MESSAGE);
    const values = {
      tokenHash: sha256(token),
      createdBy,
      expiresAt,
      createdAt: ctx.now(),
      replacesIdentity: options.replaceIdentity,
    };
    // one open invitation per account: a new link replaces the last one
    await tx
      .insert(microsoftInvitations)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: microsoftInvitations.userId, set: values });
    await recordChanges(tx, [
      identityChange(userId, { actorId: createdBy, via: 'staff' }, 'invited', {
        before: { microsoftAccount: describeIdentity(linked) },
        after: {
          microsoftAccount: describeIdentity(linked),
          invitationValidUntil: expiresAt.toISOString(),
          ...(options.replaceIdentity ? { replacesLinkedAccount: true } : {}),
        },
      }),
    ]);
  });
  // Each opens on the login page its person knows: facilitators sign in at /auth. The token is in the
  // fragment, which the browser keeps to itself: no request, proxy log or Referer carries it.
  const link = new URL(`${ctx.config.PUBLIC_URL}${forStaff ? '/staff-login' : '/auth'}`);
  link.hash = new URLSearchParams({ invitation: token }).toString();
  return { link: link.toString(), expiresAt: expiresAt.toISOString() };
}

/**
 * Remove the account's Microsoft identity and any open invitation, and end the sessions a Microsoft
 * sign-in opened for it: whoever held that identity is out at once. Recorded in the history.
 */
export async function unlinkIdentity(ctx: AppContext, userId: number, by: ChangeBy): Promise<void> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw notFound('User not found');
  const removed = await ctx.db.transaction(async (tx) => {
    const [identity] = await tx
      .delete(microsoftIdentities)
      .where(eq(microsoftIdentities.userId, userId))
      .returning();
    const [invitation] = await tx
      .delete(microsoftInvitations)
      .where(eq(microsoftInvitations.userId, userId))
      .returning();
    await endMicrosoftSessions(tx, [userId]);
    if (!identity && !invitation) return null;
    await recordChanges(tx, [
      identityChange(userId, by, 'unlinked', {
        before: {
          microsoftAccount: describeIdentity(identity),
          ...(invitation ? { invitationValidUntil: invitation.expiresAt.toISOString() } : {}),
        },
        after: { microsoftAccount: null, ...(invitation ? { invitationValidUntil: null } : {}) },
      }),
    ]);
    return identity ?? null;
  });
  if (removed && by.actorId !== userId)
    await tellOwner(ctx, user, 'unlinked', describeIdentity(removed), by.actorId);
}

/** Ends the sessions Microsoft sign-ins opened for these accounts (their password sessions stay). */
async function endMicrosoftSessions(db: Queryable, userIds: number[]): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .delete(sessions)
    .where(and(inArray(sessions.userId, userIds), eq(sessions.signedInWithMicrosoft, true)));
}

type IdentityRow = typeof microsoftIdentities.$inferSelect;

/** An identity as the history shows it: the sign-in name people recognise, and its object id. */
function describeIdentity(
  identity: Pick<IdentityRow, 'signInName' | 'objectId'> | undefined | null,
): string | null {
  if (!identity) return null;
  return identity.signInName ? `${identity.signInName} (${identity.objectId})` : identity.objectId;
}

/**
 * A change of the account's link to Microsoft, in the account's history: `event` says which (invited,
 * linked, replaced, unlinked); the values are the Microsoft account before and after, never a token.
 */
function identityChange(
  userId: number,
  by: ChangeBy,
  event: 'invited' | 'linked' | 'replaced' | 'unlinked',
  values: { before: Record<string, unknown>; after: Record<string, unknown> },
): ChangeEntry {
  return {
    entity: 'account',
    action: 'update',
    subjectUserId: userId,
    actorId: by.actorId,
    via: by.via,
    before: { section: 'microsoft-sign-in', ...values.before },
    after: { section: 'microsoft-sign-in', event, ...values.after },
  };
}

/** Where "sign out of Microsoft too" sends the browser, or null when sign-in is not configured. */
export async function microsoftSignOutUrl(ctx: AppContext): Promise<URL | null> {
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

/** The accounts linked to a Microsoft identity, for the Users page. */
export async function listLinkedAccounts(ctx: AppContext): Promise<MicrosoftLinkedAccounts> {
  const rows = await ctx.db
    .select({ userId: microsoftIdentities.userId, lastSignInAt: microsoftIdentities.lastSignInAt })
    .from(microsoftIdentities)
    .orderBy(microsoftIdentities.userId);
  return {
    users: rows.map((row) => ({ userId: row.userId, lastSignInAt: row.lastSignInAt?.toISOString() ?? null })),
  };
}
