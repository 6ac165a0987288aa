/**
 * Sign in with Microsoft, the whole flow in Chromium: staff invite an account on the Users page, the
 * invited person opens the link, signs in at a real OpenID Connect server (oidc-provider answering
 * like Entra ID) and lands on the staff dashboard; a cancelled sign-in comes back with its
 * explanation. The shared e2e server has no Microsoft configuration, so this spec runs its own portal
 * (the real app, built client, in-memory database) next to its own identity provider.
 */
import { makeCertificatePair, removeCertificateFiles } from '../src/server/test/certificate-pair';
import type { TestEntra } from '../src/server/test/entra-provider';
import { checkScreen, expect, test } from './fixtures';
import { type MicrosoftPortal, startMicrosoftPortal } from './microsoft-portal';
import { userAction } from './table';

const STAFF = { username: 'ms-e2e-staff@example.org', password: 'Staff-ms-e2e-Passw0rd' };
const INVITED = {
  username: 'ms-invited@example.org',
  displayName: 'Morgan Invited',
  oid: 'e2e-object-id-morgan',
};

let running: MicrosoftPortal;
let entra: TestEntra;
let portalUrl: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  running = await startMicrosoftPortal({
    staff: STAFF,
    appSecret: 'e2e-microsoft-sign-in-secret-0123456789',
    entra: { accounts: [{ oid: INVITED.oid, name: INVITED.displayName, email: INVITED.username }] },
  });
  ({ entra, url: portalUrl } = running);
});

test.afterAll(async () => {
  await running?.close();
});

test('staff invite an account, and its owner signs in with Microsoft', async ({
  page,
  browser,
}, testInfo) => {
  // staff sign in with their password and invite the account on the Users page
  const signIn = await page.request.post(`${portalUrl}/api/auth/staff-login`, { data: STAFF });
  expect(signIn.status()).toBe(200);
  const created = await page.request.post(`${portalUrl}/api/staff/users`, {
    data: {
      username: INVITED.username,
      password: 'first-pass-123',
      displayName: INVITED.displayName,
      email: INVITED.username,
      freelancerId: '',
      role: 'staff',
    },
  });
  expect(created.ok(), await created.text()).toBeTruthy();

  await page.goto(`${portalUrl}/staff/users`);
  const invitedRow = page.getByRole('row').filter({ hasText: INVITED.username });
  const invite = await userAction(page, invitedRow, INVITED.displayName, 'Invite to sign in with Microsoft');
  const dialog = page.getByRole('dialog', { name: 'Invite to sign in with Microsoft' });
  await dialog.getByRole('button', { name: 'Create invitation link' }).click();
  const linkField = dialog.getByRole('textbox', { name: 'Invitation link' });
  await expect(linkField).toHaveValue(new RegExp(`^${portalUrl}/staff-login#invitation=`));
  await checkScreen(page, testInfo, 'microsoft-invitation');
  const link = await linkField.inputValue();

  // closed, the dialog gives focus back to the row's actions; opened again, it starts without a link
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(invite).toBeFocused();
  await userAction(page, invitedRow, INVITED.displayName, 'Invite to sign in with Microsoft');
  await expect(dialog.getByRole('button', { name: 'Create invitation link' })).toBeVisible();
  await expect(linkField).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // the invited person, in a browser of their own
  const theirs = await browser.newContext();
  const them = await theirs.newPage();
  await them.goto(link);
  await expect(them.getByText('You have been invited to sign in with Microsoft')).toBeVisible();
  await checkScreen(them, testInfo, 'microsoft-invited-login');
  await them.getByRole('button', { name: 'Sign in with Microsoft' }).click();
  await them.getByRole('button', { name: `Sign in as ${INVITED.displayName}` }).click();
  await expect(them).toHaveURL(`${portalUrl}/staff`);
  const me = await them.request.get(`${portalUrl}/api/user`);
  expect(await me.json()).toMatchObject({ username: INVITED.username, role: 'staff' });

  // the link worked once: opening it again is refused, before leaving for Microsoft, with what to do
  const again = await browser.newContext();
  const later = await again.newPage();
  await later.goto(link);
  await later.getByRole('button', { name: 'Sign in with Microsoft' }).click();
  await expect(later).toHaveURL(`${portalUrl}/staff-login?microsoftError=invitation_invalid`);
  await expect(later.getByRole('alert')).toContainText('already been used');
  await theirs.close();
  await again.close();
});

