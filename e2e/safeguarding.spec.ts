import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import { hostToday } from './calendar-fixtures';
import { addDays, addMonths, startOfWeekMonday } from './dates';
import {
  addAvailableFacilitator,
  expect as baseExpect,
  checkScreen,
  chooseAreas,
  laptopOnDesktop,
  loginAsFacilitator,
  loginAsStaff,
  staffApi,
  test,
  toastLocator,
} from './fixtures';
import { userAction } from './table';

/**
 * Safeguarding records: staff see each facilitator's state in the users table (and filter by it), on
 * the staff grid and in who is free, where the expired and missing are left out unless everyone is
 * shown; staff record a DBS check in the records dialog and see whose state a policy change would
 * change; a facilitator is told about missing checks and sees their own. Every run makes its own
 * facilitators in an area nobody else uses. The policy is left at its defaults (other specs share the
 * server). The components' own logic (the dialogs' validation and fields, the notice's wording for
 * each state, the policy dialog's counts) is tested in src/client/features/safeguarding.
 */
const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 180_000 });

const TODAY = hostToday();
// Wednesday of next week: a working day, whatever today is
const DAY = addDays(startOfWeekMonday(TODAY), 9);
const CERTIFICATE = '001122334455';

interface Person {
  id: number;
  name: string;
  username: string;
}

async function person(api: APIRequestContext, name: string, area: string, tag: string): Promise<Person> {
  const username = `sg-${tag}-${name.split(' ')[0]!.toLowerCase()}@example.org`;
  const id = await addAvailableFacilitator(
    api,
    { username, password: 'sg-pass-1234', displayName: name, area },
    DAY,
  );
  return { id, name, username };
}

