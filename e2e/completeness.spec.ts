import type { APIRequestContext } from '@playwright/test';
import { monthWeekdays } from './dates';
import { expect as baseExpect, checkScreen, chooseOption, loginAsStaff, staffApi, test } from './fixtures';

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 120_000 });

/*
 * Completeness: each test makes its own facilitators in an area nobody else uses and looks
 * at a month far ahead, so the shared server's other data never changes what it sees.
 */
const MONTH = '2031-03';
const WEEKDAYS = monthWeekdays(`${MONTH}-01`); // 21 weekdays

interface Made {
  area: string;
  ids: number[];
  api: APIRequestContext;
}

async function makeScenario(tag: string): Promise<Made> {
  const api = await staffApi();
  const area = `Completeness ${tag}`;
  const ids: number[] = [];
  const person = async (displayName: string) => {
    const username = `completeness-${tag}-${displayName.toLowerCase()}@example.org`.replace(/\s+/g, '-');
    const res = await api.post('/api/staff/users', {
      data: {
        username,
        password: 'complete-pass-1',
        displayName,
        email: username,
        role: 'facilitator',
        area,
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    const id = ((await res.json()) as { id: number }).id;
    ids.push(id);
    return id;
  };
  const day = async (userId: number, date: string) => {
    const res = await api.post('/api/staff/availability', {
      data: { userId, date, status: 'available', startTime: '', endTime: '', notes: '' },
    });
    expect(res.status(), await res.text()).toBe(200);
  };
  const zoe = await person('Zoe Complete');
  const amy = await person('Amy Partial');
  await person('Max Missing');
  for (const date of WEEKDAYS) await day(zoe, date);
  for (const date of WEEKDAYS.slice(0, 5)) await day(amy, date);
  return { area, ids, api };
}

async function dropScenario(made: Made) {
  for (const id of made.ids) await made.api.delete(`/api/staff/users/${id}`);
  await made.api.dispose();
}

test('staff see who is complete, partial or missing; sort, filter and change month', async ({
  page,
}, testInfo) => {
  const made = await makeScenario(`${testInfo.project.name}-${Date.now()}`);
  try {
    await loginAsStaff(page);
    // reachable from the dashboard
    await page.goto('/staff');
    await page.getByRole('link', { name: 'Completeness' }).click();
    await expect(page.getByRole('heading', { name: 'Availability completeness', level: 1 })).toBeVisible();
    await expect(page).toHaveURL(/\/staff\/completeness/);

    await page.goto(`/staff/completeness?month=${MONTH}&area=${encodeURIComponent(made.area)}`);
    await expect(page.getByTestId('completeness-month')).toHaveText('March 2031');
    const rows = page.getByTestId('completeness-row');
    await expect(rows).toHaveCount(3);
    // sorted by name first
    await expect(rows.nth(0)).toContainText('Amy Partial');
    await expect(rows.nth(0)).toContainText('Partial');
    await expect(rows.nth(0)).toContainText('5 of 21 weekdays');
    await expect(rows.nth(1)).toContainText('Max Missing');
    await expect(rows.nth(1)).toContainText('0 of 21 weekdays');
    await expect(rows.nth(2)).toContainText('Zoe Complete');
    await expect(rows.nth(2)).toContainText('21 of 21 weekdays');
    await expect(page.getByTestId('count-complete')).toContainText('1');
    await expect(page.getByTestId('count-partial')).toContainText('1');
    await expect(page.getByTestId('count-missing')).toContainText('1');
    // a complete facilitator cannot be chosen for a reminder
    await expect(rows.nth(2).getByRole('checkbox')).toHaveCount(0);
    await checkScreen(page, testInfo, 'completeness');

    // sort by the number of weekdays set, then the other way (a phone's one column has the same buttons)
    const header = page.getByRole('table').locator('thead');
    const byCount = header.getByRole('button', { name: 'Weekdays set' });
    await byCount.click();
    await expect(byCount).toHaveAttribute('aria-pressed', 'true');
    await expect(rows.nth(0)).toContainText('Max Missing');
    await byCount.click();
    await expect(rows.nth(0)).toContainText('Zoe Complete');
    await expect(page.getByRole('columnheader', { name: 'Weekdays set' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    // by status: missing first
    await header.getByRole('button', { name: 'Status' }).click();
    await expect(rows.nth(0)).toContainText('Max Missing');
    await expect(rows.nth(2)).toContainText('Zoe Complete');

    // the area filter: all areas shows more people, choosing the area again narrows it
    await chooseOption(page.getByLabel('Area'), 'All areas');
    await expect(page).not.toHaveURL(/area=/);
    await expect.poll(() => rows.count()).toBeGreaterThan(3);
    await chooseOption(page.getByLabel('Area'), made.area);
    await expect(rows).toHaveCount(3);

    // the next month: nobody has anything there
    await page.getByRole('button', { name: 'Next month' }).click();
    await expect(page.getByTestId('completeness-month')).toHaveText('April 2031');
    await expect(page).toHaveURL(/month=2031-04/);
    await expect(page.getByTestId('count-missing')).toContainText('3');
    await expect(rows.filter({ hasText: '0 of 22 weekdays' })).toHaveCount(3);
  } finally {
    await dropScenario(made);
  }
});

test('a facilitator is refused the completeness data', async ({ page, makeFacilitator }) => {
  const me = await makeFacilitator();
  const res = await page.request.post('/api/login', {
    data: { username: me.username, password: me.password },
  });
  expect(res.status()).toBe(200);
  const answer = await page.request.get(`/api/staff/completeness?month=${MONTH}`);
  expect(answer.status()).toBe(403);
});
