import type { Page } from '@playwright/test';
import { addFault, emulatorSettings, portalListsPath, withSharePointLock } from './emulator';
import {
  expect as baseExpect,
  checkScreen,
  loginAsFacilitator,
  loginAsStaff,
  test,
  toastLocator,
} from './fixtures';

// the machine running these is shared and slow: give the page a little longer than the default
const expect = baseExpect.configure({ timeout: 10_000 });

/*
 * The e2e server runs a SharePoint emulator and has saved settings pointing at it; the single settings
 * row is shared by the whole run (the refresh tests need it). So every test here only ever saves the
 * emulator's own values, and Test Connection talks to the emulator for real.
 */
type EmulatorValues = Awaited<ReturnType<typeof emulatorSettings>>;
let VALUES: EmulatorValues;
test.beforeAll(async () => {
  VALUES = await emulatorSettings();
});

function field(page: Page, label: string) {
  return page.getByLabel(label, { exact: true });
}

async function fillValues(page: Page) {
  await field(page, 'SharePoint Site URL').fill(VALUES.siteUrl);
  await field(page, 'Availability List Name').fill(VALUES.availabilityListName);
  await field(page, 'Bookings List Name').fill(VALUES.bookingsListName);
  await field(page, 'Facilitator List Name').fill(VALUES.facilitatorListName);
  await field(page, 'Schools List Name').fill(VALUES.schoolsListName);
  await field(page, 'Tenant ID').fill(VALUES.tenantId);
  await field(page, 'Client ID').fill(VALUES.clientId);
  await field(page, 'Username').fill(VALUES.username);
}

async function openSettings(page: Page) {
  await loginAsStaff(page);
  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save Settings' })).toBeVisible();
}

