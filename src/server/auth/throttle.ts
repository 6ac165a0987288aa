import { inArray, sql } from 'drizzle-orm';
import { canonicalUsername } from '../../shared/username';
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

// The account's canonical username, the form sign-in looks accounts up by: any other folding lets a
// spelling that reaches the same account (`vİctim`) count against a different key.
const accountKey = (username: string) => `account:${canonicalUsername(username)}`;
const addressKey = (address: string) => `address:${address}`;

/**
 * Failed-login limits kept in the database, so every instance behind a load balancer counts the same
 * failures. A success clears the account's counter, never the address's.
 *
 * An attempt is counted *before* its password is checked (`begin`), and given back when the password
 * was right (`succeeded`) or when the attempt is refused. Counting only after the check let any number
 * of guesses sent at once all pass the "paused?" check while the first were still being verified, so
 * parallel requests were never limited. A row is paused (`blocked_until`) once an attempt would go
 * past the limit; the pause lasts `blockMs`, and the count starts again when the window has passed.
 */
export function createLoginThrottle(
  db: Db,
  limits: ThrottleLimits = DEFAULT_THROTTLE,
  now: () => Date = () => new Date(),
) {
  return {
    /**
     * Count a sign-in attempt before the password is checked. Returns 0 to go ahead, or the seconds to
     * wait when the account or the address is paused (the refused attempt is not counted).
     */
    async begin(username: string, address: string): Promise<number> {
      const at = now();
      const taken: string[] = [];
      for (const [key, limit] of [
        [addressKey(address), limits.perAddress],
        [accountKey(username), limits.perAccount],
      ] as const) {
        const row = await reserve(key, limit, at);
        taken.push(key);
        const pausedUntil = row.blockedUntil ? new Date(row.blockedUntil).getTime() : 0;
        if (row.failures > limit || pausedUntil > at.getTime()) {
          for (const k of taken) await release(k);
          return Math.max(1, Math.ceil((pausedUntil - at.getTime()) / 1000));
        }
      }
      return 0;
    },

    /** The password was right: the account starts afresh and the address gets the attempt back. */
    async succeeded(username: string, address: string): Promise<void> {
      await db.delete(loginThrottle).where(inArray(loginThrottle.key, [accountKey(username)]));
      await release(addressKey(address));
    },
  };

  // One statement per key, so attempts on several instances at once are all counted. Times come from
  // the app clock (the one `begin` compares with), never the database's now(): with two clocks, a
  // database clock running behind the app's shortened, or cancelled, every pause.
  async function reserve(key: string, limit: number, at: Date) {
    const current = sql`${at.toISOString()}::timestamptz`;
    const windowStart = sql`${new Date(at.getTime() - limits.windowMs).toISOString()}::timestamptz`;
    const block = sql`${new Date(at.getTime() + limits.blockMs).toISOString()}::timestamptz`;
    // a paused row keeps its window; an unpaused one whose window has passed starts again at 1
    const restart = sql`(t.window_started_at < ${windowStart} and not coalesce(t.blocked_until > ${current}, false))`;
    const counted = sql`(case when ${restart} then 1 else t.failures + 1 end)`;
    const result = await db.execute(sql`
      insert into login_throttle as t (key, failures, window_started_at, blocked_until)
      values (${key}, 1, ${current}, case when 1 > ${limit} then ${block} else null end)
      on conflict (key) do update set
        failures = ${counted},
        window_started_at = case when ${restart} then ${current} else t.window_started_at end,
        blocked_until = case
          when t.blocked_until > ${current} then t.blocked_until
          when ${counted} > ${limit} then ${block}
          else null end
      returning failures, blocked_until`);
    const [row] = (result as unknown as { rows: { failures: number; blocked_until: string | Date | null }[] })
      .rows;
    return { failures: Number(row?.failures ?? 0), blockedUntil: row?.blocked_until ?? null };
  }

  async function release(key: string) {
    await db.execute(sql`update login_throttle set failures = greatest(failures - 1, 0) where key = ${key}`);
  }
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
