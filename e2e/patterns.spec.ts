import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import { bookingFields, hostToday } from './calendar-fixtures';
import {
  addDays,
  dayOfWeek,
  daysBetween,
  eachDay,
  endOfMonth,
  monthLabel,
  nextMonth,
  startOfWeekMonday,
} from './dates';
import { addSharePointItem, withSharePointLock } from './emulator';
import {
  expect as baseExpect,
  checkScreen,
  chooseOption,
  loginAsFacilitator,
  staffApi,
  test,
} from './fixtures';

/**
 * Recurring patterns: a facilitator sets "every 2 weeks on Mondays and Thursdays" over next
 * month from a Wednesday, previews it (the days, a booked day skipped, a saved day replaced), saves it
 * and finds exactly those days on the calendar. The booking comes from SharePoint (the emulator)
 * through a real refresh, as bookings always do.
 */

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 150_000 });

const MONDAY = 1;
const THURSDAY = 4;
const today = hostToday();
const month = nextMonth(today);

/** The first Wednesday of next month: a mid-week start, so the anchor week's Monday is before it. */
const START = eachDay(month, addDays(month, 6)).find((d) => dayOfWeek(d) === 3)!;
const END = endOfMonth(month);

/**
 * Every 2 weeks on Mondays and Thursdays, counted in Monday-to-Sunday weeks from the week of the start
 * date, worked out here the long way round (from each day's Monday) rather than with the app's helper.
 */
const PATTERN_DAYS = eachDay(START, END).filter((date) => {
  const week = (daysBetween(startOfWeekMonday(START), startOfWeekMonday(date)) - 1) / 7;
  return week % 2 === 0 && [MONDAY, THURSDAY].includes(dayOfWeek(date));
});
// a day of the pattern SharePoint books, and one the facilitator had already set
const BOOKED = PATTERN_DAYS[1]!;
const ALREADY_SET = PATTERN_DAYS[2]!;
const SET_DAYS = PATTERN_DAYS.filter((d) => d !== BOOKED);

interface Facilitator {
  id: number;
  username: string;
  password: string;
  freelancerId: string;
}

