/**
 * Passkeys: WebAuthn credentials that sign an account in without a password. The protocol is
 * @simplewebauthn/server's; this module keeps the credentials, the challenges (single use, a few
 * minutes, in the database so any instance finishes a ceremony another began) and the history.
 *
 * The relying party is PUBLIC_URL's host and its origin PUBLIC_URL's origin: a passkey made for
 * another site, or an assertion made on another origin, is refused. Without PUBLIC_URL there are no
 * passkeys.
 */
import type {
  AddPasskeyBody,
  PasskeySignInBody,
  PasskeySummary,
  SignInPolicy,
} from '@shared/schemas/passkeys';
import { addPasskeyBody, authenticationResponseJson, passkeySignInBody } from '@shared/schemas/passkeys';
import {
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { and, asc, count, eq, lt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { SessionStore } from '../../auth/sessions';
import type { LoginThrottle } from '../../auth/throttle';
import type { Config } from '../../config';
import { randomToken, sha256 } from '../../crypto';
import type { Db, Queryable } from '../../db/client';
import { microsoftIdentities, passkeys, signInPolicy, users, webauthnChallenges } from '../../db/schema';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors';
import { type ChangeBy, recordChanges } from '../history/record';
import { signInConfig } from '../microsoft-sign-in/settings';
import { accountValues, STAFF_ROLE, type UserRow } from '../users/service';

/** What passkeys use: the configuration (PUBLIC_URL), the database, the clock, sessions and the throttle. */
export interface PasskeyDeps {
  config: Config;
  db: Db;
  appSecret: string;
  now: () => Date;
  sessions: SessionStore;
  loginThrottle: LoginThrottle;
  log: FastifyBaseLogger;
}

/** How long a ceremony may take, from the options to the answer. */
export const CHALLENGE_LIFETIME_MS = 5 * 60 * 1000;
/** Passkeys one account may hold. */
export const MAX_PASSKEYS = 20;

export const PASSKEYS_OFF_MESSAGE =
  'Passkeys are not available: the server has no PUBLIC_URL. Ask your administrator.';
export const PASSKEY_SIGN_IN_FAILED = 'That passkey could not sign you in. Try again or use your password.';
export const STAFF_PASSKEY_SIGN_IN_FAILED = 'Invalid credentials';
export const STAFF_STRONG_SIGN_IN_MESSAGE =
  'Staff at this organisation sign in with a passkey or with Microsoft. Use "Sign in with a passkey" or "Sign in with Microsoft".';

export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

/** The relying party: PUBLIC_URL's host and origin; null without PUBLIC_URL. */
export function relyingParty(config: Pick<Config, 'PUBLIC_URL'>): RelyingParty | null {
  if (!config.PUBLIC_URL) return null;
  const url = new URL(config.PUBLIC_URL);
  return { id: url.hostname, origin: url.origin, name: 'Arts Facilitator Portal' };
}

function requireRelyingParty(ctx: Pick<PasskeyDeps, 'config'>): RelyingParty {
  const rp = relyingParty(ctx.config);
  if (!rp) throw conflict(PASSKEYS_OFF_MESSAGE);
  return rp;
}

type Purpose = 'registration' | 'authentication';

/** Keep a challenge for one ceremony; expired ones of any ceremony are cleared on the way. */
async function keepChallenge(ctx: PasskeyDeps, challenge: string, purpose: Purpose, userId: number | null) {
  const at = ctx.now();
  await ctx.db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, at));
  await ctx.db.insert(webauthnChallenges).values({
    challengeHash: sha256(challenge),
    purpose,
    userId,
    createdAt: at,
    expiresAt: new Date(at.getTime() + CHALLENGE_LIFETIME_MS),
  });
}

/** The challenge the browser signed, from its client data; '' when unreadable. */
function challengeOf(clientDataJSON: string): string {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as {
      challenge?: unknown;
    };
    return typeof data.challenge === 'string' ? data.challenge : '';
  } catch {
    return '';
  }
}

/**
 * Claim a challenge: it is deleted as it is read, so of two answers with the same challenge, on any
 * instances, one gets it. True when it was live, of this purpose and (for a registration) this account's.
 */
