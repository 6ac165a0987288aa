import { eq } from 'drizzle-orm';
import type { ChangePasswordBody, RegisterBody } from '../../../shared/schemas/auth';
import { hashPassword, verifyPassword } from '../../auth/passwords';
import type { SessionStore } from '../../auth/sessions';
import type { LoginThrottle } from '../../auth/throttle';
import type { Config } from '../../config';
import type { Db, Queryable } from '../../db/client';
import { sessions, users } from '../../db/schema';
import { AppError, badRequest, forbidden, notFound } from '../../errors';
import { recordChanges } from '../history/record';
import { STAFF_PASSWORD_OFF_MESSAGE, staffPasswordSignInAllowed } from '../microsoft-sign-in/settings';
import { STAFF_STRONG_SIGN_IN_MESSAGE, staffPasskeyOrMicrosoftRequired } from '../passkeys/service';
import {
  accountValues,
  createUser,
  findUserById,
  findUserByUsername,
  STAFF_ROLE,
  type UserRow,
} from '../users/service';

/**
 * What signing in with a password uses: the configuration, the database and the app's secret (the
 * Microsoft sign-in settings say whether staff may use a password), the sessions and the throttle.
 */
export interface AuthDeps {
  config: Config;
  db: Db;
  appSecret: string;
  sessions: SessionStore;
  loginThrottle: LoginThrottle;
}

export const INVALID_LOGIN = 'Invalid username or password';
export const INVALID_STAFF_LOGIN = 'Invalid credentials';

export interface SignIn {
  user: UserRow;
  token: string;
  expiresAt: Date;
}

/**
 * Check a username and password and open a new session. The caller's previous session, if any,
 * is ended: a fresh id at every sign-in defeats session fixation.
 */
export const DEACTIVATED_ACCOUNT_MESSAGE =
  'This account has been deactivated. Ask the office if you need to sign in again.';

export async function signIn(
  ctx: AuthDeps,
  input: {
    username: string;
    password: string;
    address: string;
    previousToken: string | null;
    staffOnly: boolean;
  },
): Promise<SignIn> {
  const failure = input.staffOnly ? INVALID_STAFF_LOGIN : INVALID_LOGIN;
  // counted before the password check, so guesses sent in parallel are limited too
  await beginPasswordCheck(ctx, input.username, input.address);
  const user = await findUserByUsername(ctx.db, input.username);
  const passwordOk = await verifyPassword(user?.passwordHash, input.password);
  if (!user || !passwordOk || (input.staffOnly && user.role !== STAFF_ROLE)) {
    // the attempt was counted by begin(): a failure stays counted
    throw new AppError(401, failure);
  }
  await ctx.loginThrottle.succeeded(input.username, input.address);
  // a leaver: told only once the password is right, so a guesser learns nothing of the account
  if (user.deactivatedAt) throw forbidden(DEACTIVATED_ACCOUNT_MESSAGE);
  // checked after the password, so the answer says nothing about accounts to someone guessing
  if (user.role === STAFF_ROLE && !(await staffPasswordSignInAllowed(ctx))) {
    throw forbidden(STAFF_PASSWORD_OFF_MESSAGE);
  }
  if (user.role === STAFF_ROLE && (await staffPasskeyOrMicrosoftRequired(ctx.db))) {
    throw forbidden(STAFF_STRONG_SIGN_IN_MESSAGE);
  }
  if (input.previousToken) await ctx.sessions.destroy(input.previousToken);
  const { token, expiresAt } = await ctx.sessions.create(user.id);
  return { user, token, expiresAt };
}

export async function register(
  ctx: Pick<AuthDeps, 'config' | 'db' | 'sessions'>,
  body: RegisterBody,
  previousToken: string | null,
): Promise<SignIn> {
  if (!ctx.config.ALLOW_REGISTRATION)
    throw forbidden('Registration is closed. Ask your administrator for an account.');
  const user = await createUser(
    ctx.db,
    {
      username: body.username,
      password: body.password,
      displayName: body.displayName,
      email: body.email,
      role: 'facilitator',
    },
    'registration',
  );
  if (previousToken) await ctx.sessions.destroy(previousToken);
  const { token, expiresAt } = await ctx.sessions.create(user.id);
  return { user, token, expiresAt };
}

/**
 * Change the signed-in user's password. Every other session of the user ends, and the current one is
 * replaced, so a stolen cookie stops working once the owner changes the password.
 */
export async function changePassword(
  ctx: Pick<AuthDeps, 'db' | 'loginThrottle' | 'sessions'>,
  user: UserRow,
  body: ChangePasswordBody,
  address: string,
): Promise<{ token: string; expiresAt: Date }> {
  // The current password is a guess like a sign-in: the same limits, or a borrowed session could try
  // passwords without end.
  await beginPasswordCheck(ctx, user.username, address);
  if (!(await verifyPassword(user.passwordHash, body.currentPassword))) {
    throw badRequest('Current password is incorrect', { currentPassword: ['Current password is incorrect'] });
  }
  await ctx.loginThrottle.succeeded(user.username, address);
  if (body.newPassword === body.currentPassword) {
    throw badRequest('New password must be different from current password', {
      newPassword: ['New password must be different from current password'],
    });
  }
  const passwordHash = await hashPassword(body.newPassword);
  await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, user.id));
    await tx.delete(sessions).where(eq(sessions.userId, user.id));
    await recordOwnPasswordChange(tx, user);
  });
  return ctx.sessions.create(user.id);
}

/**
 * The history entry of an account's owner changing its password; `how` says how, when not through
 * the change-password form (`section` and `event`, as the history shows them).
 */
export async function recordOwnPasswordChange(
  tx: Queryable,
  user: UserRow,
  how: { section: string; event: string } | Record<string, never> = {},
): Promise<void> {
  const values = accountValues(user);
  await recordChanges(tx, [
    {
      entity: 'account',
      action: 'update',
      subjectUserId: user.id,
      actorId: user.id,
      via: user.role === STAFF_ROLE ? 'staff' : 'facilitator',
      before: values,
      after: { ...values, password: 'changed', ...how },
    },
  ]);
}

/** Staff clear an account's failed sign-in pauses; returns the account's username. */
export async function clearSignInPauses(
  ctx: Pick<AuthDeps, 'db' | 'loginThrottle'>,
  userId: number,
): Promise<string> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw notFound('User not found');
  await ctx.loginThrottle.unlock(user.username);
  return user.username;
}

/** Count a password check against the account and address limits; 429 with Retry-After when paused. */
async function beginPasswordCheck(
  ctx: Pick<AuthDeps, 'loginThrottle'>,
  username: string,
  address: string,
): Promise<void> {
  const wait = await ctx.loginThrottle.begin(username, address);
  if (wait > 0) {
    throw new AppError(
      429,
      `Too many failed sign-in attempts. Try again in ${describeWait(wait)}.`,
      undefined,
      {
        'retry-after': String(wait),
      },
    );
  }
}

function describeWait(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  return minutes <= 1 ? 'a minute' : `${minutes} minutes`;
}
