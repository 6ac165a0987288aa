import type { Page } from '@playwright/test';
import {
  expect as baseExpect,
  checkScreen,
  laptopOnDesktop,
  loginAsFacilitator,
  test,
  toastLocator,
} from './fixtures';

/*
 * Passkeys for real in Chromium: its virtual authenticator (through the DevTools protocol) stands in
 * for the phone's or computer's own unlock, holds the passkeys it makes and answers every request as
 * if a person had touched it and been verified. The portal is opened as localhost (e2e/constants.ts):
 * Chromium refuses passkeys on an IP address.
 */

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 120_000 });

/** A platform authenticator that keeps its passkeys and verifies its user without asking. */
async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    /** How many passkeys the authenticator holds. */
    count: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials.length,
  };
}

/** Ends the page's session (the page itself stays where it is). */
async function signOut(page: Page) {
  expect((await page.request.post('/api/logout')).status()).toBe(200);
  expect((await page.request.get('/api/user')).status()).toBe(401);
}

async function expectSignedInAs(page: Page, username: string) {
  const me = await page.request.get('/api/user');
  expect(me.status()).toBe(200);
  expect(((await me.json()) as { username: string }).username).toBe(username);
}

test(
  'a facilitator adds a passkey in settings, signs in with it, removes it, and it no longer signs in',
  { tag: '@phone' },
  async ({ page, makeFacilitator }, testInfo) => {
    await laptopOnDesktop(page, testInfo);
    const authenticator = await addVirtualAuthenticator(page);
    const user = await makeFacilitator();
    await loginAsFacilitator(page, user);

    await page.goto('/settings');
    const card = page
      .locator('[data-slot="card"]')
      .filter({ has: page.getByRole('heading', { name: 'Passkeys', level: 2 }) });
    await expect(card).toBeVisible();
    await expect(card.getByText('You have no passkeys yet.')).toBeVisible();

    // the name is required before the browser is asked for anything
    await card.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(card.getByLabel('Name for the new passkey')).toHaveAttribute('aria-invalid', 'true');
    expect(await authenticator.count()).toBe(0);

    await card.getByLabel('Name for the new passkey').fill('Work laptop');
    await card.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(toastLocator(page)).toContainText('Passkey added');
    await expect(toastLocator(page)).toContainText('"Work laptop" can now sign you in.');
    const list = card.getByRole('list', { name: 'Your passkeys' });
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(list.getByRole('listitem')).toContainText('Work laptop');
    await expect(list.getByRole('listitem')).toContainText('not used yet');
    await expect(card.getByLabel('Name for the new passkey')).toHaveValue('');
    expect(await authenticator.count()).toBe(1);
    await checkScreen(page, testInfo, 'settings-passkeys');

    // signed out, the login page asks the browser for its passkey suggestions at once; the virtual
    // authenticator answers as a person picking the passkey there would, and it signs in to home
    await signOut(page);
    await page.goto('/auth');
    await expect(page).toHaveURL(/\/$/);
    await expectSignedInAs(page, user.username);

    // a browser without passkey suggestions: the login page's button, with the same result
    await page.addInitScript(() => {
      PublicKeyCredential.isConditionalMediationAvailable = async () => false;
    });
    await signOut(page);
    await page.goto('/auth');
    const passkeyButton = page.getByRole('button', { name: 'Sign in with a passkey' });
    await expect(passkeyButton).toBeVisible();
    await expect(page.getByLabel('Username', { exact: true })).toHaveAttribute(
      'autocomplete',
      'username webauthn',
    );
    await checkScreen(page, testInfo, 'login-with-passkey');
    await passkeyButton.click();
    await expect(page).toHaveURL(/\/$/);
    await expectSignedInAs(page, user.username);

    // the list says it has been used; removing it asks first, and Keep it keeps it
    await page.goto('/settings');
    const item = card.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem');
    await expect(item).toContainText('last used');
    await card.getByRole('button', { name: 'Remove Work laptop' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Remove this passkey?' });
    await expect(confirm).toContainText('"Work laptop" will no longer sign you in.');
    await checkScreen(page, testInfo, 'passkey-remove-confirm');
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    await expect(confirm).toBeHidden();
    await expect(item).toHaveCount(1);

    await card.getByRole('button', { name: 'Remove Work laptop' }).click();
    await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
    await expect(toastLocator(page)).toContainText('Passkey removed');
    await expect(card.getByText('You have no passkeys yet.')).toBeVisible();

    // the authenticator still holds it, but the portal no longer accepts it
    await signOut(page);
    expect(await authenticator.count()).toBe(1);
    await page.goto('/auth');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page.getByRole('alert')).toContainText('That passkey could not sign you in.');
    await expect(page).toHaveURL(/\/auth$/);
    expect((await page.request.get('/api/user')).status()).toBe(401);
    await checkScreen(page, testInfo, 'login-passkey-refused');
  },
);
