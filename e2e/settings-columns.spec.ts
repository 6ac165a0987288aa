import type { Page } from '@playwright/test';
import { createEmulatorList, emulatorSettings, seedEmulatorSite } from './emulator';
import { expect as baseExpect, checkScreen, loginAsStaff, test } from './fixtures';

// the machine running these is shared and slow: give the page a little longer than the default
const expect = baseExpect.configure({ timeout: 15_000 });

/*
 * Column mapping on the settings page, against a second emulator site whose lists carry tenant-style
 * column names. Nothing is saved here: the e2e run shares one settings row.
 */
let tenant: { siteUrl: string; siteId: string; created: boolean };
// biome-ignore lint/correctness/noEmptyPattern: Playwright hands the worker's info as the second argument
test.beforeAll(async ({}, testInfo) => {
  // one site per project: the desktop and phone runs seed at the same time
  tenant = await seedEmulatorSite({
    seed: `e2e-columns-${testInfo.project.name}`,
    path: `/sites/TenantColumns-${testInfo.project.name}`,
    columnNames: 'tenant',
    bookingCount: 3,
  });
  if (!tenant.created) return;
  await createEmulatorList({
    siteId: tenant.siteId,
    displayName: 'Sessions',
    columns: [
      { name: 'Title', displayName: 'Title', type: 'text' },
      { name: 'Tutor', displayName: 'Tutor', type: 'text' },
      { name: 'Session_x0020_Date', displayName: 'Session Date', type: 'text' },
      { name: 'When', displayName: 'When', type: 'dateOnly' },
    ],
    items: [{ Title: 'Clay', Tutor: '1001', Session_x0020_Date: 'the tenth', When: '2026-06-10' }],
  });
});

async function openTenantSettings(page: Page) {
  const values = await emulatorSettings();
  await loginAsStaff(page);
  await page.goto('/settings');
  await expect(page.getByRole('button', { name: 'Save Settings' })).toBeVisible();
  await page.getByLabel('SharePoint Site URL', { exact: true }).fill(tenant.siteUrl);
  await page.getByLabel('Tenant ID', { exact: true }).fill(values.tenantId);
  await page.getByLabel('Client ID', { exact: true }).fill(values.clientId);
  // the stored secret belongs to the portal's own site: another site needs it typed again
  await page.getByLabel('Client Secret', { exact: true }).fill(values.clientSecret);
}

const bookings = (page: Page) => page.getByTestId('columns-bookings');

test.describe('column mapping', () => {
  test.describe.configure({ timeout: 300_000 });

  test('columns matched automatically, then what is missing or of the wrong type shown and corrected by staff', async ({
    page,
  }, testInfo) => {
    await openTenantSettings(page);
    await page.getByRole('button', { name: 'Check Columns' }).click();
    await expect(bookings(page)).toContainText('every field has a column');
    await expect(page.getByLabel('Session date (required)', { exact: true }).first()).toHaveValue(
      'Session_x0020_Date',
    );
    await expect(page.getByTestId('status-bookings-date')).toHaveText('Matched automatically');
    await expect(page.getByTestId('status-availability-notes')).toHaveText('Matched automatically');
    await expect(page.getByTestId('columns-availability')).toContainText('every field has a column');
    const status = page.getByTestId('connection-status');
    await page.getByRole('button', { name: 'Test Connection' }).click();
    await expect(status).toHaveAttribute('data-state', 'success');
    await checkScreen(page, testInfo, 'settings-columns-matched');

    // another bookings list, whose columns do not all fit
    await page.getByLabel('Bookings List Name', { exact: true }).fill('Sessions');
    await page.getByRole('button', { name: 'Check Columns' }).click();
    await expect(bookings(page)).toContainText('2 to fix');
    await expect(page.getByTestId('status-bookings-freelancerId')).toContainText(
      'Freelancer ID: no column found',
    );
    await expect(page.getByTestId('status-bookings-date')).toHaveText(
      'Session date: the column "Session Date" (Session_x0020_Date) is a text column; it needs a date column.',
    );
    await page.getByRole('button', { name: 'Test Connection' }).click();
    await expect(status).toHaveAttribute('data-state', 'error');
    await expect(status).toContainText('Freelancer ID: no column found');
    await expect(status).toContainText('is a text column; it needs a date column');
    await checkScreen(page, testInfo, 'settings-columns-problems');

    const date = bookings(page).getByLabel('Session date (required)', { exact: true });
    await date.selectOption('When');
    await expect(page.getByTestId('status-bookings-date')).toHaveText('Chosen by staff');
    await bookings(page).getByLabel('Freelancer ID (required)', { exact: true }).selectOption('Tutor');
    await expect(page.getByTestId('status-bookings-freelancerId')).toHaveText('Chosen by staff');
    await expect(bookings(page)).toContainText('every field has a column');
    await page.getByRole('button', { name: 'Test Connection' }).click();
    await expect(status).toHaveAttribute('data-state', 'success');
    await checkScreen(page, testInfo, 'settings-columns-corrected');
  });
});
