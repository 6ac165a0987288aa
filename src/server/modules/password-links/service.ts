/**
 * Links, sent to an account's own email, where its owner sets a password: a reset asked for on a
 * sign-in page, or an invitation from staff. A link is a random token whose SHA-256 alone is stored;
 * it works once, until it expires, and only while the account's password and email are what they were
 * when it was made.
 */
import type { AccountInvitation, PasswordInvitationStatus, PasswordLinkResponse } from '@shared/schemas/auth';
import { and, asc, count, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { hashPassword } from '../../auth/passwords';
import type { SessionStore } from '../../auth/sessions';
import { randomToken, sha256 } from '../../crypto';
import type { Db } from '../../db/client';
import { passwordLinks, sessions, users } from '../../db/schema';
import { conflict, notFound } from '../../errors';
import { passwordChangedMessage, passwordLinkMessage } from '../../mail/account-message';
import { recordOwnPasswordChange } from '../auth/service';
import { turnOffFeed } from '../calendar-feed/service';
import { recordChanges } from '../history/record';
import { staffPasswordSignInAllowed } from '../microsoft-sign-in/settings';
import { staffPasskeyOrMicrosoftRequired } from '../passkeys/service';
import { type MailDeps, sendMail } from '../reminders/service';
import { accountValues, findUserById, findUserByUsername, STAFF_ROLE, type UserRow } from '../users/service';

export type PasswordLinkPurpose = 'reset' | 'invitation';

/** What the links use: email, the clock, the log, and the sessions a used link ends. */
export interface PasswordLinkDeps extends MailDeps {
  now: () => Date;
  log: FastifyBaseLogger;
  sessions: SessionStore;
}

/** How long each kind of link works, and how it is said in its email. */
export const LINK_LIFETIME: Record<PasswordLinkPurpose, { ms: number; words: string }> = {
  reset: { ms: 60 * 60 * 1000, words: '1 hour' },
  invitation: { ms: 7 * 24 * 60 * 60 * 1000, words: '7 days' },
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** Reset links one account is sent in an hour, however many addresses ask; further asks send nothing. */
export const RESETS_PER_ACCOUNT_PER_HOUR = 3;

export const LINK_INVALID_MESSAGE =
  'This link has expired, has already been used, or belongs to a password that has since changed. Ask for a new one.';

export const RESET_REQUESTED_MESSAGE =
  'If that username belongs to an account with an email address, a link to set a new password is on its way. It works once, for 1 hour.';

/** What a link is tied to: the account's password hash and email as they are now. */
function bindingOf(user: Pick<UserRow, 'passwordHash' | 'email'>): string {
  return sha256(JSON.stringify([user.passwordHash ?? '', user.email ?? '']));
}

const signInPage = (user: UserRow) => (user.role === STAFF_ROLE ? '/staff-login' : '/auth');
const nameOf = (user: UserRow) => user.displayName?.trim() || user.username;

/**
 * Make a link for an account; earlier unused links of the same purpose stop working. Returns the
 * token, which only the email carries.
 */
export async function makePasswordLink(
  db: Db,
  user: UserRow,
  purpose: PasswordLinkPurpose,
  at: Date,
  by: UserRow | null = null,
): Promise<string> {
  const token = randomToken(32);
  await db.transaction(async (tx) => {
    // the account's links dead for a day are of no more use (the hourly budget counts only the last hour)
    await tx
      .delete(passwordLinks)
      .where(
        and(eq(passwordLinks.userId, user.id), lt(passwordLinks.expiresAt, new Date(at.getTime() - DAY_MS))),
      );
    await tx
      .update(passwordLinks)
      .set({ expiresAt: at })
      .where(
        and(
          eq(passwordLinks.userId, user.id),
          eq(passwordLinks.purpose, purpose),
          isNull(passwordLinks.usedAt),
          gt(passwordLinks.expiresAt, at),
        ),
      );
    await tx.insert(passwordLinks).values({
      tokenHash: sha256(token),
      userId: user.id,
      purpose,
      boundTo: bindingOf(user),
      createdBy: by?.id ?? null,
      createdAt: at,
      expiresAt: new Date(at.getTime() + LINK_LIFETIME[purpose].ms),
    });
  });
  return token;
}

/** Make a link and email it to the account's address: why it was not sent, or null when it was. */
export async function sendPasswordLink(
  ctx: PasswordLinkDeps,
  user: UserRow,
  purpose: PasswordLinkPurpose,
  by: UserRow | null = null,
): Promise<string | null> {
  const token = await makePasswordLink(ctx.db, user, purpose, ctx.now(), by);
  const outcome = await sendMail(ctx, [
    {
      key: purpose,
      to: user.email,
      build: (portalUrl) =>
        passwordLinkMessage({
          purpose,
          name: nameOf(user),
          username: user.username,
          link: `${portalUrl}/set-password#${token}`,
          validFor: LINK_LIFETIME[purpose].words,
          ...(by ? { by: nameOf(by) } : {}),
        }),
    },
  ]);
  return outcome.get(purpose) ?? null;
}

/**
 * Someone asked for a reset link for a username. Nothing is said back, whatever happens: the caller
 * answers the same before this runs. No link is sent to an unknown account, one without an email, a
 * staff account while staff must sign in with Microsoft, or an account sent its hourly share already.
 */
export async function requestPasswordReset(ctx: PasswordLinkDeps, username: string): Promise<void> {
  const user = await findUserByUsername(ctx.db, username);
  if (!user?.email) return;
  if (user.role === STAFF_ROLE && !(await staffPasswordSignInAllowed(ctx))) return;
  if (user.role === STAFF_ROLE && (await staffPasskeyOrMicrosoftRequired(ctx.db))) return;
  const since = new Date(ctx.now().getTime() - 60 * 60 * 1000);
  const [sent] = await ctx.db
    .select({ n: count() })
    .from(passwordLinks)
    .where(
      and(
        eq(passwordLinks.userId, user.id),
        eq(passwordLinks.purpose, 'reset'),
        gt(passwordLinks.createdAt, since),
      ),
    );
  if ((sent?.n ?? 0) >= RESETS_PER_ACCOUNT_PER_HOUR) {
    ctx.log.info({ userId: user.id }, 'password reset not sent: the account had its hourly share');
    return;
  }
  const failure = await sendPasswordLink(ctx, user, 'reset');
  if (failure) ctx.log.warn({ userId: user.id, reason: failure }, 'could not email a password reset link');
}

/** The account a link may still set, with the link; undefined when it may not. */
async function openLink(ctx: PasswordLinkDeps, token: string) {
  const [row] = await ctx.db
    .select({ link: passwordLinks, user: users })
    .from(passwordLinks)
    .innerJoin(users, eq(users.id, passwordLinks.userId))
    .where(
      and(
        eq(passwordLinks.tokenHash, sha256(token)),
        isNull(passwordLinks.usedAt),
        gt(passwordLinks.expiresAt, ctx.now()),
        isNull(users.deactivatedAt),
      ),
    );
  if (!row || row.link.boundTo !== bindingOf(row.user)) return undefined;
  return row;
}

/** What a link is for and whose account it sets; 404 when it no longer works. */
export async function viewPasswordLink(ctx: PasswordLinkDeps, token: string): Promise<PasswordLinkResponse> {
  const row = await openLink(ctx, token);
  if (!row) throw notFound(LINK_INVALID_MESSAGE);
  return { purpose: row.link.purpose as PasswordLinkPurpose, username: row.user.username };
}

/**
 * Set the password through a link, once. Every session of the account ends, and its calendar feed
 * is turned off (its address may have travelled with whoever knew the old password); the caller is
 * given a new session. After a reset, the owner is told by email.
 */
export async function usePasswordLink(
  ctx: PasswordLinkDeps,
  token: string,
  newPassword: string,
): Promise<{ user: UserRow; token: string; expiresAt: Date }> {
  const opened = await openLink(ctx, token);
  if (!opened) throw notFound(LINK_INVALID_MESSAGE);
  const passwordHash = await hashPassword(newPassword);
  const at = ctx.now();
  const user = await ctx.db.transaction(async (tx) => {
    // the account is locked, then the link claimed: of two uses at once, on any instances, one wins
    const [current] = await tx.select().from(users).where(eq(users.id, opened.user.id)).for('update');
    if (!current || bindingOf(current) !== opened.link.boundTo) return null;
    const [claimed] = await tx
      .update(passwordLinks)
      .set({ usedAt: at })
      .where(
        and(
          eq(passwordLinks.tokenHash, opened.link.tokenHash),
          isNull(passwordLinks.usedAt),
          gt(passwordLinks.expiresAt, at),
        ),
      )
      .returning({ userId: passwordLinks.userId });
    if (!claimed) return null;
    const [updated] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: at })
      .where(eq(users.id, current.id))
      .returning();
    await tx.delete(sessions).where(eq(sessions.userId, current.id));
    await turnOffFeed(tx, current.id);
    await recordOwnPasswordChange(tx, current, { section: 'password-link', event: opened.link.purpose });
    return updated ?? null;
  });
  if (!user) throw notFound(LINK_INVALID_MESSAGE);
  const session = await ctx.sessions.create(user.id);
  if (opened.link.purpose === 'reset') {
    const outcome = await sendMail(ctx, [
      {
        key: 'changed',
        to: user.email,
        build: (portalUrl) =>
          passwordChangedMessage({
            name: nameOf(user),
            username: user.username,
            signInLink: `${portalUrl}${signInPage(user)}`,
          }),
      },
    ]);
    const failure = outcome.get('changed');
    if (failure) ctx.log.warn({ userId: user.id, reason: failure }, 'could not email a password change');
  }
  return { user, ...session };
}

