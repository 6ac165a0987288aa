import { desc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  changeHistory,
  microsoftIdentities,
  microsoftSignInRequests,
  microsoftSignInSettings,
  sessions,
  users,
} from '../../db/schema';
import {
  type CertificatePair,
  makeCertificatePair,
  removeCertificateFiles,
} from '../../test/certificate-pair';
import { EntraBrowser } from '../../test/entra-browser';
import { startTestEntra, type TestEntra } from '../../test/entra-provider';
import { createTestApp, STAFF, type TestApp } from '../../test/harness';
import {
  invitationLink,
  invitationTokenOf,
  landing,
  SIGN_IN_PORTAL as PORTAL,
  STAFF_APP_ROLE as STAFF_ROLE,
  signInTestApp,
  whoAmI,
} from '../../test/microsoft-sign-in';
import { findUserByUsername } from '../users/service';

let entra: TestEntra;
let t: TestApp;
let staffCookie: string;

/** A browser signing in through this file's provider unless told another. */
class Browser extends EntraBrowser {
  constructor(app: TestApp, idp: TestEntra = entra) {
    super(app, idp, PORTAL);
  }
}

const errorOf = (response: { headers: Record<string, unknown> }) => landing(response).error;

async function invite(userId: number): Promise<string> {
  const link = await invitationLink(t, staffCookie, userId);
  // a staff account's link opens the staff login page
  expect(link.pathname).toBe('/staff-login');
  return invitationTokenOf(link);
}

beforeAll(async () => {
  entra = await startTestEntra({ portalUrl: PORTAL });
  t = await signInTestApp(entra);
  staffCookie = await t.loginStaff();
  // a fresh database takes a while on a busy machine
}, 180_000);

afterAll(async () => {
  await t?.close();
  await entra?.close();
});

afterEach(() => {
  entra.misbehave = {};
  entra.nextSignIn = undefined;
  // a test that changed the discovery document must not leave its answer behind
  t.ctx.signInDiscovery.clear();
});

