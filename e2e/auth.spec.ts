import type { Page } from '@playwright/test';
import { SESSION_HINT_COOKIE } from '../src/shared/schemas/auth';
import { BASE_URL, FACILITATORS, STAFF } from './constants';
import { checkScreen, expect, holdRequests, loginAsFacilitator, test, toastLocator } from './fixtures';

/*
 * Signing in and out, as journeys. What the login pages decide on their own (the route guard, where a
 * signed-in visitor or a staff account signing in on the facilitator form is sent, the rules and their
 * messages) is in the component tests: app/protected-route.test.tsx, app/routes/auth.test.tsx and
 * features/auth/components/login-forms.test.tsx.
 */

const alice = FACILITATORS.alice;

async function fillLogin(page: Page, username: string, password: string) {
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
}

function signIn(page: Page) {
  return page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

test(
  'signed out, a page waits for the session and then shows the login screen with its texts',
  { tag: '@phone' },
  async ({ page }, testInfo) => {
    for (const path of ['/settings', '/change-password']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/auth$/);
    }
    // a browser that has signed in before asks who it is (a stale hint, as after the session expired);
    // one that never has goes straight to the login page without asking
    const release = await holdRequests(page, '**/api/user');
    await page.context().addCookies([{ name: SESSION_HINT_COOKIE, value: '1', url: BASE_URL }]);
    await page.goto('/');
    await expect(page.getByRole('status').filter({ hasText: 'Loading your session' })).toBeAttached();
    await expect(page).toHaveURL(/\/$/);
    release();
    await expect(page).toHaveURL(/\/auth$/);

    await expect(page.getByRole('heading', { name: 'Welcome to the Arts Facilitator Portal' })).toBeVisible();
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
  },
);

test('a facilitator: the rules before sending, a wrong password, then the right one opens home and /auth leads there', async ({
  page,
}, testInfo) => {
  let sent = false;
  page.on('request', (req) => {
    if (req.url().endsWith('/api/login')) sent = true;
  });
  await page.goto('/auth');
  await signIn(page);
  await expect(page.getByText('Username must be at least 3 characters')).toBeVisible();
  await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
  expect(sent).toBe(false);
  await checkScreen(page, testInfo, 'login-validation');

  // an account nobody else uses, so failed-login throttling cannot touch the shared users
  await fillLogin(page, `nobody-${testInfo.project.name}@example.org`, 'wrong-password');
  await signIn(page);
  const toast = toastLocator(page);
  await expect(toast).toContainText('Login failed');
  await expect(toast.locator('[data-slot="toast-description"]')).not.toBeEmpty();
  await expect(page).toHaveURL(/\/auth$/);
  await checkScreen(page, testInfo, 'login-failed');

  await fillLogin(page, alice.username, alice.password);
  // held until the pending label has been seen
  const release = await holdRequests(page, '**/api/login');
  await signIn(page);
  await expect(page.getByRole('button', { name: 'Signing in...' })).toBeDisabled();
  release();
  await expect(toast).toContainText('Login successful');
  await expect(toast).toContainText(`Welcome back, ${alice.displayName}!`);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Availability Calendar' })).toBeVisible();
  await expect(page.getByTestId('welcome')).toHaveText(`Welcome, ${alice.displayName}`);

  // signed in, the login page leads home
  await page.goto('/auth');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Availability Calendar' })).toBeVisible();
});

test('a user without a display name is welcomed as "User"', async ({ page }, testInfo) => {
  await loginAsFacilitator(page, FACILITATORS.ben);
  await page.goto('/');
  await expect(page.getByTestId('welcome')).toHaveText('Welcome, User');
  await expect(page.getByRole('button', { name: 'Open user menu' })).toHaveText('U');
  await checkScreen(page, testInfo, 'home');
});

test('a facilitator meets a staff page, goes back to the calendar, and logs out; the guard applies again', async ({
  page,
}, testInfo) => {
  await loginAsFacilitator(page, alice);
  // every staff page and its staff-login link: src/client/app/staff-route.test.tsx
  await page.goto('/staff/completeness');
  await expect(page.getByRole('heading', { name: 'Staff only', level: 1 })).toBeVisible();
  await expect(page.getByText('This page is only available to staff accounts.')).toBeVisible();
  await checkScreen(page, testInfo, 'staff-only');
  await page.getByRole('link', { name: 'Go to your calendar' }).click();
  await expect(page.getByRole('heading', { name: 'Availability Calendar' })).toBeVisible();

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

test('staff: wrong credentials show the server message, the right ones reach the dashboard and Manage Users', async ({
  page,
}, testInfo) => {
  await page.goto('/staff-login');
  await expect(page.getByRole('heading', { name: 'Staff Login' })).toBeVisible();
  await fillLogin(page, `no-staff-${testInfo.project.name}@example.org`, 'not-the-password');
  await signIn(page);
  await expect(page.getByRole('alert')).toContainText(/Invalid credentials|Too many/);
  await expect(page).toHaveURL(/\/staff-login$/);
  await checkScreen(page, testInfo, 'staff-login-failed');

  await fillLogin(page, STAFF.username, STAFF.password);
  await signIn(page);
  await expect(page).toHaveURL(/\/staff$/);
  await expect(
    page.getByRole('heading', { name: 'Staff Dashboard - Arts Facilitator Portal' }),
  ).toBeVisible();
  await checkScreen(page, testInfo, 'staff-dashboard');
  await page.getByRole('link', { name: 'Manage Users' }).click();
  await expect(page).toHaveURL(/\/staff\/users$/);
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
});
