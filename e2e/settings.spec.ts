import type { Page, Route } from '@playwright/test';
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

const TEST_API = '**/api/sharepoint/test-connection-with-credentials';
const SETTINGS_API = '**/api/sharepoint/settings';

// Every project and worker saves the same values, so runs in parallel cannot disagree about them.
const VALUES = {
  siteUrl: 'https://contoso.sharepoint.com/sites/arts-e2e',
  availabilityListName: 'Facilitator Availability',
  bookingsListName: 'School Bookings',
  facilitatorListName: 'Freelancers',
  schoolsListName: 'Schools',
  tenantId: '',
  clientId: '',
  username: 'sync@contoso.example',
};
const PASSWORD = 'E2e-Sp-Password-1';
const CLIENT_SECRET = 'E2e~Client~Secret~1';

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
  await expect(page.getByRole('heading', { name: 'SharePoint Settings' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save Settings' })).toBeVisible();
}

/** Holds a request back so an in-between state can be seen; the real server still answers. */
async function slowDown(page: Page, url: string, ms = 2500) {
  await page.route(url, async (route: Route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.fallback();
  });
}

test.describe('SharePoint settings', () => {
  test.describe.configure({ timeout: 90_000 });

  test('save: toast, secrets write-only with "leave blank to keep", values kept after reload', async ({
    page,
  }, testInfo) => {
    await openSettings(page);
    await expect(
      page.getByText('Username and password sign-in does not work for accounts with multi-factor'),
    ).toBeVisible();
    await expect(page.getByText('Used for authentication', { exact: false })).toBeVisible();
    await fillValues(page);
    await field(page, 'Password').fill(PASSWORD);
    await field(page, 'Client Secret').fill(CLIENT_SECRET);

    const responses: string[] = [];
    page.on('response', async (r) => {
      if (r.url().includes('/api/sharepoint/')) responses.push(await r.text().catch(() => ''));
    });
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(toastLocator(page)).toContainText('Settings saved');
    await expect(toastLocator(page)).toContainText('Your SharePoint settings have been saved successfully.');

    // secrets blank again, with the hint that one is stored
    await expect(field(page, 'Password')).toHaveValue('');
    await expect(field(page, 'Client Secret')).toHaveValue('');
    await expect(field(page, 'Password')).toHaveAttribute('placeholder', 'Leave blank to keep current');
    await expect(page.getByText('A password is stored. Leave blank to keep it.')).toBeVisible();
    await expect(page.getByText('A client secret is stored. Leave blank to keep it.')).toBeVisible();
    await checkScreen(page, testInfo, 'settings-saved');

    await page.reload();
    await expect(field(page, 'SharePoint Site URL')).toHaveValue(VALUES.siteUrl);
    await expect(field(page, 'Bookings List Name')).toHaveValue(VALUES.bookingsListName);
    await expect(field(page, 'Facilitator List Name')).toHaveValue(VALUES.facilitatorListName);
    await expect(field(page, 'Username')).toHaveValue(VALUES.username);
    await expect(field(page, 'Password')).toHaveValue('');
    await expect(field(page, 'Client Secret')).toHaveValue('');

    // saving again with blank secrets keeps them
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(toastLocator(page)).toContainText('Settings saved');
    await expect(page.getByText('A password is stored. Leave blank to keep it.')).toBeVisible();

    // no response ever carried a secret
    for (const body of responses) {
      expect(body).not.toContain(PASSWORD);
      expect(body).not.toContain(CLIENT_SECRET);
    }
  });

  test('validation messages of spec section 5; nothing is sent', async ({ page }, testInfo) => {
    await openSettings(page);
    let posted = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes('/api/sharepoint/')) posted++;
    });
    await field(page, 'SharePoint Site URL').fill('not a url');
    await field(page, 'Availability List Name').fill('');
    await field(page, 'Bookings List Name').fill('   ');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(page.getByText('Please enter a valid SharePoint site URL')).toBeVisible();
    await expect(page.getByText('Availability list name is required')).toBeVisible();
    await expect(page.getByText('Bookings list name is required')).toBeVisible();
    await expect(field(page, 'SharePoint Site URL')).toHaveAttribute('aria-invalid', 'true');
    await checkScreen(page, testInfo, 'settings-errors');

    // Test Connection checks the same rules first
    await page.getByRole('button', { name: 'Test Connection' }).click();
    await expect(page.getByTestId('connection-status')).toHaveAttribute('data-state', 'idle');
    expect(posted).toBe(0);

    // fixing a field clears its message
    await field(page, 'SharePoint Site URL').fill(VALUES.siteUrl);
    await expect(page.getByText('Please enter a valid SharePoint site URL')).toHaveCount(0);
  });

  test('test connection: idle, testing, then the connection error with tips', async ({ page }, testInfo) => {
    await openSettings(page);
    await fillValues(page);
    const status = page.getByTestId('connection-status');
    await expect(status).toHaveAttribute('data-state', 'idle');
    await expect(status).toContainText('Connection not tested yet');

    // the real server answers; no tenant or client ID can never connect
    await slowDown(page, TEST_API);
    await page.getByRole('button', { name: 'Test Connection' }).click();
    await expect(page.getByRole('button', { name: 'Testing...' })).toBeDisabled();
    await expect(status).toHaveAttribute('data-state', 'testing');
    await expect(status).toContainText('Testing connection to SharePoint...');

    await expect(status).toHaveAttribute('data-state', 'error', { timeout: 20_000 });
    await expect(status).toContainText('Connection Error');
    await expect(status).toContainText('Troubleshooting tips');
    const message = (await status.locator('p').nth(1).textContent()) ?? '';
    expect(message.trim().length).toBeGreaterThan(0);
    expect(message).not.toContain(PASSWORD);
    await checkScreen(page, testInfo, 'settings-connection-error');
  });

  test('test connection: success panel, and a network failure', async ({ page }, testInfo) => {
    await openSettings(page);
    await fillValues(page);
    const status = page.getByTestId('connection-status');

    // No SharePoint is reachable from the test run, so the success answer is supplied here.
    await page.route(TEST_API, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ success: true, message: '' }),
      }),
    );
    await page.getByRole('button', { name: 'Test Connection' }).click();
    await expect(status).toHaveAttribute('data-state', 'success');
    await expect(status).toContainText('Connection to SharePoint successful!');
    await checkScreen(page, testInfo, 'settings-connection-success');

    // a failed answer without a message gets the default text
    await page.unroute(TEST_API);
    await page.route(TEST_API, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, message: '' }),
      }),
    );
    await page.getByRole('button', { name: 'Test Connection' }).click();
    await expect(status).toContainText('Connection test failed');

    // the request itself fails
    await page.unroute(TEST_API);
    await page.route(TEST_API, (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: 'Test Connection' }).click();
    await expect(status).toHaveAttribute('data-state', 'error');
    await expect(status).toContainText('Failed to connect to SharePoint.');
  });

  test('save failure shows "Error" and the fallback message', async ({ page }) => {
    await openSettings(page);
    await fillValues(page);
    await page.route(SETTINGS_API, (route) =>
      route.request().method() === 'POST' ? route.abort('connectionrefused') : route.fallback(),
    );
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(toastLocator(page)).toContainText('Error');
    await expect(toastLocator(page)).toContainText('Failed to save settings. Please try again.');
  });

  test('a facilitator sees that the page is for staff, not a broken form', async ({
    page,
    makeFacilitator,
  }, testInfo) => {
    const user = await makeFacilitator();
    await loginAsFacilitator(page, user);
    await page.goto('/settings');
    await expect(page.getByRole('heading', { name: 'This page is for staff' })).toBeVisible();
    await expect(
      page.getByText('SharePoint settings can only be viewed and changed by staff.'),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save Settings' })).toHaveCount(0);
    await expect(page.getByLabel('SharePoint Site URL')).toHaveCount(0);
    await checkScreen(page, testInfo, 'settings-facilitator');
    await page.getByRole('link', { name: 'Back to Calendar' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('a visitor who is not signed in goes to the login page', async ({ page }) => {
    await page.goto('/settings');
    await expect(page).toHaveURL(/\/auth$/);
  });
});
