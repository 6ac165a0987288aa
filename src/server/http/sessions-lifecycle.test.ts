/**
 * Sessions from sign-in to their end: a session id chosen before sign-in is never kept (fixation),
 * logout ends exactly the session it is called with, idle and absolute expiry (the app's clock moves),
 * and a password change ends the other sessions. The routes a dead cookie is tried on come from the
 * app itself (`routes`). Set-up: src/server/test/sessions-app.ts.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../auth/sessions';
import { STAFF, type TestApp } from '../test/harness';
import {
  cookieHeader,
  DAY,
  type Method,
  MINUTE,
  type Person,
  send,
  sessionCookie,
  sessionsApp,
  THROTTLE,
  tokenOf,
  urlOf,
} from '../test/sessions-app';

const w = sessionsApp();
const { signIn, signInStaff, whoAmI, dump, sessionCount, advance } = w;
let t: TestApp;
let a: Person;
let b: Person;
let staffId: number;
beforeAll(() => {
  ({ t, a, b } = w);
  staffId = w.staffId;
});

describe('session fixation', () => {
  const CHOSEN = `afp_session=${'A'.repeat(43)}`;

  it.each([
    [
      'POST /api/login',
      () => ({ url: '/api/login', payload: { username: a.username, password: a.password } }),
    ],
    ['POST /api/auth/staff-login', () => ({ url: '/api/auth/staff-login', payload: STAFF })],
    [
      'POST /api/register',
      () => ({
        url: '/api/register',
        payload: { username: `fixed-${w.clock}@example.org`, password: 'fixed-pass-1' },
      }),
    ],
  ])('%s never keeps or adopts a session id chosen before sign-in', async (_name, build) => {
    const { url, payload } = build();
    const response = await send(t, 'POST', url, { cookie: CHOSEN, payload });
    expect(response.statusCode).toBeLessThan(300);
    const issued = cookieHeader(response);
    expect(issued).not.toBe(CHOSEN);
    expect(await whoAmI(CHOSEN)).toBe(401);
    expect(await t.ctx.sessions.resolve(tokenOf(CHOSEN))).toBeNull();
    expect(await whoAmI(issued)).toBe(200);
  });

  it('gives a new session id at every sign-in; the one the browser held ends, other devices keep theirs', async () => {
    const otherDevice = await signIn(a);
    const first = await signIn(a);
    const second = await signIn(a, { cookie: first });
    const third = await signIn(a, { cookie: second });
    expect(new Set([otherDevice, first, second, third]).size).toBe(4);
    expect(await whoAmI(first)).toBe(401);
    expect(await whoAmI(second)).toBe(401);
    expect(await whoAmI(third)).toBe(200);
    expect(await whoAmI(otherDevice)).toBe(200);
  });

  it("signing in over another user's session ends that session", async () => {
    const bobs = await signIn(b);
    const alices = await signIn(a, { cookie: bobs });
    expect(await whoAmI(bobs)).toBe(401);
    expect((await send(t, 'GET', '/api/user', { cookie: alices })).json().id).toBe(a.id);
  });

  it('a failed sign-in sets no cookie and leaves the current session as it was', async () => {
    const cookie = await signIn(a);
    const before = await sessionCount(a.id);
    const failed = await send(t, 'POST', '/api/login', {
      cookie,
      address: '10.1.0.1',
      payload: { username: a.username, password: 'not-the-password' },
    });
    expect(failed.statusCode).toBe(401);
    expect(failed.headers['set-cookie']).toBeUndefined();
    expect(await sessionCount(a.id)).toBe(before);
    expect(await whoAmI(cookie)).toBe(200);
  });

  it('a password change replaces the session id too', async () => {
    const user = await t.createUser({ username: 'fixation-pw@example.org', password: 'first-pass-1' });
    const cookie = await signIn({ username: user.username, password: 'first-pass-1' });
    const response = await send(t, 'PUT', '/api/user/password', {
      cookie,
      payload: { currentPassword: 'first-pass-1', newPassword: 'second-pass-2' },
    });
    expect(response.statusCode).toBe(200);
    const renewed = cookieHeader(response);
    expect(renewed).not.toBe(cookie);
    expect(await whoAmI(cookie)).toBe(401);
    expect(await whoAmI(renewed)).toBe(200);
  });

  it('treats malformed, oversized, quoted or doubled session cookies as no session (never a 5xx)', async () => {
    const valid = tokenOf(await signIn(a));
    const hostile = [
      'afp_session=',
      'afp_session=%',
      'afp_session=%E0%A4%A',
      `afp_session=${'x'.repeat(6000)}`,
      'afp_session=ünï',
      `afp_session="${valid}"`,
      `AFP_SESSION=${valid}`,
      `afp_session=${valid}%00`,
      `afp_session=${valid.slice(0, -1)}`,
      `afp_session=not-a-session; afp_session=${valid}`,
    ];
    for (const cookie of hostile) {
      const response = await send(t, 'GET', '/api/user', { cookie });
      expect(response.statusCode, cookie.slice(0, 60)).toBe(401);
    }
  });

  it('the database keeps only a keyed hash of each token, and tokens are long and random', async () => {
    const cookies = [await signIn(a), await signIn(b), await signInStaff()];
    const result = await t.ctx.db.execute(sql`select id from sessions`);
    const ids = (result as unknown as { rows: { id: string }[] }).rows.map((row) => row.id);
    for (const cookie of cookies) {
      const token = tokenOf(cookie);
      expect(token).toMatch(/^[A-Za-z0-9_-]{43,}$/);
      expect(ids).not.toContain(token);
      expect(ids.join('\n')).not.toContain(token);
    }
  });
});

describe('logout', () => {
  it.each([
    ['POST', '/api/logout'],
    ['GET', '/api/logout'],
    ['GET', '/api/auth/logout'],
  ] as const)('%s %s: the old cookie is refused by every route afterwards', async (method, url) => {
    for (const who of ['facilitator', 'staff'] as const) {
      const cookie = who === 'staff' ? await signInStaff() : await signIn(a);
      const userId = who === 'staff' ? staffId : a.id;
      const before = await sessionCount(userId);
      const response = await send(t, method, url, { cookie });
      expect(response.statusCode).toBe(method === 'POST' ? 200 : 302);
      const cleared = sessionCookie(response);
      expect(cleared?.value).toBe('');
      expect(cleared?.expires?.getTime() ?? cleared?.maxAge).toBeLessThanOrEqual(Date.now());
      expect(await sessionCount(userId)).toBe(before - 1);

      const stillOpen: string[] = [];
      for (const route of t.routes.filter((r) => r.access !== 'public')) {
        for (const m of route.method === 'GET' ? ['GET', 'HEAD'] : [route.method]) {
          const answer = await send(t, m as Method, urlOf(route, a.id), { cookie, payload: {} });
          if (answer.statusCode !== 401) stillOpen.push(`${m} ${route.url}: ${answer.statusCode}`);
        }
      }
      expect(stillOpen, `${who}: the ended session still opens ${stillOpen.join(', ')}`).toEqual([]);
      // and the link forms of logout with the dead cookie do nothing more than send you to sign in
      expect((await send(t, 'GET', '/api/logout', { cookie })).statusCode).toBe(302);
    }
  });

  it('ends only the session it is called with', async () => {
    const laptop = await signIn(a);
    const phone = await signIn(a);
    await send(t, 'POST', '/api/logout', { cookie: laptop });
    expect(await whoAmI(laptop)).toBe(401);
    expect(await whoAmI(phone)).toBe(200);
  });
});

describe('expiry (the app w.clock moves)', () => {
  it('ends a session left unused for the idle time; using it keeps it alive', async () => {
    const cookie = await signIn(a);
    advance(SESSION_IDLE_MS - MINUTE);
    expect(await whoAmI(cookie)).toBe(200);
    advance(SESSION_IDLE_MS - MINUTE);
    expect(await whoAmI(cookie)).toBe(200);
    advance(SESSION_IDLE_MS + MINUTE);
    expect(await whoAmI(cookie)).toBe(401);
    // every route refuses it, not just /api/user
    expect((await send(t, 'GET', '/api/availability', { cookie })).statusCode).toBe(401);
  });

  it('records use at most every few minutes (reads do not become writes)', async () => {
    const cookie = await signIn(b);
    const lastSeen = async () => {
      const result = await t.ctx.db.execute(
        sql`select last_seen_at::text as at from sessions where user_id = ${b.id} order by last_seen_at desc limit 1`,
      );
      return (result as unknown as { rows: { at: string }[] }).rows[0]!.at;
    };
    const first = await lastSeen();
    advance(2 * MINUTE);
    expect(await whoAmI(cookie)).toBe(200);
    expect(await lastSeen()).toBe(first);
    advance(4 * MINUTE);
    expect(await whoAmI(cookie)).toBe(200);
    expect(await lastSeen()).not.toBe(first);
  });

  it('ends a session at its absolute lifetime however much it is used', async () => {
    const signedInAt = w.clock;
    const response = await send(t, 'POST', '/api/login', {
      payload: { username: a.username, password: a.password },
    });
    const cookie = cookieHeader(response);
    // the browser is told the same lifetime
    expect(sessionCookie(response)?.expires?.getTime()).toBe(
      signedInAt + SESSION_ABSOLUTE_MS - (signedInAt % 1000),
    );
    while (w.clock + 2 * DAY < signedInAt + SESSION_ABSOLUTE_MS) {
      advance(2 * DAY);
      expect(await whoAmI(cookie)).toBe(200);
    }
    w.clock = signedInAt + SESSION_ABSOLUTE_MS - MINUTE;
    expect(await whoAmI(cookie)).toBe(200);
    advance(MINUTE + 1000);
    expect(await whoAmI(cookie)).toBe(401);
  });

  it('purges expired sessions from the table', async () => {
    const cookie = await signIn(b);
    advance(SESSION_IDLE_MS + MINUTE);
    expect(await t.ctx.sessions.purgeExpired()).toBeGreaterThan(0);
    expect(await t.ctx.sessions.resolve(tokenOf(cookie))).toBeNull();
    const result = await t.ctx.db.execute(sql`select count(*)::int as n from sessions`);
    expect((result as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
  });
});

describe('password changes end other sessions', () => {
  it('changing your own password ends your other sessions and keeps you signed in here', async () => {
    const user = await t.createUser({ username: 'quinn@example.org', password: 'quinn-pass-1' });
    const other = await signIn({ username: user.username, password: 'quinn-pass-1' });
    const mine = await signIn({ username: user.username, password: 'quinn-pass-1' });
    const response = await send(t, 'PUT', '/api/user/password', {
      cookie: mine,
      payload: { currentPassword: 'quinn-pass-1', newPassword: 'quinn-pass-2' },
    });
    expect(response.statusCode).toBe(200);
    const renewed = cookieHeader(response);
    expect(await whoAmI(other)).toBe(401);
    expect(await whoAmI(mine)).toBe(401);
    expect(await whoAmI(renewed)).toBe(200);
    expect(await sessionCount(user.id)).toBe(1);
    const old = await send(t, 'POST', '/api/login', {
      address: '10.2.0.1',
      payload: { username: user.username, password: 'quinn-pass-1' },
    });
    expect(old.statusCode).toBe(401);
    await signIn({ username: user.username, password: 'quinn-pass-2' });
  });

  it('staff setting their own password on the users page stay signed in here and nowhere else', async () => {
    const boss = await t.createUser({ username: 'boss@example.org', password: 'boss-pass-1', role: 'staff' });
    const elsewhere = await signIn({ username: boss.username, password: 'boss-pass-1' }, { staff: true });
    const here = await signIn({ username: boss.username, password: 'boss-pass-1' }, { staff: true });
    const response = await send(t, 'PUT', `/api/staff/users/${boss.id}`, {
      cookie: here,
      payload: { version: boss.version, username: boss.username, password: 'boss-pass-2' },
    });
    expect(response.statusCode).toBe(200);
    expect(await whoAmI(here)).toBe(200);
    expect(await whoAmI(elsewhere)).toBe(401);
  });

  it('a wrong current password changes nothing', async () => {
    const cookie = await signIn(b);
    const other = await signIn(b);
    const before = await dump();
    const response = await send(t, 'PUT', '/api/user/password', {
      cookie,
      payload: { currentPassword: a.password, newPassword: 'stolen-pass-9' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['set-cookie']).toBeUndefined();
    // only the failure count moves (next test)
    const { login_throttle: _before, ...rest } = before;
    const { login_throttle: _after, ...restAfter } = await dump();
    expect(restAfter).toEqual(rest);
    expect(await whoAmI(other)).toBe(200);
  });

  it('wrong current passwords count like failed sign-ins (a borrowed session cannot guess on)', async () => {
    const user = await t.createUser({ username: 'guessed@example.org', password: 'guessed-pass-1' });
    const cookie = await signIn({ username: user.username, password: 'guessed-pass-1' });
    const change = (currentPassword: string) =>
      send(t, 'PUT', '/api/user/password', {
        cookie,
        address: '10.10.0.1',
        payload: { currentPassword, newPassword: 'guessed-pass-2' },
      });
    for (let i = 0; i < THROTTLE.perAccountAddress; i++) {
      expect((await change(`guess-${i}-x`)).statusCode).toBe(400);
    }
    const paused = await change('guessed-pass-1');
    expect(paused.statusCode).toBe(429);
    expect(Number(paused.headers['retry-after'])).toBeGreaterThan(0);
    // the same account and address limit as sign-in
    const samePlace = await send(t, 'POST', '/api/login', {
      address: '10.10.0.1',
      payload: { username: user.username, password: 'guessed-pass-1' },
    });
    expect(samePlace.statusCode).toBe(429);
    advance(THROTTLE.blockMs + 1000);
    expect((await change('guessed-pass-1')).statusCode).toBe(200);
  });
});
