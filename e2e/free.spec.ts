import type { APIRequestContext, TestInfo } from '@playwright/test';
import { bookingFields, hostToday } from './calendar-fixtures';
import { addDays, startOfWeekMonday, today } from './dates';
import { addSharePointItem, withSharePointLock } from './emulator';
import {
  expect as baseExpect,
  checkScreen,
  chooseAreas,
  loginAsFacilitator,
  loginAsStaff,
  showGridDay,
  staffApi,
  test,
} from './fixtures';
import { recordValidDbsCheck } from './safeguarding-records';

/**
 * "Who is free": staff find facilitators who can work on a day. Every run makes its own
 * facilitators in an area nobody else uses, with availability set through the staff API and one
 * booking that arrives from SharePoint (the emulator) through the real refresh, and then searches
 * that area only.
 */

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 150_000 });

// Wednesday of next week: a working day, whatever today is
const DAY = addDays(startOfWeekMonday(hostToday()), 9);

interface Person {
  id: number;
  name: string;
}

async function person(
  api: APIRequestContext,
  name: string,
  area: string,
  tag: string,
  freelancerId?: string,
): Promise<Person> {
  const username = `free-${tag}-${name.split(' ')[0]!.toLowerCase()}@example.org`;
  const res = await api.post('/api/staff/users', {
    data: {
      username,
      password: 'free-pass-123',
      displayName: name,
      email: username,
      role: 'facilitator',
      area,
      freelancerId: freelancerId ?? '',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const id = ((await res.json()) as { id: number }).id;
  await recordValidDbsCheck(api, id);
  return { id, name };
}

/**
 * Seven facilitators, one per case. With the window 10:00-12:00, best first:
 * Ava (available, 09:00-17:00 covers), Bo (available, no times: open), Cal (limited, covers);
 * left out: Gus (booked), Dee (08:00-11:00 misses the window), Eve (unavailable), Finn (nothing set).
 */
async function makeScenario(testInfo: TestInfo) {
  const api = await staffApi();
  const tag = `${testInfo.project.name}-${Date.now()}`;
  const area = `Free ${tag}`;
  const freelancerId = `E2E-FREE-${tag}`;
  const ava = await person(api, 'Ava Able', area, tag);
  const bo = await person(api, 'Bo Open', area, tag);
  const cal = await person(api, 'Cal Limited', area, tag);
  const dee = await person(api, 'Dee Morning', area, tag);
  const eve = await person(api, 'Eve Away', area, tag);
  const finn = await person(api, 'Finn Blank', area, tag);
  const gus = await person(api, 'Gus Booked', area, tag, freelancerId);
  const day = async (who: Person, status: string, startTime = '', endTime = '', notes = '') => {
    const res = await api.post('/api/staff/availability', {
      data: { userId: who.id, date: DAY, status, startTime, endTime, notes },
    });
    expect(res.status(), await res.text()).toBe(200);
  };
  await day(ava, 'available', '09:00', '17:00', 'Happy to travel');
  await day(bo, 'available');
  await day(cal, 'limited', '10:00', '13:00');
  await day(dee, 'available', '08:00', '11:00');
  await day(eve, 'unavailable', '', '', 'On holiday');
  await day(gus, 'available');
  const note = await api.post('/api/staff/notes', {
    data: { facilitatorId: ava.id, date: DAY, note: 'Check DBS first', priority: 'urgent' },
  });
  expect(note.status(), await note.text()).toBe(201);

  // the refresh joins one already running, so no other test may refresh while this booking waits
  await withSharePointLock(async () => {
    await addSharePointItem(
      'Bookings',
      bookingFields({
        freelancerId,
        date: DAY,
        title: 'Clay workshop',
        startTime: '09:30',
        endTime: '11:30',
        schoolName: 'Meadow Lane Primary',
        program: 'Clay',
      }),
    );
    const refreshed = await api.post('/api/staff/bookings/refresh');
    expect(refreshed.status(), await refreshed.text()).toBe(200);
  });

  return {
    area,
    avaId: ava.id,
    cleanup: async () => {
      for (const p of [ava, bo, cal, dee, eve, finn, gus]) await api.delete(`/api/staff/users/${p.id}`);
      await api.dispose();
    },
  };
}

const rows = (page: import('@playwright/test').Page) => page.getByTestId('free-row');
const row = (page: import('@playwright/test').Page, name: string) =>
  page.locator(`[data-testid="free-row"][data-name="${name}"]`);

test('staff find who is free on a day, best match first, and see why the rest are left out', async ({
  page,
}, testInfo) => {
  const scenario = await makeScenario(testInfo);
  try {
    await loginAsStaff(page);

    await test.step('from the dashboard; the date starts at today', async () => {
      await page.goto('/staff');
      await page.getByRole('link', { name: 'Who is free' }).click();
      await expect(page).toHaveURL(/\/staff\/free$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Who is free');
      // today as the server sees it (the organisation's time zone, Europe/London by default)
      await expect(page.getByLabel('Date', { exact: true })).toHaveValue(today('Europe/London'));
      await expect(page.getByTestId('free-summary')).toBeVisible();
    });

    await test.step('a day, a window and one area: the free, ranked', async () => {
      await page.getByLabel('Date', { exact: true }).fill(DAY);
      await page.getByLabel('From (optional)').fill('10:00');
      await page.getByLabel('To (optional)').fill('12:00');
      await page.getByRole('checkbox', { name: scenario.area, exact: true }).check();
      await expect(page).toHaveURL(/date=.*from=10%3A00&to=12%3A00&areas=/);

      await expect(rows(page)).toHaveCount(3);
      await expect(page.locator('[data-testid="free-row"][data-free="false"]')).toHaveCount(0);
      expect(await rows(page).evaluateAll((els) => els.map((el) => el.getAttribute('data-name')))).toEqual([
        'Ava Able',
        'Bo Open',
        'Cal Limited',
      ]);
      await expect(page.getByTestId('free-summary')).toHaveText(
        /^3 free on \w+day \d+ \w+ \d{4}, 10:00 AM – 12:00 PM$/,
      );
      await expect(page.getByTestId('free-left-out')).toHaveText(
        '4 left out (tick Show everyone to see why)',
      );

      const ava = row(page, 'Ava Able');
      await expect(ava.getByText('Available', { exact: true })).toBeVisible();
      await expect(ava.getByText('Covers the window')).toBeVisible();
      await expect(ava.getByTestId('free-times')).toHaveText('9:00 AM – 5:00 PM');
      await expect(ava.getByTestId('free-bookings')).toHaveText('No bookings');
      await expect(ava.getByTestId('free-availability-note')).toHaveText('Happy to travel');
      await expect(ava.getByRole('list', { name: 'Staff notes about Ava Able' })).toContainText(
        'Check DBS first',
      );
      await expect(ava.getByText('Urgent', { exact: true })).toBeVisible();
      await expect(row(page, 'Bo Open').getByText('Open times')).toBeVisible();
      await expect(row(page, 'Bo Open').getByTestId('free-times')).toHaveText('No times given');
      await expect(row(page, 'Cal Limited').getByText('Limited Availability')).toBeVisible();
      await checkScreen(page, testInfo, 'free-search');
    });

    await test.step('show everyone: the left out follow, each with its reason', async () => {
      await page.getByRole('checkbox', { name: 'Show everyone' }).check();
      await expect(page).toHaveURL(/include=all/);
      await expect(rows(page)).toHaveCount(7);
      expect(await rows(page).evaluateAll((els) => els.map((el) => el.getAttribute('data-name')))).toEqual([
        'Ava Able',
        'Bo Open',
        'Cal Limited',
        'Gus Booked',
        'Dee Morning',
        'Eve Away',
        'Finn Blank',
      ]);
      const reason = (name: string) => row(page, name).getByTestId('free-reason');
      await expect(reason('Ava Able')).toHaveCount(0);
      await expect(reason('Gus Booked')).toHaveText('Not free: Booked: Meadow Lane Primary (Clay)');
      await expect(row(page, 'Gus Booked').getByTestId('free-bookings')).toHaveText('1 booking');
      await expect(reason('Dee Morning')).toHaveText(
        "Not free: Times 8:00 AM – 11:00 AM don't cover the window",
      );
      await expect(reason('Eve Away')).toHaveText('Not free: Unavailable');
      await expect(row(page, 'Eve Away').getByTestId('free-availability-note')).toHaveText('On holiday');
      await expect(reason('Finn Blank')).toHaveText('Not free: No availability set');
      await expect(row(page, 'Finn Blank').getByText('No availability set', { exact: true })).toBeVisible();
      await checkScreen(page, testInfo, 'free-everyone');
    });

    await test.step('a window that ends before it starts is explained, not sent', async () => {
      await page.getByLabel('To (optional)').fill('09:00');
      await expect(page.getByText('"to" must be later than "from"')).toBeVisible();
      await expect(page.getByLabel('To (optional)')).toHaveAttribute('aria-invalid', 'true');
      await page.getByRole('button', { name: 'Any time' }).click();
      await expect(page.getByLabel('From (optional)')).toHaveValue('');
      // without a window Dee's morning is fine: four free now
      await expect(rows(page).and(page.locator('[data-free="true"]'))).toHaveCount(4);
    });

    await test.step('the search is in the address: a reload shows the same', async () => {
      await page.reload();
      await expect(page.getByLabel('Date', { exact: true })).toHaveValue(DAY);
      await expect(page.getByRole('checkbox', { name: 'Show everyone' })).toBeChecked();
      await expect(rows(page)).toHaveCount(7);
    });

    await test.step('from a day in the staff grid: that day, everyone', async () => {
      await page.goto('/staff');
      await expect(page.getByTestId('schedule-grid')).toBeVisible();
      await chooseAreas(page, [scenario.area]);
      if (DAY.slice(0, 7) !== hostToday().slice(0, 7)) {
        await page.getByRole('button', { name: 'Next month' }).click();
      }
      await showGridDay(page, DAY);
      await page
        .locator(
          `[data-testid="grid-row"][data-user-id="${scenario.avaId}"] [data-testid="grid-cell"][data-date="${DAY}"]`,
        )
        .click();
      const dialog = page.getByRole('dialog', { name: 'Ava Able' });
      await dialog.getByRole('link', { name: 'Who is free on this day?' }).click();
      await expect(page).toHaveURL(new RegExp(`/staff/free\\?date=${DAY}$`));
      await expect(page.getByLabel('Date', { exact: true })).toHaveValue(DAY);
      // every area, no window: the search area's four free are among those listed (by their area:
      // the other project's run of this test may have people of the same names listed beside them)
      const ours = (name: string) => row(page, name).filter({ hasText: scenario.area });
      await expect(ours('Ava Able')).toBeVisible();
      await expect(ours('Dee Morning')).toBeVisible();
      await expect(ours('Eve Away')).toHaveCount(0);
    });

    await test.step('reachable from user management too', async () => {
      await page.goto('/staff/users');
      await expect(page.getByRole('link', { name: 'Who is free' })).toHaveAttribute('href', '/staff/free');
    });
  } finally {
    await scenario.cleanup();
  }
});

test('a facilitator who opens the page is told it is for staff, and the server refuses the search', async ({
  page,
  makeFacilitator,
}) => {
  const user = await makeFacilitator();
  await loginAsFacilitator(page, user);
  await page.goto('/staff/free');
  await expect(page.getByRole('heading', { name: 'Staff only', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in as staff' })).toHaveAttribute(
    'href',
    '/staff-login?next=%2Fstaff%2Ffree',
  );
  await expect(page.getByTestId('free-row')).toHaveCount(0);
  expect((await page.request.get('/api/staff/free')).status()).toBe(403);
});
