import type { APIRequestContext, Page } from '@playwright/test';
import { hostToday } from './calendar-fixtures';
import { BASE_URL } from './constants';
import { withSharePointLock } from './emulator';
import {
  expect as baseExpect,
  type CreatedUser,
  checkScreen,
  loginAsFacilitator,
  loginAsStaff,
  staffApi,
  test,
  toastLocator,
} from './fixtures';
import { mailTo, sendMailToTestServer } from './mailbox';
import { offerByApi, openSession, sessionDay } from './open-sessions';
import { recordValidDbsCheck } from './safeguarding-records';
import { userAction } from './table';

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 150_000 });

/*
 * Offers: staff offer an open session from the open-sessions page; a facilitator accepts from the
 * calendar, or from the link in the offer email (the e2e server's test SMTP server, e2e/mailbox.ts).
 * Each test makes its own open session (a SharePoint item with no freelancer, read in by a refresh)
 * and its own facilitators, so the desktop and phone projects never meet.
 */

let seq = 0;

/**
 * A facilitator with a freelancer ID (SharePoint records the booking by it), an email address and,
 * unless `checked` is false, a DBS check recorded two months ago (valid for years), so safeguarding
 * allows sending them.
 */
async function offeree(
  api: APIRequestContext,
  make: () => Promise<CreatedUser>,
  checked = true,
): Promise<CreatedUser> {
  const user = await make();
  seq += 1;
  const saved = await api.put(`/api/staff/users/${user.id}`, {
    data: { version: 1, username: user.username, freelancerId: `e2e-${Date.now()}-${seq}` },
  });
  expect(saved.ok(), await saved.text()).toBeTruthy();
  if (checked) await recordValidDbsCheck(api, user.id, 60);
  return user;
}

const uniqueSchool = (what: string, project: string) => `${what} School ${project} ${Date.now()}`;

