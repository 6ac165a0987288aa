import type { Page } from '@playwright/test';
import { STAFF } from './constants';
import {
  expect as baseExpect,
  checkScreen,
  holdRequests,
  loginAsFacilitator,
  loginAsStaff,
  staffApi,
  test,
  toastLocator,
} from './fixtures';
import { cellUnder, userAction } from './table';

// the machine running these is shared and slow: give the page a little longer than the default
const expect = baseExpect.configure({ timeout: 10_000 });

const USERS_API = '**/api/staff/users**';

/** Holds the users API's `method` requests until the pending label has been seen (release them then). */
const holdUsersApi = (page: Page, method: string) => holdRequests(page, USERS_API, method);

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
   * makes its own users, with names unique per worker), so they may run on both workers: this file
   * comes last in each project's order, and run as one group it kept one worker busy for a minute
   * at the end while the other had nothing left to do.
   */
  test.describe.configure({ mode: 'parallel', timeout: 90_000 });

  test('header, heading, table columns, counts, badges, dashes and name order', async ({
    page,
    makeFacilitator,
  }, testInfo) => {
    // a user with no display name, email or freelancer ID, and one named in lower case
    const plain = await makeFacilitator({ displayName: null });
    const lower = await makeFacilitator({ displayName: 'aardvark lowercase' });
    await openUsers(page);

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
    const plainRow = row(page, plain.username);
    await expect(plainRow.getByTestId('user-name')).toHaveText(plain.username);
    await expect(await cellUnder(page, plainRow, 'Freelancer ID')).toHaveText('-');
    await expect(row(page, lower.username).getByTestId('user-name')).toHaveText('aardvark lowercase');

    // role badges look different for staff and facilitator
    const staffBadge = row(page, STAFF.username).locator('[data-role-look]');
    await expect(staffBadge).toHaveText('staff');
    await expect(staffBadge).toHaveAttribute('data-role-look', 'staff');
    await expect(row(page, plain.username).locator('[data-role-look]')).toHaveAttribute(
      'data-role-look',
      'facilitator',
    );
    const staffColour = await staffBadge.evaluate((el) => getComputedStyle(el).backgroundColor);
    const facilitatorColour = await row(page, plain.username)
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

    // sorted case-insensitively by name
    const names = (await bodyRows.getByTestId('user-name').allTextContents()).map((n) =>
      n.trim().toLowerCase(),
    );
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));

    await checkScreen(page, testInfo, 'users-table');

    await page.getByRole('link', { name: 'Calendar View' }).click();
    await expect(page).toHaveURL(/\/staff$/);
    await page.goBack();
    await page.getByRole('link', { name: 'Back to Dashboard' }).click();
    await expect(page).toHaveURL(/\/staff$/);
  });

  test('opening the page reads the accounts and their safeguarding statuses once each', async ({
    page,
    makeFacilitator,
  }) => {
    await makeFacilitator({ displayName: 'Read Once' });
    const reads = { users: 0, statuses: 0 };
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path === '/api/staff/users') reads.users += 1;
      if (path === '/api/staff/safeguarding') reads.statuses += 1;
    });
    await openUsers(page);
    await expect(row(page, 'Read Once').getByRole('cell').nth(1)).toHaveText(
      'Missing: No DBS check recorded',
    );
    await page.waitForLoadState('networkidle');
    // one request each
    expect(reads).toEqual({ users: 1, statuses: 1 });
  });

  test('create: fields, disabled submit, Creating..., toast, new row, form cleared', async ({
    page,
  }, testInfo) => {
    const username = unique(testInfo, 'created');
    await openUsers(page);
    await page.getByRole('button', { name: 'Add Facilitator' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Facilitator' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('SharePoint freelancer ID')).toBeVisible();
    const submit = dialog.getByRole('button', { name: 'Create Facilitator' });
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeVisible();

    // disabled until both username and password are filled
    await expect(submit).toBeDisabled();
    await dialog.getByLabel('Username (Email)').fill(username);
    await expect(submit).toBeDisabled();
    await dialog.getByLabel('Password', { exact: true }).fill('created-pass-1');
    await expect(submit).toBeEnabled();
    await dialog.getByLabel('Username (Email)').fill('');
    await expect(submit).toBeDisabled();
    await dialog.getByLabel('Username (Email)').fill(username);
    await dialog.getByLabel('Display Name').fill('Zoe Created');
    await dialog.getByLabel('Email', { exact: true }).fill('zoe@example.org');
    await dialog.getByLabel('Freelancer ID').fill('FL-900');
    await dialog.getByLabel('Area').fill('North Coast');
    await checkScreen(page, testInfo, 'users-create-dialog');

    const release = await holdUsersApi(page, 'POST');
    await submit.click();
    await expect(dialog.getByRole('button', { name: 'Creating...' })).toBeDisabled();
    release();
    await expect(toastLocator(page)).toContainText('User created');
    await expect(toastLocator(page)).toContainText('New facilitator has been added successfully');
    await expect(dialog).toBeHidden();

    const created = row(page, username);
    await expect(created).toBeVisible();
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

    // the new account really signs in, as a facilitator
    const login = await page.request.post('/api/login', { data: { username, password: 'created-pass-1' } });
    expect(login.status()).toBe(200);
    expect((await login.json()).role).toBe('facilitator');

    // the dialog starts empty again
    await loginAsStaff(page);
    await page.getByRole('button', { name: 'Add Facilitator' }).click();
    await expect(dialog.getByLabel('Username (Email)')).toHaveValue('');
    await expect(dialog.getByLabel('Display Name')).toHaveValue('');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();

    const api = await staffApi();
    const list = (await (await api.get('/api/staff/users')).json()) as { id: number; username: string }[];
    const id = list.find((u) => u.username === username)?.id;
    if (id) await api.delete(`/api/staff/users/${id}`);
    await api.dispose();
  });

  test('create errors: a duplicate username shows "Error" with the server message, a short password its rule', async ({
    page,
    makeFacilitator,
  }, testInfo) => {
    const existing = await makeFacilitator();
    await openUsers(page);
    await page.getByRole('button', { name: 'Add Facilitator' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Facilitator' });
    await dialog.getByLabel('Username (Email)').fill(existing.username.toUpperCase());
    await dialog.getByLabel('Password', { exact: true }).fill('whatever-1');
    await dialog.getByRole('button', { name: 'Create Facilitator' }).click();
    await expect(toastLocator(page)).toContainText('Error');
    await expect(toastLocator(page)).toContainText(
      `The username "${existing.username.toUpperCase()}" is already taken`,
    );
    // the dialog stays open with what was typed
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Username (Email)')).toHaveValue(existing.username.toUpperCase());
    await checkScreen(page, testInfo, 'users-create-error');

    await dialog.getByLabel('Username (Email)').fill(unique(testInfo, 'short'));
    await dialog.getByLabel('Password', { exact: true }).fill('123');
    await dialog.getByRole('button', { name: 'Create Facilitator' }).click();
    // the server's rule, checked in the form before anything is sent
    await expect(dialog.getByText('Password must be at least 6 characters')).toBeVisible();
    await expect(dialog.getByLabel('Password', { exact: true })).toBeFocused();
  });

  test('edit: filled form, empty password keeps it, role kept, Updating..., toast', async ({
    page,
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

    await openUsers(page);
    const target = row(page, username);
    // "other" roles have their own look
    await expect(target.locator('[data-role-look]')).toHaveAttribute('data-role-look', 'other');
    await userAction(page, target, 'Cora Coordinator', 'Edit');
    const dialog = page.getByRole('dialog', { name: 'Edit Facilitator' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Username (Email)')).toHaveValue(username);
    await expect(dialog.getByLabel('Password (leave blank to keep current)')).toHaveValue('');
    await expect(dialog.getByLabel('Display Name')).toHaveValue('Cora Coordinator');
    await expect(dialog.getByLabel('Email', { exact: true })).toHaveValue('');
    await expect(dialog.getByLabel('Freelancer ID')).toHaveValue('55');
    const submit = dialog.getByRole('button', { name: 'Update Facilitator' });
    await expect(submit).toBeEnabled();
    await checkScreen(page, testInfo, 'users-edit-dialog');

    // only the username is required when editing
    await dialog.getByLabel('Username (Email)').fill('');
    await expect(submit).toBeDisabled();
    await dialog.getByLabel('Username (Email)').fill(username);
    await dialog.getByLabel('Display Name').fill('Cora Renamed');
    await dialog.getByLabel('Email', { exact: true }).fill('cora@example.org');

    const sent: unknown[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT' && r.url().includes(`/api/staff/users/${id}`)) sent.push(r.postDataJSON());
    });
    const release = await holdUsersApi(page, 'PUT');
    await submit.click();
    await expect(dialog.getByRole('button', { name: 'Updating...' })).toBeDisabled();
    release();
    await expect(toastLocator(page)).toContainText('User updated');
    await expect(toastLocator(page)).toContainText('Facilitator information has been updated successfully');
    await expect(dialog).toBeHidden();
    await expect(row(page, username).getByTestId('user-name')).toHaveText('Cora Renamed');
    await expect(row(page, username).locator('[data-role-look]')).toHaveText('coordinator');

    // only what was changed is sent, with the version the dialog was opened on: the empty password,
    // the unchanged username and the role are left out (kept by the server)
    expect(sent).toHaveLength(1);
    expect(sent[0]).toEqual({
      version: expect.any(Number),
      displayName: 'Cora Renamed',
      email: 'cora@example.org',
    });
    const login = await api.post('/api/login', { data: { username, password: 'coord-pass-1' } });
    expect(login.status()).toBe(200);

    // reopening shows the saved values
    const edit = await userAction(page, row(page, username), 'Cora Renamed', 'Edit');
    await expect(dialog.getByLabel('Email', { exact: true })).toHaveValue('cora@example.org');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    // the dialog has no trigger of its own: focus goes back to the row's actions that opened it
    await expect(dialog).toBeHidden();
    await expect(edit).toBeFocused();

    const staff = await staffApi();
    await staff.delete(`/api/staff/users/${id}`);
    await staff.dispose();
    await api.dispose();
  });

  test('edit on stale data: refused with a message, and the other change is kept', async ({
    page,
    makeFacilitator,
  }, testInfo) => {
    const user = await makeFacilitator({ displayName: 'Stale Sam' });
    await openUsers(page);
    await userAction(page, row(page, user.username), 'Stale Sam', 'Edit');
    const dialog = page.getByRole('dialog', { name: 'Edit Facilitator' });
    await expect(dialog.getByLabel('Display Name')).toHaveValue('Stale Sam');

    // meanwhile another member of staff promotes the account
    const other = await staffApi();
    const listed = (await (await other.get('/api/staff/users')).json()) as { id: number; version: number }[];
    const current = listed.find((u) => u.id === user.id)!;
    const promote = await other.put(`/api/staff/users/${user.id}`, {
      data: { version: current.version, role: 'staff' },
    });
    expect(promote.status()).toBe(200);

    await dialog.getByLabel('Email', { exact: true }).fill('sam-new@example.org');
    await dialog.getByRole('button', { name: 'Update Facilitator' }).click();
    await expect(toastLocator(page)).toContainText(
      'This account was changed by someone else. Reload to see the changes.',
    );
    await expect(dialog).toBeVisible();
    // the table behind the dialog (hidden from the accessibility tree while it is open) shows the
    // account as it is now
    await expect(page.locator('tbody tr', { hasText: user.username }).locator('[data-role-look]')).toHaveText(
      'staff',
    );
    await checkScreen(page, testInfo, 'users-edit-stale');

    const after = (await (await other.get('/api/staff/users')).json()) as {
      id: number;
      role: string;
      email: string | null;
    }[];
    expect(after.find((u) => u.id === user.id)).toMatchObject({ role: 'staff', email: user.username });
    await other.delete(`/api/staff/users/${user.id}`);
    await other.dispose();
  });

  test('delete: confirmation text, cancel keeps, delete removes with a toast', async ({
    page,
    makeFacilitator,
  }, testInfo) => {
    const user = await makeFacilitator({ displayName: 'Delete Me Please' });
    await openUsers(page);

    const deleteButton = await userAction(page, row(page, user.username), 'Delete Me Please', 'Delete');
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText(
      'Are you sure you want to delete Delete Me Please? This action cannot be undone.',
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
    await expect(row(page, user.username)).toBeVisible();
    // focus goes back to the row's actions, which asked for the confirmation
    await expect(deleteButton).toBeFocused();

    await userAction(page, row(page, user.username), 'Delete Me Please', 'Delete');
    const release = await holdUsersApi(page, 'DELETE');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm.getByRole('button', { name: 'Deleting...' })).toBeDisabled();
    release();
    await expect(toastLocator(page)).toContainText('User deleted');
    await expect(toastLocator(page)).toContainText('Facilitator has been removed successfully');
    await expect(confirm).toBeHidden();
    await expect(row(page, user.username)).toHaveCount(0);
    // the list was fetched again: the count follows the rows
    const after = await page.getByRole('heading', { name: /^Facilitators \(\d+\)$/ }).textContent();
    const countAfter = Number(/\((\d+)\)/.exec(after ?? '')?.[1]);
    await expect(page.locator('tbody tr')).toHaveCount(countAfter);

    // the deleted account can no longer sign in
    const login = await page.request.post('/api/login', {
      data: { username: user.username, password: user.password },
    });
    expect(login.status()).toBe(401);
  });

  test('clear sign-in pauses: a facilitator paused after failed sign-ins can sign in again', async ({
    page,
    makeFacilitator,
  }, testInfo) => {
    const user = await makeFacilitator({ displayName: 'Paused Person' });
    // failures from this address pause the account for it (five by default)
    for (let i = 0; i < 5; i++) {
      const failed = await page.request.post('/api/login', {
        data: { username: user.username, password: `wrong-guess-${i}` },
      });
      expect(failed.status()).toBe(401);
    }
    const paused = await page.request.post('/api/login', {
      data: { username: user.username, password: user.password },
    });
    expect(paused.status()).toBe(429);

    await openUsers(page);
    await userAction(page, row(page, user.username), 'Paused Person', 'Clear sign-in pauses');
    await expect(toastLocator(page)).toContainText('Sign-in pauses cleared');
    await expect(toastLocator(page)).toContainText(`Sign-in pauses cleared for ${user.username}`);
    await checkScreen(page, testInfo, 'users-unlocked');

    const api = await staffApi();
    const login = await api.post('/api/login', {
      data: { username: user.username, password: user.password },
    });
    await api.dispose();
    expect(login.status()).toBe(200);
  });

  test('Logout ends the staff session', async ({ page }) => {
    await openUsers(page);
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).not.toHaveURL(/\/staff\/users/);
    expect((await page.request.get('/api/user')).status()).toBe(401);
  });

  test('a visitor is sent to the staff login; a facilitator sees why the list is not shown', async ({
    page,
    makeFacilitator,
  }, testInfo) => {
    await page.goto('/staff/users');
    await expect(page).toHaveURL(/\/staff-login\?next=%2Fstaff%2Fusers$/);
    await expect(page.getByRole('heading', { name: 'Staff Login' })).toBeVisible();

    const user = await makeFacilitator();
    await loginAsFacilitator(page, user);
    await page.goto('/staff/users');
    await expect(page.getByRole('heading', { name: 'Staff only' })).toBeVisible();
    await expect(page.getByText('This page is only available to staff accounts.')).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    await checkScreen(page, testInfo, 'users-facilitator');
  });
});
