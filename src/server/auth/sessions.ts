import { createHmac } from 'node:crypto';
import { and, eq, gt, isNull, lt, ne, or } from 'drizzle-orm';
import { deriveKey, randomToken } from '../crypto';
import type { Db } from '../db/client';
import { sessions, users } from '../db/schema';

export const SESSION_COOKIE = 'afp_session';
/** The browser's key to its Microsoft sign-ins under way (routes of modules/microsoft-sign-in). */
export const MICROSOFT_SIGN_IN_COOKIE = 'afp_ms_signin';
/** A session not used for this long ends. */
export const SESSION_IDLE_MS = 3 * 24 * 60 * 60 * 1000;
/** A session ends this long after sign-in, however much it is used. */
export const SESSION_ABSOLUTE_MS = 14 * 24 * 60 * 60 * 1000;
// Writing last_seen_at on every request would turn every read into a write.
const TOUCH_INTERVAL_MS = 5 * 60 * 1000;

export type SessionUser = typeof users.$inferSelect;

export interface SessionStore {
  /** `microsoft`: the session comes from a Microsoft sign-in (signing out offers Microsoft's too) */
  create(userId: number, options?: { microsoft?: boolean }): Promise<{ token: string; expiresAt: Date }>;
  /** The user behind a cookie token, or null when it is unknown or expired. */
  resolve(token: string): Promise<{ user: SessionUser; sessionId: string } | null>;
  /** End one session; says whether it existed and whether a Microsoft sign-in opened it. */
  destroy(token: string): Promise<{ signedInWithMicrosoft: boolean } | null>;
  destroyAllForUser(userId: number, exceptToken?: string): Promise<void>;
  purgeExpired(): Promise<number>;
}

/**
 * `now` is the app's clock (AppContext.now): expiry follows the same time as everything else, and tests
 * can move it to prove idle and absolute expiry.
 */
export function createSessionStore(
  db: Db,
  appSecret: string,
  now: () => Date = () => new Date(),
): SessionStore {
  const key = deriveKey(appSecret, 'session-id');
  // The database keeps only a keyed hash of the cookie value: a copy of the table opens no session.
  const idFor = (token: string) => createHmac('sha256', key).update(token).digest('base64url');

  return {
    async create(userId, options = {}) {
      const token = randomToken(32);
      const createdAt = now();
      const expiresAt = new Date(createdAt.getTime() + SESSION_ABSOLUTE_MS);
      await db.insert(sessions).values({
        id: idFor(token),
        userId,
        createdAt,
        expiresAt,
        lastSeenAt: createdAt,
        signedInWithMicrosoft: options.microsoft ?? false,
      });
      return { token, expiresAt };
    },

    async resolve(token) {
      if (!token || token.length > 200) return null;
      const id = idFor(token);
      const at = now();
      const idleCutoff = new Date(at.getTime() - SESSION_IDLE_MS);
      const [row] = await db
        .select({ session: sessions, user: users })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        // a deactivated account's sessions end with the deactivation; none opened since counts either
        .where(
          and(
            eq(sessions.id, id),
            gt(sessions.expiresAt, at),
            gt(sessions.lastSeenAt, idleCutoff),
            isNull(users.deactivatedAt),
          ),
        );
      if (!row) return null;
      if (at.getTime() - row.session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
        await db.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.id, id));
      }
      return { user: row.user, sessionId: id };
    },

    async destroy(token) {
      const [ended] = await db
        .delete(sessions)
        .where(eq(sessions.id, idFor(token)))
        .returning({ signedInWithMicrosoft: sessions.signedInWithMicrosoft });
      return ended ?? null;
    },

    async destroyAllForUser(userId, exceptToken) {
      const condition = exceptToken
        ? and(eq(sessions.userId, userId), ne(sessions.id, idFor(exceptToken)))
        : eq(sessions.userId, userId);
      await db.delete(sessions).where(condition);
    },

    async purgeExpired() {
      const at = now();
      const deleted = await db
        .delete(sessions)
        .where(
          or(lt(sessions.expiresAt, at), lt(sessions.lastSeenAt, new Date(at.getTime() - SESSION_IDLE_MS))),
        )
        .returning({ id: sessions.id });
      return deleted.length;
    },
  };
}
