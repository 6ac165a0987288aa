/**
 * Passkeys through the real routes, with a software authenticator making real WebAuthn answers
 * (ES256, "none" and "packed" attestation): add one, sign in with it into the same session a password
 * gives, and be refused for a replayed or rewound answer, another site's passkey or origin, a removed
 * passkey, another account's passkey, and (staff) once passwords are required to give way.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeHistory, passkeys, webauthnChallenges } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';
import { TestAuthenticator } from '../../test/webauthn-authenticator';
import { CHALLENGE_LIFETIME_MS, PASSKEY_SIGN_IN_FAILED, STAFF_STRONG_SIGN_IN_MESSAGE } from './service';

const PORTAL = 'https://portal.example.org';
let clock = new Date('2026-11-20T10:00:00Z');
let t: TestApp;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: PORTAL }, { now: () => clock });
});
afterAll(async () => {
  await t.close();
});

const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie?: string, payload?: object) =>
  t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: cookie ? { cookie } : {} });
const cookieOf = (response: { cookies: Array<{ name: string; value: string }> }) => {
  const c = response.cookies.find((x) => x.name.endsWith('afp_session'));
  return c ? `${c.name}=${c.value}` : '';
};

async function person(role: 'facilitator' | 'staff' = 'facilitator') {
  seq += 1;
  const user = await t.createUser({ username: `pk-${seq}`, displayName: `Passkey ${seq}`, role });
  return { ...user, cookie: await t.login(user.username, user.password, { staff: role === 'staff' }) };
}

/** Add a passkey to the account behind `cookie` through the routes; the authenticator keeps its key. */
async function addPasskey(
  cookie: string,
  authenticator: TestAuthenticator,
  options: { name?: string; origin?: string; rpId?: string; attestation?: 'none' | 'packed' } = {},
) {
  const opened = await inject('POST', '/api/passkeys/options', cookie);
  expect(opened.statusCode).toBe(200);
  const made = authenticator.create(opened.json().options, {
    origin: options.origin ?? PORTAL,
    ...(options.rpId ? { rpId: options.rpId } : {}),
    attestation: options.attestation ?? 'none',
  });
  const added = await inject('POST', '/api/passkeys', cookie, {
    name: options.name ?? 'My phone',
    response: made.response,
  });
  return { added, made };
}

async function signInOptions() {
  const opened = await inject('POST', '/api/passkey-sign-in/options');
  expect(opened.statusCode).toBe(200);
  return opened.json().options as Record<string, unknown>;
}

async function signIn(
  authenticator: TestAuthenticator,
  ceremony: { origin?: string; rpId?: string; counter?: number; page?: 'facilitator' | 'staff' } = {},
) {
  const options = await signInOptions();
  const response = authenticator.get(options, {
    origin: ceremony.origin ?? PORTAL,
    ...(ceremony.rpId ? { rpId: ceremony.rpId } : {}),
    ...(ceremony.counter !== undefined ? { counter: ceremony.counter } : {}),
  });
  const answer = await inject('POST', '/api/passkey-sign-in', undefined, {
    response,
    page: ceremony.page ?? 'facilitator',
  });
  return { answer, response };
}

