import type { Page, TestInfo } from '@playwright/test';
import { CALENDAR_USERS, fixtureDays, hostToday } from './calendar-fixtures';
import { monthGrid, monthLabel } from './dates';
import { checkScreen, chooseOption, expect, loginAsFacilitator, test, toastLocator } from './fixtures';

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

  test('a newcomer is shown how to start, marks a day with times and notes, and meets a session that ended', async ({
    page,
    makeFacilitator,
  }, testInfo) => {
    await useWidth(page, testInfo);
    await loginAsFacilitator(page, await makeFacilitator());
    await openHome(page);
    const hint = page.getByTestId('first-steps');
    await expect(hint).toContainText('Getting started: choose a day to say whether you can work it');
    await checkScreen(page, testInfo, 'calendar-first-steps');

    // notes over the limit are kept as pasted and refused, not cut
    const day = freeDays[0]!;
    await page.locator(`td[data-date="${day}"]`).click();
    const dialog = page.getByRole('dialog', { name: 'Update Availability' });
    await dialog.getByRole('radio', { name: 'Limited Availability' }).check();
    await chooseOption(dialog.getByRole('combobox', { name: 'Start Time (optional)' }), '9:00 AM');
    await chooseOption(dialog.getByRole('combobox', { name: 'End Time (optional)' }), '1:00 PM');
    const notes = dialog.getByRole('textbox', { name: 'Notes (optional)' });
    const long = 'Away at a residential course. '.repeat(70).slice(0, 2050);
    await notes.fill(long);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText('Notes must be at most 2000 characters')).toBeVisible();
    await checkScreen(page, testInfo, 'day-dialog-notes-too-long');

    await notes.fill('School run until 9');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(hint).toBeHidden();
    await toastLocator(page).getByRole('button', { name: 'Close' }).click();
    await expect(toastLocator(page)).toHaveCount(0);
    // the times have their own line, whole at 1366 px
    const cell = page.locator(`td[data-date="${day}"]`);
    await expect(cell.getByTestId('day-times')).toHaveText('9:00 AM – 1:00 PM');
    expect(await showsAllText(page, `td[data-date="${day}"] [data-testid="day-times"]`)).toEqual([
      { text: '9:00 AM – 1:00 PM', cut: false },
    ]);
    await expect(cell.getByTestId('notes-hint')).toBeVisible();
    await checkScreen(page, testInfo, 'calendar-times-notes');

    // the session ends behind the page's back (as after an expiry, the browser keeps its signed-in
    // mark): the save fails with a real error toast, and Escape closes the dialog first
    await page.locator(`td[data-date="${freeDays[1]}"]`).click();
    const cookies = await page.context().cookies();
    expect(cookies.map((c) => c.name).sort()).toEqual(['afp_session', 'afp_signed_in']);
    expect((await page.request.post('/api/logout')).ok()).toBeTruthy();
    await page.context().addCookies(cookies.filter((c) => c.name === 'afp_signed_in'));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(toastLocator(page)).toContainText('Error');
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(toastLocator(page)).toBeVisible();

    // the next visit lands on the login page, and the stale mark is cleared so it stops being asked for
    await page.goto('/');
    await expect(page).toHaveURL(/\/auth$/);
    await expect.poll(async () => (await page.context().cookies()).map((c) => c.name)).toEqual([]);
  });

  test(
    'an anonymous visit logs no errors; no id is used twice; booking chips show their whole title, on a phone too',
    { tag: '@phone' },
    async ({ page }, testInfo) => {
      await useWidth(page, testInfo);
      const problems: string[] = [];
      const refused: string[] = [];
      page.on('console', (msg) => {
        if (msg.type() === 'error') problems.push(msg.text());
      });
      page.on('pageerror', (err) => problems.push(err.message));
      page.on('response', (res) => {
        if (res.status() >= 400) refused.push(`${res.status()} ${new URL(res.url()).pathname}`);
      });
      const duplicates = () =>
        page.evaluate(() => {
          const ids = [...document.querySelectorAll('[id]')].map((e) => e.id);
          return ids.filter((id, index) => ids.indexOf(id) !== index);
        });
      await page.goto('/');
      await expect(page).toHaveURL(/\/auth$/);
      await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
      expect(refused).toEqual([]);
      expect(problems).toEqual([]);
      expect(await duplicates()).toEqual([]);

      const user = testInfo.project.name === 'phone' ? CALENDAR_USERS.phone : CALENDAR_USERS.desktop;
      await loginAsFacilitator(page, user);
      await openHome(page);
      expect(await duplicates()).toEqual([]);
      const chips = `td[data-date="${days.full}"] [data-testid="booking-chip"], td[data-date="${days.busy}"] [data-testid="booking-chip"]`;
      await expect(page.locator(chips)).toHaveCount(5);
      for (const chip of await showsAllText(page, chips))
        expect(chip, chip.text ?? '').toMatchObject({ cut: false });
      await checkScreen(page, testInfo, 'calendar-chips');
    },
  );
});