test.describe('SharePoint settings', () => {
  test.describe.configure({ timeout: 120_000 });

  // the rules, Test Connection's states (idle, "Testing...", a request that fails) and the toasts a
  // save chooses between are the form's (settings-form.test.tsx); here what the real server and the
  // emulator answer, and the screens that show it
  test('check, test, save, reload and save again: the real answers and every screen they show', async ({
    page,
  }, testInfo) => {
    const responses: string[] = [];
    page.on('response', async (r) => {
      if (r.url().includes('/api/sharepoint/')) responses.push(await r.text().catch(() => ''));
    });
    await openSettings(page);

    // validation messages under their fields
    await field(page, 'SharePoint Site URL').fill('not a url');
    await field(page, 'Availability List Name').fill('');
    await field(page, 'Bookings List Name').fill('   ');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(page.getByText('Please enter a valid SharePoint site URL')).toBeVisible();
    await expect(page.getByText('Availability list name is required')).toBeVisible();
    await expect(page.getByText('Bookings list name is required')).toBeVisible();
    await checkScreen(page, testInfo, 'settings-errors');

    // the real server asks the emulator's token endpoint, which refuses the wrong client secret
    await fillValues(page);
    const wrongSecret = 'Not-The-Emulator-Secret-1';
    await field(page, 'Client Secret').fill(wrongSecret);
    const status = page.getByTestId('connection-status');
    await page.getByRole('button', { name: 'Test Connection' }).click();
    await expect(status).toHaveAttribute('data-state', 'error', { timeout: 20_000 });
    await expect(status).toContainText('Connection Error');
    await expect(status).toContainText('Troubleshooting tips');
    await expect(status).toContainText('Could not sign in to Microsoft with these settings');
    await expect(status).not.toContainText('Step 2');
    const message = (await status.locator('p').nth(1).textContent()) ?? '';
    expect(message).not.toContain(wrongSecret);
    await checkScreen(page, testInfo, 'settings-connection-error');

    // saved with the right secrets, which are never shown again
    await field(page, 'Password').fill(VALUES.password);
    await field(page, 'Client Secret').fill(VALUES.clientSecret);
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(toastLocator(page)).toContainText('Settings saved');
    await expect(toastLocator(page)).toContainText('Your SharePoint settings have been saved successfully.');
    await expect(field(page, 'Password')).toHaveValue('');
    await expect(field(page, 'Client Secret')).toHaveValue('');
    await expect(field(page, 'Password')).toHaveAttribute('placeholder', 'Leave blank to keep current');
    await expect(page.getByText('A password is stored. Leave blank to keep it.')).toBeVisible();
    await expect(page.getByText('A client secret is stored. Leave blank to keep it.')).toBeVisible();
    await checkScreen(page, testInfo, 'settings-saved');

    await page.reload();
    await expect(field(page, 'SharePoint Site URL')).toHaveValue(VALUES.siteUrl);
    await expect(field(page, 'Availability List Name')).toHaveValue(VALUES.availabilityListName);
    await expect(field(page, 'Bookings List Name')).toHaveValue(VALUES.bookingsListName);
    await expect(field(page, 'Facilitator List Name')).toHaveValue(VALUES.facilitatorListName);
    await expect(field(page, 'Username')).toHaveValue(VALUES.username);
    await expect(field(page, 'Password')).toHaveValue('');
    await expect(field(page, 'Client Secret')).toHaveValue('');

    // saved again with blank secrets (they are kept), while the emulator's lists cannot be read: settings
    // that SharePoint does not accept say so, not only "Settings saved". The saved values are the
    // emulator's own (other specs share them).
    await withSharePointLock(async () => {
      const removeFault = await addFault({
        method: 'GET',
        path: await portalListsPath(),
        times: 'always',
        action: { type: 'status', status: 404, code: 'itemNotFound', message: 'The list was not found' },
      });
      try {
        await page.getByRole('button', { name: 'Save Settings' }).click();
        await expect(toastLocator(page)).toContainText('Settings saved, but the connection test failed');
        await expect(toastLocator(page)).toContainText(`Availability list "${VALUES.availabilityListName}"`);
        await expect(toastLocator(page)).not.toContainText('have been saved successfully');
        await expect(status).toHaveAttribute('data-state', 'error');
        await expect(status).toContainText("The site's lists could not be read");
      } finally {
        await removeFault();
      }
    });
    await expect(page.getByText('A password is stored. Leave blank to keep it.')).toBeVisible();
    await expect(page.getByText('A client secret is stored. Leave blank to keep it.')).toBeVisible();
    await checkScreen(page, testInfo, 'settings-saved-not-working');

    // what was saved works: the stored secrets reach the emulator (Test Connection, blank secrets):
    // token, site, the four lists and their columns
    await page.getByRole('button', { name: 'Test Connection' }).click();
    await expect(status).toHaveAttribute('data-state', 'success', { timeout: 20_000 });
    await expect(status).toContainText('Connection to SharePoint successful!');
    await checkScreen(page, testInfo, 'settings-connection-success');

    // no response ever carried a secret
    expect(responses.length).toBeGreaterThan(3);
    for (const body of responses) {
      expect(body).not.toContain(VALUES.password);
      expect(body).not.toContain(VALUES.clientSecret);
    }
  });

  test(
    'a facilitator sees only their own settings: the calendar feed and the password',
    { tag: '@phone' },
    async ({ page, makeFacilitator }, testInfo) => {
      const user = await makeFacilitator();
      await loginAsFacilitator(page, user);
      await page.goto('/');
      // the side panel's Settings link (in the drawer on a phone)
      if (testInfo.project.name === 'phone')
        await page.getByRole('button', { name: 'Open navigation menu' }).click();
      await page.getByRole('link', { name: 'Settings', exact: true }).click();
      await expect(page).toHaveURL(/\/settings$/);
      await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
      await expect(page.getByTestId('calendar-feed')).toBeVisible();
      await expect(page.getByRole('heading', { name: 'SharePoint', exact: true })).toHaveCount(0);
      await expect(page.getByText('This page is for staff')).toHaveCount(0);
      await expect(page.getByLabel('SharePoint Site URL')).toHaveCount(0);
      await checkScreen(page, testInfo, 'settings-facilitator');
      await page.getByRole('link', { name: 'Change Password' }).last().click();
      await expect(page).toHaveURL(/\/change-password$/);
      await expect(page.getByRole('link', { name: 'Back to Calendar' })).toBeVisible();
    },
  );

  test('staff reach Settings from any staff page, in the staff shell, with a section for each kind of setting', async ({
    page,
  }, testInfo) => {
    // a visitor who is not signed in goes to the login page
    await page.goto('/settings');
    await expect(page).toHaveURL(/\/auth$/);

    await loginAsStaff(page);
    await page.goto('/staff/users');
    await page.getByRole('button', { name: 'Settings and password' }).click();
    await checkScreen(page, testInfo, 'staff-account-menu');
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'SharePoint', exact: true, level: 2 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save Settings' })).toBeVisible();
    // the staff shell: its Logout button, no facilitator side panel
    await expect(page.getByRole('button', { name: 'Sign Out' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();

    // each section reached from the list at the page's top
    const sections = page.getByRole('navigation', { name: 'Settings sections' });
    await expect(sections.getByRole('link')).toHaveText([
      'SharePoint',
      'Email reminders',
      'Safeguarding policy',
      'Sign in with Microsoft',
      'Passkeys',
      'Notifications',
      'Retention',
    ]);
    await checkScreen(page, testInfo, 'settings-sections');
    await sections.getByRole('link', { name: 'Safeguarding policy' }).click();
    await expect(page).toHaveURL(/\/settings#safeguarding-policy$/);
    await expect(page.getByRole('heading', { name: 'Safeguarding policy' })).toBeInViewport();
    await sections.getByRole('link', { name: 'Sign in with Microsoft' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in with Microsoft', level: 2 })).toBeInViewport();
    await sections.getByRole('link', { name: 'Passkeys' }).click();
    await expect(page).toHaveURL(/\/settings#passkeys$/);
    await expect(page.getByRole('heading', { name: 'Passkeys', level: 2 })).toBeInViewport();
    await expect(
      page.getByRole('checkbox', { name: 'Require passkeys or Microsoft sign-in for staff accounts' }),
    ).toBeVisible();

    await page.getByRole('button', { name: 'Settings and password' }).click();
    await page.getByRole('menuitem', { name: 'Change Password' }).click();
    await expect(page).toHaveURL(/\/change-password$/);
    await page.getByRole('link', { name: 'Back to Dashboard' }).click();
    await expect(page).toHaveURL(/\/staff$/);
  });
});