async function claimChallenge(
  db: Queryable,
  challenge: string,
  purpose: Purpose,
  userId: number | null,
  at: Date,
): Promise<boolean> {
  if (!challenge) return false;
  const [claimed] = await db
    .delete(webauthnChallenges)
    .where(eq(webauthnChallenges.challengeHash, sha256(challenge)))
    .returning();
  return Boolean(
    claimed && claimed.purpose === purpose && claimed.userId === userId && claimed.expiresAt > at,
  );
}

const summary = (row: typeof passkeys.$inferSelect): PasskeySummary => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

export async function listPasskeys(db: Queryable, userId: number): Promise<PasskeySummary[]> {
  const rows = await db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.id));
  return rows.map(summary);
}

/** The WebAuthn user handle of an account: random-looking, and no name or email in it. */
function userHandle(appSecret: string, userId: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(sha256(`${appSecret}:passkey-user:${userId}`), 'hex'));
}

/** Options for adding a passkey to the signed-in account (its passkeys excluded: no duplicates). */
export async function registrationOptions(ctx: PasskeyDeps, user: UserRow): Promise<Record<string, unknown>> {
  const rp = requireRelyingParty(ctx);
  const existing = await ctx.db
    .select({ credentialId: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, user.id));
  if (existing.length >= MAX_PASSKEYS) {
    throw conflict(`An account can hold at most ${MAX_PASSKEYS} passkeys. Remove one first.`);
  }
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.username,
    userID: userHandle(ctx.appSecret, user.id),
    userDisplayName: user.displayName?.trim() || user.username,
    challenge: randomToken(32),
    timeout: CHALLENGE_LIFETIME_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({
      id: row.credentialId,
      transports: row.transports as AuthenticatorTransport[],
    })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  await keepChallenge(ctx, options.challenge, 'registration', user.id);
  return { ...options };
}

const refusedPasskey = (reason: string) =>
  badRequest(`The passkey could not be added: ${reason}`, { response: [reason] });

/** Verify the browser's new credential and keep it, named; recorded in the history. */
export async function addPasskey(
  ctx: PasskeyDeps,
  user: UserRow,
  input: AddPasskeyBody,
  via: ChangeBy['via'],
): Promise<PasskeySummary> {
  const rp = requireRelyingParty(ctx);
  const body = addPasskeyBody.parse(input);
  const challenge = challengeOf(body.response.response.clientDataJSON);
  if (!(await claimChallenge(ctx.db, challenge, 'registration', user.id, ctx.now()))) {
    throw refusedPasskey('the request expired or was already used. Try again.');
  }
  let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verification = await verifyRegistrationResponse({
      response: body.response as Parameters<typeof verifyRegistrationResponse>[0]['response'],
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch (error) {
    ctx.log.info({ userId: user.id, reason: (error as Error).message }, 'passkey registration refused');
    throw refusedPasskey('your device gave an answer the portal cannot accept.');
  }
  if (!verification.verified) throw refusedPasskey('your device gave an answer the portal cannot accept.');
  const { credential, credentialBackedUp } = verification.registrationInfo;
  const at = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const [held] = await tx.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, user.id));
    if ((held?.n ?? 0) >= MAX_PASSKEYS) {
      throw conflict(`An account can hold at most ${MAX_PASSKEYS} passkeys. Remove one first.`);
    }
    const [row] = await tx
      .insert(passkeys)
      .values({
        credentialId: credential.id,
        userId: user.id,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports ?? [],
        name: body.name,
        rpId: rp.id,
        backedUp: credentialBackedUp,
        createdAt: at,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw conflict('This passkey is already registered.');
    await recordPasskeyChange(tx, user, { actorId: user.id, via }, 'passkey-added', row.name);
    return summary(row);
  });
}

async function recordPasskeyChange(
  tx: Queryable,
  user: UserRow,
  by: ChangeBy,
  event: 'passkey-added' | 'passkey-renamed' | 'passkey-removed' | 'passkey-sign-in',
  name: string,
  /** a renamed passkey's name before */
  previousName?: string,
) {
  const values = accountValues(user);
  await recordChanges(tx, [
    {
      entity: 'account',
      action: 'update',
      subjectUserId: user.id,
      actorId: by.actorId,
      via: by.via,
      before: previousName === undefined ? values : { ...values, section: 'passkeys', passkey: previousName },
      after: { ...values, section: 'passkeys', event, passkey: name },
    },
  ]);
}

async function ownPasskey(db: Queryable, user: UserRow, id: number) {
  const [row] = await db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, user.id)));
  // another account's passkey is as unknown as none
  if (!row) throw notFound('Passkey not found');
  return row;
}

