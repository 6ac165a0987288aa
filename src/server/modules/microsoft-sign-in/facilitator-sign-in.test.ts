import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { microsoftIdentities, microsoftInvitations, users } from '../../db/schema';
import { EntraBrowser } from '../../test/entra-browser';
import { startTestEntra, type TestEntra } from '../../test/entra-provider';
import type { TestApp } from '../../test/harness';
import {
  invitationLink,
  invitationTokenOf,
  landing,
  SIGN_IN_PORTAL as PORTAL,
  STAFF_APP_ROLE as STAFF_ROLE,
  signInTestApp,
  whoAmI,
} from '../../test/microsoft-sign-in';

/** where the guests' own accounts live: another organisation's directory */
const HOME_TENANT = 'https://login.microsoftonline.com/aaaaaaaa-0000-4000-8000-00000000aaaa/v2.0';

let entra: TestEntra;
let t: TestApp;
let staffCookie: string;

beforeAll(async () => {
  entra = await startTestEntra({ portalUrl: PORTAL });
  t = await signInTestApp(entra);
  staffCookie = await t.loginStaff();
}, 180_000);

afterAll(async () => {
  await t?.close();
  await entra?.close();
});

afterEach(async () => {
  entra.nextSignIn = undefined;
  await saveSettings({ facilitatorSignIn: false, createStaffFromRole: false });
});

const browser = () => new EntraBrowser(t, entra, PORTAL);

