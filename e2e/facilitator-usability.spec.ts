import type { Page, TestInfo } from '@playwright/test';
import { CALENDAR_USERS, fixtureDays, hostToday } from './calendar-fixtures';
import type { TestUser } from './constants';
import { monthGrid, monthLabel } from './dates';
import { checkScreen, expect, loginAsFacilitator, test, toastLocator } from './fixtures';

const today = hostToday();
const days = fixtureDays(today);
const booked = new Set(Object.values(days));
/** Weekdays of this month without fixture bookings. */
const freeDays = monthGrid(today)
  .flat()
  .filter((c) => c.inMonth && !booked.has(c.date))
  .map((c) => c.date);

/** The widths people use: a 1366 px laptop, or the phone project's 390 px. */
async function useWidth(page: Page, testInfo: TestInfo) {
  if (testInfo.project.name === 'desktop') await page.setViewportSize({ width: 1366, height: 900 });
}

async function openHome(page: Page) {
  await page.goto('/');
  await expect(page.getByRole('grid', { name: monthLabel(today) })).toBeVisible({ timeout: 15_000 });
}

/** A new facilitator, signed in, with the Update Availability dialog of `day` open. */
async function openDayAsNewcomer(page: Page, makeFacilitator: () => Promise<TestUser>, day: string) {
  await loginAsFacilitator(page, await makeFacilitator());
  await openHome(page);
  await page.locator(`td[data-date="${day}"]`).click();
  return page.getByRole('dialog', { name: 'Update Availability' });
}

/** Whether an element shows all of its text (nothing cut by truncate or line-clamp). */
const showsAllText = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((elements) =>
    elements.map((e) => ({
      text: e.textContent,
      cut: e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1,
    })),
  );