export const NO_EMAIL_FOR_INVITATION =
  'Add an email address to the account first: the invitation goes there.';

/** Every account's password state and latest invitation, for the users table. */
export async function listInvitations(db: Db): Promise<AccountInvitation[]> {
  const accounts = await db
    .select({ id: users.id, hasPassword: sql<boolean>`${users.passwordHash} is not null` })
    .from(users)
    .orderBy(asc(users.id));
  const links = await db
    .select()
    .from(passwordLinks)
    .where(eq(passwordLinks.purpose, 'invitation'))
    .orderBy(desc(passwordLinks.createdAt), desc(passwordLinks.expiresAt));
  const latest = new Map<number, typeof passwordLinks.$inferSelect>();
  for (const link of links) if (!latest.has(link.userId)) latest.set(link.userId, link);
  return accounts.map((account) => {
    const link = latest.get(account.id);
    return {
      userId: account.id,
      hasPassword: Boolean(account.hasPassword),
      invitedAt: link?.createdAt.toISOString() ?? null,
      expiresAt: link?.expiresAt.toISOString() ?? null,
      joinedAt: link?.usedAt?.toISOString() ?? null,
    };
  });
}

/** An account's latest invitation to set its own password; 404 for an unknown account. */
export async function invitationStatus(
  ctx: PasswordLinkDeps,
  userId: number,
): Promise<PasswordInvitationStatus> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw notFound('User not found');
  const [latest] = await ctx.db
    .select({ link: passwordLinks, by: { username: users.username, displayName: users.displayName } })
    .from(passwordLinks)
    .leftJoin(users, eq(users.id, passwordLinks.createdBy))
    .where(and(eq(passwordLinks.userId, userId), eq(passwordLinks.purpose, 'invitation')))
    // of two made at the same moment, the one not ended by the other
    .orderBy(desc(passwordLinks.createdAt), desc(passwordLinks.expiresAt))
    .limit(1);
  return {
    email: user.email,
    hasPassword: user.passwordHash !== null,
    invitedAt: latest?.link.createdAt.toISOString() ?? null,
    invitedBy: latest?.by ? latest.by.displayName?.trim() || latest.by.username : null,
    expiresAt: latest?.link.expiresAt.toISOString() ?? null,
    joinedAt: latest?.link.usedAt?.toISOString() ?? null,
  };
}

/**
 * Staff send (or send again) an invitation to set a password to the account's own email. An earlier
 * unused invitation stops working. Recorded in the history whether or not the email went.
 */
export async function sendInvitation(
  ctx: PasswordLinkDeps,
  staff: UserRow,
  userId: number,
): Promise<PasswordInvitationStatus> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw notFound('User not found');
  if (!user.email) throw conflict(NO_EMAIL_FOR_INVITATION);
  const emailError = await sendPasswordLink(ctx, user, 'invitation', staff);
  const values = accountValues(user);
  await recordChanges(ctx.db, [
    {
      entity: 'account',
      action: 'update',
      subjectUserId: user.id,
      actorId: staff.id,
      via: 'staff',
      before: values,
      after: { ...values, section: 'password-link', event: 'invited' },
    },
  ]);
  return { ...(await invitationStatus(ctx, userId)), emailError };
}