async function saveSettings(values: { facilitatorSignIn?: boolean; createStaffFromRole?: boolean }) {
  const response = await t.app.inject({
    method: 'PUT',
    url: '/api/staff/microsoft-sign-in',
    headers: { cookie: staffCookie },
    payload: { staffPasswordSignIn: true, staffRole: STAFF_ROLE, ...values },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ facilitatorSignIn: boolean; createStaffFromRole: boolean }>();
}

async function inviteFacilitator(userId: number): Promise<string> {
  const link = await invitationLink(t, staffCookie, userId);
  // a facilitator's link opens the facilitator login page
  expect(link.pathname).toBe('/auth');
  return invitationTokenOf(link);
}

let serial = 0;
/**
 * A facilitator with a password, and a guest account for them in the organisation's directory: the
 * organisation's `tid`, the guest's own `oid` there, no email and an #EXT# sign-in name, holding the
 * staff app role (which must never make them staff).
 */
async function facilitatorWithGuest() {
  serial += 1;
  const user = await t.createUser({
    username: `guest-${serial}@freelance.example`,
    email: `guest-${serial}@freelance.example`,
  });
  const oid = `00000000-0000-4000-9000-${String(serial).padStart(12, '0')}`;
  entra.accounts.set(oid, {
    oid,
    name: `Guest ${serial}`,
    preferredUsername: `guest-${serial}_freelance.example#EXT#@contoso.onmicrosoft.com`,
    roles: [STAFF_ROLE],
    guestFrom: HOME_TENANT,
  });
  return { user, oid };
}

async function identityOf(objectId: string) {
  return t.ctx.db.select().from(microsoftIdentities).where(eq(microsoftIdentities.objectId, objectId));
}

describe('Facilitators signing in with Microsoft', () => {
  it('is off by default: not offered, a facilitator cannot be invited, and the facilitator page says so', async () => {
    const status = await t.app.inject({ url: '/api/auth/microsoft' });
    expect(status.json()).toEqual({ enabled: true, staffPasswordSignIn: true, facilitatorSignIn: false });

    const { user } = await facilitatorWithGuest();
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/staff/users/${user.id}/microsoft-invitation`,
      headers: { cookie: staffCookie },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/Let facilitators sign in with Microsoft/);
    expect(
      await t.ctx.db.select().from(microsoftInvitations).where(eq(microsoftInvitations.userId, user.id)),
    ).toEqual([]);

    const start = await browser().start({ page: 'facilitator' });
    expect(landing(start)).toEqual({ path: '/auth', error: 'facilitators_off' });
  });

  it('links an invited guest to the facilitator, who then signs in as a facilitator with or without the invitation', async () => {
    expect((await saveSettings({ facilitatorSignIn: true })).facilitatorSignIn).toBe(true);
    expect((await t.app.inject({ url: '/api/auth/microsoft' })).json().facilitatorSignIn).toBe(true);
    const { user, oid } = await facilitatorWithGuest();
    const token = await inviteFacilitator(user.id);

    const first = browser();
    const answer = await first.signIn({ invitation: token, as: oid, page: 'facilitator' });
    expect(answer.headers.location).toBe('/');
    // the staff app role in the token changes nothing: the account is a facilitator's
    expect(await whoAmI(first)).toMatchObject({ id: user.id, role: 'facilitator' });
    expect(await first.portal('/api/staff/users')).toMatchObject({ statusCode: 403 });
    expect(await identityOf(oid)).toMatchObject([
      { userId: user.id, issuer: entra.issuer, tenantId: entra.tenantId, objectId: oid },
    ]);

    const linked = await t.app.inject({
      url: '/api/staff/microsoft-sign-in/linked',
      headers: { cookie: staffCookie },
    });
    expect(linked.json().users).toContainEqual({ userId: user.id, lastSignInAt: expect.any(String) });

    const later = browser();
    expect(landing(await later.signIn({ as: oid, page: 'facilitator' })).path).toBe('/');
    expect(await whoAmI(later)).toMatchObject({ id: user.id, role: 'facilitator' });
    // the password keeps working
    expect(await t.login(user.username, user.password)).toBeTruthy();
  });

  it('signs nobody in without an invitation, also when the email matches a facilitator', async () => {
    await saveSettings({ facilitatorSignIn: true });
    const { user, oid } = await facilitatorWithGuest();
    // this guest's token carries the facilitator's own email address and sign-in name
    entra.accounts.set(oid, {
      oid,
      email: user.email ?? '',
      preferredUsername: user.username,
      guestFrom: HOME_TENANT,
    });
    const visitor = browser();
    const answer = await visitor.signIn({ as: oid, page: 'facilitator' });
    expect(landing(answer)).toEqual({ path: '/auth', error: 'no_invitation' });
    expect(await whoAmI(visitor)).toBeNull();
    expect(await identityOf(oid)).toEqual([]);
  });

  it('refuses linked facilitators once the setting is turned off, keeps their invitations unused, and their password works', async () => {
    await saveSettings({ facilitatorSignIn: true });
    const linked = await facilitatorWithGuest();
    await browser().signIn({ invitation: await inviteFacilitator(linked.user.id), as: linked.oid });
    const invited = await facilitatorWithGuest();
    const token = await inviteFacilitator(invited.user.id);

    await saveSettings({ facilitatorSignIn: false });
    const refused = browser();
    expect(landing(await refused.signIn({ as: linked.oid, page: 'facilitator' }))).toEqual({
      path: '/auth',
      error: 'facilitators_off',
    });
    expect(await whoAmI(refused)).toBeNull();
    expect(await t.login(linked.user.username, linked.user.password)).toBeTruthy();

    // the invitation is refused before leaving for Microsoft ...
    const early = await browser().start({ invitation: token, page: 'facilitator' });
    expect(landing(early)).toEqual({ path: '/auth', error: 'facilitators_off' });
    // ... and at the callback when the setting went off while the person was at Microsoft
    await saveSettings({ facilitatorSignIn: true });
    const underway = browser();
    entra.nextSignIn = invited.oid;
    const start = await underway.start({ invitation: token, page: 'facilitator' });
    const callback = await underway.throughProvider(String(start.headers.location));
    await saveSettings({ facilitatorSignIn: false });
    expect(landing(await underway.portal(callback))).toEqual({ path: '/auth', error: 'facilitators_off' });
    expect(await identityOf(invited.oid)).toEqual([]);

    // turned on again, the same invitation still links
    await saveSettings({ facilitatorSignIn: true });
    const again = browser();
    await again.signIn({ invitation: token, as: invited.oid, page: 'facilitator' });
    expect(await whoAmI(again)).toMatchObject({ id: invited.user.id, role: 'facilitator' });
  });

  it('turned off, ends the sessions facilitators opened with Microsoft; password and staff sessions stay', async () => {
    await saveSettings({ facilitatorSignIn: true });
    const linked = await facilitatorWithGuest();
    const withMicrosoft = browser();
    await withMicrosoft.signIn({ invitation: await inviteFacilitator(linked.user.id), as: linked.oid });
    expect(await whoAmI(withMicrosoft)).toMatchObject({ id: linked.user.id });
    const withPassword = await t.login(linked.user.username, linked.user.password);

    await saveSettings({ facilitatorSignIn: false });
    expect(await whoAmI(withMicrosoft)).toBeNull();
    const own = await t.app.inject({ method: 'GET', url: '/api/user', headers: { cookie: withPassword } });
    expect(own.json()).toMatchObject({ id: linked.user.id });
    const staff = await t.app.inject({ method: 'GET', url: '/api/user', headers: { cookie: staffCookie } });
    expect(staff.statusCode).toBe(200);
  });

  it('lets a removed facilitator in neither through the linked identity nor an open invitation', async () => {
    await saveSettings({ facilitatorSignIn: true });
    const linked = await facilitatorWithGuest();
    await browser().signIn({ invitation: await inviteFacilitator(linked.user.id), as: linked.oid });
    const invited = await facilitatorWithGuest();
    const token = await inviteFacilitator(invited.user.id);
    for (const { user } of [linked, invited]) {
      const deleted = await t.app.inject({
        method: 'DELETE',
        url: `/api/staff/users/${user.id}`,
        headers: { cookie: staffCookie },
      });
      expect(deleted.statusCode, deleted.body).toBe(204);
    }
    const first = browser();
    expect(landing(await first.signIn({ as: linked.oid, page: 'facilitator' })).error).toBe('no_invitation');
    expect(await whoAmI(first)).toBeNull();
    const second = await browser().signIn({ invitation: token, as: invited.oid, page: 'facilitator' });
    expect(landing(second)).toEqual({ path: '/auth', error: 'invitation_invalid' });
    expect(await t.ctx.db.select().from(users).where(eq(users.id, linked.user.id))).toEqual([]);
  });

  it('never makes a guest staff: not from the app role, not from the staff login page', async () => {
    await saveSettings({ facilitatorSignIn: true, createStaffFromRole: true });
    const before = await t.ctx.db.select({ id: users.id }).from(users);

    // a guest holding the staff role, with no invitation, gets no account
    const { user, oid } = await facilitatorWithGuest();
    const outsider = browser();
    expect(landing(await outsider.signIn({ as: oid }))).toEqual({
      path: '/staff-login',
      error: 'no_invitation',
    });
    expect(await whoAmI(outsider)).toBeNull();
    expect(await t.ctx.db.select({ id: users.id }).from(users)).toHaveLength(before.length + 1);

    // nor does a guest whose token carries neither acct nor idp, only the #EXT# sign-in name
    const bare = '00000000-0000-4000-9000-0000000000ed';
    entra.accounts.set(bare, {
      oid: bare,
      name: 'Bare guest',
      preferredUsername: 'bare_freelance.example#EXT#@contoso.onmicrosoft.com',
      roles: [STAFF_ROLE],
    });
    const bareGuest = browser();
    expect(landing(await bareGuest.signIn({ as: bare }))).toEqual({
      path: '/staff-login',
      error: 'no_invitation',
    });
    expect(await whoAmI(bareGuest)).toBeNull();
    expect(await t.ctx.db.select({ id: users.id }).from(users)).toHaveLength(before.length + 1);

    // a member of the directory with the role does (the rule is about guests, not the role)
    const member = '00000000-0000-4000-9000-0000000000ee';
    entra.accounts.set(member, { oid: member, name: 'Member', roles: [STAFF_ROLE] });
    const colleague = browser();
    expect(landing(await colleague.signIn({ as: member })).path).toBe('/staff');
    expect(await whoAmI(colleague)).toMatchObject({ role: 'staff' });

    // the facilitator's invitation opened from the staff page still makes a facilitator's session
    const invited = browser();
    const answer = await invited.signIn({ invitation: await inviteFacilitator(user.id), as: oid });
    expect(answer.headers.location).toBe('/');
    expect(await whoAmI(invited)).toMatchObject({ id: user.id, role: 'facilitator' });
  });
});