test.describe('facilitator usability', () => {
  test.describe.configure({ timeout: 120_000 });

  test('a day cell shows its whole time range and hints at notes; the legend names "Not set" and "Offer"', async ({
    page,
    makeFacilitator,
  }, testInfo) => {
    await useWidth(page, testInfo);
    const user = await makeFacilitator();
    await loginAsFacilitator(page, user);
    const [limitedDay, plainDay] = freeDays;
    for (const [date, notes] of [
      [limitedDay!, 'School run until 9'],
      [plainDay!, ''],
    ] as const) {
      const saved = await page.request.post('/api/availability', {
        data: { userId: user.id, date, status: 'limited', startTime: '09:00', endTime: '13:00', notes },
      });
      expect(saved.ok(), await saved.text()).toBeTruthy();
    }
    await openHome(page);

    const withNotes = page.locator(`td[data-date="${limitedDay}"]`);
    await expect(withNotes.getByTestId('notes-hint')).toBeVisible();
    await expect(page.locator(`td[data-date="${plainDay}"]`).getByTestId('notes-hint')).toHaveCount(0);
    await expect(withNotes).toHaveAttribute('aria-label', /9:00 AM – 1:00 PM, notes: School run until 9/);
    // the times have their own line, whole at 1366 px
    await expect(withNotes.getByTestId('day-times')).toHaveText('9:00 AM – 1:00 PM');
    expect(await showsAllText(page, `td[data-date="${limitedDay}"] [data-testid="day-times"]`)).toEqual([
      { text: '9:00 AM – 1:00 PM', cut: false },
    ]);

    const legend = page
      .getByRole('region', { name: 'Availability Legend' })
      .filter({ visible: true })
      .first();
    await expect(legend.getByRole('listitem')).toHaveText([
      'Available',
      'Limited Availability',
      'Unavailable',
      'Not set',
      'Booked Session',
      'Offer',
    ]);
    await checkScreen(page, testInfo, 'calendar-times-notes');
  });

  test(
    'booking chips show their whole title, on a phone too',
    { tag: '@phone' },
    async ({ page }, testInfo) => {
      await useWidth(page, testInfo);
      const user = testInfo.project.name === 'phone' ? CALENDAR_USERS.phone : CALENDAR_USERS.desktop;
      await loginAsFacilitator(page, user);
      await openHome(page);
      const chips = `td[data-date="${days.full}"] [data-testid="booking-chip"], td[data-date="${days.busy}"] [data-testid="booking-chip"]`;
      await expect(page.locator(chips)).toHaveCount(5);
      for (const chip of await showsAllText(page, chips))
        expect(chip, chip.text ?? '').toMatchObject({ cut: false });
      await checkScreen(page, testInfo, 'calendar-chips');
    },
  );

  test('someone who never marked a day is shown how to start, until they do', async ({
    page,
    makeFacilitator,
  }, testInfo) => {
    await useWidth(page, testInfo);
    const user = await makeFacilitator();
    await loginAsFacilitator(page, user);
    await openHome(page);
    const hint = page.getByTestId('first-steps');
    await expect(hint).toContainText('Getting started: choose a day to say whether you can work it');
    await expect(hint).toContainText('Bulk Update');
    await checkScreen(page, testInfo, 'calendar-first-steps');

    await page.locator(`td[data-date="${freeDays[0]}"]`).click();
    const dialog = page.getByRole('dialog', { name: 'Update Availability' });
    await dialog.getByRole('radio', { name: 'Available', exact: true }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(hint).toBeHidden();
  });

  test('notes longer than 2,000 characters are kept as pasted, counted and refused, not cut', async ({
    page,
    makeFacilitator,
  }, testInfo) => {
    await useWidth(page, testInfo);
    const dialog = await openDayAsNewcomer(page, makeFacilitator, freeDays[2]!);
    const notes = dialog.getByRole('textbox', { name: 'Notes (optional)' });
    const long = 'Away at a residential course. '.repeat(70).slice(0, 2050);
    await notes.fill(long);
    await expect(notes).toHaveValue(long);
    await expect(dialog.getByTestId('character-count')).toHaveText(
      '2,050 characters: 50 over the limit of 2,000',
    );
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText('Notes must be at most 2000 characters')).toBeVisible();
    await checkScreen(page, testInfo, 'day-dialog-notes-too-long');
    const saved = await page.request.get(`/api/availability?from=${freeDays[2]}&to=${freeDays[2]}`);
    expect(await saved.json()).toEqual([]);
    await notes.fill(long.slice(0, 1990));
    await expect(dialog.getByTestId('character-count')).toHaveText('1,990 of 2,000 characters');
  });

  test('Escape closes the dialog first, even with a toast showing', async ({
    page,
    makeFacilitator,
  }, testInfo) => {
    await useWidth(page, testInfo);
    const dialog = await openDayAsNewcomer(page, makeFacilitator, freeDays[1]!);
    await dialog.getByRole('radio', { name: 'Available', exact: true }).check();
    // the session ends behind the page's back, so the save fails with a real error toast
    expect((await page.request.post('/api/logout')).ok()).toBeTruthy();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(toastLocator(page)).toContainText('Error');
    await expect(dialog).toBeVisible();

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(toastLocator(page)).toBeVisible();
  });

  test('no element id is used twice on the calendar or the login page', async ({ page }, testInfo) => {
    await useWidth(page, testInfo);
    const duplicates = () =>
      page.evaluate(() => {
        const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
        return ids.filter((id, index) => ids.indexOf(id) !== index);
      });
    await page.goto('/auth');
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
    expect(await duplicates()).toEqual([]);
    await loginAsFacilitator(page, CALENDAR_USERS.desktop);
    await openHome(page);
    expect(await duplicates()).toEqual([]);
  });

  test('an anonymous visit to / logs no errors and asks for nothing it may not read', async ({ page }) => {
    const problems: string[] = [];
    const refused: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(msg.text());
    });
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('response', (res) => {
      if (res.status() >= 400) refused.push(`${res.status()} ${new URL(res.url()).pathname}`);
    });
    await page.goto('/');
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
    expect(refused).toEqual([]);
    expect(problems).toEqual([]);
  });

  test('a session that ended elsewhere still lands on the login page, and stops being asked for', async ({
    page,
    makeFacilitator,
  }) => {
    const user = await makeFacilitator();
    await loginAsFacilitator(page, user);
    // the server forgets the session but the browser keeps both cookies (as after an expiry)
    const cookies = await page.context().cookies();
    expect(cookies.map((c) => c.name).sort()).toEqual(['afp_session', 'afp_signed_in']);
    expect((await page.request.post('/api/logout')).ok()).toBeTruthy();
    await page.context().addCookies(cookies.filter((c) => c.name === 'afp_signed_in'));
    await page.goto('/');
    await expect(page).toHaveURL(/\/auth$/);
    await expect.poll(async () => (await page.context().cookies()).map((c) => c.name)).toEqual([]);
  });
});
