/**
 * Facilitators signing in with Microsoft, the whole flow in Chromium: staff let facilitators in on the
 * settings page and invite one from the Users page; the facilitator opens the link on the facilitator
 * login page, signs in at a real OpenID Connect server (oidc-provider answering like Entra ID for a
 * guest) and lands on their calendar as a facilitator; the Users page marks them linked; turned off
 * again, the facilitator page explains it and the password still works. Its own portal and identity
 * provider, as in microsoft-sign-in.spec.ts.
 */
import { checkScreen, expect, test } from './fixtures';
import { type MicrosoftPortal, startMicrosoftPortal } from './microsoft-portal';
import { userAction } from './table';

const STAFF = { username: 'ms-guest-e2e-staff@example.org', password: 'Staff-guest-e2e-Passw0rd' };
const FACILITATOR = {
  username: 'robin.freelance@example.net',
  password: 'robin-pass-123',
  displayName: 'Robin Guest',
  oid: 'e2e-guest-object-id-robin',
};

let running: MicrosoftPortal;
let portalUrl: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  running = await startMicrosoftPortal({
    staff: STAFF,
    appSecret: 'e2e-microsoft-guest-sign-in-secret-012345',
    entra: {
      accounts: [
        {
          oid: FACILITATOR.oid,
          name: FACILITATOR.displayName,
          // a guest: no email, an #EXT# sign-in name, and a role that must not make them staff
          preferredUsername: 'robin.freelance_example.net#EXT#@contoso.onmicrosoft.com',
          roles: ['Portal.Staff'],
          guestFrom: 'https://login.microsoftonline.com/aaaaaaaa-0000-4000-8000-00000000aaaa/v2.0',
        },
      ],
    },
  });
  portalUrl = running.url;
});

test.afterAll(async () => {
  await running?.close();
});

test('staff let facilitators in and invite one, who signs in with Microsoft as a facilitator', async ({
  page,
  browser,
}, testInfo) => {
  // two browsers, seven screens checked in two themes: longer than one screen's test
  test.slow();
  const signIn = await page.request.post(`${portalUrl}/api/auth/staff-login`, { data: STAFF });
  expect(signIn.status()).toBe(200);
  const created = await page.request.post(`${portalUrl}/api/staff/users`, {
    data: { ...FACILITATOR, email: FACILITATOR.username, freelancerId: '', role: 'facilitator' },
  });
  expect(created.ok(), await created.text()).toBeTruthy();

  // off by default: the facilitator login page does not offer Microsoft
  const before = await browser.newContext();
  const visitor = await before.newPage();
  await visitor.goto(`${portalUrl}/auth`);
  await expect(visitor.getByRole('form', { name: 'Facilitator sign in' })).toBeVisible();
  await expect(visitor.getByRole('button', { name: 'Sign in with Microsoft' })).toHaveCount(0);
  await before.close();

  // the settings page turns it on
  await page.goto(`${portalUrl}/settings`);
  const allow = page.getByLabel('Let facilitators sign in with Microsoft');
  await allow.scrollIntoViewIfNeeded();
  await expect(allow).not.toBeChecked();
  await allow.click();
  await page.getByRole('button', { name: 'Save sign-in settings' }).click();
  await expect(page.getByText('Sign-in settings saved').first()).toBeVisible();
  await expect(allow).toBeChecked();
  await checkScreen(page, testInfo, 'microsoft-guest-settings');

  // the Users page invites the facilitator
  await page.goto(`${portalUrl}/staff/users`);
  await userAction(
    page,
    page.getByRole('row').filter({ hasText: FACILITATOR.username }),
    FACILITATOR.displayName,
    'Invite to sign in with Microsoft',
  );
  const dialog = page.getByRole('dialog', { name: 'Invite to sign in with Microsoft' });
  await expect(dialog).toContainText('invited as a guest');
  await dialog.getByRole('button', { name: 'Create invitation link' }).click();
  const linkField = dialog.getByRole('textbox', { name: 'Invitation link' });
  await expect(linkField).toHaveValue(new RegExp(`^${portalUrl}/auth#invitation=`));
  await checkScreen(page, testInfo, 'microsoft-guest-invitation');
  const link = await linkField.inputValue();
  await dialog.getByRole('button', { name: 'Close' }).last().click();

  // the facilitator, in a browser of their own
  const theirs = await browser.newContext();
  const them = await theirs.newPage();
  await them.goto(link);
  await expect(them.getByText('You have been invited to sign in with Microsoft')).toBeVisible();
  await checkScreen(them, testInfo, 'microsoft-guest-invited-login');
  await them.getByRole('button', { name: 'Sign in with Microsoft' }).click();
  await them.getByRole('button', { name: `Sign in as ${FACILITATOR.displayName}` }).click();
  await expect(them).toHaveURL(`${portalUrl}/`);
  const me = await them.request.get(`${portalUrl}/api/user`);
  expect(await me.json()).toMatchObject({ username: FACILITATOR.username, role: 'facilitator' });
  expect((await them.request.get(`${portalUrl}/api/staff/users`)).status()).toBe(403);
  await theirs.close();

  // staff see the account is linked
  await page.reload();
  const row = page.getByRole('row').filter({ hasText: FACILITATOR.displayName });
  await expect(row.getByText('Linked to Microsoft')).toBeVisible();
  await checkScreen(page, testInfo, 'microsoft-guest-linked');
});

test('turned off, the facilitator page says to use the password, which still works', async ({
  page,
}, testInfo) => {
  const staff = await page.request.post(`${portalUrl}/api/auth/staff-login`, { data: STAFF });
  expect(staff.status()).toBe(200);
  const off = await page.request.put(`${portalUrl}/api/staff/microsoft-sign-in`, {
    data: { staffPasswordSignIn: true, facilitatorSignIn: false },
    headers: { origin: portalUrl },
  });
  expect(off.status(), await off.text()).toBe(200);
  await page.request.post(`${portalUrl}/api/logout`, { headers: { origin: portalUrl } });

  await page.goto(`${portalUrl}/auth`);
  await expect(page.getByRole('form', { name: 'Facilitator sign in' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in with Microsoft' })).toHaveCount(0);
  // a page opened before it was turned off still has the button: its form comes back with the reason
  await page.evaluate(() => {
    const form = document.createElement('form');
    form.method = 'post';
    form.action = '/api/auth/microsoft/start';
    form.innerHTML = '<input type="hidden" name="page" value="facilitator">';
    document.body.append(form);
    form.submit();
  });
  await expect(page).toHaveURL(`${portalUrl}/auth?microsoftError=facilitators_off`);
  await expect(page.getByRole('alert')).toContainText('username and password instead');
  await checkScreen(page, testInfo, 'microsoft-guest-turned-off');

  await page.getByLabel('Username').fill(FACILITATOR.username);
  await page.getByLabel('Password', { exact: true }).fill(FACILITATOR.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(`${portalUrl}/`);
});
