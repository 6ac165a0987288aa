import type { Page, TestInfo } from '@playwright/test';
import { bookingFields, hostToday } from './calendar-fixtures';
import { monthGridRange, monthLabel, monthWeekdays } from './dates';
import {
  addFault,
  addSharePointItem,
  BOOKINGS_DELTA,
  listItemsPath,
  sharePointItems,
  withSharePointLock,
} from './emulator';
import {
  expect as baseExpect,
  checkScreen,
  chooseAreas,
  chooseOption,
  loginAsFacilitator,
  loginAsStaff,
  recordRefreshStates,
  refreshStates,
  showGridDay,
  test,
  toastLocator,
} from './fixtures';
import { SHAREPOINT_USERS, type SharePointUser, sharePointDays } from './sharepoint-fixtures';

/**
 * SharePoint end to end, with nothing faked: the e2e server talks to the SharePoint emulator over HTTP.
 * A booking is added in "SharePoint" (the emulator's control plane), staff press Refresh Bookings and
 * watch it arrive, the facilitator finds the day locked, and availability the facilitator saves is
 * delivered to the emulator's Availability list by the outbox worker.
 */

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 150_000 });

const BOOKED_MESSAGE = 'This date has confirmed bookings and cannot be modified to maintain data integrity.';
const today = hostToday();
const days = sharePointDays(today);

function userFor(testInfo: TestInfo): SharePointUser {
  return testInfo.project.name === 'phone' ? SHAREPOINT_USERS.phone : SHAREPOINT_USERS.desktop;
}

async function userId(page: Page, user: SharePointUser): Promise<number> {
  const res = await page.request.get('/api/staff/users');
  expect(res.status()).toBe(200);
  const found = ((await res.json()) as Array<{ id: number; username: string }>).find(
    (u) => u.username === user.username,
  );
  if (!found) throw new Error(`no fixture user ${user.username}: is e2e/server-with-fixtures.ts running?`);
  return found.id;
}

/** The first candidate day on which the user has no booking yet (so a re-run finds a fresh one). */
async function freeCandidateDay(page: Page, id: number): Promise<string> {
  const month = monthWeekdays(today);
  const res = await page.request.get(`/api/staff/bookings?from=${month[0]}&to=${month.at(-1)}`);
  expect(res.status()).toBe(200);
  const booked = new Set(
    ((await res.json()) as Array<{ userId: number | null; date: string }>)
      .filter((b) => b.userId === id)
      .map((b) => b.date),
  );
  const day = days.candidates.find((d) => !booked.has(d));
  if (!day) throw new Error('every candidate day of this month is booked already');
  return day;
}

const gridCell = (page: Page, id: number, date: string) =>
  page.locator(
    `[data-testid="grid-row"][data-user-id="${id}"] [data-testid="grid-cell"][data-date="${date}"]`,
  );

const calendarCell = (page: Page, date: string) => page.locator(`td[data-date="${date}"]`);

/** The page's next read of the scheduler status that finds the refresh at `stage`. */
function serverStageRead(page: Page, stage: 'connecting' | 'processing') {
  return page.waitForResponse(
    async (response) =>
      response.url().endsWith('/api/admin/scheduler/status') &&
      response.ok() &&
      ((await response.json()) as { refreshStage: string | null }).refreshStage === stage,
  );
}

async function openCalendar(page: Page) {
  await page.goto('/');
  await expect(page.getByRole('grid', { name: monthLabel(today) })).toBeVisible();
}

