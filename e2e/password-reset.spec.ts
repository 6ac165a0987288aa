import type { Page } from '@playwright/test';
import { BASE_URL } from './constants';
import { checkScreen, expect, loginAsFacilitator, loginAsStaff, staffApi, test } from './fixtures';
import { mailTo, sendMailToTestServer } from './mailbox';
import { userAction } from './table';

/*
 * Links that set a password. A forgotten password: "Forgot your password?" on both login pages, the email with its link (the e2e
 * server's test SMTP server, e2e/mailbox.ts), and the page that sets the new password from it; and
 * staff's invitation to set one, with what staff see of it.
 */

async function linkFromEmail(address: string): Promise<string> {
  const [mail] = await mailTo(address);
  const match = mail!.text.match(/(http:\/\/[^\s]+\/set-password#[A-Za-z0-9_-]+)/);
  expect(match, mail!.text).toBeTruthy();
  return match![1]!;
}

async function askForLink(page: Page, username: string) {
  await page.getByLabel('Username').fill(username);
  await page.getByRole('button', { name: 'Email me a link' }).click();
  await expect(page.getByRole('status')).toContainText('a link to set a new password is on its way');
}

test('the staff login offers the way back in too; a facilitator who forgot the password sets a new one from the emailed link, once', async ({
  page,
  makeFacilitator,
}, testInfo) => {
  await sendMailToTestServer(await staffApi());
  const person = await makeFacilitator();
  // the staff login's way: an unknown account gets the same answer, and a link leads back
  await page.goto('/staff-login');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await askForLink(page, 'nobody-by-this-name');
  await page.getByRole('link', { name: 'Back to staff login' }).click();
  await expect(page.getByRole('heading', { name: 'Staff Login' })).toBeVisible();

  await page.goto('/auth');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
  await checkScreen(page, testInfo, 'forgot-password');
  // the form checks with the shared rules before sending
  await page.getByRole('button', { name: 'Email me a link' }).click();
  await expect(page.locator('#forgot-username-message')).toHaveText('Enter your username');
  await askForLink(page, person.username);

  const link = await linkFromEmail(person.username);
  expect(link.startsWith(`${BASE_URL}/set-password#`)).toBe(true);
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Set a new password' })).toBeVisible();
  await expect(page.getByText(person.username)).toBeVisible();
  await checkScreen(page, testInfo, 'set-password');
  const next = page.getByLabel('New Password', { exact: true });
  const confirm = page.getByLabel('Confirm New Password', { exact: true });
  const submit = page.getByRole('button', { name: 'Set Password and Sign In' });
  await next.fill('12345');
  await confirm.fill('12346');
  await submit.click();
  await expect(page.locator('#newPassword-message')).toHaveText('New password must be at least 6 characters');
  await expect(page.locator('#confirmPassword-message')).toHaveText('Passwords do not match');
  await next.fill('reset-pass-789');
  await confirm.fill('reset-pass-789');
  await submit.click();
  // signed in, at home
  await expect(page).toHaveURL(`${BASE_URL}/`);

  // the link is spent
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'This link cannot be used' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ask for a new link' })).toBeVisible();

  // the new password signs in
  await page.context().clearCookies();
  await loginAsFacilitator(page, { username: person.username, password: 'reset-pass-789' });
});

test('staff invite a facilitator, who chooses a password from the email; staff see them joined', async ({
  page,
  makeFacilitator,
}, testInfo) => {
  await sendMailToTestServer(await staffApi());
  const person = await makeFacilitator({ displayName: `Invitee ${testInfo.project.name}` });
  await loginAsStaff(page);
  await page.goto('/staff/users');
  await page.getByRole('searchbox', { name: 'Search facilitators' }).fill(person.username);
  const row = page.getByRole('row').filter({ hasText: person.username });
  await userAction(page, row, person.displayName!, 'Invite to set a password');
  const dialog = page.getByRole('dialog', { name: 'Invite to set a password' });
  await expect(dialog.getByRole('status')).toHaveText('Not invited: the account has a password.');
  await checkScreen(page, testInfo, 'password-invitation');
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog.getByRole('status')).toContainText('not joined yet');
  await expect(dialog.getByRole('button', { name: 'Send again' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  const link = await linkFromEmail(person.username);
  const invitee = await page.context().browser()!.newPage();
  await invitee.goto(link);
  await expect(invitee.getByRole('heading', { name: 'Choose your password' })).toBeVisible();
  await invitee.getByLabel('New Password', { exact: true }).fill('chosen-pass-321');
  await invitee.getByLabel('Confirm New Password', { exact: true }).fill('chosen-pass-321');
  await invitee.getByRole('button', { name: 'Set Password and Sign In' }).click();
  await expect(invitee).toHaveURL(`${BASE_URL}/`);
  await invitee.close();

  await page.reload();
  await page.getByRole('searchbox', { name: 'Search facilitators' }).fill(person.username);
  await userAction(page, row, person.displayName!, 'Invite to set a password');
  await expect(dialog.getByRole('status')).toContainText('Joined on');
});
