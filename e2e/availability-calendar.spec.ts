import type { Page, TestInfo } from '@playwright/test';
import { CALENDAR_USERS, FULL_BOOKING, fixtureDays, hostToday } from './calendar-fixtures';
import {
  addDays,
  isWeekday,
  longDate,
  monthGrid,
  monthGridRange,
  monthLabel,
  nextMonth,
  previousMonth,
  selectBulkDays,
} from './dates';
import { checkScreen, chooseOption, expect, loginAsFacilitator, test, toastLocator } from './fixtures';

const today = hostToday();
const days = fixtureDays(today);

/** Weekdays of the shown month without bookings, for tests that click a free day. */
function freeWeekdays() {
  const booked = new Set(Object.values(days));
  return monthGrid(today)
    .flat()
    .filter((c) => c.inMonth && !booked.has(c.date))
    .map((c) => c.date);
}

const cell = (page: Page, date: string) => page.locator(`td[data-date="${date}"]`);

function bookedUser(testInfo: TestInfo) {
  return testInfo.project.name === 'phone' ? CALENDAR_USERS.phone : CALENDAR_USERS.desktop;
}

async function openHome(page: Page) {
  await page.goto('/');
  await expect(page.getByRole('grid', { name: monthLabel(today) })).toBeVisible({ timeout: 15_000 });
}