export async function renamePasskey(
  ctx: Pick<PasskeyDeps, 'db'>,
  user: UserRow,
  id: number,
  name: string,
  via: ChangeBy['via'],
): Promise<PasskeySummary> {
  return ctx.db.transaction(async (tx) => {
    const row = await ownPasskey(tx, user, id);
    if (row.name === name) return summary(row);
    const [updated] = await tx.update(passkeys).set({ name }).where(eq(passkeys.id, id)).returning();
    await recordPasskeyChange(tx, user, { actorId: user.id, via }, 'passkey-renamed', name, row.name);
    return summary(updated!);
  });
}

/** Remove a passkey: it signs nobody in from now on. */
export async function removePasskey(
  ctx: Pick<PasskeyDeps, 'db'>,
  user: UserRow,
  id: number,
  via: ChangeBy['via'],
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const row = await ownPasskey(tx, user, id);
    await tx.delete(passkeys).where(eq(passkeys.id, id));
    await recordPasskeyChange(tx, user, { actorId: user.id, via }, 'passkey-removed', row.name);
  });
}

/** Options for signing in with any passkey of this site (the browser offers the ones it holds). */
export async function authenticationOptions(ctx: PasskeyDeps): Promise<Record<string, unknown>> {
  const rp = requireRelyingParty(ctx);
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    challenge: randomToken(32),
    timeout: CHALLENGE_LIFETIME_MS,
    userVerification: 'required',
  });
  await keepChallenge(ctx, options.challenge, 'authentication', null);
  return { ...options };
}

/**
 * Sign in with a passkey: the same session as a password sign-in, under the same failure limits
 * (counted against the passkey's account and the address before the signature is checked). On the
 * staff page only staff accounts sign in.
 */
export async function signInWithPasskey(
  ctx: PasskeyDeps,
  input: PasskeySignInBody & { address: string; previousToken: string | null },
): Promise<{ user: UserRow; token: string; expiresAt: Date }> {
  const rp = requireRelyingParty(ctx);
  const body = passkeySignInBody.parse({ response: input.response, page: input.page });
  const staffOnly = body.page === 'staff';
  const failure = () => new AppError(401, staffOnly ? STAFF_PASSKEY_SIGN_IN_FAILED : PASSKEY_SIGN_IN_FAILED);
  const response = authenticationResponseJson.parse(body.response);
  const challenge = challengeOf(response.response.clientDataJSON);
  const [found] = await ctx.db
    .select({ passkey: passkeys, user: users })
    .from(passkeys)
    .innerJoin(users, eq(users.id, passkeys.userId))
    .where(eq(passkeys.credentialId, response.id));
  // an unknown passkey counts against the address only (as an unknown username does)
  const account = found?.user.username ?? `passkey:${response.id.slice(0, 64)}`;
  const wait = await ctx.loginThrottle.begin(account, input.address);
  if (wait > 0) {
    const minutes = Math.ceil(wait / 60);
    throw new AppError(
      429,
      `Too many failed sign-in attempts. Try again in ${minutes <= 1 ? 'a minute' : `${minutes} minutes`}.`,
      undefined,
      { 'retry-after': String(wait) },
    );
  }
  const live = await claimChallenge(ctx.db, challenge, 'authentication', null, ctx.now());
  if (!found || !live) throw failure();
  const { passkey, user } = found;
  // made for another host (PUBLIC_URL has moved since): it cannot be this site's
  if (passkey.rpId !== rp.id) throw failure();
  let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verification = await verifyAuthenticationResponse({
      response: response as Parameters<typeof verifyAuthenticationResponse>[0]['response'],
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        counter: passkey.counter,
        transports: passkey.transports as AuthenticatorTransport[],
      },
      requireUserVerification: true,
    });
  } catch (error) {
    ctx.log.info({ userId: user.id, reason: (error as Error).message }, 'passkey sign-in refused');
    throw failure();
  }
  if (!verification.verified) throw failure();
  if (staffOnly && user.role !== STAFF_ROLE) throw failure();
  // a leaver's passkey still verifies; the account is refused, as at password sign-in
  if (user.deactivatedAt) throw forbidden(PASSKEY_DEACTIVATED_MESSAGE);
  await ctx.loginThrottle.succeeded(account, input.address);
  const at = ctx.now();
  // the counter moves on atomically: an assertion replayed with an old counter loses
  const [moved] = await ctx.db
    .update(passkeys)
    .set({ counter: verification.authenticationInfo.newCounter, lastUsedAt: at })
    .where(
      and(
        eq(passkeys.id, passkey.id),
        verification.authenticationInfo.newCounter > 0
          ? lt(passkeys.counter, verification.authenticationInfo.newCounter)
          : eq(passkeys.counter, 0),
      ),
    )
    .returning({ id: passkeys.id });
  if (!moved) throw failure();
  if (input.previousToken) await ctx.sessions.destroy(input.previousToken);
  const session = await ctx.sessions.create(user.id);
  return { user, ...session };
}

