import {
  expect as baseExpect,
  checkScreen,
  laptopOnDesktop,
  loginAsStaff,
  staffApi,
  test,
  toastLocator,
} from './fixtures';
import { userAction } from './table';

/**
 * Leavers, erasure and the retention schedule, as staff: a deactivated facilitator cannot sign in
 * until reactivated; an erasure takes a reason and a confirmation and says what was kept and why;
 * the schedule saves and the preview of the next run shows. Every run makes its own facilitators.
 */
const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 180_000 });

async function signInFails(page: import('@playwright/test').Page, username: string, password: string) {
  await page.goto('/auth');
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

test('a deactivated facilitator cannot sign in until reactivated', async ({
  page,
  browser,
  makeFacilitator,
}, testInfo) => {
  const tag = `${testInfo.project.name}-${Date.now()}`;
  const leaver = await makeFacilitator({ displayName: `Lee Leaver ${tag}` });
  await laptopOnDesktop(page, testInfo);
  await loginAsStaff(page);
  await page.goto('/staff/users');
  await page.getByLabel('Search facilitators').fill(tag);
  const row = page.getByRole('row').filter({ hasText: leaver.displayName! });
  await userAction(page, row, leaver.displayName!, 'Deactivate (a leaver)');
  await expect(toastLocator(page)).toContainText('Account deactivated');
  await expect(row.getByTestId('user-state')).toHaveText('Deactivated');

  const own = await browser.newContext();
  const theirs = await own.newPage();
  try {
    await signInFails(theirs, leaver.username, leaver.password);
    await expect(toastLocator(theirs)).toContainText('deactivated');
    await expect(theirs).toHaveURL(/\/auth$/);

    await userAction(page, row, leaver.displayName!, 'Reactivate');
    await expect(toastLocator(page)).toContainText('Account reactivated');
    await expect(row.getByTestId('user-state')).toHaveCount(0);

    await signInFails(theirs, leaver.username, leaver.password);
    await expect(theirs).not.toHaveURL(/\/auth$/);
  } finally {
    await own.close();
  }
});

test('staff erase a person with a reason, see what was kept, and find the erasure under Retention', async ({
  page,
}, testInfo) => {
  const api = await staffApi();
  const tag = `${testInfo.project.name}-${Date.now()}`;
  const name = `Erin Erase ${tag}`;
  const created = await api.post('/api/staff/users', {
    data: {
      username: `erase-${tag}@example.org`,
      password: 'erase-pass-1',
      displayName: name,
      email: `erase-${tag}@example.org`,
      freelancerId: '',
      role: 'facilitator',
    },
  });
  expect(created.status()).toBe(201);
  const reason = `Asked by letter, reference ${tag}`;
  try {
    await laptopOnDesktop(page, testInfo);
    await loginAsStaff(page);
    await page.goto('/staff/users');
    await page.getByLabel('Search facilitators').fill(tag);
    const row = page.getByRole('row').filter({ hasText: name });
    await userAction(page, row, name, 'Erase personal data…');
    const dialog = page.getByRole('dialog', { name: `Erase personal data: ${name}` });
    await dialog.getByRole('button', { name: 'Erase personal data' }).click();
    await expect(dialog.getByText('Give the reason for the erasure')).toBeVisible();
    await checkScreen(page, testInfo, 'erase-dialog');
    await dialog.getByLabel('Reason').fill(reason);
    await dialog.getByLabel('I understand this cannot be undone').check();
    await dialog.getByRole('button', { name: 'Erase personal data' }).click();
    const done = page.getByRole('dialog', { name: 'Personal data erased' });
    await expect(done.getByRole('heading', { name: 'Kept, and why' })).toBeVisible();
    await expect(done).toContainText('Account: 1');
    await done.getByRole('button', { name: 'Done' }).click();
    await expect(row).toHaveCount(0);

    await page.goto('/settings#retention');
    const erasures = page.getByRole('list', { name: 'Erasures' });
    await expect(erasures.getByRole('listitem').filter({ hasText: reason })).toHaveCount(1);
    await expect(erasures).not.toContainText(name);
  } finally {
    await api.dispose();
  }
});

test('staff save the retention schedule and read what the next run would remove', async ({
  page,
}, testInfo) => {
  const api = await staffApi();
  const before = (await (await api.get('/api/staff/retention')).json()).settings;
  try {
    await laptopOnDesktop(page, testInfo);
    await loginAsStaff(page);
    await page.goto('/settings#retention');
    const form = page.getByRole('form', { name: 'Retention schedule' });
    const years = form.getByLabel('Years records are kept');
    await years.fill('0');
    await form.getByRole('button', { name: 'Save schedule' }).click();
    await expect(form.getByText('Years records are kept must be from 1 to 50')).toBeVisible();
    await years.fill(String(before.recordsYears + 1));
    await form.getByRole('button', { name: 'Save schedule' }).click();
    await expect(toastLocator(page)).toContainText('Retention schedule saved');
    expect((await (await api.get('/api/staff/retention')).json()).settings.recordsYears).toBe(
      before.recordsYears + 1,
    );
    const preview = page.getByRole('table', { name: 'What the next run would remove' });
    await expect(preview.getByRole('row')).toHaveCount(11);
    await expect(preview).toContainText('Leavers’ photos');
    await page.getByRole('heading', { name: 'Retention', exact: true }).scrollIntoViewIfNeeded();
    await checkScreen(page, testInfo, 'retention-settings');
  } finally {
    await api.put('/api/staff/retention', { data: before });
    await api.dispose();
  }
});