describe('adding a passkey', () => {
  it('keeps a passkey made with "none" or "packed" attestation, named, and lists it', async () => {
    const me = await person();
    const authenticator = new TestAuthenticator();
    const none = await addPasskey(me.cookie, authenticator, { name: 'Phone' });
    expect(none.added.statusCode).toBe(201);
    const packed = await addPasskey(me.cookie, authenticator, { name: 'Laptop', attestation: 'packed' });
    expect(packed.added.statusCode).toBe(201);
    const list = await inject('GET', '/api/passkeys', me.cookie);
    expect(list.json()).toEqual([
      { id: expect.any(Number), name: 'Phone', createdAt: clock.toISOString(), lastUsedAt: null },
      { id: expect.any(Number), name: 'Laptop', createdAt: clock.toISOString(), lastUsedAt: null },
    ]);
    const history = await t.ctx.db.select().from(changeHistory).where(eq(changeHistory.subjectUserId, me.id));
    expect(history.map((h) => (h.after as { event?: string }).event)).toEqual([
      'passkey-added',
      'passkey-added',
    ]);
    // only the public key is kept
    const [row] = await t.ctx.db.select().from(passkeys).where(eq(passkeys.userId, me.id));
    expect(row).toMatchObject({ rpId: 'portal.example.org', transports: ['internal'] });
  });

  it('refuses an answer made for another site or on another origin, and changes nothing', async () => {
    const me = await person();
    const otherSite = await addPasskey(me.cookie, new TestAuthenticator(), { rpId: 'evil.example.net' });
    expect(otherSite.added.statusCode).toBe(400);
    const otherOrigin = await addPasskey(me.cookie, new TestAuthenticator(), {
      origin: 'https://evil.example.net',
    });
    expect(otherOrigin.added.statusCode).toBe(400);
    expect(otherOrigin.added.json().message).toMatch(/could not be added/);
    expect((await inject('GET', '/api/passkeys', me.cookie)).json()).toEqual([]);
  });

  it('uses a challenge once, for its own account only, and not after it expired', async () => {
    const me = await person();
    const other = await person();
    const authenticator = new TestAuthenticator();
    const opened = await inject('POST', '/api/passkeys/options', me.cookie);
    const made = authenticator.create(opened.json().options, { origin: PORTAL });
    // another account cannot finish my ceremony
    const stolen = await inject('POST', '/api/passkeys', other.cookie, {
      name: 'Mine',
      response: made.response,
    });
    expect(stolen.statusCode).toBe(400);
    // and the attempt used it up
    const late = await inject('POST', '/api/passkeys', me.cookie, { name: 'Mine', response: made.response });
    expect(late.statusCode).toBe(400);

    const again = await inject('POST', '/api/passkeys/options', me.cookie);
    const fresh = authenticator.create(again.json().options, { origin: PORTAL });
    clock = new Date(clock.getTime() + CHALLENGE_LIFETIME_MS + 1000);
    const expired = await inject('POST', '/api/passkeys', me.cookie, {
      name: 'Mine',
      response: fresh.response,
    });
    expect(expired.statusCode).toBe(400);
    expect((await inject('GET', '/api/passkeys', me.cookie)).json()).toEqual([]);
  });

  it('refuses a bad body with field messages, and a signed-out caller', async () => {
    const me = await person();
    const bad = await inject('POST', '/api/passkeys', me.cookie, { name: '', response: { id: 'x' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toHaveProperty('name');
    expect((await inject('POST', '/api/passkeys/options')).statusCode).toBe(401);
  });
});

describe('signing in with a passkey', () => {
  it('opens the same session as a password sign-in, and records when the passkey was used', async () => {
    const me = await person();
    const authenticator = new TestAuthenticator();
    await addPasskey(me.cookie, authenticator);
    const { answer } = await signIn(authenticator);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ id: me.id, username: me.username });
    const whoAmI = await inject('GET', '/api/user', cookieOf(answer));
    expect(whoAmI.json()).toMatchObject({ id: me.id });
    const [listed] = (await inject('GET', '/api/passkeys', me.cookie)).json();
    expect(listed.lastUsedAt).toBe(clock.toISOString());
  });

  it('refuses a deactivated account, opening no session', async () => {
    const me = await person();
    const authenticator = new TestAuthenticator();
    await addPasskey(me.cookie, authenticator);
    const staff = await t.loginStaff();
    const off = await inject('POST', `/api/staff/users/${me.id}/deactivate`, staff);
    expect(off.statusCode, off.body).toBe(200);
    const { answer } = await signIn(authenticator);
    expect(answer.statusCode).toBe(403);
    expect(answer.json().message).toContain('deactivated');
    expect(answer.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a replayed answer, a counter turned back and a challenge used twice', async () => {
    const me = await person();
    const authenticator = new TestAuthenticator();
    await addPasskey(me.cookie, authenticator);
    const first = await signIn(authenticator);
    expect(first.answer.statusCode).toBe(200);
    const replay = await inject('POST', '/api/passkey-sign-in', undefined, { response: first.response });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toBe(PASSKEY_SIGN_IN_FAILED);
    // a cloned key reporting an old counter
    const rewound = await signIn(authenticator, { counter: 1 });
    expect(rewound.answer.statusCode).toBe(401);
    expect((await signIn(authenticator)).answer.statusCode).toBe(200);
  });

  it('refuses an answer for another site or from another origin', async () => {
    const me = await person();
    const authenticator = new TestAuthenticator();
    await addPasskey(me.cookie, authenticator);
    expect((await signIn(authenticator, { rpId: 'evil.example.net' })).answer.statusCode).toBe(401);
    expect((await signIn(authenticator, { origin: 'https://evil.example.net' })).answer.statusCode).toBe(401);
    expect((await signIn(authenticator)).answer.statusCode).toBe(200);
  });

  it('refuses a passkey of another site that was never registered here', async () => {
    const stranger = new TestAuthenticator();
    stranger.create({ rp: { id: 'evil.example.net' }, user: { id: 'eA' }, challenge: 'x' }, { origin: 'x' });
    expect((await signIn(stranger)).answer.statusCode).toBe(401);
  });

  it('no longer signs in with a removed passkey, and another account cannot remove or rename it', async () => {
    const me = await person();
    const other = await person();
    const authenticator = new TestAuthenticator();
    const { added } = await addPasskey(me.cookie, authenticator);
    const id = added.json().id as number;
    expect((await inject('DELETE', `/api/passkeys/${id}`, other.cookie)).statusCode).toBe(404);
    expect((await inject('PUT', `/api/passkeys/${id}`, other.cookie, { name: 'Taken' })).statusCode).toBe(
      404,
    );
    const renamed = await inject('PUT', `/api/passkeys/${id}`, me.cookie, { name: 'Work phone' });
    expect(renamed.json()).toMatchObject({ id, name: 'Work phone' });
    expect((await inject('DELETE', `/api/passkeys/${id}`, me.cookie)).statusCode).toBe(204);
    expect((await signIn(authenticator)).answer.statusCode).toBe(401);
    const history = await t.ctx.db.select().from(changeHistory).where(eq(changeHistory.subjectUserId, me.id));
    expect(history.map((h) => (h.after as { event?: string }).event)).toEqual([
      'passkey-added',
      'passkey-renamed',
      'passkey-removed',
    ]);
    // the rename keeps both names
    expect(
      history.map((h) => [
        (h.before as { passkey?: string }).passkey,
        (h.after as { passkey?: string }).passkey,
      ]),
    ).toEqual([
      [undefined, 'My phone'],
      ['My phone', 'Work phone'],
      [undefined, 'Work phone'],
    ]);
  });

  it("signs a facilitator's passkey in on the staff page as bad credentials", async () => {
    const me = await person();
    const authenticator = new TestAuthenticator();
    await addPasskey(me.cookie, authenticator);
    const { answer } = await signIn(authenticator, { page: 'staff' });
    expect(answer.statusCode).toBe(401);
    expect(answer.json().message).toBe('Invalid credentials');
  });

  it('counts failures like password sign-ins: the account and address pair is paused', async () => {
    const me = await person();
    const authenticator = new TestAuthenticator();
    await addPasskey(me.cookie, authenticator);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      statuses.push((await signIn(authenticator, { origin: 'https://evil.example.net' })).answer.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await signIn(authenticator)).answer.statusCode).toBe(429);
    const signedIn = await t.loginStaff();
    await inject('POST', `/api/staff/users/${me.id}/unlock`, signedIn);
  });

  it('keeps challenges in the database, each used once', async () => {
    const options = await signInOptions();
    const rows = await t.ctx.db.select().from(webauthnChallenges);
    expect(rows.some((r) => r.purpose === 'authentication')).toBe(true);
    // only a hash of the challenge is stored
    expect(JSON.stringify(rows)).not.toContain(String(options.challenge));
  });
});

describe('requiring passkeys or Microsoft for staff', () => {
  it('can only be turned on by staff who have a passkey; then staff passwords are refused', async () => {
    const me = await person('staff');
    const refused = await inject('PUT', '/api/staff/sign-in-policy', me.cookie, {
      staffPasskeyOrMicrosoft: true,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fieldErrors).toHaveProperty('staffPasskeyOrMicrosoft');

    const authenticator = new TestAuthenticator();
    await addPasskey(me.cookie, authenticator);
    const on = await inject('PUT', '/api/staff/sign-in-policy', me.cookie, { staffPasskeyOrMicrosoft: true });
    expect(on.json()).toEqual({ staffPasskeyOrMicrosoft: true, youCanRequire: true });

    const password = await inject('POST', '/api/auth/staff-login', undefined, {
      username: me.username,
      password: me.password,
    });
    expect(password.statusCode).toBe(403);
    expect(password.json().message).toBe(STAFF_STRONG_SIGN_IN_MESSAGE);
    const withPasskey = await signIn(authenticator, { page: 'staff' });
    expect(withPasskey.answer.statusCode).toBe(200);
    // facilitators keep their passwords
    const facilitator = await person();
    expect(facilitator.cookie).toMatch(/afp_session/);

    const off = await inject('PUT', '/api/staff/sign-in-policy', cookieOf(withPasskey.answer), {
      staffPasskeyOrMicrosoft: false,
    });
    expect(off.json().staffPasskeyOrMicrosoft).toBe(false);
    expect((await t.login(me.username, me.password, { staff: true })).length).toBeGreaterThan(0);
    const settings = await t.ctx.db.select().from(changeHistory).where(eq(changeHistory.entity, 'settings'));
    expect(
      settings.map((h) => (h.after as { staffPasskeyOrMicrosoft?: boolean }).staffPasskeyOrMicrosoft),
    ).toEqual([true, false]);
  });
});

describe('without PUBLIC_URL', () => {
  it('says passkeys are off and offers no ceremony', async () => {
    const bare = await createTestApp();
    try {
      expect((await bare.app.inject({ method: 'GET', url: '/api/passkeys/status' })).json()).toEqual({
        enabled: false,
      });
      expect(
        (await bare.app.inject({ method: 'POST', url: '/api/passkey-sign-in/options' })).statusCode,
      ).toBe(409);
    } finally {
      await bare.close();
    }
  });
});