/** The same words as password sign-in's refusal (auth/service.ts imports this module, so not shared). */
export const PASSKEY_DEACTIVATED_MESSAGE =
  'This account has been deactivated. Ask the office if you need to sign in again.';

/** Staff must use a passkey or Microsoft: their password sign-in is refused. */
export async function staffPasskeyOrMicrosoftRequired(db: Queryable): Promise<boolean> {
  const [row] = await db.select().from(signInPolicy).where(eq(signInPolicy.id, 1));
  return row?.staffPasskeyOrMicrosoft ?? false;
}

/** Whether this staff member has a way in besides a password: a passkey, or a working Microsoft sign-in. */
async function hasStrongSignIn(ctx: Pick<PasskeyDeps, 'appSecret' | 'config' | 'db'>, me: UserRow) {
  const [mine] = await ctx.db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, me.id));
  if ((mine?.n ?? 0) > 0 && relyingParty(ctx.config)) return true;
  if (!(await signInConfig(ctx))) return false;
  const [linked] = await ctx.db
    .select({ id: microsoftIdentities.id })
    .from(microsoftIdentities)
    .where(eq(microsoftIdentities.userId, me.id));
  return Boolean(linked);
}

export async function getSignInPolicy(
  ctx: Pick<PasskeyDeps, 'appSecret' | 'config' | 'db'>,
  me: UserRow,
): Promise<SignInPolicy> {
  return {
    staffPasskeyOrMicrosoft: await staffPasskeyOrMicrosoftRequired(ctx.db),
    youCanRequire: await hasStrongSignIn(ctx, me),
  };
}

/**
 * Turn the requirement on or off. On only for a staff member who has a passkey or a working Microsoft
 * sign-in themselves, so whoever turns it on can still get in. Recorded in the history.
 */
export async function saveSignInPolicy(
  ctx: Pick<PasskeyDeps, 'appSecret' | 'config' | 'db' | 'now'>,
  me: UserRow,
  required: boolean,
): Promise<SignInPolicy> {
  if (required && !(await hasStrongSignIn(ctx, me))) {
    throw badRequest(
      'Add a passkey to your own account, or sign in with Microsoft yourself, first: only a staff member who can sign in without a password can require it.',
      { staffPasskeyOrMicrosoft: ['Add a passkey or link Microsoft sign-in first'] },
    );
  }
  await ctx.db.transaction(async (tx) => {
    const [existing] = await tx.select().from(signInPolicy).where(eq(signInPolicy.id, 1)).for('update');
    const before = existing?.staffPasskeyOrMicrosoft ?? false;
    if (before === required && existing) return;
    await tx
      .insert(signInPolicy)
      .values({ id: 1, staffPasskeyOrMicrosoft: required, updatedAt: ctx.now() })
      .onConflictDoUpdate({
        target: signInPolicy.id,
        set: { staffPasskeyOrMicrosoft: required, updatedAt: ctx.now() },
      });
    if (before !== required) {
      await recordChanges(tx, [
        {
          entity: 'settings',
          action: existing ? 'update' : 'create',
          subjectUserId: null,
          actorId: me.id,
          via: 'staff',
          before: existing ? { staffSignIn: true, staffPasskeyOrMicrosoft: before } : null,
          after: { staffSignIn: true, staffPasskeyOrMicrosoft: required },
        },
      ]);
    }
  });
  return getSignInPolicy(ctx, me);
}

/** Clear challenges nobody answered; the scheduler may call it, keepChallenge does it too. */
export async function purgeChallenges(db: Db, at: Date): Promise<number> {
  const gone = await db
    .delete(webauthnChallenges)
    .where(lt(webauthnChallenges.expiresAt, at))
    .returning({ hash: webauthnChallenges.challengeHash });
  return gone.length;
}