test.describe('facilitator home: availability calendar', () => {
  // every test runs axe twice per screen on a machine shared with other suites
  test.describe.configure({ timeout: 90_000 });

  test('loads, asks for exactly the months it shows, and moves by toolbar and keyboard', async ({
    page,
    makeFacilitator,
  }, testInfo) => {
    await loginAsFacilitator(page, await makeFacilitator());
    const requested: string[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname === '/api/availability' || url.pathname === '/api/bookings')
        requested.push(`${url.pathname}?${url.searchParams.toString()}`);
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/availability?*', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/');
    const loading = page.getByTestId('calendar-loading');
    await expect(loading.getByRole('status')).toBeVisible({ timeout: 15_000 });
    await checkScreen(page, testInfo, 'calendar-loading');
    release();
    await expect(page.getByRole('grid', { name: monthLabel(today) })).toBeVisible();
    await page.unroute('**/api/availability?*');

    const range = monthGridRange(today);
    const expected = `from=${range.from}&to=${range.to}`;
    expect(requested).toContain(`/api/availability?${expected}`);
    expect(requested).toContain(`/api/bookings?${expected}`);

    // every month it shows, it asks for exactly that month's grid: the next month's on the click, or
    // already at load when the next 14 days (kept for offline) reach past this month's grid
    const label = page.getByTestId('month-label');
    await page.getByRole('button', { name: 'Next month' }).click();
    const next = monthGridRange(nextMonth(today));
    await expect(label).toHaveText(monthLabel(nextMonth(today)));
    const nextExpected = `from=${next.from}&to=${next.to}`;
    await expect
      .poll(() => requested)
      .toEqual(
        expect.arrayContaining([`/api/availability?${nextExpected}`, `/api/bookings?${nextExpected}`]),
      );
    const shown = [expected, nextExpected].flatMap((q) => [`/api/availability?${q}`, `/api/bookings?${q}`]);
    expect(requested.filter((request) => !shown.includes(request))).toEqual([]);

    await page.getByRole('button', { name: 'Previous month' }).click();
    await page.getByRole('button', { name: 'Previous month' }).click();
    await expect(page.getByRole('grid', { name: monthLabel(previousMonth(today)) })).toBeVisible();
    await page.getByRole('button', { name: 'Today' }).click();
    await expect(label).toHaveText(monthLabel(today));

    // the keyboard: one tab stop, today's (or the month's first weekday), reached by Tab
    const grid = page.getByRole('grid', { name: monthLabel(today) });
    await expect(grid.locator('td[tabindex="0"]')).toHaveCount(1);
    const start = await grid.locator('td[tabindex="0"]').getAttribute('data-date');
    expect(start).toBe(
      isWeekday(today)
        ? today
        : monthGrid(today)
            .flat()
            .find((c) => c.inMonth)!.date,
    );
    // Tab from the toolbar's last button (the route may add actions after Bulk Update) reaches the
    // grid's single tab stop
    await page
      .getByRole('button', { name: 'Bulk Update' })
      .locator('xpath=..')
      .getByRole('button')
      .last()
      .focus();
    await page.keyboard.press('Tab');
    await expect(grid.locator(`td[data-date="${start}"]`)).toBeFocused();

    const cells = monthGrid(today).flat();
    const at = (date: string) => cells.findIndex((c) => c.date === date);
    const expectMove = async (key: string, expected: string | undefined, from: string) => {
      await page.keyboard.press(key);
      await expect(cell(page, expected ?? from)).toBeFocused();
      await expect(grid.locator('td[tabindex="0"]')).toHaveAttribute('data-date', expected ?? from);
      return expected ?? from;
    };
    let current = start!;
    const nextInMonth = (i: number, step: number) => {
      for (let j = i + step; j >= 0 && j < cells.length; j += step)
        if (cells[j]!.inMonth) return cells[j]!.date;
      return undefined;
    };
    current = await expectMove('ArrowRight', nextInMonth(at(current), 1), current);
    current = await expectMove('ArrowLeft', nextInMonth(at(current), -1), current);
    const down = cells[at(current) + 5];
    current = await expectMove('ArrowDown', down?.inMonth ? down.date : undefined, current);
    const up = cells[at(current) - 5];
    current = await expectMove('ArrowUp', up?.inMonth ? up.date : undefined, current);

    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Update Availability' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(longDate(current));
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    // focus returns to the day
    await expect(cell(page, current)).toBeFocused();
    // Page Down shows the next month
    await page.keyboard.press('PageDown');
    await expect(label).toHaveText(monthLabel(nextMonth(today)));
    await expect(page.getByRole('grid').locator('td[tabindex="0"]')).toBeFocused();
  });

  test(
    'the facilitator layout: header, menu, navigation, legend, footer, Sign Out',
    { tag: '@phone' },
    async ({ page }, testInfo) => {
      const user = bookedUser(testInfo);
      await loginAsFacilitator(page, user);
      await openHome(page);
      await expect(page.getByTestId('welcome')).toHaveText(`Welcome, ${user.displayName}`);
      const badge = page.getByRole('button', { name: 'Open user menu' });
      await expect(badge).toHaveText(user.displayName.charAt(0));
      await badge.click();
      await expect(page.getByRole('menuitem', { name: 'Change Password' })).toHaveAttribute(
        'href',
        '/change-password',
      );
      await expect(page.getByRole('menuitem', { name: 'Logout' })).toBeEnabled();
      await page.keyboard.press('Escape');
      await expect(page.getByRole('contentinfo')).toContainText('Arts Facilitator Portal');

      const isPhone = testInfo.project.name === 'phone';
      let panel = page.getByRole('complementary', { name: 'Side panel' });
      if (isPhone) {
        await expect(panel).toBeHidden();
        // the legend also sits under the calendar on small screens
        await expect(page.getByTestId('mobile-panel').getByText('Booked Session')).toBeVisible();
        await page.getByRole('button', { name: 'Open navigation menu' }).click();
        panel = page.getByRole('dialog', { name: 'Menu' });
      }
      await expect(panel).toBeVisible();
      const nav = panel.getByRole('navigation', { name: 'Main' });
      await expect(nav.getByRole('link', { name: 'Availability Calendar' })).toHaveAttribute(
        'aria-current',
        'page',
      );
      await expect(nav.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings');
      await expect(nav.getByRole('button', { name: 'Sign Out' })).toBeVisible();
      const legend = panel.getByRole('region', { name: 'Availability Legend' });
      const entries = legend.getByRole('listitem');
      await expect(entries).toHaveText([
        'Available',
        'Limited Availability',
        'Unavailable',
        'Not set',
        'Booked Session',
        'Offer',
      ]);
      // the swatches use the theme's success, warning, destructive, muted (not set) and primary colours
      const swatchColours = await entries.evaluateAll((items) =>
        items.slice(0, 5).map((li) => getComputedStyle(li.querySelector('span') as Element).backgroundColor),
      );
      const tokenColours = await page.evaluate(() =>
        ['--success', '--warning', '--destructive', '--muted', '--primary'].map((name) => {
          const probe = document.createElement('span');
          probe.style.backgroundColor = `var(${name})`;
          document.body.append(probe);
          const colour = getComputedStyle(probe).backgroundColor;
          probe.remove();
          return colour;
        }),
      );
      expect(swatchColours).toEqual(tokenColours);
      // an offer's mark, as on the days: a dashed outline in the primary colour
      const offerSwatch = await entries
        .last()
        .locator('span')
        .evaluate((el) => [getComputedStyle(el).borderStyle, getComputedStyle(el).borderTopColor]);
      expect(offerSwatch).toEqual(['dashed', tokenColours[4]]);
      await checkScreen(page, testInfo, isPhone ? 'layout-drawer' : 'layout');
      if (isPhone) {
        await page.getByRole('button', { name: 'Close' }).click();
        await expect(panel).toBeHidden();
        // focus goes back to the menu button that opened the drawer
        await expect(page.getByRole('button', { name: 'Open navigation menu' })).toBeFocused();
        await page.getByRole('button', { name: 'Open navigation menu' }).click();
      }

      // Sign Out ends this session (only this one: others of the same person go on) at the login page
      await nav.getByRole('button', { name: 'Sign Out' }).click();
      await expect(page).toHaveURL(/\/auth$/);
      expect((await page.request.get('/api/user')).status()).toBe(401);
    },
  );

  test('the month: its dates, statuses in the legend colours, locked booked days, chips by keyboard', async ({
    page,
  }, testInfo) => {
    const user = bookedUser(testInfo);
    await loginAsFacilitator(page, user);
    // one day of each status so the bars show the legend colours
    const [a, b, c] = freeWeekdays();
    for (const [date, status] of [
      [a, 'available'],
      [b, 'limited'],
      [c, 'unavailable'],
    ] as const) {
      const res = await page.request.post('/api/availability', {
        data: { date, status, startTime: '09:00', endTime: '15:00', notes: '' },
      });
      expect(res.ok()).toBeTruthy();
    }
    await openHome(page);
    const grid = page.getByRole('grid', { name: monthLabel(today) });
    const dates = await grid
      .locator('td[data-date]')
      .evaluateAll((tds) => tds.map((td) => td.getAttribute('data-date') as string));
    expect(dates).toEqual(
      monthGrid(today)
        .flat()
        .map((w) => w.date),
    );
    if (isWeekday(today)) await expect(cell(page, today)).toHaveAttribute('aria-current', 'date');
    await expect(cell(page, b!)).toHaveAttribute('data-status', 'limited');
    const bar = await cell(page, b!)
      .getByTestId('status-bar')
      .evaluate((el) => getComputedStyle(el).backgroundColor);
    const warning = await page.evaluate(() => {
      const probe = document.createElement('span');
      probe.style.backgroundColor = 'var(--warning)';
      document.body.append(probe);
      const colour = getComputedStyle(probe).backgroundColor;
      probe.remove();
      return colour;
    });
    expect(bar).toBe(warning);
    await expect(cell(page, days.busy).getByTestId('booking-chip')).toHaveCount(4);
    await checkScreen(page, testInfo, 'calendar');

    // lock icon with its tooltip after the 700 ms delay
    const lock = cell(page, days.full).getByTestId('day-lock');
    await lock.hover();
    await expect(page.getByRole('tooltip')).toHaveText('This date is locked due to confirmed bookings', {
      timeout: 3000,
    });
    await page.mouse.move(0, 0);

    // clicking a booked day (not a chip) refuses with the "Cannot Edit Availability" toast
    await cell(page, days.bare).click({ position: { x: 8, y: 8 } });
    await expect(toastLocator(page)).toContainText('Cannot Edit Availability');
    await expect(page.getByRole('dialog', { name: 'Update Availability' })).toHaveCount(0);
    await checkScreen(page, testInfo, 'booked-day-toast');

    // the day number area makes a booked day the active one; Tab reaches its chip, Enter opens it
    await cell(page, days.full).click({ position: { x: 8, y: 8 } });
    await cell(page, days.full).focus();
    await page.keyboard.press('Tab');
    await expect(cell(page, days.full).getByTestId('booking-chip')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog', { name: FULL_BOOKING.title })).toBeVisible();
  });

  test(
    'booking details open from a chip, by click or a touch long-press',
    { tag: '@phone' },
    async ({ page }, testInfo) => {
      await loginAsFacilitator(page, bookedUser(testInfo));
      await openHome(page);

      await cell(page, days.full).getByTestId('booking-chip').click();
      const dialog = page.getByRole('dialog', { name: FULL_BOOKING.title });
      await expect(dialog).toBeVisible();
      await expect(dialog.locator('dd[data-field="School"]')).toHaveText(FULL_BOOKING.schoolName);
      await checkScreen(page, testInfo, 'booking-details');
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);

      const chip = cell(page, days.full).getByTestId('booking-chip');
      // timed inside the page, so a slow machine cannot make the test wrong either way
      const press = (holdMs: number | null) =>
        chip.evaluate(
          (el, hold) =>
            new Promise<number | null>((resolve) => {
              const box = el.getBoundingClientRect();
              const init = {
                bubbles: true,
                pointerType: 'touch',
                isPrimary: true,
                clientX: box.x + 5,
                clientY: box.y + 5,
              };
              const started = performance.now();
              const observer = new MutationObserver(() => {
                if (document.querySelector('[role="dialog"]')) {
                  observer.disconnect();
                  resolve(performance.now() - started);
                }
              });
              observer.observe(document.body, { childList: true, subtree: true });
              el.dispatchEvent(new PointerEvent('pointerdown', init));
              if (hold !== null)
                setTimeout(() => el.dispatchEvent(new PointerEvent('pointerup', init)), hold);
              setTimeout(() => {
                observer.disconnect();
                resolve(null);
              }, 1500);
            }),
          holdMs,
        );
      // a 500 ms touch long-press opens the details without any click
      const openedAfter = await press(null);
      expect(openedAfter).not.toBeNull();
      expect(openedAfter!).toBeGreaterThanOrEqual(495);
      await expect(page.getByRole('dialog', { name: FULL_BOOKING.title })).toBeVisible();
      await chip.dispatchEvent('pointerup', { pointerType: 'touch' });
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
      // a press released after 200 ms does nothing
      expect(await press(200)).toBeNull();
      await expect(page.getByRole('dialog')).toHaveCount(0);
    },
  );

  test('Update Availability: choose, save and see the day; a refused save keeps the dialog', async ({
    page,
    makeFacilitator,
  }, testInfo) => {
    await loginAsFacilitator(page, await makeFacilitator());
    await openHome(page);
    const date = freeWeekdays()[1]!;

    await cell(page, date).click();
    const dialog = page.getByRole('dialog', { name: 'Update Availability' });
    await expect(dialog).toContainText(longDate(date));
    await dialog.getByRole('radio', { name: 'Limited Availability' }).check();
    await chooseOption(dialog.getByRole('combobox', { name: 'Start Time (optional)' }), '9:00 AM');
    await chooseOption(dialog.getByRole('combobox', { name: 'End Time (optional)' }), '1:00 PM');
    await dialog.getByLabel('Notes (optional)').fill('School run until 9');
    await checkScreen(page, testInfo, 'day-dialog');

    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(toastLocator(page)).toContainText('Sync Successful');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(cell(page, date)).toHaveAccessibleName(
      /Limited Availability, 9:00 AM – 1:00 PM, notes: School run until 9/,
    );
    await checkScreen(page, testInfo, 'after-save-toast');
    // the stored row is the one the calendar shows
    const rows = await (await page.request.get(`/api/availability?from=${date}&to=${date}`)).json();
    expect(rows).toMatchObject([
      { date, status: 'limited', startTime: '09:00', endTime: '13:00', notes: 'School run until 9' },
    ]);

    await page.route('**/api/availability', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: '{"message":"The database is resting"}',
          })
        : route.continue(),
    );
    await cell(page, date).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(toastLocator(page)).toContainText('The database is resting');
    await expect(dialog).toBeVisible();
    await checkScreen(page, testInfo, 'save-error-toast');
  });

  test('Bulk Update Availability: defaults, warnings, saving, skipped booked days', async ({
    page,
  }, testInfo) => {
    await loginAsFacilitator(page, bookedUser(testInfo));
    await openHome(page);
    await page.getByRole('button', { name: 'Bulk Update' }).click();
    const dialog = page.getByRole('dialog', { name: 'Bulk Update Availability' });
    await expect(dialog).toBeVisible();
    // it opens on itself, not in its first date field: a phone's picker stays closed over the form
    await expect(dialog).toBeFocused();
    await expect(dialog.getByLabel('Start Date')).toHaveValue(today);
    await expect(dialog.getByLabel('End Date')).toHaveValue(addDays(today, 30));
    await checkScreen(page, testInfo, 'bulk-dialog');

    // the whole month, unavailable, afternoons: the three booked days are skipped
    const monthDays = monthGrid(today)
      .flat()
      .filter((c) => c.inMonth)
      .map((c) => c.date);
    const from = monthDays[0]!;
    const to = monthDays[monthDays.length - 1]!;
    await dialog.getByLabel('Start Date').fill(from);
    await dialog.getByLabel('End Date').fill(to);
    await dialog.getByRole('radio', { name: 'Unavailable' }).check();
    await chooseOption(dialog.getByRole('combobox', { name: 'Start Time (optional)' }), '1:00 PM');
    const expectedDays = selectBulkDays(from, to, [1, 2, 3, 4, 5]);
    await dialog.getByRole('button', { name: 'Apply Bulk Update' }).click();
    const result = dialog.getByTestId('bulk-result');
    await expect(result).toContainText(`Updated ${expectedDays.length - 3} days.`);
    await expect(result.getByRole('listitem')).toHaveText(
      [days.full, days.bare, days.busy].sort().map(longDate),
    );
    await checkScreen(page, testInfo, 'bulk-result');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(cell(page, freeWeekdays()[0]!)).toHaveAttribute('data-status', 'unavailable');
    await expect(cell(page, days.full)).not.toHaveAttribute('data-status', 'unavailable');

    // a range over 800 days is refused before sending
    await page.getByRole('button', { name: 'Bulk Update' }).click();
    await dialog.getByLabel('End Date').fill(addDays(today, 801));
    let sent = false;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/availability/bulk')) sent = true;
    });
    await dialog.getByRole('button', { name: 'Apply Bulk Update' }).click();
    await expect(
      dialog.getByText('A bulk update can cover at most 800 days (about two years)', { exact: false }),
    ).toBeVisible();
    await checkScreen(page, testInfo, 'bulk-range-too-long');
    expect(sent).toBe(false);
  });
});
