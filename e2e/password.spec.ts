import type { Page } from '@playwright/test';
import {
  checkScreen,
  expect,
  holdRequests,
  loginAsFacilitator,
  pausePageClock,
  test,
  toastLocator,
} from './fixtures';

function fields(page: Page) {
  return {
    current: page.getByLabel('Current Password', { exact: true }),
    next: page.getByLabel('New Password', { exact: true }),
    confirm: page.getByLabel('Confirm New Password', { exact: true }),
    submit: page.getByRole('button', { name: 'Change Password' }),
  };
}

function messageFor(page: Page, id: string) {
  return page.locator(`#${id}-message`);
}

test.describe('change password', () => {
  test('its texts and messages on an empty submit; then success clears the form, goes home after 1.5 s, and the new password works', async ({
    page,
    makeFacilitator,
  }, testInfo) => {
    const user = await makeFacilitator();
    await loginAsFacilitator(page, user);
    // the 1.5 s before going home run on the page's clock, moved by the test instead of waited for
    await page.clock.install();
    await page.goto('/change-password');
    const f = fields(page);
    await expect(page.getByRole('heading', { name: 'Change Password' })).toBeVisible();
    await expect(page.getByText('Update your account password for security')).toBeVisible();
    // the rules and their messages are the component's (change-password-form.test.tsx); here the
    // screen is checked with every field's message shown
    await f.submit.click();
    await expect(messageFor(page, 'confirmPassword')).toHaveText('Please confirm your new password');
    await expect(f.current).toHaveAttribute('aria-invalid', 'true');
    await checkScreen(page, testInfo, 'change-password-errors');
    await page.getByRole('link', { name: 'Back to Calendar' }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/');
    await page.goBack();
    await expect(page).toHaveURL(/\/change-password$/);

    const newPassword = 'second-pass-456';
    await f.current.fill(user.password);
    await f.next.fill(newPassword);
    await f.confirm.fill(newPassword);
    // held until the pending label has been seen
    const release = await holdRequests(page, '**/api/user/password');
    await f.submit.click();
    await expect(page.getByRole('button', { name: 'Changing...' })).toBeDisabled();
    // the page's time stands still from here, so the redirect timer starts at this moment
    await pausePageClock(page);
    release();

    // The answer reaches the form through zero-delay timers: the paused clock steps 20 ms at a time
    // until the form has been cleared, which happens together with starting the redirect timer; so
    // that timer started during the last step.
    await expect(async () => {
      await page.clock.runFor(20);
      await expect(f.current).toHaveValue('', { timeout: 250 });
    }).toPass();
    await page.clock.runFor(1_400);
    await expect(page).toHaveURL(/\/change-password$/);
    const toast = toastLocator(page);
    await expect(toast).toContainText('Password updated');
    await expect(toast).toContainText(
      'Your password has been changed successfully. Redirecting to homepage...',
    );
    await expect(f.next).toHaveValue('');
    await expect(f.confirm).toHaveValue('');
    await page.clock.runFor(200);
    await expect(page).toHaveURL((url) => url.pathname === '/');
    // the home page's reads settle on zero-delay timers, which the paused clock would hold
    await page.clock.resume();
    await expect(page.getByRole('heading', { name: 'Availability Calendar' })).toBeVisible();
    await checkScreen(page, testInfo, 'password-updated-home');

    // sign out, then the new password signs in and the old one does not
    await page.context().clearCookies();
    await page.goto('/auth');
    const old = await page.request.post('/api/login', {
      data: { username: user.username, password: user.password },
    });
    expect(old.status()).toBe(401);
    await page.getByLabel('Username', { exact: true }).fill(user.username);
    await page.getByLabel('Password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('welcome')).toHaveText(`Welcome, ${user.displayName}`);
  });
});