test('a cancelled sign-in says what to do; signing out after a Microsoft sign-in offers to sign out of Microsoft too; the settings page shows the configuration', async ({
  page,
}, testInfo) => {
  await page.goto(`${portalUrl}/staff-login`);
  await page.getByRole('button', { name: 'Sign in with Microsoft' }).click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(`${portalUrl}/staff-login?microsoftError=cancelled`);
  await expect(page.getByRole('alert')).toContainText('Sign-in with Microsoft was cancelled');
  // the password form is still there for staff while passwords are allowed
  await expect(page.getByRole('form', { name: 'Staff sign in' })).toBeVisible();
  await checkScreen(page, testInfo, 'microsoft-cancelled');

  // then the account linked by the test above signs in
  await page.getByRole('button', { name: 'Sign in with Microsoft' }).click();
  await page.getByRole('button', { name: `Sign in as ${INVITED.displayName}` }).click();
  await expect(page).toHaveURL(`${portalUrl}/staff`);

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(`${portalUrl}/staff-login?signedOut=microsoft`);
  await expect(
    page.getByRole('status').filter({ hasText: 'You have signed out of the portal' }),
  ).toBeVisible();
  await checkScreen(page, testInfo, 'microsoft-signed-out');
  expect((await page.request.get(`${portalUrl}/api/user`)).status()).toBe(401);
  // the login page opened as a new page: going back finds nobody signed in, not the dashboard as read
  await page.goBack();
  await expect(page).toHaveURL(`${portalUrl}/staff-login`);
  await expect(page.getByRole('heading', { name: 'Staff Login' })).toBeVisible();
  await page.goForward();
  await expect(page).toHaveURL(`${portalUrl}/staff-login?signedOut=microsoft`);

  // the identity provider's own sign-out page, then back to the portal
  await page.getByRole('link', { name: 'Also sign out of Microsoft' }).click();
  await expect(page).toHaveURL(new RegExp(`^${entra.issuer}/session/end`));
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(page).toHaveURL(`${portalUrl}/staff-login`);

  // signed out there too: signing in again asks who
  await page.getByRole('button', { name: 'Sign in with Microsoft' }).click();
  await expect(page.getByRole('heading', { name: 'Test identity provider' })).toBeVisible();

  // the settings page, as staff signed in with their password
  const signIn = await page.request.post(`${portalUrl}/api/auth/staff-login`, { data: STAFF });
  expect(signIn.status()).toBe(200);
  await page.goto(`${portalUrl}/settings`);
  const card = page.getByRole('heading', { name: 'Sign in with Microsoft' });
  await card.scrollIntoViewIfNeeded();
  await expect(page.getByText(`${portalUrl}/api/auth/microsoft/callback`)).toBeVisible();
  // the environment sets the connection: shown, not editable
  await expect(page.getByLabel('Directory (tenant) ID')).toHaveValue(entra.tenantId);
  await expect(page.getByLabel('Directory (tenant) ID')).not.toBeEditable();
  await expect(page.getByText('Set by ENTRA_TENANT_ID on the server.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Link my Microsoft account' })).toBeVisible();
  await page.getByLabel('Staff may also sign in with a password').click();
  await page.getByRole('button', { name: 'Save sign-in settings' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Sign in with Microsoft yourself first' }),
  ).toBeVisible();
  await checkScreen(page, testInfo, 'microsoft-settings');
});

