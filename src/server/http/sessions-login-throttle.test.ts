/**
 * Login throttling per account and per address: an attacker's failures pause only the address they
 * come from, never the owner elsewhere; parallel guesses are counted exactly; staff clear pauses; and
 * behind a trusted proxy the forwarded address is the one counted. The app's clock moves.
 * Set-up: src/server/test/sessions-app.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { TableDump } from '../test/db-state';
import { STAFF, type TestApp } from '../test/harness';
import { MINUTE, type Person, send, sessionsApp, THROTTLE } from '../test/sessions-app';

const w = sessionsApp({ secure: true });
const { signIn, dump, advance } = w;
let t: TestApp;
let a: Person;
let secure: TestApp;
beforeAll(() => {
  ({ t, a } = w);
  secure = w.secure;
});

describe('login throttling (per account and per address)', () => {
  const attempt = (username: string, password: string, address: string, url = '/api/login', headers = {}) =>
    send(t, 'POST', url, { payload: { username, password }, address, headers });

  it('pauses an account for the address that failed on it, never for the owner elsewhere', async () => {
    const victim = await t.createUser({ username: 'victim@example.org', password: 'victim-pass-1' });
    // the account is the same however the name is typed
    for (const name of ['victim@example.org', 'VICTIM@example.org', ' Victim@Example.org ']) {
      expect((await attempt(name, 'wrong-guess-1', '10.3.0.1')).statusCode).toBe(401);
    }
    let before: Omit<TableDump, 'login_throttle'> | undefined;
    for (const url of ['/api/login', '/api/login', '/api/auth/staff-login']) {
      const blocked = await attempt(victim.username, 'victim-pass-1', '10.3.0.1', url);
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBe(THROTTLE.blockMs / 1000);
      expect(blocked.json().message).toBe('Too many failed sign-in attempts. Try again in 10 minutes.');
      expect(blocked.headers['set-cookie']).toBeUndefined();
      // refused before the password check: no session, nothing else changes
      const { login_throttle: _counts, ...now } = await dump();
      if (before) expect(now).toEqual(before);
      before = now;
    }
    // the owner, from another address, is not stopped by someone else's failures
    expect((await attempt(victim.username, 'victim-pass-1', '10.3.0.2')).statusCode).toBe(200);
    // other accounts, even from the failing address, are not affected
    expect((await attempt(a.username, a.password, '10.3.0.1')).statusCode).toBe(200);

    advance(4 * MINUTE);
    const later = await attempt(victim.username, 'victim-pass-1', '10.3.0.1');
    expect(later.statusCode).toBe(429);
    expect(Number(later.headers['retry-after'])).toBe(6 * 60);

    advance(6 * MINUTE + 1000);
    expect((await attempt(victim.username, 'victim-pass-1', '10.3.0.1')).statusCode).toBe(200);
  });

  it('counts an IPv6 client by its /64: rotating through its addresses gets no more guesses', async () => {
    const owner = await t.createUser({ username: 'rotated@example.org', password: 'rotated-pass-1' });
    const inNetwork = (n: number) => `2001:db8:45:7:${n.toString(16)}::${((n * 7919) % 0xffff).toString(16)}`;
    for (let i = 1; i <= THROTTLE.perAccountAddress; i++)
      expect((await attempt(owner.username, `guess-${i}`, inNetwork(i))).statusCode).toBe(401);
    // a new address in the same /64 is the same client: paused for this account, right password or not
    for (const n of [100, 5000, 65_000]) {
      const next = await attempt(owner.username, 'rotated-pass-1', inNetwork(n));
      expect(next.statusCode, inNetwork(n)).toBe(429);
    }
    // the same /64 written out in full is no way round
    const full = await attempt(owner.username, 'rotated-pass-1', '2001:0db8:0045:0007:ffff:ffff:ffff:ffff');
    expect(full.statusCode).toBe(429);
    // the owner in another /64 signs in
    expect((await attempt(owner.username, 'rotated-pass-1', '2001:db8:45:8::1')).statusCode).toBe(200);
  });

  it('counts the address limit per /64 too, across accounts', async () => {
    for (let i = 0; i < THROTTLE.perAddress; i++) {
      const response = await attempt(`nobody-${i}@example.org`, 'wrong-guess', `2001:db8:46:1::${i + 1}`);
      expect(response.statusCode).toBe(401);
    }
    expect((await attempt(a.username, a.password, '2001:db8:46:1:abcd::9')).statusCode).toBe(429);
    expect((await attempt(a.username, a.password, '2001:db8:46:2::1')).statusCode).toBe(200);
  });

  it('an attacker failing without end from one address never stops the owner from another', async () => {
    const owner = await t.createUser({ username: 'besieged@example.org', password: 'besieged-pass-1' });
    const attacker = '10.11.0.1';
    // far past every account limit, and on through the pauses, for longer than any window
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < THROTTLE.perAccount * 2; i++) {
        expect([401, 429]).toContain(
          (await attempt(owner.username, `guess-${round}-${i}`, attacker)).statusCode,
        );
      }
      expect((await attempt(owner.username, 'besieged-pass-1', attacker)).statusCode).toBe(429);
      const elsewhere = await attempt(owner.username, 'besieged-pass-1', `10.11.1.${round + 1}`);
      expect(elsewhere.statusCode).toBe(200);
      advance(THROTTLE.windowMs / 2);
    }
  });

  it('failures from many addresses only briefly slow the addresses that failed; a fresh one signs in', async () => {
    const owner = await t.createUser({ username: 'sprayed@example.org', password: 'sprayed-pass-1' });
    // every address stays under its own limit, the account goes far past its limit
    for (let i = 0; i < THROTTLE.perAccount * 3; i++) {
      const address = `10.12.0.${i + 1}`;
      for (let j = 0; j < THROTTLE.perAccountAddress - 1; j++)
        await attempt(owner.username, 'guess-x1', address);
    }
    const slowed = await attempt(owner.username, 'sprayed-pass-1', '10.12.0.1');
    expect(slowed.statusCode).toBe(429);
    // short and capped
    expect(Number(slowed.headers['retry-after'])).toBeLessThanOrEqual(THROTTLE.accountPauseMs / 1000);
    expect((await attempt(owner.username, 'sprayed-pass-1', '10.12.1.1')).statusCode).toBe(200);
    advance(THROTTLE.accountPauseMs + 1000);
    expect((await attempt(owner.username, 'sprayed-pass-1', '10.12.0.1')).statusCode).toBe(200);
  });

  it('staff clear the pauses of an account; the address limit stays', async () => {
    const user = await t.createUser({ username: 'locked-out@example.org', password: 'locked-pass-1' });
    const address = '10.13.0.1';
    for (let i = 0; i < THROTTLE.perAccountAddress; i++) await attempt(user.username, 'guess-x1', address);
    expect((await attempt(user.username, 'locked-pass-1', address)).statusCode).toBe(429);
    const staffCookie = await t.loginStaff();
    const facilitatorCookie = await signIn(a);
    const unlockUrl = `/api/staff/users/${user.id}/unlock`;
    expect((await send(t, 'POST', unlockUrl, { cookie: facilitatorCookie })).statusCode).toBe(403);
    expect((await send(t, 'POST', unlockUrl)).statusCode).toBe(401);
    expect(
      (await send(t, 'POST', '/api/staff/users/999999/unlock', { cookie: staffCookie })).statusCode,
    ).toBe(404);
    const unlocked = await send(t, 'POST', unlockUrl, { cookie: staffCookie });
    expect(unlocked.statusCode).toBe(200);
    expect(unlocked.json()).toEqual({ message: 'Sign-in pauses cleared for locked-out@example.org' });
    expect((await attempt(user.username, 'locked-pass-1', address)).statusCode).toBe(200);
  });

  it('pauses an address after repeated failures across accounts; other addresses are not affected', async () => {
    for (let i = 0; i < THROTTLE.perAddress; i++) {
      expect((await attempt(`nobody-${i}@example.org`, 'wrong-guess-1', '10.4.0.1')).statusCode).toBe(401);
    }
    const blocked = await attempt(a.username, a.password, '10.4.0.1');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(
      (await attempt(STAFF.username, STAFF.password, '10.4.0.1', '/api/auth/staff-login')).statusCode,
    ).toBe(429);
    // X-Forwarded-For is not believed without TRUST_PROXY
    expect(
      (await attempt(a.username, a.password, '10.4.0.1', '/api/login', { 'x-forwarded-for': '10.4.0.2' }))
        .statusCode,
    ).toBe(429);
    expect((await attempt(a.username, a.password, '10.4.0.2')).statusCode).toBe(200);

    advance(THROTTLE.blockMs + 1000);
    expect((await attempt(a.username, a.password, '10.4.0.1')).statusCode).toBe(200);
  });

  it("a success clears the account's count, never the address's", async () => {
    const user = await t.createUser({ username: 'kim@example.org', password: 'kim-pass-1' });
    const address = '10.5.0.1';
    for (let i = 0; i < THROTTLE.perAccountAddress - 1; i++) {
      await attempt(user.username, 'wrong-guess', address);
    }
    expect((await attempt(user.username, 'kim-pass-1', address)).statusCode).toBe(200);
    for (let i = 0; i < THROTTLE.perAccountAddress - 1; i++) {
      expect((await attempt(user.username, 'wrong-guess', address)).statusCode).toBe(401);
    }
    expect((await attempt(user.username, 'kim-pass-1', address)).statusCode).toBe(200);
    // the address has now failed perAddress - 2 times; two more failures pause it
    await attempt('someone-else@example.org', 'wrong-guess', address);
    expect((await attempt(user.username, 'kim-pass-1', address)).statusCode).toBe(200);
    await attempt('someone-else@example.org', 'wrong-guess', address);
    expect((await attempt(user.username, 'kim-pass-1', address)).statusCode).toBe(429);
  });

  it('limits guesses sent in parallel too: exactly the allowance is checked, the rest get 429', async () => {
    const user = await t.createUser({ username: 'parallel@example.org', password: 'parallel-pass-1' });
    // one account from one address at once
    const onAccount = await Promise.all(
      Array.from({ length: 20 }, (_, i) => attempt(user.username, `guess-${i}`, '10.8.0.1')),
    );
    const accountStatuses = onAccount.map((r) => r.statusCode).sort();
    expect(accountStatuses.filter((s) => s === 401)).toHaveLength(THROTTLE.perAccountAddress);
    expect(accountStatuses.filter((s) => s === 429)).toHaveLength(20 - THROTTLE.perAccountAddress);
    // one address, many accounts at once
    const fromAddress = await Promise.all(
      Array.from({ length: 20 }, (_, i) => attempt(`spray-${i}@example.org`, 'guess-1', '10.9.0.1')),
    );
    expect(fromAddress.filter((r) => r.statusCode === 401)).toHaveLength(THROTTLE.perAddress);
    expect(fromAddress.filter((r) => r.statusCode === 429)).toHaveLength(20 - THROTTLE.perAddress);
    for (const refused of [...onAccount, ...fromAddress].filter((r) => r.statusCode === 429)) {
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    advance(THROTTLE.blockMs + 1000);
    expect((await attempt(user.username, 'parallel-pass-1', '10.8.0.1')).statusCode).toBe(200);
  });

  it('behind one trusted proxy, a forged X-Forwarded-For does not change the address the limits count', async () => {
    // The proxy appends the address it saw to whatever the client sent: only that last hop is believed.
    const client = '203.0.113.40';
    const viaProxy = (forged: string, payload: unknown) =>
      send(secure, 'POST', '/api/auth/staff-login', {
        payload,
        headers: { 'x-forwarded-for': `${forged}, ${client}` },
      });
    for (let i = 0; i < THROTTLE.perAddress; i++) {
      const guess = { username: `forger-${i}@example.org`, password: 'wrong-guess' };
      expect((await viaProxy(`198.18.0.${i + 1}`, guess)).statusCode).toBe(401);
    }
    // a fresh forged address does not escape the pause of the real one
    expect((await viaProxy('198.18.1.1', STAFF)).statusCode).toBe(429);
    // another real client behind the same proxy is not affected
    const other = await send(secure, 'POST', '/api/auth/staff-login', {
      payload: STAFF,
      headers: { 'x-forwarded-for': '198.18.1.1, 203.0.113.41' },
    });
    expect(other.statusCode).toBe(200);
  });

  it('uses the forwarded address behind a trusted proxy, so one client cannot pause everyone', async () => {
    const viaProxy = (address: string, payload: unknown) =>
      send(secure, 'POST', '/api/auth/staff-login', { payload, headers: { 'x-forwarded-for': address } });
    for (let i = 0; i < THROTTLE.perAddress; i++) {
      expect(
        (await viaProxy('203.0.113.7', { username: `x${i}@example.org`, password: 'wrong-guess' }))
          .statusCode,
      ).toBe(401);
    }
    expect((await viaProxy('203.0.113.7', STAFF)).statusCode).toBe(429);
    expect((await viaProxy('203.0.113.8', STAFF)).statusCode).toBe(200);
  });
});
