import type { APIRequestContext, Page } from '@playwright/test';
import { hostToday } from './calendar-fixtures';
import { monthLabel, monthWeekdays } from './dates';
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
import { userAction } from './table';

/**
 * The change history: a facilitator sets a day, changes it with a bulk update, staff change
 * it and add a note; the staff day dialog, the users page and the facilitator's own History show those
 * changes in words, with who, how and when.
 */

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 150_000 });

const today = hostToday();
// a weekday of this month (both calendars open on it)
const DAY = monthWeekdays(today)[3]!;

interface Person {
  id: number;
  username: string;
  password: string;
  displayName: string;
  area: string;
}

async function createPerson(api: APIRequestContext, tag: string): Promise<Person> {
  const person = {
    username: `history-${tag}@example.org`,
    password: 'history-pass-123',
    displayName: `Hana ${tag}`,
    area: `History ${tag}`,
  };
  const res = await api.post('/api/staff/users', {
    data: { ...person, email: person.username, role: 'facilitator' },
  });
  expect(res.status(), await res.text()).toBe(201);
  return { ...person, id: ((await res.json()) as { id: number }).id };
}

/** The changes the screens are checked against, made through the API as each person would. */
async function makeChanges(page: Page, api: APIRequestContext, person: Person) {
  await loginAsFacilitator(page, person);
  const own = await page.request.post('/api/availability', {
    data: { date: DAY, status: 'available', startTime: '', endTime: '', notes: '' },
  });
  expect(own.status(), await own.text()).toBe(200);
  const bulk = await page.request.post('/api/availability/bulk', {
    data: {
      startDate: DAY,
      endDate: DAY,
      daysOfWeek: [0, 1, 2, 3, 4, 5, 6],
      status: 'limited',
      startTime: '09:00',
      endTime: '12:00',
      notes: 'Mornings only',
    },
  });
  expect(bulk.status(), await bulk.text()).toBe(200);
  const staff = await api.post('/api/staff/availability', {
    data: { userId: person.id, date: DAY, status: 'unavailable', startTime: '', endTime: '', notes: '' },
  });
  expect(staff.status(), await staff.text()).toBe(200);
  const note = await api.post('/api/staff/notes', {
    data: { facilitatorId: person.id, date: DAY, note: 'Ask about the kiln', priority: 'high' },
  });
  expect(note.status(), await note.text()).toBe(201);
}

test.describe('change history', () => {
  let api: APIRequestContext;
  let person: Person;

  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a hook asks for from this pattern
  test.beforeEach(async ({}, testInfo) => {
    api = await staffApi();
    person = await createPerson(api, `${testInfo.project.name}-${testInfo.workerIndex}-${Date.now()}`);
  });
  test.afterEach(async () => {
    await api.delete(`/api/staff/users/${person.id}`);
    await api.dispose();
  });

  test('changes show in the facilitator history, the staff day dialog and the users page', async ({
    page,
  }, testInfo) => {
    await makeChanges(page, api, person);

    // the facilitator's own history: their changes as "You", staff's as "Staff (...)", no staff notes
    await page.goto('/');
    await expect(page.getByRole('grid', { name: monthLabel(today) })).toBeVisible({ timeout: 20_000 });
    await page.getByRole('button', { name: 'History', exact: true }).click();
    const own = page.getByRole('dialog', { name: 'Your availability history' });
    await expect(own).toBeVisible();
    const ownItems = own.getByTestId('history-item');
    await expect(ownItems).toHaveCount(3);
    await expect(ownItems.nth(0)).toContainText(/Staff \(.+\) changed Limited Availability → Unavailable/);
    await expect(ownItems.nth(0)).toContainText('via staff edit');
    await expect(ownItems.nth(1)).toContainText('You changed Available → Limited Availability');
    await expect(ownItems.nth(1)).toContainText('Times: (none) → 9:00 AM – 12:00 PM');
    await expect(ownItems.nth(1)).toContainText('via bulk update');
    await expect(ownItems.nth(2)).toContainText('You set Available');
    await expect(ownItems.nth(2)).toContainText('via own calendar');
    await expect(ownItems.nth(2)).toContainText(/\d{1,2} \w{3} \d{4}, \d{1,2}:\d{2} [AP]M/);
    await expect(own).not.toContainText('kiln');
    await checkScreen(page, testInfo, 'history-facilitator');
    await page.keyboard.press('Escape');
    await expect(own).toBeHidden();

    // the staff day dialog: folded until asked for, then the day's availability and note changes
    await loginAsStaff(page);
    await page.goto('/staff');
    await expect(page.getByTestId('schedule-grid')).toBeVisible();
    await chooseAreas(page, [person.area]);
    await showGridDay(page, DAY);
    await page
      .locator(
        `[data-testid="grid-row"][data-user-id="${person.id}"] [data-testid="grid-cell"][data-date="${DAY}"]`,
      )
      .click();
    const day = page.getByRole('dialog', { name: person.displayName });
    await expect(day).toBeVisible();
    const show = day.getByRole('button', { name: 'Show history' });
    await expect(show).toHaveAttribute('aria-expanded', 'false');
    await show.click();
    await expect(day.getByRole('button', { name: 'Hide history' })).toHaveAttribute('aria-expanded', 'true');
    const dayItems = day.getByTestId('history-item');
    await expect(dayItems).toHaveCount(4);
    await expect(dayItems.nth(0)).toContainText(/Staff \(.+\) added a note/);
    await expect(dayItems.nth(0)).toContainText('Note: Ask about the kiln');
    await expect(dayItems.nth(1)).toContainText(/Staff \(.+\) changed Limited Availability → Unavailable/);
    await expect(dayItems.nth(2)).toContainText(
      `${person.displayName} changed Available → Limited Availability`,
    );
    await expect(dayItems.nth(2)).toContainText('via bulk update');
    await expect(dayItems.nth(3)).toContainText(`${person.displayName} set Available`);
    await checkScreen(page, testInfo, 'history-staff-day');

    // a change made in the dialog shows up in its history straight away
    await day.getByRole('textbox', { name: 'New note' }).fill('Second note');
    await day.getByRole('button', { name: 'Add Note' }).click();
    await expect(dayItems).toHaveCount(5);
    await expect(dayItems.nth(0)).toContainText('Note: Second note');
    await day.getByRole('button', { name: 'Close' }).click();
    await expect(day).toBeHidden();

    // the users page: a History action per person, everything about them newest first
    await page.goto('/staff/users');
    await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
    const actions = await userAction(
      page,
      page.getByRole('row').filter({ hasText: person.username }),
      person.displayName!,
      'History',
    );
    const whole = page.getByRole('dialog', { name: `History: ${person.displayName}` });
    await expect(whole).toBeVisible();
    const wholeItems = whole.getByTestId('history-item');
    await expect(wholeItems).toHaveCount(6);
    await expect(wholeItems.nth(0)).toContainText('Staff note');
    await expect(wholeItems.last()).toContainText(/Staff \(.+\) created the account/);
    await expect(wholeItems.last()).toContainText(`Name: ${person.displayName}`);
    await expect(wholeItems.nth(3)).toContainText('Availability');
    await checkScreen(page, testInfo, 'history-person');
    await page.keyboard.press('Escape');
    await expect(whole).toBeHidden();
    await expect(actions).toBeFocused();
  });
});