test.describe('SharePoint through the emulator', () => {
  test('staff refresh brings in a new booking with progress; the facilitator sees it locked', async ({
    page,
  }, testInfo) => {
    const user = userFor(testInfo);
    await loginAsStaff(page);
    const id = await userId(page, user);
    const newDay = await freeCandidateDay(page, id);
    const title = `Mosaic Workshop ${testInfo.project.name} ${Date.now()}`;

    await page.goto('/staff');
    await expect(page.getByTestId('schedule-grid')).toBeVisible();
    await chooseAreas(page, [user.area]);
    // the booking SharePoint had at start-up came in through the real refresh before the server listened
    await showGridDay(page, days.seeded);
    await expect(gridCell(page, id, days.seeded).getByText('Booked', { exact: true })).toBeVisible();
    await showGridDay(page, newDay);
    await expect(gridCell(page, id, newDay)).toBeVisible();
    await expect(gridCell(page, id, newDay).getByText('Booked', { exact: true })).toHaveCount(0);

    await withSharePointLock(async () => {
      // someone books the facilitator in SharePoint
      await addSharePointItem(
        'Bookings',
        bookingFields({
          freelancerId: user.freelancerId,
          date: newDay,
          title,
          startTime: '10:00',
          endTime: '12:00',
          // no school name: the refresh looks the school up in the Schools list
          schoolId: 'E2E-SCHOOL-1',
          location: 'Art room',
        }),
      );
      // SharePoint holds its answers this time, so each stage lasts as long as the test looks at it:
      // first the change feed, then the Schools list the new booking's school is looked up in
      const releaseFeed = await addFault({ path: BOOKINGS_DELTA, times: 1, action: { type: 'hold' } });
      const releaseSchools = await addFault({
        method: 'GET',
        path: await listItemsPath('Schools'),
        times: 1,
        action: { type: 'hold' },
      });
      try {
        await recordRefreshStates(page);
        const connecting = serverStageRead(page, 'connecting');
        const refreshed = page.waitForResponse('**/api/staff/bookings/refresh');
        await page.getByRole('button', { name: 'Refresh Bookings' }).click();
        await expect(page.getByRole('button', { name: 'Refreshing...' })).toBeDisabled();
        // the page has read the server's stage while SharePoint holds the change feed
        await connecting;
        await expect(page.getByTestId('refresh-message')).toHaveText('Connecting to SharePoint...');
        await expect(page.getByTestId('refresh-progress')).toHaveAttribute('data-value', '25');
        // and reads it again: a page that moved on by a timer of its own would be at "Processing" by now
        await serverStageRead(page, 'connecting');
        await expect(page.getByTestId('refresh-message')).toHaveText('Connecting to SharePoint...');

        // SharePoint sends the changes; the server works through them (the school look-up is held)
        const processing = serverStageRead(page, 'processing');
        await releaseFeed();
        await processing;
        await expect(page.getByTestId('refresh-message')).toHaveText('Processing booking data...');
        await expect(page.getByTestId('refresh-progress')).toHaveAttribute('data-value', '75');
        await expect(page.getByTestId('scheduler-status')).toHaveAttribute('data-state', 'updating');
        await checkScreen(page, testInfo, 'staff-refresh-processing');

        await releaseSchools();
        const response = await refreshed;
        expect(response.status(), await response.text()).toBe(200);
        expect(await response.json()).toMatchObject({ added: 1, removed: 0 });
        await expect(page.getByTestId('refresh-message')).toHaveText('Complete!');
        await expect(page.getByTestId('refresh-message')).toHaveCount(0);
        expect(await refreshStates(page)).toEqual([
          'Connecting to SharePoint...@25',
          'Processing booking data...@75',
          'Complete!@100',
          'cleared',
        ]);
      } finally {
        await releaseFeed();
        await releaseSchools();
      }
    });

    // the grid loaded the bookings again: the new one is there
    await showGridDay(page, newDay);
    const booked = gridCell(page, id, newDay);
    await booked.scrollIntoViewIfNeeded();
    await expect(booked.getByText('Booked', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Refresh Bookings' })).toBeEnabled();

    // the facilitator signs in and finds both bookings on the calendar, locked
    await page.context().clearCookies();
    await loginAsFacilitator(page, user);
    await openCalendar(page);
    for (const date of [days.seeded, newDay]) {
      await expect(calendarCell(page, date).getByTestId('day-lock')).toBeVisible();
    }
    await expect(calendarCell(page, newDay).getByTestId('booking-chip')).toHaveText(title);
    await expect(calendarCell(page, days.seeded).getByTestId('booking-chip')).toHaveText('Puppetry Taster');

    await calendarCell(page, newDay).click({ position: { x: 8, y: 8 } });
    const toast = toastLocator(page);
    await expect(toast).toContainText('Cannot Edit Availability');
    await expect(toast).toContainText(BOOKED_MESSAGE);
    await expect(page.getByRole('dialog', { name: 'Update Availability' })).toHaveCount(0);
    await checkScreen(page, testInfo, 'sharepoint-booking-locked');
  });

  test('a refresh SharePoint refuses says why, as the server recorded it, with the way to the settings', async ({
    page,
  }, testInfo) => {
    await loginAsStaff(page);
    await page.goto('/staff');
    await expect(page.getByTestId('schedule-grid')).toBeVisible();
    const reason = `The app may not read this list (${testInfo.project.name} ${Date.now()})`;

    await withSharePointLock(async () => {
      const refuse = await addFault({
        path: BOOKINGS_DELTA,
        times: 'always',
        action: { type: 'status', status: 403, code: 'accessDenied', message: reason },
      });
      try {
        await recordRefreshStates(page);
        const refreshed = page.waitForResponse('**/api/staff/bookings/refresh');
        await page.getByRole('button', { name: 'Refresh Bookings' }).click();
        expect((await refreshed).status()).toBe(503);
      } finally {
        await refuse();
      }
    });

    // the reason the server recorded, in a toast that stays, with the way to the settings
    const status = (await (await page.request.get('/api/admin/scheduler/status')).json()) as {
      lastRefreshError: string | null;
    };
    expect(status.lastRefreshError).toContain(reason);
    const toast = toastLocator(page);
    await expect(toast).toContainText('Error occurred during refresh');
    await expect(toast.getByTestId('refresh-error-reason')).toHaveText(status.lastRefreshError!);
    // the line under the buttons showed the error and cleared after its 2 s (recorded as it happened);
    // the toast with the reason does not go with it
    await expect(page.getByTestId('refresh-message')).toHaveCount(0);
    expect(await refreshStates(page)).toEqual([
      'Connecting to SharePoint...@25',
      'Error occurred during refresh@50',
      'cleared',
    ]);
    await expect(toast).toContainText(reason);
    await expect(page.getByRole('button', { name: 'Refresh Bookings' })).toBeEnabled();
    await checkScreen(page, testInfo, 'staff-refresh-failed');

    await toast.getByRole('link', { name: 'Check the SharePoint settings' }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(page.getByRole('heading', { name: 'SharePoint', exact: true, level: 2 })).toBeVisible();
  });

  test('availability the facilitator saves is delivered to the SharePoint Availability list', async ({
    page,
  }, testInfo) => {
    const user = userFor(testInfo);
    const date = days.availability;
    const notes = `From the e2e run ${Date.now()}`;
    await loginAsFacilitator(page, user);
    await openCalendar(page);
    const range = monthGridRange(today);
    const bookings = await (await page.request.get(`/api/bookings?from=${range.from}&to=${range.to}`)).json();
    expect((bookings as Array<{ date: string }>).some((b) => b.date === date)).toBe(false);

    await calendarCell(page, date).click();
    const dialog = page.getByRole('dialog', { name: 'Update Availability' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('radio', { name: 'Limited Availability' }).check();
    await chooseOption(dialog.getByRole('combobox', { name: 'Start Time (optional)' }), '9:00 AM');
    await chooseOption(dialog.getByRole('combobox', { name: 'End Time (optional)' }), '1:00 PM');
    await dialog.getByLabel('Notes (optional)').fill(notes);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(toastLocator(page)).toContainText('Sync Successful');
    await expect(calendarCell(page, date)).toHaveAttribute('data-status', 'limited');

    // the outbox worker (the server's scheduler) writes it to SharePoint on its own
    const key = `${user.freelancerId}|${date}`;
    let delivered: Record<string, unknown> | undefined;
    await expect
      .poll(
        async () => {
          const items = await sharePointItems('Availability');
          delivered = items.find((item) => item.fields.Title === key)?.fields;
          return delivered?.Notes;
        },
        { timeout: 20_000, intervals: [500, 1000] },
      )
      .toBe(notes);
    expect(delivered).toMatchObject({
      Title: key,
      FreelancerID: user.freelancerId,
      FacilitatorName: user.displayName,
      Day: date,
      Status: 'Limited',
      StartTime: '09:00',
      EndTime: '13:00',
      Notes: notes,
    });
  });
});
