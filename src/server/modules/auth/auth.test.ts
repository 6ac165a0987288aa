import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, STAFF, type TestApp } from '../../test/harness';

let t: TestApp;
let facilitator: Awaited<ReturnType<TestApp['createUser']>>;

beforeAll(async () => {
  t = await createTestApp(
    {},
    { loginThrottle: { perAccount: 5, perAddress: 1000, windowMs: 60_000, blockMs: 60_000 } },
  );
  facilitator = await t.createUser({
    username: 'fran@example.org',
    displayName: 'Fran Facilitator',
    password: 'fran-pass-1',
  });
});
afterAll(() => t.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });

describe('facilitator login', () => {
  it('signs in, returns the public user and sets a hardened session cookie', async () => {
    const response = await post('/api/login', { username: 'FRAN@example.org', password: 'fran-pass-1' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      id: facilitator.id,
      username: 'fran@example.org',
      displayName: 'Fran Facilitator',
      role: 'facilitator',
    });
    expect(Object.keys(body).sort()).toEqual(
      [
        'area',
        'displayName',
        'email',
        'freelancerId',
        'id',
        'lastAvailabilityUpdatedAt',
        'role',
        'username',
      ].sort(),
    );
    expect(response.body).not.toContain('password');
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/afp_session=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i);
  });

  it('refuses a wrong password or unknown user with the same message', async () => {
    const wrong = await post('/api/login', { username: 'fran@example.org', password: 'not-the-password' });
    const unknown = await post('/api/login', { username: 'nobody@example.org', password: 'whatever1' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: 'Invalid username or password' });
    expect(unknown.json()).toEqual({ message: 'Invalid username or password' });
  });

  it.each([
    [{ username: 'ab', password: 'long-enough' }, 'Username must be at least 3 characters'],
    [{ username: 'fran@example.org', password: '12345' }, 'Password must be at least 6 characters'],
    [{ username: 'fran@example.org' }, 'password'],
    [{ username: 42, password: 'long-enough' }, 'username'],
    [{ username: 'x'.repeat(300), password: 'long-enough' }, 'Username must be at most 254 characters'],
  ])('refuses bad input %j with 400', async (payload, expected) => {
    const response = await post('/api/login', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(expected);
  });

  it('refuses a body that is not JSON with a 400 message, not a crash', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toHaveProperty('message');
  });

  it('gives a new session id at every login and ends the previous one (no fixation)', async () => {
    const first = await t.login('fran@example.org', 'fran-pass-1');
    const second = await post(
      '/api/login',
      { username: 'fran@example.org', password: 'fran-pass-1' },
      { cookie: first },
    );
    const secondCookie = second.cookies.find((c) => c.name === 'afp_session')!.value;
    expect(`afp_session=${secondCookie}`).not.toBe(first);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: first } })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ url: '/api/user', headers: { cookie: `afp_session=${secondCookie}` } }))
        .statusCode,
    ).toBe(200);
  });

  it('marks the cookie Secure when COOKIE_SECURE is true', async () => {
    const secure = await createTestApp({ COOKIE_SECURE: 'true' });
    try {
      const response = await secure.app.inject({
        method: 'POST',
        url: '/api/auth/staff-login',
        payload: STAFF,
      });
      expect(String(response.headers['set-cookie'])).toMatch(/Secure/);
    } finally {
      await secure.close();
    }
  });
});

describe('staff login', () => {
  it('signs staff in', async () => {
    const response = await post('/api/auth/staff-login', STAFF);
    expect(response.statusCode).toBe(200);
    expect(response.json().role).toBe('staff');
  });

  it('refuses a facilitator with "Invalid credentials" even with the right password', async () => {
    const response = await post('/api/auth/staff-login', {
      username: 'fran@example.org',
      password: 'fran-pass-1',
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: 'Invalid credentials' });
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('asks for both fields', async () => {
    const response = await post('/api/auth/staff-login', { username: '', password: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('Please enter both username and password');
  });
});

describe('current user and logout', () => {
  it('answers 401 when signed out and the user when signed in', async () => {
    expect((await t.app.inject({ url: '/api/user' })).statusCode).toBe(401);
    const cookie = await t.login('fran@example.org', 'fran-pass-1');
    const response = await t.app.inject({ url: '/api/user', headers: { cookie } });
    expect(response.statusCode).toBe(200);
    expect(response.json().username).toBe('fran@example.org');
  });

  it('POST /api/logout deletes the session', async () => {
    const cookie = await t.login('fran@example.org', 'fran-pass-1');
    const response = await t.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie } });
    expect(response.statusCode).toBe(200);
    expect(String(response.headers['set-cookie'])).toMatch(/afp_session=;/);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).statusCode).toBe(401);
  });

  it.each([
    ['/api/logout', '/auth'],
    ['/api/auth/logout', '/staff-login'],
  ])('GET %s ends the session and redirects to %s', async (url, target) => {
    const cookie = await t.login('fran@example.org', 'fran-pass-1');
    const response = await t.app.inject({ url, headers: { cookie } });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(target);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).statusCode).toBe(401);
  });

  it('ends idle sessions and sessions past their absolute lifetime', async () => {
    const idle = await t.login('fran@example.org', 'fran-pass-1');
    await t.ctx.db.execute(sql`update sessions set last_seen_at = now() - interval '4 days'`);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: idle } })).statusCode).toBe(401);
    const old = await t.login('fran@example.org', 'fran-pass-1');
    await t.ctx.db.execute(sql`update sessions set expires_at = now() - interval '1 second'`);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: old } })).statusCode).toBe(401);
  });
});