async function dbs(api: APIRequestContext, who: Person, issueDate: string) {
  const res = await api.put(`/api/staff/users/${who.id}/safeguarding`, {
    data: {
      dbs: {
        certificateNumber: CERTIFICATE,
        issueDate,
        enhancedWithBarredList: true,
        onUpdateService: false,
        statusCheckedOn: null,
        checkedBy: 'Office',
      },
      checks: [],
      version: 0,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** Vera valid, Sue due soon (counts until 10 days after DAY), Eli expired, Nina with no DBS check. */
async function makeScenario(testInfo: TestInfo) {
  const api = await staffApi();
  const tag = `${testInfo.project.name}-${Date.now()}`;
  const area = `Safeguarding ${tag}`;
  const vera = await person(api, 'Vera Valid', area, tag);
  const sue = await person(api, 'Sue Soon', area, tag);
  const eli = await person(api, 'Eli Expired', area, tag);
  const nina = await person(api, 'Nina None', area, tag);
  await dbs(api, vera, addDays(TODAY, -100));
  // 36 months from this issue date count until DAY + 10: within the 30 days' warning, today and on DAY
  await dbs(api, sue, addMonths(addDays(DAY, 11), -36));
  await dbs(api, eli, addMonths(TODAY, -40));
  return {
    tag,
    area,
    people: { vera, sue, eli, nina },
    cleanup: async () => {
      for (const p of [vera, sue, eli, nina]) await api.delete(`/api/staff/users/${p.id}`);
      await api.dispose();
    },
  };
}

const userRow = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name });

test('staff see, filter and record safeguarding checks; who is free leaves out the expired and missing', async ({
  page,
}, testInfo) => {
  const scenario = await makeScenario(testInfo);
  const { vera, sue, eli, nina } = scenario.people;
  try {
    await laptopOnDesktop(page, testInfo);
    await loginAsStaff(page);

    await test.step('the users table: a badge per facilitator, and a filter by status', async () => {
      await page.goto('/staff/users');
      await page.getByLabel('Search facilitators').fill(scenario.tag);
      await expect(page.locator('tbody tr')).toHaveCount(4);
      // in its column, or under the name on a phone
      const badge = (who: Person) => userRow(page, who.name).locator('[data-safeguarding]');
      await expect(badge(vera)).toHaveText('Checks valid');
      await expect(badge(sue)).toHaveText(/^Expiring soon: DBS check due soon: valid until /);
      await expect(badge(eli)).toHaveText(/^Expired: DBS check expired: it counted until /);
      await expect(badge(nina)).toHaveText('Missing: No DBS check recorded');

      await page.getByLabel('Safeguarding', { exact: true }).selectOption('expired');
      await expect(page.locator('tbody tr')).toHaveCount(1);
      await expect(userRow(page, eli.name)).toBeVisible();
      await page.getByLabel('Safeguarding', { exact: true }).selectOption('missing');
      await expect(page.locator('tbody tr')).toHaveCount(1);
      await expect(userRow(page, nina.name)).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: 'shown' })).toHaveText(/^1 of \d+ shown$/);
      await checkScreen(page, testInfo, 'safeguarding-users-filtered');
      await page.getByLabel('Safeguarding', { exact: true }).selectOption('');
      await expect(page.locator('tbody tr')).toHaveCount(4);
    });

    await test.step('the records dialog: staff record Nina’s DBS check', async () => {
      await userAction(page, userRow(page, nina.name), nina.name, 'Safeguarding records');
      const dialog = page.getByRole('dialog', { name: `Safeguarding records of ${nina.name}` });
      await expect(dialog.getByTestId('current-status')).toContainText('No DBS check recorded');
      await dialog.getByLabel('Certificate number').fill('5566 7788 9900');
      await dialog.getByLabel('Issue date').fill(addDays(TODAY, -30));
      await dialog.getByLabel('Checked by').fill('Priya in the office');
      await checkScreen(page, testInfo, 'safeguarding-records-dialog');
      await dialog.getByRole('button', { name: 'Save records' }).click();
      await expect(toastLocator(page)).toContainText('Safeguarding records saved');
      await expect(dialog).toBeHidden();
      await expect(userRow(page, nina.name).locator('[data-safeguarding]')).toHaveText('Checks valid');
      // the table never shows the number
      await expect(page.locator('table')).not.toContainText('556677889900');
    });

    await test.step('the record for schools is offered on the same page', async () => {
      await expect(page.getByRole('heading', { name: 'Safeguarding record for schools' })).toBeVisible();
      await checkScreen(page, testInfo, 'safeguarding-users');
    });

    await test.step('who is free leaves Eli out; with everyone shown, it says why', async () => {
      await page.goto(`/staff/free?date=${DAY}&areas=${encodeURIComponent(scenario.area)}`);
      const rows = page.getByTestId('free-row');
      await expect(rows).toHaveCount(3);
      expect((await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-name')))).sort()).toEqual(
        [nina.name, sue.name, vera.name].sort(),
      );
      const row = (who: Person) => page.locator(`[data-testid="free-row"][data-name="${who.name}"]`);
      await expect(row(sue).locator('[data-safeguarding="expiring"]')).toBeVisible();
      await expect(row(vera).locator('[data-safeguarding="valid"]')).toBeVisible();
      await expect(page.getByTestId('free-left-out')).toHaveText(
        '1 left out (tick Show everyone to see why)',
      );

      await page.getByRole('checkbox', { name: 'Show everyone' }).check();
      await expect(rows).toHaveCount(4);
      await expect(row(eli).getByTestId('free-reason')).toHaveText(
        /^Not free: Safeguarding: DBS check expired: it counted until \d+ \w+ \d{4}$/,
      );
      await expect(row(eli).locator('[data-safeguarding="expired"]')).toBeVisible();
      await checkScreen(page, testInfo, 'safeguarding-free-everyone');
    });

    await test.step('the staff grid shows a badge by each name', async () => {
      await page.goto('/staff');
      await chooseAreas(page, [scenario.area]);
      const gridRow = (who: Person) => page.locator(`[data-testid="grid-row"][data-user-id="${who.id}"]`);
      await expect(gridRow(eli).locator('[data-safeguarding="expired"]')).toBeVisible();
      await expect(gridRow(vera).locator('[data-safeguarding="valid"]')).toBeVisible();
      await expect(gridRow(sue).locator('[data-safeguarding="expiring"]')).toHaveAttribute(
        'title',
        /^Expiring soon: DBS check due soon/,
      );
      await checkScreen(page, testInfo, 'safeguarding-grid');
    });

    await test.step('the policy card on the settings page', async () => {
      await page.goto('/settings');
      const card = page.getByRole('heading', { name: 'Safeguarding policy' });
      await expect(card).toBeVisible();
      await expect(page.getByLabel('Months from the issue date')).toHaveValue(/^\d+$/);
      await card.scrollIntoViewIfNeeded();
      await checkScreen(page, testInfo, 'safeguarding-policy');
    });

    await test.step('a change of the policy says whose state it changes before it is saved', async () => {
      const types = page.getByLabel('Other checks (one per line)');
      await types.fill('First aid');
      await page.getByRole('button', { name: 'Save policy' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Save this policy?' });
      await expect(dialog).toContainText(
        /It changes the safeguarding state of \d+ facilitators? of \d+ from today/,
      );
      const change = (who: Person) =>
        dialog
          .getByRole('list', { name: 'Whose state changes' })
          .getByRole('listitem')
          .filter({ hasText: who.name });
      await expect(change(vera)).toContainText('Checks valid → Missing');
      await expect(change(vera)).toContainText('No First aid recorded');
      await expect(change(sue)).toContainText('Expiring soon → Missing');
      await checkScreen(page, testInfo, 'safeguarding-policy-change');
      // other specs share the server: the change is looked at, never saved
      await dialog.getByRole('button', { name: 'Keep editing' }).click();
      await expect(dialog).toBeHidden();
      const policy = await (await page.request.get('/api/staff/safeguarding/policy')).json();
      expect(policy.checkTypes).toEqual([]);
    });
  } finally {
    await scenario.cleanup();
  }
});

test('a facilitator whose checks are missing is told on the calendar and the offers page; one sees their own checks', async ({
  page,
}, testInfo) => {
  const scenario = await makeScenario(testInfo);
  const { sue, nina } = scenario.people;
  try {
    await laptopOnDesktop(page, testInfo);

    await test.step('Nina, with no DBS check, is told on the calendar and the offers page', async () => {
      await loginAsFacilitator(page, { username: nina.username, password: 'sg-pass-1234' });
      await page.goto('/');
      const notice = page.getByTestId('safeguarding-notice');
      await expect(notice.getByRole('heading')).toHaveText('Your safeguarding checks need updating');
      await expect(notice).toContainText('No DBS check recorded.');
      await checkScreen(page, testInfo, 'calendar-safeguarding-missing');
      await page.goto('/offers');
      await expect(notice).toHaveAttribute('data-state', 'missing');
      await checkScreen(page, testInfo, 'offers-safeguarding-missing');
    });

    await test.step('Sue sees her own checks and what is due in Settings', async () => {
      await loginAsFacilitator(page, { username: sue.username, password: 'sg-pass-1234' });
      await page.goto('/settings');
      const card = page
        .locator('[data-slot="card"]')
        .filter({ has: page.getByRole('heading', { name: 'Safeguarding checks' }) });
      await expect(card.locator('[data-safeguarding="expiring"]')).toBeVisible();
      await expect(card.getByRole('list', { name: 'Checks' })).toContainText(
        /DBS check due soon: valid until/,
      );
      await expect(card).toContainText(`DBS certificate ${CERTIFICATE}`);
      await checkScreen(page, testInfo, 'safeguarding-own');
    });
  } finally {
    await scenario.cleanup();
  }
});