/** An HTTP server on another port that answers nothing useful and remembers every request. */
async function listenForAnything() {
  const { createServer } = await import('node:http');
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let serial = 0;
async function staffAccount(roles: string[] = [STAFF_ROLE]) {
  serial += 1;
  const oid = `00000000-0000-4000-8000-${String(serial).padStart(12, '0')}`;
  const user = await t.createUser({
    username: `ms-staff-${serial}@example.org`,
    email: `ms-staff-${serial}@example.org`,
    role: 'staff',
  });
  entra.accounts.set(oid, { oid, name: `Staff ${serial}`, email: user.email ?? '', roles });
  return { user, oid };
}

describe('Sign in with Microsoft', () => {
  it('links an invited account on its first sign-in and signs it in again without the invitation', async () => {
    const { user, oid } = await staffAccount();
    const token = await invite(user.id);
    const browser = new Browser(t);
    const answer = await browser.signIn({ invitation: token, as: oid });
    expect(answer.statusCode).toBe(302);
    expect(answer.headers.location).toBe('/staff');
    expect(await whoAmI(browser)).toMatchObject({ username: user.username, role: 'staff' });

    const [identity] = await t.ctx.db
      .select()
      .from(microsoftIdentities)
      .where(eq(microsoftIdentities.userId, user.id));
    expect(identity).toMatchObject({ issuer: entra.issuer, tenantId: entra.tenantId, objectId: oid });

    // the invitation was used up
    const again = await new Browser(t).signIn({ invitation: token, as: oid });
    expect(errorOf(again)).toBe('invitation_invalid');

    // no invitation needed once linked
    const later = new Browser(t);
    expect((await later.signIn({ as: oid })).headers.location).toBe('/staff');
    expect(await whoAmI(later)).toMatchObject({ username: user.username });
  });

  it('refuses a deactivated account, opening no session, and signs it in again once reactivated', async () => {
    const { user, oid } = await staffAccount();
    const linked = new Browser(t);
    expect((await linked.signIn({ invitation: await invite(user.id), as: oid })).headers.location).toBe(
      '/staff',
    );
    const off = await t.app.inject({
      method: 'POST',
      url: `/api/staff/users/${user.id}/deactivate`,
      headers: { cookie: staffCookie },
    });
    expect(off.statusCode, off.body).toBe(200);
    const browser = new Browser(t);
    expect(errorOf(await browser.signIn({ as: oid }))).toBe('deactivated');
    expect(await whoAmI(browser)).toBeNull();
    expect(await t.ctx.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    const on = await t.app.inject({
      method: 'POST',
      url: `/api/staff/users/${user.id}/reactivate`,
      headers: { cookie: staffCookie },
    });
    expect(on.statusCode, on.body).toBe(200);
    const back = new Browser(t);
    expect((await back.signIn({ as: oid })).headers.location).toBe('/staff');
  });

  it('refuses a token from another issuer', async () => {
    const { user, oid } = await staffAccount();
    const token = await invite(user.id);
    entra.misbehave = { issuer: true };
    const browser = new Browser(t);
    const answer = await browser.signIn({ invitation: token, as: oid });
    expect(errorOf(answer)).toBe('wrong_issuer');
    expect(await whoAmI(browser)).toBeNull();
  });

  it('refuses a token made out to another application (audience)', async () => {
    const { user, oid } = await staffAccount();
    const token = await invite(user.id);
    entra.misbehave = { audience: true };
    const browser = new Browser(t);
    const answer = await browser.signIn({ invitation: token, as: oid });
    expect(errorOf(answer)).toBe('failed');
    expect(await whoAmI(browser)).toBeNull();
    const rows = await t.ctx.db
      .select()
      .from(microsoftIdentities)
      .where(eq(microsoftIdentities.userId, user.id));
    expect(rows).toEqual([]);
  });

  it('refuses a discovery document that puts the token endpoint on another host, sending it nothing', async () => {
    const elsewhere = await listenForAnything();
    try {
      const { user } = await staffAccount();
      const token = await invite(user.id);
      for (const endpoints of [
        { token_endpoint: `${elsewhere.url}/token` },
        { authorization_endpoint: `${elsewhere.url}/authorize` },
        { jwks_uri: `${elsewhere.url}/keys` },
        // the same host name on another port is another origin
        { token_endpoint: `${entra.authorityHost.replace(/:\d+$/, ':9')}/token` },
      ]) {
        entra.misbehave = { endpoints };
        t.ctx.signInDiscovery.clear();
        const browser = new Browser(t);
        const answer = await browser.start({ invitation: token });
        expect(errorOf(answer), JSON.stringify(endpoints)).toBe('wrong_issuer');
        expect(await whoAmI(browser)).toBeNull();
      }
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });

  it('never sends the browser to an end-session endpoint on another host', async () => {
    const { user, oid } = await staffAccount();
    const browser = new Browser(t);
    await browser.signIn({ invitation: await invite(user.id), as: oid });
    entra.misbehave = { endpoints: { end_session_endpoint: 'https://evil.example/logout' } };
    t.ctx.signInDiscovery.clear();
    const out = await browser.portal('/api/auth/microsoft/logout');
    expect(out.headers.location).toBe('/staff-login');
    expect(await whoAmI(browser)).toBeNull();
  });

  it("checks the ID token's signature against the provider's keys", async () => {
    const { user, oid } = await staffAccount();
    const token = await invite(user.id);
    entra.misbehave = { forgedSignature: true };
    const browser = new Browser(t);
    expect(errorOf(await browser.signIn({ invitation: token, as: oid }))).toBe('failed');
    expect(await whoAmI(browser)).toBeNull();
    expect(
      await t.ctx.db.select().from(microsoftIdentities).where(eq(microsoftIdentities.userId, user.id)),
    ).toEqual([]);
    // the invitation was not used up: the real provider's token links it
    entra.misbehave = {};
    expect((await new Browser(t).signIn({ invitation: token, as: oid })).headers.location).toBe('/staff');
  });

  it('refuses an ID token issued in the future beyond the allowed skew, and takes one within it', async () => {
    const { user, oid } = await staffAccount();
    const token = await invite(user.id);
    entra.misbehave = { issuedAheadSeconds: 10 * 60 };
    const browser = new Browser(t);
    expect(errorOf(await browser.signIn({ invitation: token, as: oid }))).toBe('clock_skew');
    expect(await whoAmI(browser)).toBeNull();
    entra.misbehave = { issuedAheadSeconds: 20 };
    const within = new Browser(t);
    expect((await within.signIn({ invitation: token, as: oid })).headers.location).toBe('/staff');
  });

  it('refuses a token whose nonce the portal did not send', async () => {
    const { user, oid } = await staffAccount();
    const token = await invite(user.id);
    entra.misbehave = { nonce: true };
    const browser = new Browser(t);
    const answer = await browser.signIn({ invitation: token, as: oid });
    expect(errorOf(answer)).toBe('failed');
    expect(await whoAmI(browser)).toBeNull();
  });

  it('refuses a replayed state, and a state carried to another browser', async () => {
    const { user, oid } = await staffAccount();
    const token = await invite(user.id);
    const browser = new Browser(t);
    expect((await browser.signIn({ invitation: token, as: oid })).headers.location).toBe('/staff');

    const replay = await browser.portal(browser.lastCallback);
    expect(errorOf(replay)).toBe('expired_request');

    // a fresh state, answered in a browser that did not start it
    const victim = new Browser(t);
    entra.nextSignIn = oid;
    const start = await victim.start();
    const callback = await victim.throughProvider(String(start.headers.location));
    const attacker = new Browser(t);
    const stolen = await attacker.portal(callback);
    expect(errorOf(stolen)).toBe('expired_request');
    expect(await whoAmI(attacker)).toBeNull();
    // and the state is gone for its own browser too
    expect(errorOf(await victim.portal(callback))).toBe('expired_request');
    expect(await t.ctx.db.select().from(microsoftSignInRequests)).toEqual([]);
  });

  it('refuses an expired token, saying the clock may be wrong', async () => {
    const { user, oid } = await staffAccount();
    const token = await invite(user.id);
    // the same database through an app whose clock runs two hours ahead: the hour-long ID token is
    // past its expiry by that clock
    const { buildApp } = await import('../../app');
    const ahead = await buildApp(t.config, {
      database: t.ctx.database,
      now: () => new Date(Date.now() + 2 * 60 * 60 * 1000),
    });
    try {
      const browser = new Browser({ ...t, app: ahead.app, ctx: ahead.ctx });
      const answer = await browser.signIn({ invitation: token, as: oid });
      expect(errorOf(answer)).toBe('clock_skew');
      expect(await whoAmI(browser)).toBeNull();
    } finally {
      await ahead.app.close();
    }
  });

  it('refuses a token for a person in another tenant', async () => {
    const { user, oid } = await staffAccount();
    entra.accounts.set(oid, { ...entra.accounts.get(oid)!, tid: '99999999-9999-4999-8999-999999999999' });
    const token = await invite(user.id);
    const browser = new Browser(t);
    const answer = await browser.signIn({ invitation: token, as: oid });
    expect(errorOf(answer)).toBe('wrong_tenant');
    expect(await whoAmI(browser)).toBeNull();
  });

  it('refuses a Microsoft identity that no invitation linked', async () => {
    const oid = '00000000-0000-4000-8000-aaaaaaaaaaaa';
    entra.accounts.set(oid, { oid, name: 'Stranger', roles: [STAFF_ROLE] });
    const browser = new Browser(t);
    const answer = await browser.signIn({ as: oid });
    expect(errorOf(answer)).toBe('no_invitation');
    expect(await whoAmI(browser)).toBeNull();
  });

  it('never links by email: an identity whose email matches an account signs nobody in', async () => {
    const staff = await findUserByUsername(t.ctx.db, STAFF.username);
    const oid = '00000000-0000-4000-8000-bbbbbbbbbbbb';
    entra.accounts.set(oid, {
      oid,
      name: 'Same email',
      email: STAFF.username,
      preferredUsername: STAFF.username,
      roles: [STAFF_ROLE],
    });
    const browser = new Browser(t);
    const answer = await browser.signIn({ as: oid });
    expect(errorOf(answer)).toBe('no_invitation');
    expect(await whoAmI(browser)).toBeNull();
    const rows = await t.ctx.db
      .select()
      .from(microsoftIdentities)
      .where(eq(microsoftIdentities.userId, staff!.id));
    expect(rows).toEqual([]);
  });

  it('says the sign-in was cancelled when the person cancels at Microsoft', async () => {
    const browser = new Browser(t);
    const answer = await browser.signIn({ as: 'cancel' });
    expect(errorOf(answer)).toBe('cancelled');
  });

  it('refuses an invitation link that is unknown before leaving for Microsoft', async () => {
    const answer = await new Browser(t).signIn({ invitation: 'x'.repeat(43), as: 'cancel' });
    expect(errorOf(answer)).toBe('invitation_invalid');
  });
});

describe('Sign in with Microsoft with a staff app role', () => {
  let r: TestApp;
  let rStaffCookie: string;

  beforeAll(async () => {
    r = await signInTestApp(entra, { ENTRA_STAFF_ROLE: STAFF_ROLE });
    rStaffCookie = await r.loginStaff();
  }, 180_000);
  afterAll(() => r?.close());

  it('removes staff access at the next sign-in once the role is taken away', async () => {
    const user = await r.createUser({ username: 'role-staff@example.org', role: 'staff' });
    const oid = '00000000-0000-4000-8000-cccccccccccc';
    entra.accounts.set(oid, { oid, name: 'Role staff', roles: [STAFF_ROLE] });
    const token = invitationTokenOf(await invitationLink(r, rStaffCookie, user.id));
    const first = new Browser(r);
    expect((await first.signIn({ invitation: token, as: oid })).headers.location).toBe('/staff');
    expect(await whoAmI(first)).toMatchObject({ role: 'staff' });

    entra.accounts.set(oid, { oid, name: 'Role staff', roles: [] });
    const second = new Browser(r);
    const answer = await second.signIn({ as: oid });
    expect(errorOf(answer)).toBe('missing_role');
    expect(await whoAmI(second)).toBeNull();
    // the session the first sign-in opened ended too
    expect(await whoAmI(first)).toBeNull();
    expect(await r.ctx.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
  });
});

describe('Staff accounts from the app role', () => {
  let r: TestApp;
  let rStaffCookie: string;

  beforeAll(async () => {
    r = await signInTestApp(entra, { ENTRA_STAFF_ROLE: STAFF_ROLE });
    rStaffCookie = await r.loginStaff();
  }, 180_000);
  afterAll(() => r?.close());

  const turn = (createStaffFromRole: boolean) =>
    r.app.inject({
      method: 'PUT',
      url: '/api/staff/microsoft-sign-in',
      headers: { cookie: rStaffCookie },
      payload: { staffPasswordSignIn: true, createStaffFromRole },
    });
  const identitiesOf = (oid: string) =>
    r.ctx.db.select().from(microsoftIdentities).where(eq(microsoftIdentities.objectId, oid));

  it('is off by default: a person with the role but no invitation gets no account', async () => {
    const oid = '00000000-0000-4000-8000-0000000000b1';
    entra.accounts.set(oid, { oid, name: 'Not yet', roles: [STAFF_ROLE] });
    const settings = await r.app.inject({
      method: 'GET',
      url: '/api/staff/microsoft-sign-in',
      headers: { cookie: rStaffCookie },
    });
    expect(settings.json()).toMatchObject({ createStaffFromRole: false });
    const usersBefore = await r.ctx.db.select().from(users);
    const browser = new Browser(r);
    expect(errorOf(await browser.signIn({ as: oid }))).toBe('no_invitation');
    expect(await r.ctx.db.select().from(users)).toHaveLength(usersBefore.length);
    expect(await identitiesOf(oid)).toEqual([]);
  });

  it('once turned on, creates a staff account on the first sign-in with the role, identified by iss, tid and oid', async () => {
    expect((await turn(true)).json()).toMatchObject({ createStaffFromRole: true });
    const oid = '00000000-0000-4000-8000-0000000000b2';
    entra.accounts.set(oid, {
      oid,
      name: 'Rowan Role',
      email: 'rowan.role@example.org',
      preferredUsername: 'rowan.role@example.org',
      roles: [STAFF_ROLE],
    });
    const browser = new Browser(r);
    expect((await browser.signIn({ as: oid })).headers.location).toBe('/staff');
    expect(await whoAmI(browser)).toMatchObject({ username: 'rowan.role@example.org', role: 'staff' });
    const [identity] = await identitiesOf(oid);
    expect(identity).toMatchObject({ issuer: entra.issuer, tenantId: entra.tenantId, objectId: oid });
    const [account] = await r.ctx.db.select().from(users).where(eq(users.id, identity!.userId));
    // no password: this account signs in with Microsoft
    expect(account).toMatchObject({ role: 'staff', displayName: 'Rowan Role', passwordHash: null });

    // the next sign-in finds the same account
    const later = new Browser(r);
    expect((await later.signIn({ as: oid })).headers.location).toBe('/staff');
    expect(await identitiesOf(oid)).toHaveLength(1);
    expect(
      await r.ctx.db.select().from(users).where(eq(users.username, 'rowan.role@example.org')),
    ).toHaveLength(1);
  });

  it('never links or signs in an existing password account with the same email', async () => {
    const existing = await r.createUser({
      username: 'same.person@example.org',
      email: 'same.person@example.org',
      role: 'staff',
    });
    const oid = '00000000-0000-4000-8000-0000000000b3';
    entra.accounts.set(oid, {
      oid,
      name: 'Same email',
      email: 'same.person@example.org',
      preferredUsername: 'same.person@example.org',
      roles: [STAFF_ROLE],
    });
    const browser = new Browser(r);
    expect((await browser.signIn({ as: oid })).headers.location).toBe('/staff');
    const me = await whoAmI(browser);
    expect(me?.username).toBe(`microsoft-${oid}`);
    expect(me?.username).not.toBe(existing.username);
    expect(
      await r.ctx.db.select().from(microsoftIdentities).where(eq(microsoftIdentities.userId, existing.id)),
    ).toEqual([]);
    // the existing account still signs in with its own password, and only as itself
    await expect(r.login(existing.username, existing.password, { staff: true })).resolves.toMatch(
      /afp_session=/,
    );
  });

  it('creates nothing for a person without the role', async () => {
    const oid = '00000000-0000-4000-8000-0000000000b4';
    entra.accounts.set(oid, { oid, name: 'No role', roles: ['Something.Else'] });
    const browser = new Browser(r);
    expect(errorOf(await browser.signIn({ as: oid }))).toBe('no_invitation');
    expect(await identitiesOf(oid)).toEqual([]);
  });

  it('removes staff access from a created account at the next sign-in without the role', async () => {
    const oid = '00000000-0000-4000-8000-0000000000b5';
    entra.accounts.set(oid, { oid, name: 'Role leaver', roles: [STAFF_ROLE] });
    const first = new Browser(r);
    expect((await first.signIn({ as: oid })).headers.location).toBe('/staff');
    entra.accounts.set(oid, { oid, name: 'Role leaver', roles: [] });
    const second = new Browser(r);
    expect(errorOf(await second.signIn({ as: oid }))).toBe('missing_role');
    expect(await whoAmI(second)).toBeNull();
    expect(await whoAmI(first)).toBeNull();
  });

  it('turned off again, creates no more accounts', async () => {
    expect((await turn(false)).json()).toMatchObject({ createStaffFromRole: false });
    const oid = '00000000-0000-4000-8000-0000000000b6';
    entra.accounts.set(oid, { oid, name: 'Too late', roles: [STAFF_ROLE] });
    expect(errorOf(await new Browser(r).signIn({ as: oid }))).toBe('no_invitation');
    expect(await identitiesOf(oid)).toEqual([]);
  });

  it('cannot be turned on without a staff app role', async () => {
    const refused = await t.app.inject({
      method: 'PUT',
      url: '/api/staff/microsoft-sign-in',
      headers: { cookie: staffCookie },
      payload: { staffPasswordSignIn: true, createStaffFromRole: true },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fieldErrors?.createStaffFromRole).toBeDefined();
  });
});

describe('Turning staff password sign-in off', () => {
  it('is refused until the staff member asking is linked, then stops staff passwords but not facilitators', async () => {
    const refused = await t.app.inject({
      method: 'PUT',
      url: '/api/staff/microsoft-sign-in',
      headers: { cookie: staffCookie },
      payload: { staffPasswordSignIn: false },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/Sign in with Microsoft yourself first/);

    const { user, oid } = await staffAccount();
    const token = await invite(user.id);
    const browser = new Browser(t);
    await browser.signIn({ invitation: token, as: oid });
    const linkedCookie = browser.portalCookieHeader();
    const settings = await t.app.inject({
      method: 'PUT',
      url: '/api/staff/microsoft-sign-in',
      headers: { cookie: linkedCookie },
      payload: { staffPasswordSignIn: false },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    expect(settings.json()).toMatchObject({ staffPasswordSignIn: false, youAreLinked: true });

    const password = await t.app.inject({
      method: 'POST',
      url: '/api/auth/staff-login',
      payload: { username: STAFF.username, password: STAFF.password },
    });
    expect(password.statusCode).toBe(403);
    expect(password.json().message).toMatch(/sign in with Microsoft/);
    const sideDoor = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: STAFF.username, password: STAFF.password },
    });
    expect(sideDoor.statusCode).toBe(403);

    const facilitator = await t.createUser({ username: 'still-password@example.org' });
    await expect(t.login(facilitator.username, facilitator.password)).resolves.toMatch(/afp_session=/);

    const status = await t.app.inject({ method: 'GET', url: '/api/auth/microsoft' });
    expect(status.json()).toEqual({ enabled: true, staffPasswordSignIn: false, facilitatorSignIn: false });

    // back on, so the rest of the file can use passwords
    const on = await t.app.inject({
      method: 'PUT',
      url: '/api/staff/microsoft-sign-in',
      headers: { cookie: linkedCookie },
      payload: { staffPasswordSignIn: true },
    });
    expect(on.statusCode).toBe(200);
    await expect(t.loginStaff()).resolves.toMatch(/afp_session=/);
  });

  it('shows the configuration without the client secret', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/staff/microsoft-sign-in',
      headers: { cookie: staffCookie },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      configured: true,
      tenantId: entra.tenantId,
      clientId: entra.clientId,
      redirectUri: `${PORTAL}/api/auth/microsoft/callback`,
    });
    expect(response.body).not.toContain(entra.clientSecret);
  });
});

describe('Microsoft sign-in configured on the settings page', () => {
  const CLIENT_ID = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
  const SECRET = 'settings-page-client-secret-0123456789';
  const DOMAIN = 'arts-portal-test.example.org';
  let idp: TestEntra;
  let p: TestApp;
  let cookie: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    idp = await startTestEntra({
      portalUrl: PORTAL,
      clientId: CLIENT_ID,
      clientSecret: SECRET,
      domains: [DOMAIN],
    });
    p = await createTestApp(
      { PUBLIC_URL: PORTAL, AUTHORITY_HOST: idp.authorityHost, LOG_LEVEL: 'info' },
      { logStream: { write: (line) => void logLines.push(line) } },
    );
    cookie = await p.loginStaff();
  }, 180_000);
  afterAll(async () => {
    await p?.close();
    await idp?.close();
  });
  afterEach(() => {
    idp.nextSignIn = undefined;
  });

  const put = (payload: object) =>
    p.app.inject({ method: 'PUT', url: '/api/staff/microsoft-sign-in', headers: { cookie }, payload });
  const settings = async () =>
    (await p.app.inject({ method: 'GET', url: '/api/staff/microsoft-sign-in', headers: { cookie } })).json();
  const storedRow = async () => (await p.ctx.db.select().from(microsoftSignInSettings))[0];
  const lastHistory = async () =>
    (await p.ctx.db.select().from(changeHistory).orderBy(desc(changeHistory.id)).limit(1))[0];

  it('starts off, then saving tenant, client and secret offers Microsoft sign-in, and the secret is never shown', async () => {
    expect(await settings()).toMatchObject({
      configured: false,
      connectionSource: 'settings',
      hasClientSecret: false,
    });
    expect((await p.app.inject({ url: '/api/auth/microsoft' })).json()).toMatchObject({ enabled: false });

    const saved = await put({
      staffPasswordSignIn: true,
      tenantId: idp.tenantId,
      clientId: CLIENT_ID,
      clientSecret: SECRET,
      staffRole: '',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      configured: true,
      tenantId: idp.tenantId,
      clientId: CLIENT_ID,
      hasClientSecret: true,
      clientSecretCleared: false,
    });
    expect(saved.body).not.toContain(SECRET);
    expect(JSON.stringify(await settings())).not.toContain(SECRET);
    expect((await p.app.inject({ url: '/api/auth/microsoft' })).json()).toMatchObject({ enabled: true });

    // sealed, bound to the tenant and client, and nowhere in the history or the log
    const row = await storedRow();
    expect(row?.clientSecretEncrypted).toMatch(/^v2\./);
    expect(row?.clientSecretEncrypted).not.toContain(SECRET);
    const history = await lastHistory();
    expect(history?.after).toMatchObject({
      microsoftSignIn: true,
      tenantId: idp.tenantId,
      clientSecret: 'changed',
    });
    expect(JSON.stringify(history)).not.toContain(SECRET);
    expect(logLines.join('\n')).toContain('Microsoft sign-in settings saved');
    expect(logLines.join('\n')).not.toContain(SECRET);

    // the stored configuration signs an invited account in against the identity provider
    const user = await p.createUser({ username: 'page-configured@example.org', role: 'staff' });
    const oid = '00000000-0000-4000-8000-0000000000a1';
    idp.accounts.set(oid, { oid, name: 'Page configured' });
    const invitation = await p.app.inject({
      method: 'POST',
      url: `/api/staff/users/${user.id}/microsoft-invitation`,
      headers: { cookie },
    });
    const token = invitationTokenOf(invitation.json<{ link: string }>().link);
    const browser = new Browser(p, idp);
    expect((await browser.signIn({ invitation: token, as: oid })).headers.location).toBe('/staff');
    expect(await whoAmI(browser)).toMatchObject({ username: user.username });
  });

  it('keeps the secret when tenant and client stay, and clears it (saying so) when the client changes', async () => {
    const same = await put({
      staffPasswordSignIn: true,
      tenantId: idp.tenantId,
      clientId: CLIENT_ID,
      staffRole: 'Portal.Staff',
    });
    expect(same.json()).toMatchObject({
      hasClientSecret: true,
      clientSecretCleared: false,
      configured: true,
      staffRole: 'Portal.Staff',
    });

    const other = '99999999-8888-4777-8666-555555555555';
    const moved = await put({
      staffPasswordSignIn: true,
      tenantId: idp.tenantId,
      clientId: other,
      staffRole: '',
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({
      hasClientSecret: false,
      clientSecretCleared: true,
      configured: false,
      clientId: other,
    });
    expect((await storedRow())?.clientSecretEncrypted).toBeNull();
    expect((await lastHistory())?.after).toMatchObject({ clientId: other, clientSecret: 'cleared' });
    // without a secret there is no Microsoft sign-in, so staff passwords are back
    expect((await p.app.inject({ url: '/api/auth/microsoft' })).json()).toEqual({
      enabled: false,
      staffPasswordSignIn: true,
      facilitatorSignIn: false,
    });

    // typed back for the right client it works again
    const back = await put({
      staffPasswordSignIn: true,
      tenantId: idp.tenantId,
      clientId: CLIENT_ID,
      clientSecret: SECRET,
      staffRole: '',
    });
    expect(back.json()).toMatchObject({ configured: true, hasClientSecret: true });
  });

  it('opens the stored secret only for the tenant and client it was sealed for', async () => {
    const row = await storedRow();
    // a hand edit that points the row at another directory leaves a secret that opens for nothing
    await p.ctx.db.update(microsoftSignInSettings).set({ tenantId: '12345678-1234-4234-8234-123456789012' });
    expect(await settings()).toMatchObject({ configured: false, clientSecretUnreadable: true });
    const start = await new Browser(p, idp).start();
    expect(errorOf(start)).toBe('not_configured');
    await p.ctx.db.update(microsoftSignInSettings).set({ tenantId: row!.tenantId });
    expect(await settings()).toMatchObject({ configured: true, clientSecretUnreadable: false });
  });

  it('refuses a tenant or client that is not an id or a domain, changing nothing', async () => {
    const before = await storedRow();
    for (const [field, value] of [
      ['tenantId', 'common'],
      ['tenantId', 'evil.example/../..'],
      ['tenantId', '127.0.0.1:8080'],
      ['tenantId', 'user@evil.example'],
      ['tenantId', 'contoso.example?x=1'],
      ['clientId', 'portal-application'],
      ['staffRole', 'Portal Staff'],
    ] as const) {
      const body = { staffPasswordSignIn: true, tenantId: idp.tenantId, clientId: CLIENT_ID, [field]: value };
      const refused = await put(body);
      expect(refused.statusCode, `${field}=${value}`).toBe(400);
      expect(refused.json().fieldErrors?.[field], `${field}=${value}`).toBeDefined();
    }
    const half = await put({ staffPasswordSignIn: true, tenantId: idp.tenantId, clientId: '' });
    expect(half.statusCode).toBe(400);
    expect(half.json().fieldErrors?.clientId).toBeDefined();
    expect(await storedRow()).toEqual(before);
  });

  it('accepts a verified domain for the directory and signs in under its GUID', async () => {
    const saved = await put({
      staffPasswordSignIn: true,
      tenantId: DOMAIN,
      clientId: CLIENT_ID,
      clientSecret: SECRET,
      staffRole: '',
    });
    expect(saved.json()).toMatchObject({ configured: true, tenantId: DOMAIN });
    const user = await p.createUser({ username: 'by-domain@example.org', role: 'staff' });
    const oid = '00000000-0000-4000-8000-0000000000a2';
    idp.accounts.set(oid, { oid, name: 'By domain' });
    const invitation = await p.app.inject({
      method: 'POST',
      url: `/api/staff/users/${user.id}/microsoft-invitation`,
      headers: { cookie },
    });
    const token = invitationTokenOf(invitation.json<{ link: string }>().link);
    const browser = new Browser(p, idp);
    expect((await browser.signIn({ invitation: token, as: oid })).headers.location).toBe('/staff');
    const [identity] = await p.ctx.db
      .select()
      .from(microsoftIdentities)
      .where(eq(microsoftIdentities.userId, user.id));
    expect(identity).toMatchObject({ tenantId: idp.tenantId, issuer: idp.issuer, objectId: oid });
    await put({
      staffPasswordSignIn: true,
      tenantId: idp.tenantId,
      clientId: CLIENT_ID,
      clientSecret: SECRET,
      staffRole: '',
    });
  });

  it('tests the typed directory against the discovery document, naming what is wrong', async () => {
    const test = (tenantId: string) =>
      p.app.inject({
        method: 'POST',
        url: '/api/staff/microsoft-sign-in/test',
        headers: { cookie },
        payload: { tenantId },
      });
    const good = await test(idp.tenantId);
    expect(good.json()).toMatchObject({ success: true });
    expect(good.json().message).toContain(idp.tenantId);
    expect((await test(DOMAIN)).json()).toMatchObject({ success: true });
    const unknown = await test('aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee');
    expect(unknown.json()).toMatchObject({ success: false });
    expect(unknown.json().message).toMatch(/does not know this directory/);
    expect((await test('not a tenant')).statusCode).toBe(400);
    idp.misbehave = { endpoints: { token_endpoint: 'https://evil.example/token' } };
    try {
      const foreign = await test(idp.tenantId);
      expect(foreign.json()).toMatchObject({ success: false });
      expect(foreign.json().message).toMatch(/not all on the sign-in authority's own host/);
    } finally {
      idp.misbehave = {};
    }
  });

  it('says Microsoft could not be reached when the identity provider is down', async () => {
    const down = await startTestEntra({ portalUrl: PORTAL });
    await down.close();
    const q = await createTestApp({ PUBLIC_URL: PORTAL, AUTHORITY_HOST: down.authorityHost });
    try {
      const staff = await q.loginStaff();
      const answer = await q.app.inject({
        method: 'POST',
        url: '/api/staff/microsoft-sign-in/test',
        headers: { cookie: staff },
        payload: { tenantId: down.tenantId },
      });
      expect(answer.json()).toMatchObject({ success: false });
      expect(answer.json().message).toMatch(/Could not reach Microsoft sign-in/);
    } finally {
      await q.close();
    }
  }, 180_000);
});

describe('Microsoft sign-in with a client certificate instead of a secret', () => {
  const CLIENT_ID = '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e';
  let registered: CertificatePair;
  let unknown: CertificatePair;
  let idp: TestEntra;
  let p: TestApp;
  let cookie: string;
  /** the portal's clock; unset: the real time the identity provider keeps too */
  let clock: Date | undefined;
  const logLines: string[] = [];

  beforeAll(async () => {
    registered = makeCertificatePair('portal-sign-in', 365);
    unknown = makeCertificatePair('not-uploaded', 365);
    idp = await startTestEntra({
      portalUrl: PORTAL,
      clientId: CLIENT_ID,
      clientCertificate: registered.certificate,
    });
    p = await createTestApp(
      { PUBLIC_URL: PORTAL, AUTHORITY_HOST: idp.authorityHost, LOG_LEVEL: 'info' },
      { logStream: { write: (line) => void logLines.push(line) }, now: () => clock ?? new Date() },
    );
    cookie = await p.loginStaff();
  }, 180_000);
  afterAll(async () => {
    await p?.close();
    await idp?.close();
    removeCertificateFiles();
  });
  afterEach(() => {
    idp.nextSignIn = undefined;
    clock = undefined;
  });

  const put = (payload: object) =>
    p.app.inject({ method: 'PUT', url: '/api/staff/microsoft-sign-in', headers: { cookie }, payload });
  const storedRow = async () => (await p.ctx.db.select().from(microsoftSignInSettings))[0];
  const withPair = (pair: CertificatePair, overrides: object = {}) => ({
    staffPasswordSignIn: true,
    tenantId: idp.tenantId,
    clientId: CLIENT_ID,
    clientCertificate: pair.certificate,
    clientCertificateKey: pair.key,
    ...overrides,
  });
  const keyBody = (pair: CertificatePair) =>
    pair.key
      .replace(/-----[A-Z ]+-----/g, '')
      .replace(/\s+/g, '')
      .slice(0, 64);

  async function signInOnce(): Promise<{ location: string; username: string }> {
    const user = await p.createUser({
      username: `cert-${Math.random().toString(36).slice(2, 8)}@example.org`,
      role: 'staff',
    });
    const oid = `00000000-0000-4000-9000-${String(user.id).padStart(12, '0')}`;
    idp.accounts.set(oid, { oid, name: 'Certificate user' });
    const invitation = await p.app.inject({
      method: 'POST',
      url: `/api/staff/users/${user.id}/microsoft-invitation`,
      headers: { cookie },
    });
    expect(invitation.statusCode, invitation.body).toBe(201);
    const token = invitationTokenOf(invitation.json<{ link: string }>().link);
    const response = await new Browser(p, idp).signIn({ invitation: token, as: oid });
    return { location: String(response.headers.location), username: user.username };
  }

  it('refuses a mismatched pair, a key that is not RSA and an expired certificate, storing nothing', async () => {
    const ec = makeCertificatePair('elliptic', 365, true);
    const shortLived = makeCertificatePair('short-lived', 1);
    const attempts: [object, string][] = [
      [withPair({ certificate: registered.certificate, key: unknown.key }), 'clientCertificateKey'],
      [withPair(ec), 'clientCertificateKey'],
      [withPair({ certificate: registered.certificate, key: '' }), 'clientCertificateKey'],
      [withPair({ certificate: 'not a certificate', key: registered.key }), 'clientCertificate'],
    ];
    for (const [payload, field] of attempts) {
      const refused = await put(payload);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().fieldErrors?.[field]?.length).toBeGreaterThan(0);
    }
    // two days on, the one-day certificate has expired
    clock = new Date(Date.now() + 2 * 24 * 3600_000);
    const expired = await put(withPair(shortLived));
    expect(expired.statusCode).toBe(400);
    expect(expired.json().fieldErrors.clientCertificate[0]).toMatch(/expired/);
    expect(await storedRow()).toBeUndefined();
  });

  it('signs in with the certificate in preference to a secret: the provider checks the signed assertion, and the key is never shown', async () => {
    // the provider knows no secret for this client, so only the certificate can succeed
    const saved = await put(withPair(registered, { clientSecret: 'a-secret-the-provider-does-not-know' }));
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      configured: true,
      hasClientSecret: true,
      hasClientCertificate: true,
      clientCertificate: { subject: 'CN=portal-sign-in', expired: false, expiringSoon: false },
    });
    expect(saved.json().clientCertificate.expiresInDays).toBeGreaterThanOrEqual(363);
    const row = await storedRow();
    expect(row?.clientCertificateKeyEncrypted).toMatch(/^v2\./);
    const history = (await p.ctx.db.select().from(changeHistory).orderBy(desc(changeHistory.id)).limit(1))[0];
    expect(history?.after).toMatchObject({ microsoftSignIn: true, clientCertificate: 'changed' });
    for (const text of [saved.body, JSON.stringify(row), JSON.stringify(history), logLines.join('\n')]) {
      expect(text).not.toContain(keyBody(registered));
    }

    const { location, username } = await signInOnce();
    expect(location).toBe('/staff');
    expect(username).toBeTruthy();
  });

  it('warns 30 days before the certificate expires', async () => {
    const soon = makeCertificatePair('expires-soon', 20);
    const saved = await put(withPair(soon));
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().clientCertificate).toMatchObject({ expiringSoon: true, expired: false });
    expect(saved.json().clientCertificate.expiresInDays).toBeLessThan(20);
  });

  it('fails with a clear reason when the app registration does not have the certificate', async () => {
    expect((await put(withPair(unknown))).statusCode).toBe(200);
    const { location } = await signInOnce();
    expect(new URL(location, PORTAL).searchParams.get('microsoftError')).toBe('client_rejected');
    expect(logLines.join('\n')).not.toContain(keyBody(unknown));
    expect((await put(withPair(registered))).statusCode).toBe(200);
  });

  it('clears the certificate (saying so) when the client changes, and keeps it while it stays', async () => {
    const same = await put({ staffPasswordSignIn: true, tenantId: idp.tenantId, clientId: CLIENT_ID });
    expect(same.json()).toMatchObject({ hasClientCertificate: true, clientCertificateCleared: false });
    const other = '99999999-8888-4777-8666-555555555555';
    const moved = await put({ staffPasswordSignIn: true, tenantId: idp.tenantId, clientId: other });
    expect(moved.json()).toMatchObject({
      hasClientCertificate: false,
      clientCertificate: null,
      clientCertificateCleared: true,
      configured: false,
    });
    const row = await storedRow();
    expect(row?.clientCertificate).toBeNull();
    expect(row?.clientCertificateKeyEncrypted).toBeNull();
    const history = (await p.ctx.db.select().from(changeHistory).orderBy(desc(changeHistory.id)).limit(1))[0];
    expect(history?.after).toMatchObject({ clientId: other, clientCertificate: 'cleared' });
  });
});

