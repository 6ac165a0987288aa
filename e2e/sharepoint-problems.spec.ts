import { addFault, BOOKINGS_DELTA, withSharePointLock } from './emulator';
import { expect as baseExpect, checkScreen, loginAsStaff, test } from './fixtures';

/**
 * SharePoint work that keeps failing is shown to staff with what to do, on the dashboard's status line
 * and on the settings page, and goes away once the work succeeds again.
 */

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 150_000 });

test(
  'a refused bookings refresh: staff read what failed and what to do until a refresh succeeds',
  { tag: '@phone' },
  async ({ page }, testInfo) => {
    await loginAsStaff(page);
    await withSharePointLock(async () => {
      const removeFault = await addFault({
        path: BOOKINGS_DELTA,
        times: 'always',
        action: { type: 'status', status: 403 },
      });
      try {
        await page.goto('/staff');
        await expect(page.getByTestId('scheduler-status')).toBeVisible();
        // the e2e server has no https PUBLIC_URL: changes come in by polling
        await expect(page.getByTestId('change-mode')).toHaveText(
          'Changes in SharePoint are checked on a schedule',
        );
        const refreshed = page.waitForResponse('**/api/staff/bookings/refresh');
        await page.getByRole('button', { name: 'Refresh Bookings' }).click();
        expect((await refreshed).status()).toBe(503);

        const problem = page.getByTestId('sharepoint-problems').locator('li[data-area="bookings"]');
        await expect(problem).toContainText('Bookings are not coming in from SharePoint (since today at');
        await expect(problem).toContainText('Reading bookings from SharePoint failed:');
        await expect(problem).toContainText('403');
        await expect(problem).toContainText('What to do: Give the app registration read access to the site');
        // Graph's long addresses wrap inside the box: the page never grows wider than a phone
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
        ).toBeLessThanOrEqual(0);
        await checkScreen(page, testInfo, 'dashboard-sharepoint-problem');

        await page.goto('/settings');
        const card = page.getByTestId('settings-problems');
        await expect(card.getByRole('heading', { name: 'Needs attention' })).toBeVisible();
        await expect(card).toContainText('What to do: Give the app registration read access to the site');
        await checkScreen(page, testInfo, 'settings-sharepoint-problem');
      } finally {
        await removeFault();
      }

      // Only the bookings problem is this test's: other tests' SharePoint faults can leave
      // availability waiting to be sent (the outbox tries again after a pause), shown in the same list.
      const bookingsProblem = page.locator('[data-testid="sharepoint-problems"] li[data-area="bookings"]');
      await page.goto('/staff');
      const refreshed = page.waitForResponse('**/api/staff/bookings/refresh');
      await page.getByRole('button', { name: 'Refresh Bookings' }).click();
      expect((await refreshed).status()).toBe(200);
      await expect(bookingsProblem).toHaveCount(0);
      const status = page.waitForResponse('**/api/admin/scheduler/status');
      await page.goto('/settings');
      await expect(page.getByRole('heading', { name: 'Site and lists' })).toBeVisible();
      expect((await status).status()).toBe(200);
      await expect(bookingsProblem).toHaveCount(0);
    });
  },
);
