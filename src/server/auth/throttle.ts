import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { loginThrottle } from '../db/schema';

export interface ThrottleLimits {
  /** failures allowed for one account within the window before it is paused */
  perAccount: number;
  /** failures allowed from one address within the window */
  perAddress: number;
  windowMs: number;
  blockMs: number;
}

export const DEFAULT_THROTTLE: ThrottleLimits = {
  perAccount: 5,
  perAddress: 100,
  windowMs: 15 * 60 * 1000,
  blockMs: 15 * 60 * 1000,
};

const accountKey = (username: string) => `account:${username.trim().toLowerCase()}`;
const addressKey = (address: string) => `address:${address}`;

/**
 * Failed-login limits kept in the database, so every instance behind a load balancer counts the same
 * failures. A success clears the account's counter, never the address's.
 */
export function createLoginThrottle(db: Db, limits: ThrottleLimits = DEFAULT_THROTTLE) {
  return {
    /** Seconds until another attempt is allowed, or 0 when one is allowed now. */
    async retryAfterSeconds(username: string, address: string): Promise<number> {
      const rows = await db
        .select({ blockedUntil: loginThrottle.blockedUntil })
        .from(loginThrottle)
        .where(inArray(loginThrottle.key, [accountKey(username), addressKey(address)]));
      const now = Date.now();
      const waits = rows.map((row) => (row.blockedUntil ? row.blockedUntil.getTime() - now : 0));
      const longest = Math.max(0, ...waits);
      return longest > 0 ? Math.ceil(longest / 1000) : 0;
    },

    async recordFailure(username: string, address: string): Promise<void> {
      await bump(accountKey(username), limits.perAccount);
      await bump(addressKey(address), limits.perAddress);
    },

    async recordSuccess(username: string): Promise<void> {
      await db.delete(loginThrottle).where(inArray(loginThrottle.key, [accountKey(username)]));
    },
  };

  // One statement per key: concurrent failures on several instances all count.
  async function bump(key: string, limit: number) {
    const windowStart = sql`now() - ${`${limits.windowMs} milliseconds`}::interval`;
    const block = sql`now() + ${`${limits.blockMs} milliseconds`}::interval`;
    await db.execute(sql`
      insert into login_throttle (key, failures, window_started_at, blocked_until)
      values (${key}, 1, now(), case when 1 >= ${limit} then ${block} else null end)
      on conflict (key) do update set
        failures = case when login_throttle.window_started_at < ${windowStart} then 1 else login_throttle.failures + 1 end,
        window_started_at = case when login_throttle.window_started_at < ${windowStart} then now() else login_throttle.window_started_at end,
        blocked_until = case
          when (case when login_throttle.window_started_at < ${windowStart} then 1 else login_throttle.failures + 1 end) >= ${limit}
          then ${block} else login_throttle.blocked_until end`);
  }
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
