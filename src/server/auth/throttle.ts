import { eq, inArray, sql } from 'drizzle-orm';
import { canonicalUsername } from '../../shared/username';
import { clientNetwork } from '../client-network';
import type { Db } from '../db/client';
import { loginThrottle } from '../db/schema';

export interface ThrottleLimits {
  /** failures allowed for one account from one address within the window before that pair is paused */
  perAccountAddress: number;
  /** failures allowed from one address, whatever the accounts, within the window */
  perAddress: number;
  /** failures of one account from all addresses within the window before it is slowed down */
  perAccount: number;
  /** the slow-down: how long an address that has failed on a slowed account waits (short, capped) */
  accountPauseMs: number;
  windowMs: number;
  /** how long a paused address, or account and address pair, waits */
  blockMs: number;
}

export const DEFAULT_THROTTLE: ThrottleLimits = {
  perAccountAddress: 5,
  perAddress: 100,
  perAccount: 20,
  accountPauseMs: 60 * 1000,
  windowMs: 15 * 60 * 1000,
  blockMs: 15 * 60 * 1000,
};

/**
 * The account a sign-in names, as the throttle counts it: the canonical username, the form sign-in
 * looks accounts up by. Any other folding lets a spelling that reaches the same account (`vİctim`)
 * count against a different key.
 */
export function throttleAccount(username: string): string {
  return canonicalUsername(username);
}

// Addresses are counted by network (an IPv6 address by its /64), as the request budgets count them:
// counted one by one, a client rotating through its /64 guessed on without ever being paused.
const accountKey = (account: string) => `account:${account}`;
const addressKey = (address: string) => `address:${clientNetwork(address)}`;
const pairKey = (account: string, address: string) => `pair:${clientNetwork(address)} ${account}`;

/**
 * Failed-login limits kept in the database, so every instance behind a load balancer counts the same
 * failures.
 *
 * Failures pause the account and address *pair* (strongly) and the address (across accounts), never
 * the account for everyone: otherwise anyone could keep any account locked by failing on purpose
 * (OWASP's "lockout as denial of service"). Failures of one account from many addresses only slow
 * down, for a short capped time, the addresses that have already failed on it; an address that has
 * not failed on the account still gets its attempt, so the owner signs in while it is under attack.
 *
 * An attempt is counted *before* its password is checked (`begin`), and given back when the password
 * was right (`succeeded`) or when the attempt is refused. Counting only after the check let any number
 * of guesses sent at once all pass the "paused?" check while the first were still being verified, so
 * parallel requests were never limited. A row is paused (`blocked_until`) once an attempt would go
 * past the limit; the pause lasts `blockMs` (`accountPauseMs` for the account row), and the count
 * starts again when the window has passed.
 */
export function createLoginThrottle(
  db: Db,
  limits: ThrottleLimits = DEFAULT_THROTTLE,
  now: () => Date = () => new Date(),
) {
  return {
    /**
     * Count a sign-in attempt before the password is checked. Returns 0 to go ahead, or the seconds to
     * wait when the address, the account and address pair, or (for an address that has failed on it)
     * the account is paused. A refused attempt is not counted.
     */
    async begin(username: string, address: string): Promise<number> {
      const at = now();
      const account = throttleAccount(username);
      const taken: string[] = [];
      const refuse = async (pausedUntil: number) => {
        for (const k of taken) await release(k);
        return Math.max(1, Math.ceil((pausedUntil - at.getTime()) / 1000));
      };
      const checks = [
        { key: addressKey(address), account: null, limit: limits.perAddress, blockMs: limits.blockMs },
        { key: pairKey(account, address), account, limit: limits.perAccountAddress, blockMs: limits.blockMs },
      ];
      let earlierPairFailures = 0;
      for (const check of checks) {
        const row = await reserve(check.key, check.account, check.limit, check.blockMs, at);
        taken.push(check.key);
        const pausedUntil = row.blockedUntil ? new Date(row.blockedUntil).getTime() : 0;
        if (row.failures > check.limit || pausedUntil > at.getTime()) return refuse(pausedUntil);
        if (check.account) earlierPairFailures = row.failures - 1;
      }
      const row = await reserve(accountKey(account), account, limits.perAccount, limits.accountPauseMs, at);
      taken.push(accountKey(account));
      // The attempt that starts a pause goes ahead: one attempt per pause, so the delay stays short.
      const pausedBefore = row.previousBlockedUntil ? new Date(row.previousBlockedUntil).getTime() : 0;
      if (pausedBefore > at.getTime() && earlierPairFailures > 0) return refuse(pausedBefore);
      return 0;
    },

    /** The password was right: the pair starts afresh; the account and address get the attempt back. */
    async succeeded(username: string, address: string): Promise<void> {
      const account = throttleAccount(username);
      await db.delete(loginThrottle).where(inArray(loginThrottle.key, [pairKey(account, address)]));
      await release(accountKey(account));
      await release(addressKey(address));
    },

    /** Staff clear every pause and count of one account (the per-address counts stay). */
    async unlock(username: string): Promise<void> {
      await db.delete(loginThrottle).where(eq(loginThrottle.account, throttleAccount(username)));
    },
  };

  // One statement per key, so attempts on several instances at once are all counted. Times come from
  // the app clock (the one `begin` compares with), never the database's now(): with two clocks, a
  // database clock running behind the app's shortened, or cancelled, every pause.
  async function reserve(key: string, account: string | null, limit: number, blockMs: number, at: Date) {
    const current = sql`${at.toISOString()}::timestamptz`;
    const windowStart = sql`${new Date(at.getTime() - limits.windowMs).toISOString()}::timestamptz`;
    const block = sql`${new Date(at.getTime() + blockMs).toISOString()}::timestamptz`;
    // a paused row keeps its window; an unpaused one whose window has passed starts again at 1
    const restart = sql`(t.window_started_at < ${windowStart} and not coalesce(t.blocked_until > ${current}, false))`;
    const counted = sql`(case when ${restart} then 1 else t.failures + 1 end)`;
    const result = await db.execute(sql`
      with previous as (select blocked_until from login_throttle where key = ${key})
      insert into login_throttle as t (key, account, failures, window_started_at, blocked_until)
      values (${key}, ${account}, 1, ${current}, case when 1 > ${limit} then ${block} else null end)
      on conflict (key) do update set
        failures = ${counted},
        window_started_at = case when ${restart} then ${current} else t.window_started_at end,
        blocked_until = case
          when t.blocked_until > ${current} then t.blocked_until
          when ${counted} > ${limit} then ${block}
          else null end
      returning failures, blocked_until, (select blocked_until from previous) as previous_blocked_until`);
    type Row = {
      failures: number;
      blocked_until: string | Date | null;
      previous_blocked_until: string | Date | null;
    };
    const [row] = (result as unknown as { rows: Row[] }).rows;
    return {
      failures: Number(row?.failures ?? 0),
      blockedUntil: row?.blocked_until ?? null,
      previousBlockedUntil: row?.previous_blocked_until ?? null,
    };
  }

  async function release(key: string) {
    await db.execute(sql`update login_throttle set failures = greatest(failures - 1, 0) where key = ${key}`);
  }
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