test.describe('configured on the settings page', () => {
  const CLIENT_ID = '6f1d2c3b-4a59-4e6f-8a7b-9c0d1e2f3a4b';
  const SECRET = 'page-entered-client-secret-0123456789';
  let paged: MicrosoftPortal;
  let idp: TestEntra;
  let pagedUrl: string;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    paged = await startMicrosoftPortal({
      staff: STAFF,
      appSecret: 'e2e-microsoft-settings-page-secret-0123',
      entra: { clientId: CLIENT_ID, clientSecret: SECRET },
      configuredBy: 'settings page',
    });
    ({ entra: idp, url: pagedUrl } = paged);
  });

  test.afterAll(async () => {
    await paged?.close();
  });

  test('staff enter the directory, application and secret, test them, and the login page offers Microsoft', async ({
    page,
  }, testInfo) => {
    const signIn = await page.request.post(`${pagedUrl}/api/auth/staff-login`, { data: STAFF });
    expect(signIn.status()).toBe(200);
    await page.goto(`${pagedUrl}/settings`);
    const card = page.getByRole('form', { name: 'Sign in with Microsoft settings' });
    await card.scrollIntoViewIfNeeded();
    await expect(card.getByText('Not configured')).toBeVisible();

    // a client ID that is not a GUID is refused on the page, before anything is sent
    await card.getByLabel('Directory (tenant) ID').fill(idp.tenantId);
    await card.getByLabel('Application (client) ID').fill('portal-application');
    await card.getByRole('button', { name: 'Save sign-in settings' }).click();
    await expect(card.getByText('Enter the application (client) ID, a GUID')).toBeVisible();

    await card.getByLabel('Application (client) ID').fill(CLIENT_ID);
    await card.getByLabel('Client secret').fill(SECRET);
    await card.getByLabel('Staff app role').fill('Portal.Staff');
    await card.getByLabel('Create staff accounts for people with the app role').check();
    await card.getByRole('button', { name: 'Test sign-in settings' }).click();
    await expect(card.getByTestId('microsoft-test-status')).toContainText(
      `Microsoft answered for the directory ${idp.tenantId}`,
    );
    await card.getByRole('button', { name: 'Save sign-in settings' }).click();
    await expect(card.getByText('Configured', { exact: true })).toBeVisible();
    await expect(card.getByText('A client secret is stored. Leave blank to keep it.')).toBeVisible();
    await expect(card.getByLabel('Client secret')).toHaveValue('');
    await expect(card.getByLabel('Create staff accounts for people with the app role')).toBeChecked();
    await checkScreen(page, testInfo, 'microsoft-settings-entered');

    // another application without the secret typed again: the secret is cleared, and the page says so
    await card.getByLabel('Application (client) ID').fill('0f1e2d3c-4b5a-4968-8776-655443322110');
    await card.getByRole('button', { name: 'Save sign-in settings' }).click();
    await expect(card.getByTestId('microsoft-secret-cleared')).toContainText('The client secret was cleared');
    await expect(card.getByText('Not configured')).toBeVisible();
    await checkScreen(page, testInfo, 'microsoft-settings-secret-cleared');

    // back to the right application with its secret: the staff login page offers Microsoft
    await card.getByLabel('Application (client) ID').fill(CLIENT_ID);
    await card.getByLabel('Client secret').fill(SECRET);
    await card.getByRole('button', { name: 'Save sign-in settings' }).click();
    await expect(card.getByText('Configured', { exact: true })).toBeVisible();
    const visitor = await page.context().browser()!.newContext();
    const login = await visitor.newPage();
    await login.goto(`${pagedUrl}/staff-login`);
    await expect(login.getByRole('button', { name: 'Sign in with Microsoft' })).toBeVisible();
    await visitor.close();

    // a certificate instead of the secret: stored, described with its expiry, warned about
    const pair = makeCertificatePair('portal-e2e-sign-in', 20);
    removeCertificateFiles();
    await card.getByLabel('Client certificate (PEM)').fill(pair.certificate);
    await card.getByLabel('Certificate private key (PEM)').fill(pair.key);
    await card.getByRole('button', { name: 'Save sign-in settings' }).click();
    await expect(card.getByTestId('microsoft-certificate-summary')).toContainText('CN=portal-e2e-sign-in');
    await expect(card.getByTestId('microsoft-certificate-expiry')).not.toBeEmpty();
    await expect(card.getByTestId('microsoft-certificate-warning')).toContainText(
      'The certificate expires in',
    );
    await expect(card.getByLabel('Certificate private key (PEM)')).toHaveValue('');
    await expect(card).not.toContainText(pair.key.split('\n')[1] ?? '');
    await checkScreen(page, testInfo, 'microsoft-settings-certificate');
  });
});
