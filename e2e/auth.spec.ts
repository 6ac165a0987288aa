import type { Page } from '@playwright/test';
import { SESSION_HINT_COOKIE } from '../src/shared/schemas/auth';
import { BASE_URL, FACILITATORS, STAFF } from './constants';
import { checkScreen, expect, holdRequests, loginAsFacilitator, test, toastLocator } from './fixtures';

const alice = FACILITATORS.alice;

/** The staff account signs in on a login page's form and lands on the staff dashboard. */
async function staffSignsInAt(page: Page, path: '/auth' | '/staff-login') {
  await page.goto(path);
  await page.getByLabel('Username', { exact: true }).fill(STAFF.username);
  await page.getByLabel('Password', { exact: true }).fill(STAFF.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/staff$/);
  await expect(
    page.getByRole('heading', { name: 'Staff Dashboard - Arts Facilitator Portal' }),
  ).toBeVisible();
}

test.describe('route guard', () => {
  for (const path of ['/', '/settings', '/change-password']) {
    test(`signed-out visitors to ${path} end at /auth`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/auth$/);
      await expect(
        page.getByRole('heading', { name: 'Welcome to the Arts Facilitator Portal' }),
      ).toBeVisible();
    });
  }
});

test('a spinner shows while the session loads', async ({ page }) => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/user', async (route) => {
    await held;
    await route.continue();
  });
  // a browser that has signed in before asks who it is (a stale hint, as after the session expired);
  // one that never has goes straight to the login page without asking
  await page.context().addCookies([{ name: SESSION_HINT_COOKIE, value: '1', url: BASE_URL }]);
  await page.goto('/');
  await expect(page.getByRole('status').filter({ hasText: 'Loading your session' })).toBeAttached();
  await expect(page).toHaveURL(/\/$/);
  release();
  await expect(page).toHaveURL(/\/auth$/);
});

test.describe('facilitator login', () => {
  test('shows the login screen with its texts', { tag: '@phone' }, async ({ page }, testInfo) => {
    await page.goto('/auth');
    await expect(page.getByLabel('Username', { exact: true })).toBeVisible();
    await expect(page.getByLabel('Password', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
    await expect(page.getByText('Contact your administrator if you have trouble logging in.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Staff login' })).toHaveAttribute('href', '/staff-login');
    const marketing = page.getByRole('complementary', { name: 'About the portal' });
    if (testInfo.project.name === 'desktop') {
      await expect(marketing.getByRole('heading', { name: 'Mark Availability' })).toBeVisible();
      await expect(marketing.getByRole('heading', { name: 'View Bookings' })).toBeVisible();
    } else {
      await expect(marketing).toBeHidden();
    }
    await checkScreen(page, testInfo, 'login');
  });

  test('the rules are checked before sending; a wrong password shows the "Login failed" toast', async ({
    page,
  }, testInfo) => {
    let sent = false;
    page.on('request', (req) => {
      if (req.url().endsWith('/api/login')) sent = true;
    });
    await page.goto('/auth');
    // the rules and their messages are the form's (login-forms.test.tsx); here the screen that shows them
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByText('Username must be at least 3 characters')).toBeVisible();
    await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
    expect(sent).toBe(false);
    await checkScreen(page, testInfo, 'login-validation');
    // an account nobody else uses, so failed-login throttling cannot touch the shared users
    await page.getByLabel('Username', { exact: true }).fill(`nobody-${testInfo.project.name}@example.org`);
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    const toast = toastLocator(page);
    await expect(toast).toContainText('Login failed');
    await expect(toast.locator('[data-slot="toast-description"]')).not.toBeEmpty();
    await expect(page).toHaveURL(/\/auth$/);
    await checkScreen(page, testInfo, 'login-failed');
  });

  test('a correct login welcomes the user and opens the home page', async ({ page }) => {
    await page.goto('/auth');
    await page.getByLabel('Username', { exact: true }).fill(alice.username);
    await page.getByLabel('Password', { exact: true }).fill(alice.password);
    // hold the request until the pending label has been seen
    const release = await holdRequests(page, '**/api/login');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Signing in...' })).toBeDisabled();
    release();
    await expect(toastLocator(page)).toContainText('Login successful');
    await expect(toastLocator(page)).toContainText(`Welcome back, ${alice.displayName}!`);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Availability Calendar' })).toBeVisible();
    await expect(page.getByTestId('welcome')).toHaveText(`Welcome, ${alice.displayName}`);
  });

  test('a signed-in visitor to /auth is sent to /', async ({ page }) => {
    await loginAsFacilitator(page, alice);
    await page.goto('/auth');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Availability Calendar' })).toBeVisible();
  });

  test('staff who sign in on the facilitator login are taken to their dashboard', async ({ page }) => {
    await staffSignsInAt(page, '/auth');
  });

  test('a user without a display name is welcomed as "User"', async ({ page }, testInfo) => {
    await loginAsFacilitator(page, FACILITATORS.ben);
    await page.goto('/');
    await expect(page.getByTestId('welcome')).toHaveText('Welcome, User');
    await expect(page.getByRole('button', { name: 'Open user menu' })).toHaveText('U');
    await checkScreen(page, testInfo, 'home');
  });

  test('logout from the user menu returns to /auth and the guard applies again', async ({
    page,
  }, testInfo) => {
    await loginAsFacilitator(page, alice);
    await page.goto('/');
    await page.getByRole('button', { name: 'Open user menu' }).click();
    await expect(page.getByRole('menuitem', { name: 'Change Password' })).toHaveAttribute(
      'href',
      '/change-password',
    );
    await checkScreen(page, testInfo, 'user-menu');
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await page.goto('/');
    await expect(page).toHaveURL(/\/auth$/);
    const res = await page.request.get('/api/user');
    expect(res.status()).toBe(401);
  });
});

test.describe('staff login', () => {
  test('wrong credentials show the server message', async ({ page }, testInfo) => {
    await page.goto('/staff-login');
    await expect(page.getByRole('heading', { name: 'Staff Login' })).toBeVisible();
    await page.getByLabel('Username', { exact: true }).fill(`no-staff-${testInfo.project.name}@example.org`);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByRole('alert')).toContainText(/Invalid credentials|Too many/);
    await expect(page).toHaveURL(/\/staff-login$/);
    await checkScreen(page, testInfo, 'staff-login-failed');
  });

  test('a staff member signs in and reaches /staff', async ({ page }, testInfo) => {
    await staffSignsInAt(page, '/staff-login');
    await checkScreen(page, testInfo, 'staff-dashboard');
    await page.getByRole('link', { name: 'Manage Users' }).click();
    await expect(page).toHaveURL(/\/staff\/users$/);
    await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
  });
});

test.describe('staff pages opened by a facilitator', () => {
  // every staff page and its staff-login link: src/client/app/staff-route.test.tsx
  test('a staff page says it is for staff, and the way to the calendar works', async ({ page }, testInfo) => {
    await loginAsFacilitator(page, alice);
    await page.goto('/staff/completeness');
    await expect(page.getByRole('heading', { name: 'Staff only', level: 1 })).toBeVisible();
    await expect(page.getByText('This page is only available to staff accounts.')).toBeVisible();
    await checkScreen(page, testInfo, 'staff-only');
    await page.getByRole('link', { name: 'Go to your calendar' }).click();
    await expect(page.getByRole('heading', { name: 'Availability Calendar' })).toBeVisible();
  });
});