describe('cross-site requests', () => {
  it('refuses a state-changing request from another site and changes nothing', async () => {
    const cookie = await t.login('fran@example.org', 'fran-pass-1');
    const viaFetchSite = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { cookie, 'sec-fetch-site': 'cross-site' },
    });
    expect(viaFetchSite.statusCode).toBe(403);
    const viaOrigin = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { cookie, origin: 'https://evil.example', host: 'portal.example' },
    });
    expect(viaOrigin.statusCode).toBe(403);
    const viaGetLink = await t.app.inject({
      url: '/api/logout',
      headers: { cookie, 'sec-fetch-site': 'cross-site' },
    });
    expect(viaGetLink.statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).statusCode).toBe(200);
  });

  it('accepts same-origin requests', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/staff-login',
      payload: STAFF,
      headers: { 'sec-fetch-site': 'same-origin', origin: 'http://localhost:80', host: 'localhost:80' },
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('login throttling', () => {
  it('pauses an account after repeated failures, with Retry-After, even for the right password', async () => {
    const victim = await t.createUser({ username: 'victim@example.org', password: 'victim-pass' });
    for (let i = 0; i < 5; i++) {
      expect(
        (await post('/api/login', { username: victim.username, password: 'wrong-pass' })).statusCode,
      ).toBe(401);
    }
    const blocked = await post('/api/login', { username: victim.username, password: 'victim-pass' });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.json().message).toMatch(/Too many failed sign-in attempts/);
  });

  it('pauses an address after repeated failures across accounts', async () => {
    const strict = await createTestApp(
      {},
      { loginThrottle: { perAccount: 100, perAddress: 3, windowMs: 60_000, blockMs: 60_000 } },
    );
    try {
      for (const name of ['a1@example.org', 'a2@example.org', 'a3@example.org']) {
        await strict.app.inject({
          method: 'POST',
          url: '/api/login',
          payload: { username: name, password: 'wrong-pass' },
        });
      }
      const blocked = await strict.app.inject({
        method: 'POST',
        url: '/api/auth/staff-login',
        payload: STAFF,
      });
      expect(blocked.statusCode).toBe(429);
      const elsewhere = await strict.app.inject({
        method: 'POST',
        url: '/api/auth/staff-login',
        payload: STAFF,
        remoteAddress: '10.9.9.9',
      });
      expect(elsewhere.statusCode).toBe(200);
    } finally {
      await strict.close();
    }
  });
});

describe('change password', () => {
  it('refuses a wrong current password and changes nothing', async () => {
    const user = await t.createUser({ username: 'pat@example.org', password: 'pat-pass-1' });
    const cookie = await t.login(user.username, 'pat-pass-1');
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/user/password',
      headers: { cookie },
      payload: { currentPassword: 'nope-nope', newPassword: 'pat-pass-2' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Current password is incorrect');
    await t.login(user.username, 'pat-pass-1');
  });

  it.each([
    [{ currentPassword: '', newPassword: 'abcdef' }, 'Current password is required'],
    [{ currentPassword: 'pat-pass-1', newPassword: 'abc' }, 'New password must be at least 6 characters'],
    [{ currentPassword: 'pat-pass-1' }, 'newPassword'],
  ])('refuses bad input %j', async (payload, message) => {
    const cookie = await t.login('pat@example.org', 'pat-pass-1');
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/user/password',
      headers: { cookie },
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
  });

  it('changes the password, ends other sessions and keeps the caller signed in', async () => {
    const user = await t.createUser({ username: 'quinn@example.org', password: 'quinn-pass-1' });
    const other = await t.login(user.username, 'quinn-pass-1');
    const mine = await t.login(user.username, 'quinn-pass-1');
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/user/password',
      headers: { cookie: mine },
      payload: { currentPassword: 'quinn-pass-1', newPassword: 'quinn-pass-2' },
    });
    expect(response.statusCode).toBe(200);
    const renewed = `afp_session=${response.cookies.find((c) => c.name === 'afp_session')!.value}`;
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: other } })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: renewed } })).statusCode).toBe(200);
    await expect(t.login(user.username, 'quinn-pass-1')).rejects.toThrow();
    await t.login(user.username, 'quinn-pass-2');
  });

  it('requires a session', async () => {
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/user/password',
      payload: { currentPassword: 'a', newPassword: 'bbbbbb' },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('registration', () => {
  it('is closed unless ALLOW_REGISTRATION is set', async () => {
    const response = await post('/api/register', { username: 'newbie@example.org', password: 'newbie-pass' });
    expect(response.statusCode).toBe(403);
    await expect(t.login('newbie@example.org', 'newbie-pass')).rejects.toThrow();
  });

  it('creates a facilitator and signs them in when allowed; duplicates are 409', async () => {
    const open = await createTestApp({ ALLOW_REGISTRATION: 'true' });
    try {
      const response = await open.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: { username: 'newbie@example.org', password: 'newbie-pass', role: 'staff' },
      });
      expect(response.statusCode).toBe(201);
      expect(response.json().role).toBe('facilitator');
      const cookie = `afp_session=${response.cookies.find((c) => c.name === 'afp_session')!.value}`;
      expect((await open.app.inject({ url: '/api/user', headers: { cookie } })).statusCode).toBe(200);
      const again = await open.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: { username: 'NEWBIE@example.org', password: 'newbie-pass' },
      });
      expect(again.statusCode).toBe(409);
      const short = await open.app.inject({
        method: 'POST',
        url: '/api/register',
        payload: { username: 'ab', password: 'newbie-pass' },
      });
      expect(short.statusCode).toBe(400);
    } finally {
      await open.close();
    }
  });
});