describe('Microsoft sign-in set by the environment', () => {
  it('shows where it comes from and refuses changes to what the environment sets', async () => {
    const shown = await t.app.inject({
      method: 'GET',
      url: '/api/staff/microsoft-sign-in',
      headers: { cookie: staffCookie },
    });
    expect(shown.json()).toMatchObject({
      connectionSource: 'environment',
      staffRoleSource: 'settings',
      configured: true,
    });
    const pair = makeCertificatePair('environment-refused', 30);
    removeCertificateFiles();
    const before = await t.ctx.db.select().from(microsoftSignInSettings);
    for (const payload of [
      {
        staffPasswordSignIn: true,
        tenantId: '12345678-1234-4234-8234-123456789012',
        clientId: '12345678-1234-4234-8234-123456789013',
      },
      { staffPasswordSignIn: true, clientSecret: 'another-secret' },
      { staffPasswordSignIn: true, clientCertificate: pair.certificate, clientCertificateKey: pair.key },
    ]) {
      const refused = await t.app.inject({
        method: 'PUT',
        url: '/api/staff/microsoft-sign-in',
        headers: { cookie: staffCookie },
        payload,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toMatch(/environment/);
    }
    expect(await t.ctx.db.select().from(microsoftSignInSettings)).toEqual(before);
  });
});

describe('Signing out after a Microsoft sign-in', () => {
  it('ends the portal session, offers Microsoft sign-out, and that reaches the end-session endpoint', async () => {
    const { user, oid } = await staffAccount();
    const token = await invite(user.id);
    const browser = new Browser(t);
    await browser.signIn({ invitation: token, as: oid });
    // the provider remembers the person: another sign-in needs no interaction
    const again = new Browser(t);
    again.providerCookies = browser.providerCookies;
    expect((await again.signIn({ as: undefined })).headers.location).toBe('/staff');

    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { cookie: browser.portalCookieHeader() },
    });
    expect(logout.json()).toEqual({ message: 'Logged out', microsoftSignOut: true });
    expect(await whoAmI(browser)).toBeNull();
    // the link form of signing out sends the browser to the page that offers Microsoft's sign-out
    const linked = await again.portal('/api/auth/logout');
    expect(linked.headers.location).toBe('/staff-login?signedOut=microsoft');
    expect(await whoAmI(again)).toBeNull();

    const out = await browser.portal('/api/auth/microsoft/logout');
    expect(out.statusCode).toBe(302);
    const endSession = new URL(String(out.headers.location));
    expect(`${endSession.origin}${endSession.pathname}`).toBe(`${entra.issuer}/session/end`);
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(`${PORTAL}/staff-login`);
    expect(endSession.searchParams.get('client_id')).toBe(entra.clientId);
    expect(endSession.searchParams.has('id_token_hint')).toBe(false);

    // the provider asks for confirmation, then ends its session and comes back to the portal
    const cookieHeader = () => [...browser.providerCookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const confirm = await fetch(endSession, { headers: { cookie: cookieHeader() } });
    expect(confirm.status).toBe(200);
    const page = await confirm.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1] ?? '';
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
    expect(xsrf).not.toBe('');
    const done = await fetch(new URL(action, endSession), {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
    });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(`${PORTAL}/staff-login`);
    for (const line of done.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [key] = (pair ?? '').split('=');
      if (key) browser.providerCookies.delete(key.trim());
    }

    // signed out at the provider too: the next sign-in stops at its sign-in page
    const after = new Browser(t);
    after.providerCookies = browser.providerCookies;
    await expect(after.signIn({ as: undefined })).rejects.toThrow(/provider stopped at/);
  });

  it('says nothing of Microsoft after a password sign-in', async () => {
    const cookie = await t.loginStaff();
    const logout = await t.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie } });
    expect(logout.json()).toEqual({ message: 'Logged out', microsoftSignOut: false });
    const again = await t.loginStaff();
    const linked = await t.app.inject({ method: 'GET', url: '/api/auth/logout', headers: { cookie: again } });
    expect(linked.headers.location).toBe('/staff-login');
  });
});
