/**
 * Sign in with Microsoft: the identities linked to accounts, the invitations that link them, and
 * what the history and the owner are told when a link changes.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { MicrosoftInvitation, MicrosoftLinkedAccounts } from '../../../shared/schemas/microsoft-sign-in';
import { randomToken, sha256 } from '../../crypto';
import type { Queryable } from '../../db/client';
import { microsoftIdentities, microsoftInvitations, sessions } from '../../db/schema';
import { AppError, notFound } from '../../errors';
import { microsoftIdentityMessage } from '../../mail/account-message';
import { type ChangeBy, type ChangeEntry, recordChanges } from '../history/record';
import { sendMail } from '../reminders/service';
import { findUserById, STAFF_ROLE, type UserRow } from '../users/service';
import { resolveSettings, type SignInDeps } from './settings';

/**
 * Email the account's owner, at the account's address, that another person's action changed which
 * Microsoft account signs in to it: linked through someone else's invitation, replaced, or removed. A
 * change they did not expect means someone else may sign in as them, or they were shut out. A
 * failure to send is logged; the history has the change either way.
 */
export async function tellOwner(
  ctx: Pick<SignInDeps, 'appSecret' | 'config' | 'db' | 'log' | 'mailer'>,
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

export const INVITATION_MS = 7 * 24 * 60 * 60 * 1000;

export const ALREADY_LINKED_MESSAGE =
  'This account is already linked to a Microsoft account. To link another one in its place, create an invitation that replaces it: the person is told by email when it is used.';

/**
 * A single-use link that lets the person who opens it link their Microsoft identity to the account.
 * An account already linked is only invited with `replaceIdentity`, staff's explicit choice to let
 * the link replace that identity. Recorded in the history: by whom, for whom.
 */
export async function createInvitation(
  ctx: Pick<SignInDeps, 'appSecret' | 'config' | 'db' | 'now'>,
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
export async function unlinkIdentity(
  ctx: Pick<SignInDeps, 'appSecret' | 'config' | 'db' | 'log' | 'mailer'>,
  userId: number,
  by: ChangeBy,
): Promise<void> {
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
export async function endMicrosoftSessions(db: Queryable, userIds: number[]): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .delete(sessions)
    .where(and(inArray(sessions.userId, userIds), eq(sessions.signedInWithMicrosoft, true)));
}

type IdentityRow = typeof microsoftIdentities.$inferSelect;

/** An identity as the history shows it: the sign-in name people recognise, and its object id. */
export function describeIdentity(
  identity: Pick<IdentityRow, 'signInName' | 'objectId'> | undefined | null,
): string | null {
  if (!identity) return null;
  return identity.signInName ? `${identity.signInName} (${identity.objectId})` : identity.objectId;
}

/**
 * A change of the account's link to Microsoft, in the account's history: `event` says which (invited,
 * linked, replaced, unlinked); the values are the Microsoft account before and after, never a token.
 */
export function identityChange(
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

/** The accounts linked to a Microsoft identity, for the Users page. */
export async function listLinkedAccounts(ctx: Pick<SignInDeps, 'db'>): Promise<MicrosoftLinkedAccounts> {
  const rows = await ctx.db
    .select({ userId: microsoftIdentities.userId, lastSignInAt: microsoftIdentities.lastSignInAt })
    .from(microsoftIdentities)
    .orderBy(microsoftIdentities.userId);
  return {
    users: rows.map((row) => ({ userId: row.userId, lastSignInAt: row.lastSignInAt?.toISOString() ?? null })),
  };
}