test('staff make a session in the portal, see it listed as open, and offer it; checks that do not allow sending need a reason', async ({
  page,
  makeFacilitator,
}, testInfo) => {
  const api = await staffApi();
  const school = uniqueSchool('Made', testInfo.project.name);
  const person = await offeree(api, () =>
    makeFacilitator({ displayName: `Offeree ${testInfo.project.name}` }),
  );
  const unchecked = await offeree(
    api,
    () => makeFacilitator({ displayName: `Unchecked ${testInfo.project.name} ${Date.now()}` }),
    false,
  );

  await loginAsStaff(page);
  await page.goto('/staff');
  await page.getByRole('link', { name: 'Open sessions' }).click();
  await expect(page.getByRole('heading', { name: 'Open sessions', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'New session' }).click();
  const create = page.getByRole('dialog', { name: 'New session' });
  await create.getByLabel('Date').fill(sessionDay());
  await create.getByLabel('School').fill(school);
  await create.getByLabel('Program (optional)').fill('Drama');
  await create.getByRole('button', { name: 'Create session' }).click();
  await expect(toastLocator(page)).toContainText('Session sent to SharePoint');
  // on its way, it says when it will be listed; then it is, as an open session
  const row = page
    .getByRole('list', { name: 'Open sessions' })
    .getByRole('listitem')
    .filter({ hasText: school });
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expect(row).toContainText('Drama');
  await expect(page.getByRole('heading', { name: 'On their way to SharePoint' })).toHaveCount(0);
  await checkScreen(page, testInfo, 'open-sessions-made');

  // and the list can be read again from SharePoint now
  await withSharePointLock(async () => {
    await page.getByRole('button', { name: 'Refresh from SharePoint' }).click();
    await expect(toastLocator(page)).toContainText('Open sessions refreshed from SharePoint');
  });
  await expect(row).toBeVisible();
  await checkScreen(page, testInfo, 'open-sessions');

  // 1: Offer, 2: tick the facilitator, 3: Send offer
  await row.getByRole('button', { name: /^Offer / }).click();
  const dialog = page.getByRole('dialog', { name: 'Offer this session' });
  // it opens on itself, not in its message field: a phone's keyboard stays down over the form
  await expect(dialog).toBeFocused();
  await dialog.getByRole('checkbox', { name: new RegExp(person.displayName!) }).check();
  await checkScreen(page, testInfo, 'offer-dialog');

  // someone whose checks do not allow sending: the server's state shows, and a reason is asked
  const candidate = dialog.getByRole('listitem').filter({ hasText: unchecked.displayName! });
  await expect(candidate.locator('[data-safeguarding]')).toHaveAttribute('data-safeguarding', 'missing');
  await candidate.getByRole('checkbox', { name: new RegExp(unchecked.displayName!) }).check();
  const reason = dialog.getByLabel('Reason for offering despite safeguarding checks');
  await dialog.getByRole('button', { name: 'Send 2 offers' }).click();
  await expect(reason).toHaveAttribute('aria-invalid', 'true');
  await checkScreen(page, testInfo, 'offer-safeguarding-reason');

  await reason.fill('DBS certificate seen in person this morning');
  await dialog.getByRole('button', { name: 'Send 2 offers' }).click();
  await expect(toastLocator(page)).toContainText('2 offers sent');
  const made = dialog.getByRole('listitem').filter({ hasText: person.displayName! });
  await expect(made.getByText('Sent', { exact: true })).toBeVisible();
  await expect(
    made.getByRole('button', { name: `Withdraw the offer to ${person.displayName}` }),
  ).toBeVisible();
  // the offer made shows the override and its reason to staff
  await expect(
    dialog.getByText(
      'Offered despite safeguarding checks (missing): DBS certificate seen in person this morning',
    ),
  ).toBeVisible();
  await api.dispose();
});

test('a facilitator accepts an offer from the calendar', async ({ page, makeFacilitator }, testInfo) => {
  const api = await staffApi();
  const school = uniqueSchool('Calendar', testInfo.project.name);
  const session = await openSession(api, school);
  const person = await offeree(api, () => makeFacilitator());
  await offerByApi(api, session.id, person.id);

  await loginAsFacilitator(page, person);
  await page.goto('/');
  if (session.date.slice(0, 7) !== hostToday().slice(0, 7))
    await page.getByRole('button', { name: 'Next month' }).click();
  const mark = page.locator(`td[data-date="${session.date}"]`).getByTestId('offer-mark');
  await expect(mark).toBeVisible();
  await checkScreen(page, testInfo, 'calendar-offer-mark');
  await mark.click();
  const dialog = page.getByRole('dialog', { name: 'Session offered to you' });
  await expect(dialog).toContainText('Can you bring the drums?');
  await checkScreen(page, testInfo, 'offer-answer-dialog');
  await dialog.getByRole('button', { name: 'Accept session' }).click();
  await expect(toastLocator(page)).toContainText('Session accepted');
  // the offer became a booking: the mark is gone and the day is locked
  await expect(mark).toHaveCount(0);
  await expect(page.locator(`td[data-date="${session.date}"]`)).toHaveAttribute('data-locked', 'true');

  await page.goto('/offers');
  await expect(page.getByRole('listitem').filter({ hasText: school }).getByText('Accepted')).toBeVisible();
  await checkScreen(page, testInfo, 'my-offers');
  await api.dispose();
});

async function linkFromEmail(address: string): Promise<string> {
  const [mail] = await mailTo(address);
  const match = mail!.text.match(/(http:\/\/[^\s]+\/offer-link#[A-Za-z0-9_.-]+)/);
  expect(match, mail!.text).toBeTruthy();
  return match![1]!;
}

/** The same link again, as a second click in the email would open it. */
async function reopen(page: Page, link: string) {
  await page.goto('about:blank');
  await page.goto(link);
}

test('the winner of a race accepts from the email link; the loser is told someone else took the session, and can answer no more', async ({
  page,
  browser,
  makeFacilitator,
}, testInfo) => {
  const api = await staffApi();
  await sendMailToTestServer(api);
  const school = uniqueSchool('Race', testInfo.project.name);
  const session = await openSession(api, school);
  const winner = await offeree(api, () =>
    makeFacilitator({ displayName: `Winner ${testInfo.project.name}` }),
  );
  const loser = await offeree(api, () => makeFacilitator({ displayName: `Loser ${testInfo.project.name}` }));
  await offerByApi(api, session.id, winner.id);
  await offerByApi(api, session.id, loser.id);
  const link = await linkFromEmail(winner.username);
  expect(link.startsWith(`${BASE_URL}/offer-link#`)).toBe(true);

  await loginAsFacilitator(page, loser);
  await page.goto('/offers');
  await page.getByRole('button', { name: /^Answer the offer for / }).click();
  const dialog = page.getByRole('dialog', { name: 'Session offered to you' });
  await expect(dialog.getByRole('button', { name: 'Accept session' })).toBeEnabled();

  // meanwhile the other facilitator opens the link in the email, signed in nowhere: the link is the
  // credential, and opening it accepts nothing
  const winnersContext = await browser.newContext();
  try {
    const winners = await winnersContext.newPage();
    await winners.goto(link);
    await expect(
      winners.getByRole('heading', { name: `Session offered to ${winner.displayName}` }),
    ).toBeVisible();
    const offers = await (await api.get(`/api/staff/sessions/${session.id}/offers`)).json();
    const winning = offers.find((o: { userId: number }) => o.userId === winner.id);
    expect(winning.state).toBe('sent');
    await checkScreen(winners, testInfo, 'offer-link');

    await winners.getByRole('button', { name: 'Accept session' }).click();
    await expect(winners.getByRole('heading', { name: 'Session accepted' })).toBeVisible();
    await checkScreen(winners, testInfo, 'offer-link-accepted');

    await reopen(winners, link);
    await expect(winners.getByRole('heading', { name: 'This link cannot be used' })).toBeVisible();
    await expect(winners.getByText('This link has already been used.')).toBeVisible();
  } finally {
    await winnersContext.close();
  }

  await dialog.getByRole('button', { name: 'Accept session' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'This offer can no longer be answered. Another facilitator accepted it first.',
  );
  await expect(dialog.getByRole('button', { name: 'Accept session' })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: /^Decline/ })).toHaveCount(0);
  await checkScreen(page, testInfo, 'offer-answer-taken');
  await dialog.getByRole('button', { name: 'Done' }).click();
  const card = page.getByRole('listitem').filter({ hasText: school });
  await expect(card.getByText('Taken by another facilitator')).toBeVisible();
  await expect(card).toContainText('Another facilitator accepted it first.');
  await checkScreen(page, testInfo, 'my-offers-taken');

  // the loser's history names the winner as a facilitator, in a sentence
  await loginAsStaff(page);
  await page.goto('/staff/users');
  await page.getByRole('searchbox', { name: 'Search facilitators' }).fill(loser.username);
  await userAction(
    page,
    page.getByRole('row').filter({ hasText: loser.username }),
    loser.displayName!,
    'History',
  );
  const history = page.getByRole('dialog', { name: `History: ${loser.displayName}` });
  const items = history.getByTestId('history-item');
  await expect(items.first()).toContainText(
    new RegExp(
      `^Offer.*Facilitator \\(${winner.displayName}\\) accepted the session on .*${school}.* first, so this offer was withdrawn`,
    ),
  );
  await expect(items.first()).toContainText('via email link');
  await expect(history).not.toContainText('offerId');
  await expect(items.nth(1)).toContainText(`offered ${loser.displayName} the session on`);
  await expect(items.nth(1)).toContainText('Reply by');
  await checkScreen(page, testInfo, 'history-offer-taken');
  await api.dispose();
});
