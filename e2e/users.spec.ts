import type { Page } from '@playwright/test';
import { STAFF } from './constants';
import {
  expect as baseExpect,
  checkScreen,
  loginAsFacilitator,
  loginAsStaff,
  staffApi,
  test,
  toastLocator,
} from './fixtures';
import { cellUnder, userAction } from './table';

// the machine running these is shared and slow: give the page a little longer than the default
const expect = baseExpect.configure({ timeout: 10_000 });

async function openUsers(page: Page) {
  await loginAsStaff(page);
  await page.goto('/staff/users');
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
  await expect(page.getByRole('heading', { name: /^Facilitators \(\d+\)$/ })).toBeVisible();
}

function row(page: Page, text: string) {
  return page.getByRole('row').filter({ hasText: text });
}

function unique(testInfo: { project: { name: string }; workerIndex: number }, what: string) {
  return `${what}-${testInfo.project.name}-${testInfo.workerIndex}-${Date.now()}@example.org`;
}

test.describe('user management', () => {
  /*
   * axe and screenshots in two themes take a while on a busy machine. Its tests share nothing (each
   * makes its own users, with names unique per worker), so they may run on both workers. What the
   * page does on its own (the dialogs' rules, pending labels, toasts, the list read again) is shown
   * by src/client/features/users/components/user-management.test.tsx; these are the journeys with
   * the real server and the screens' checks.
   */
  test.describe.configure({ mode: 'parallel', timeout: 120_000 });

  test('the table and its reads once each, clearing sign-in pauses, the ways out, and who may see it', async ({
    page,
    makeFacilitator,
  }, testInfo) => {
    // a user with no display name, email or freelancer ID, and one named in lower case
    const plain = await makeFacilitator({ displayName: null });
    const lower = await makeFacilitator({ displayName: 'aardvark lowercase' });
    // failures from this address pause the plain account for it (five by default)
    for (let i = 0; i < 5; i++) {
      const failed = await page.request.post('/api/login', {
        data: { username: plain.username, password: `wrong-guess-${i}` },
      });
      expect(failed.status()).toBe(401);
    }
    const paused = await page.request.post('/api/login', {
      data: { username: plain.username, password: plain.password },
    });
    expect(paused.status()).toBe(429);

    const reads = { users: 0, statuses: 0 };
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path === '/api/staff/users') reads.users += 1;
      if (path === '/api/staff/safeguarding') reads.statuses += 1;
    });
    await openUsers(page);
    const plainRow = row(page, plain.username);
    await expect(plainRow.getByRole('cell').nth(1)).toHaveText('Missing: No DBS check recorded');
    await page.waitForLoadState('networkidle');
    // opening the page reads the accounts and their safeguarding statuses once each
    expect(reads).toEqual({ users: 1, statuses: 1 });

    await expect(page.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/staff');
    await expect(page.getByRole('link', { name: 'Calendar View' })).toHaveAttribute('href', '/staff');
    await expect(page.getByRole('button', { name: 'Logout' })).toBeEnabled();
    await expect(page.getByText('Manage facilitator accounts and information')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Add Facilitator' })).toBeVisible();

    const headers = page.getByRole('columnheader');
    await expect(headers).toHaveText([
      'Name',
      'Safeguarding',
      'Username',
      'Email',
      'Freelancer ID',
      'Area',
      'Role',
      'Actions',
    ]);

    // the count is the number of rows in the table (every role is listed)
    const title = await page.getByRole('heading', { name: /^Facilitators \(\d+\)$/ }).textContent();
    const count = Number(/\((\d+)\)/.exec(title ?? '')?.[1]);
    const bodyRows = page.locator('tbody tr');
    await expect(bodyRows).toHaveCount(count);

    // name falls back to the username; empty email shows "-" (makeFacilitator sets email = username)
    await expect(plainRow.getByTestId('user-name')).toHaveText(plain.username);
    await expect(await cellUnder(page, plainRow, 'Freelancer ID')).toHaveText('-');
    await expect(row(page, lower.username).getByTestId('user-name')).toHaveText('aardvark lowercase');

    // role badges look different for staff and facilitator
    const staffBadge = row(page, STAFF.username).locator('[data-role-look]');
    await expect(staffBadge).toHaveText('staff');
    await expect(staffBadge).toHaveAttribute('data-role-look', 'staff');
    await expect(plainRow.locator('[data-role-look]')).toHaveAttribute('data-role-look', 'facilitator');
    const staffColour = await staffBadge.evaluate((el) => getComputedStyle(el).backgroundColor);
    const facilitatorColour = await plainRow
      .locator('[data-role-look]')
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(staffColour).not.toBe(facilitatorColour);

    // staff cannot delete themselves: their own Delete is disabled
    await row(page, STAFF.username)
      .getByRole('button', { name: /^Actions for / })
      .click();
    await expect(
      page.getByRole('menuitem', { name: 'Delete (not your own account)', exact: true }),
    ).toBeDisabled();
    await page.keyboard.press('Escape');

    // sorted case-insensitively by name (the server's order)
    const names = (await bodyRows.getByTestId('user-name').allTextContents()).map((n) =>
      n.trim().toLowerCase(),
    );
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));

    await checkScreen(page, testInfo, 'users-table');

    // the paused facilitator can sign in again once staff clear the pauses
    await userAction(page, plainRow, plain.username, 'Clear sign-in pauses');
    await expect(toastLocator(page)).toContainText('Sign-in pauses cleared');
    await expect(toastLocator(page)).toContainText(`Sign-in pauses cleared for ${plain.username}`);
    await checkScreen(page, testInfo, 'users-unlocked');
    const api = await staffApi();
    const unpaused = await api.post('/api/login', {
      data: { username: plain.username, password: plain.password },
    });
    await api.dispose();
    expect(unpaused.status()).toBe(200);

    await page.getByRole('link', { name: 'Calendar View' }).click();
    await expect(page).toHaveURL(/\/staff$/);
    await page.goBack();
    await page.getByRole('link', { name: 'Back to Dashboard' }).click();
    await expect(page).toHaveURL(/\/staff$/);
    await page.goBack();

    // Logout ends the staff session
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).not.toHaveURL(/\/staff\/users/);
    expect((await page.request.get('/api/user')).status()).toBe(401);

    // a visitor is sent to the staff login; a facilitator sees why the list is not shown
    await page.goto('/staff/users');
    await expect(page).toHaveURL(/\/staff-login\?next=%2Fstaff%2Fusers$/);
    await expect(page.getByRole('heading', { name: 'Staff Login' })).toBeVisible();
    await loginAsFacilitator(page, lower);
    await page.goto('/staff/users');
    await expect(page.getByRole('heading', { name: 'Staff only' })).toBeVisible();
    await expect(page.getByText('This page is only available to staff accounts.')).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    await checkScreen(page, testInfo, 'users-facilitator');
  });

  test('create: a username taken in other letter case is refused with the server message, then the account is made and signs in', async ({
    page,
    request,
    makeFacilitator,
  }, testInfo) => {
    const existing = await makeFacilitator();
    const username = unique(testInfo, 'created');
    await openUsers(page);
    await page.getByRole('button', { name: 'Add Facilitator' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Facilitator' });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('Username (Email)').fill(username);
    await dialog.getByLabel('Password', { exact: true }).fill('created-pass-1');
    await dialog.getByLabel('Display Name').fill('Zoe Created');
    await dialog.getByLabel('Email', { exact: true }).fill('zoe@example.org');
    await dialog.getByLabel('Freelancer ID').fill('FL-900');
    await dialog.getByLabel('Area').fill('North Coast');
    await checkScreen(page, testInfo, 'users-create-dialog');

    const submit = dialog.getByRole('button', { name: 'Create Facilitator' });
    await dialog.getByLabel('Username (Email)').fill(existing.username.toUpperCase());
    await submit.click();
    await expect(toastLocator(page)).toContainText('Error');
    await expect(toastLocator(page)).toContainText(
      `The username "${existing.username.toUpperCase()}" is already taken`,
    );
    // the dialog stays open with what was typed
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Username (Email)')).toHaveValue(existing.username.toUpperCase());
    await checkScreen(page, testInfo, 'users-create-error');

    await dialog.getByLabel('Username (Email)').fill(username);
    await submit.click();
    await expect(toastLocator(page)).toContainText('New facilitator has been added successfully');
    await expect(dialog).toBeHidden();
    const created = row(page, username);
    // a new facilitator has no checks yet
    await expect(created.getByRole('cell')).toHaveText([
      'Zoe Created',
      'Missing: No DBS check recorded',
      username,
      'zoe@example.org',
      'FL-900',
      'North Coast',
      'facilitator',
      'Actions',
    ]);

    // the new account really signs in, as a facilitator (in a context of its own, not the page's)
    const login = await request.post('/api/login', { data: { username, password: 'created-pass-1' } });
    expect(login.status()).toBe(200);
    expect((await login.json()).role).toBe('facilitator');

    const staff = await staffApi();
    const list = (await (await staff.get('/api/staff/users')).json()) as { id: number; username: string }[];
    const id = list.find((u) => u.username === username)?.id;
    if (id) await staff.delete(`/api/staff/users/${id}`);
    await staff.dispose();
  });

  test('one account edited (role and password kept), an edit on stale data refused, then deleted', async ({
    page,
    request,
  }, testInfo) => {
    const api = await staffApi();
    const username = unique(testInfo, 'coordinator');
    const res = await api.post('/api/staff/users', {
      data: {
        username,
        password: 'coord-pass-1',
        displayName: 'Cora Coordinator',
        email: '',
        freelancerId: '55',
        role: 'coordinator',
      },
    });
    expect(res.status()).toBe(201);
    const { id } = (await res.json()) as { id: number };

    try {
      await openUsers(page);
      const target = row(page, username);
      // "other" roles have their own look
      await expect(target.locator('[data-role-look]')).toHaveAttribute('data-role-look', 'other');
      await userAction(page, target, 'Cora Coordinator', 'Edit');
      const dialog = page.getByRole('dialog', { name: 'Edit Facilitator' });
      await expect(dialog.getByLabel('Username (Email)')).toHaveValue(username);
      await expect(dialog.getByLabel('Freelancer ID')).toHaveValue('55');
      await checkScreen(page, testInfo, 'users-edit-dialog');

      await dialog.getByLabel('Display Name').fill('Cora Renamed');
      await dialog.getByLabel('Email', { exact: true }).fill('cora@example.org');
      const sent = page.waitForRequest(
        (r) => r.method() === 'PUT' && r.url().includes(`/api/staff/users/${id}`),
      );
      await dialog.getByRole('button', { name: 'Update Facilitator' }).click();
      // only what was changed is sent, with the version the dialog was opened on
      expect((await sent).postDataJSON()).toEqual({
        version: expect.any(Number),
        displayName: 'Cora Renamed',
        email: 'cora@example.org',
      });
      await expect(toastLocator(page)).toContainText('Facilitator information has been updated successfully');
      await expect(dialog).toBeHidden();
      await expect(row(page, username).getByTestId('user-name')).toHaveText('Cora Renamed');
      // the server kept what was left out: the role, and the password
      await expect(row(page, username).locator('[data-role-look]')).toHaveText('coordinator');
      const login = await request.post('/api/login', { data: { username, password: 'coord-pass-1' } });
      expect(login.status()).toBe(200);

      // reopened on the saved values; meanwhile another member of staff promotes the account
      const edit = await userAction(page, row(page, username), 'Cora Renamed', 'Edit');
      await expect(dialog.getByLabel('Email', { exact: true })).toHaveValue('cora@example.org');
      const other = await staffApi();
      const listed = (await (await other.get('/api/staff/users')).json()) as {
        id: number;
        version: number;
      }[];
      const current = listed.find((u) => u.id === id)!;
      const promote = await other.put(`/api/staff/users/${id}`, {
        data: { version: current.version, role: 'staff' },
      });
      expect(promote.status()).toBe(200);

      await dialog.getByLabel('Email', { exact: true }).fill('cora-new@example.org');
      await dialog.getByRole('button', { name: 'Update Facilitator' }).click();
      await expect(toastLocator(page)).toContainText(
        'This account was changed by someone else. Reload to see the changes.',
      );
      await expect(dialog).toBeVisible();
      // the table behind the dialog (hidden from the accessibility tree while it is open) shows the
      // account as it is now
      await expect(page.locator('tbody tr', { hasText: username }).locator('[data-role-look]')).toHaveText(
        'staff',
      );
      await checkScreen(page, testInfo, 'users-edit-stale');
      const after = (await (await other.get('/api/staff/users')).json()) as {
        id: number;
        role: string;
        email: string | null;
      }[];
      expect(after.find((u) => u.id === id)).toMatchObject({ role: 'staff', email: 'cora@example.org' });
      await other.dispose();

      await dialog.getByRole('button', { name: 'Cancel' }).click();
      // the dialog has no trigger of its own: focus goes back to the row's actions that opened it
      await expect(dialog).toBeHidden();
      await expect(edit).toBeFocused();

      const deleteButton = await userAction(page, row(page, username), 'Cora Renamed', 'Delete');
      const confirm = page.getByRole('alertdialog');
      await expect(confirm).toContainText(
        'Are you sure you want to delete Cora Renamed? This action cannot be undone.',
      );
      // the confirmation opens on its harmless choice, and Tab stays inside it
      await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(confirm.getByRole('button', { name: 'Delete' })).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
      await checkScreen(page, testInfo, 'users-delete-confirm');
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await expect(confirm).toBeHidden();
      await expect(row(page, username)).toBeVisible();
      // focus goes back to the row's actions, which asked for the confirmation
      await expect(deleteButton).toBeFocused();

      await userAction(page, row(page, username), 'Cora Renamed', 'Delete');
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await expect(toastLocator(page)).toContainText('Facilitator has been removed successfully');
      await expect(confirm).toBeHidden();
      await expect(row(page, username)).toHaveCount(0);
      // the list was read again: the count follows the rows
      const heading = await page.getByRole('heading', { name: /^Facilitators \(\d+\)$/ }).textContent();
      await expect(page.locator('tbody tr')).toHaveCount(Number(/\((\d+)\)/.exec(heading ?? '')?.[1]));

      // the deleted account is gone from the server, and can no longer sign in
      const remaining = (await (await api.get('/api/staff/users')).json()) as { id: number }[];
      expect(remaining.some((u) => u.id === id)).toBe(false);
      const gone = await request.post('/api/login', { data: { username, password: 'coord-pass-1' } });
      expect(gone.status()).toBe(401);
    } finally {
      await api.delete(`/api/staff/users/${id}`);
      await api.dispose();
    }
  });
});