/** A facilitator of this test only, with a freelancer ID so SharePoint bookings reach them. */
async function createFacilitator(api: APIRequestContext, testInfo: TestInfo): Promise<Facilitator> {
  const unique = `${testInfo.project.name}-${testInfo.workerIndex}-${Date.now()}`;
  const user = {
    username: `pattern-${unique}@example.org`,
    password: 'pattern-pass-123',
    freelancerId: `E2E-PAT-${unique}`,
  };
  const res = await api.post('/api/staff/users', {
    data: {
      ...user,
      displayName: 'Robin Pattern',
      email: user.username,
      role: 'facilitator',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = (await res.json()) as { id: number };
  return { id, ...user };
}

async function bookInSharePoint(api: APIRequestContext, freelancerId: string, date: string) {
  await withSharePointLock(async () => {
    await addSharePointItem('Bookings', bookingFields({ freelancerId, date, title: 'Puppet Theatre' }));
    const res = await api.post('/api/staff/bookings/refresh');
    expect(res.status(), await res.text()).toBe(200);
  });
}

const cell = (page: Page, date: string) => page.locator(`td[data-date="${date}"]`);

async function openDialog(page: Page) {
  await page.goto('/');
  await expect(page.getByRole('grid', { name: monthLabel(today) })).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Repeat Pattern' }).click();
  const dialog = page.getByRole('dialog', { name: 'Repeat Pattern' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test.describe('recurring availability patterns', () => {
  let api: APIRequestContext;
  let user: Facilitator;

  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a hook asks for from this pattern
  test.beforeEach(async ({}, testInfo) => {
    api = await staffApi();
    user = await createFacilitator(api, testInfo);
  });
  test.afterEach(async () => {
    await api.delete(`/api/staff/users/${user.id}`);
    await api.dispose();
  });

  test('preview shows the days, the booked day skipped and the saved day replaced; saving sets them', async ({
    page,
  }, testInfo) => {
    await bookInSharePoint(api, user.freelancerId, BOOKED);
    await loginAsFacilitator(page, user);
    const saved = await page.request.post('/api/availability', {
      data: { date: ALREADY_SET, status: 'unavailable' },
    });
    expect(saved.status()).toBe(200);

    const dialog = await openDialog(page);
    await dialog.getByRole('radio', { name: 'Every 2 weeks' }).check();
    for (const day of ['Tuesday', 'Wednesday', 'Friday']) {
      await dialog.getByRole('checkbox', { name: day, exact: true }).click();
    }
    await expect(dialog.getByRole('checkbox', { name: 'Monday' })).toBeChecked();
    await expect(dialog.getByRole('checkbox', { name: 'Thursday' })).toBeChecked();
    await dialog.getByLabel('Start Date').fill(START);
    await dialog.getByLabel('End Date').fill(END);
    await expect(dialog.getByTestId('pattern-anchor')).toContainText('Week 1 is the week of the start date');
    await dialog.getByRole('radio', { name: 'Limited Availability' }).check();
    await chooseOption(dialog.getByRole('combobox', { name: 'Start Time (optional)' }), '9:00 AM');
    await chooseOption(dialog.getByRole('combobox', { name: 'End Time (optional)' }), '3:00 PM');
    await dialog.getByLabel('Notes (optional)').fill('Spring term: alternate weeks');
    await expect(dialog.getByRole('button', { name: 'Save Pattern' })).toBeDisabled();

    await dialog.getByRole('button', { name: 'Preview Days' }).click();
    const preview = dialog.getByTestId('pattern-preview');
    await expect(preview.getByTestId('pattern-preview-summary')).toContainText(
      `${SET_DAYS.length} days will be set.`,
    );
    await expect(preview).toContainText('1 of them already has availability, which will be replaced.');
    await expect(preview).toContainText('1 day with confirmed bookings will be skipped.');
    const items = preview.getByRole('list', { name: 'Days in this pattern' }).getByRole('listitem');
    await expect(items).toHaveCount(PATTERN_DAYS.length);
    expect(await items.evaluateAll((els) => els.map((el) => el.getAttribute('data-date')))).toEqual(
      PATTERN_DAYS,
    );
    await expect(preview.locator(`li[data-date="${BOOKED}"]`)).toContainText('Skipped: booked');
    await expect(preview.locator(`li[data-date="${ALREADY_SET}"]`)).toContainText('Replaces saved day');
    await checkScreen(page, testInfo, 'patterns-preview');

    await dialog.getByRole('button', { name: 'Save Pattern' }).click();
    const result = dialog.getByTestId('pattern-result');
    await expect(result).toContainText(`Updated ${SET_DAYS.length} days.`);
    await expect(result).toContainText('Skipped 1 day with confirmed bookings:');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toBeHidden();
    // focus goes back to the button that opened the dialog
    await expect(page.getByRole('button', { name: 'Repeat Pattern' })).toBeFocused();

    await page.getByRole('button', { name: 'Next month' }).click();
    await expect(page.getByRole('grid', { name: monthLabel(month) })).toBeVisible();
    for (const date of SET_DAYS) await expect(cell(page, date)).toHaveAttribute('data-status', 'limited');
    // the booked day stays as it was, and the weeks in between and the days before the start are untouched
    await expect(cell(page, BOOKED)).toHaveAttribute('data-locked', 'true');
    await expect(cell(page, BOOKED)).toHaveAttribute('data-status', 'none');
    const untouched = eachDay(month, END).filter(
      (d) => !PATTERN_DAYS.includes(d) && dayOfWeek(d) >= MONDAY && dayOfWeek(d) <= 5,
    );
    for (const date of untouched) await expect(cell(page, date)).toHaveAttribute('data-status', 'none');
    await checkScreen(page, testInfo, 'patterns-calendar');

    const stored = await page.request.get(`/api/availability?from=${month}&to=${END}`);
    const rows = (await stored.json()) as Array<{
      date: string;
      status: string;
      startTime: string;
      endTime: string;
      notes: string;
    }>;
    expect(rows.map((r) => r.date)).toEqual(SET_DAYS);
    for (const row of rows) {
      expect(row).toMatchObject({
        status: 'limited',
        startTime: '09:00',
        endTime: '15:00',
        notes: 'Spring term: alternate weeks',
      });
    }
  });

  test('checks the form, and a change after the preview asks for a new one', async ({ page }, testInfo) => {
    await loginAsFacilitator(page, user);
    const dialog = await openDialog(page);
    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']) {
      await dialog.getByRole('checkbox', { name: day, exact: true }).click();
    }
    await dialog.getByLabel('End Date').fill(addDays(START, -1));
    await dialog.getByLabel('Start Date').fill(START);
    await dialog.getByRole('button', { name: 'Preview Days' }).click();
    await expect(dialog.getByText('Choose at least one day of the week')).toBeVisible();
    // the first field in error takes focus, so the message is not missed below the fold
    await expect(dialog.getByRole('checkbox', { name: 'Monday', exact: true })).toBeFocused();
    await expect(dialog.getByText('End date must be on or after start date')).toBeVisible();
    await expect(dialog.getByLabel('End Date')).toHaveAttribute('aria-invalid', 'true');
    await checkScreen(page, testInfo, 'patterns-errors');

    // a time in error loses its message as soon as it is edited, before the form is checked again
    await chooseOption(dialog.getByRole('combobox', { name: 'Start Time (optional)' }), '3:00 PM');
    await chooseOption(dialog.getByRole('combobox', { name: 'End Time (optional)' }), '10:00 AM');
    await dialog.getByRole('button', { name: 'Preview Days' }).click();
    await expect(dialog.getByText('End time must be after start time')).toBeVisible();
    await expect(dialog.getByRole('combobox', { name: 'End Time (optional)' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    await chooseOption(dialog.getByRole('combobox', { name: 'End Time (optional)' }), '4:00 PM');
    await expect(dialog.getByText('End time must be after start time')).toBeHidden();
    await expect(dialog.getByText('End date must be on or after start date')).toBeVisible();

    await dialog.getByRole('checkbox', { name: 'Thursday', exact: true }).click();
    await dialog.getByLabel('End Date').fill(END);
    await dialog.getByRole('radio', { name: 'Every 4 weeks' }).check();
    await dialog.getByRole('button', { name: 'Preview Days' }).click();
    const thursdays = eachDay(START, END).filter((date) => {
      const week = (daysBetween(startOfWeekMonday(START), startOfWeekMonday(date)) - 1) / 7;
      return week % 4 === 0 && dayOfWeek(date) === THURSDAY;
    });
    await expect(dialog.getByTestId('pattern-preview-days').getByRole('listitem')).toHaveCount(
      thursdays.length,
    );
    await expect(dialog.getByRole('button', { name: 'Save Pattern' })).toBeEnabled();

    // any change makes the preview stale: nothing is saved that was not previewed
    await dialog.getByRole('radio', { name: 'Every week' }).check();
    await expect(dialog.getByTestId('pattern-preview-hint')).toHaveText(
      'The pattern has changed: preview the days again before saving.',
    );
    await expect(dialog.getByRole('button', { name: 'Save Pattern' })).toBeDisabled();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    const rows = await page.request.get(`/api/availability?from=${month}&to=${END}`);
    expect(await rows.json()).toEqual([]);
  });

  /* The form comes in a file of its own when the dialog first opens (ADR 66); held back here. */
});
