import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, STAFF, type TestApp } from '../../test/harness';

let t: TestApp;
let facilitator: Awaited<ReturnType<TestApp['createUser']>>;

beforeAll(async () => {
  t = await createTestApp({ LOGIN_THROTTLE: 'perAccount=5,perAddress=1000,windowMs=60000,blockMs=60000' });
  facilitator = await t.createUser({
    username: 'fran@example.org',
    displayName: 'Fran Facilitator',
    password: 'fran-pass-1',
  });
});
afterAll(() => t.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });

// Fixation, expiry, cross-site refusal, throttling and cookie flags: src/server/http/sessions-*.test.ts
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
        'anonymisedAt',
        'area',
        'deactivatedAt',
        'displayName',
        'email',
        'freelancerId',
        'id',
        'lastAvailabilityUpdatedAt',
        'role',
        'username',
        'version',
      ].sort(),
    );
    expect(response.body).not.toContain('password');
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/afp_session=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i);
    // the scripts' sign-in hint: no secret in it, gone again at logout
    const hint = response.cookies.find((c) => c.name === 'afp_signed_in');
    expect(hint).toMatchObject({ value: '1', path: '/', sameSite: 'Lax' });
    expect(hint?.httpOnly).toBeFalsy();
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
});

describe('staff login', () => {
  it('signs staff in', async () => {
    const response = await post('/api/auth/staff-login', STAFF);
    expect(response.statusCode).toBe(200);
    expect(response.json().role).toBe('staff');
  });

  it('signs staff in on the facilitator form too, whose page then sends them to /staff', async () => {
    const response = await post('/api/login', STAFF);
    expect(response.statusCode).toBe(200);
    expect(response.json().role).toBe('staff');
    expect(String(response.headers['set-cookie'])).toMatch(/afp_session=/);
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
    expect(String(response.headers['set-cookie'])).toMatch(/afp_signed_in=;/);
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

describe('one canonical username for sign-in and its lockout', () => {
  // JavaScript lower-cased `İ` to "i̇" for the throttle while the database's lower() made it "i": the
  // spelling escaped the victim's lockout and still signed in as the victim.
  it.each([
    ['victim-a@example.org', 'vİctim-a@example.org'],
    ['victim-b@example.org', 'ＶＩＣＴＩＭ-b@example.org'],
    ['strasse@example.org', 'STRAßE@example.org'],
  ])('a lockout of %s also holds for %s', async (username, spelling) => {
    await t.createUser({ username, password: 'right-pass-1' });
    for (let attempt = 0; attempt < 5; attempt++) {
      const wrong = await post('/api/login', { username, password: 'wrong-pass-1' });
      expect(wrong.statusCode).toBe(401);
    }
    const other = await post('/api/login', { username: spelling, password: 'right-pass-1' });
    expect(other.statusCode).toBe(429);
    expect(other.headers['set-cookie']).toBeUndefined();
  });

  it('failures under another spelling count against the same account', async () => {
    await t.createUser({ username: 'victim-c@example.org', password: 'right-pass-1' });
    for (let attempt = 0; attempt < 5; attempt++) {
      const spelling = attempt % 2 ? 'VİCTIM-c@example.org' : 'vıctım-c@example.org';
      expect((await post('/api/login', { username: spelling, password: 'wrong-pass-1' })).statusCode).toBe(
        401,
      );
    }
    const right = await post('/api/login', { username: 'victim-c@example.org', password: 'right-pass-1' });
    expect(right.statusCode).toBe(429);
  });
});
