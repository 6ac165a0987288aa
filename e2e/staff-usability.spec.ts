import type { APIRequestContext, Page, Route } from '@playwright/test';
import type { Booking } from '../src/shared/schemas/bookings';
import { BASE_URL, STAFF } from './constants';
import { monthWeekdays, startOfWeekMonday, today, weekDays } from './dates';
import {
  expect as baseExpect,
  checkScreen,
  chooseAreas,
  loginAsStaff,
  showGridDay,
  staffApi,
  test,
} from './fixtures';
import { recordValidDbsCheck } from './safeguarding-records';
import { cellUnder, userAction } from './table';

// The machine is shared; give slow renders room without making any assertion weaker.
const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 120_000 });
// a bookings read still being answered by serveBookings when a test ends must not fail it
test.afterEach(({ page }) => page.unrouteAll({ behavior: 'ignoreErrors' }));

/**
 * The staff screens as a newcomer meets them: edits that change only what was touched, a warning
 * before a booked day is marked unavailable, a grid that works on a phone and opens on this week.
 * Every test makes its own facilitators in an area of its own and narrows the area filter to it.
 */

const TODAY = today();
const THIS_WEEK = weekDays(TODAY);
const MONDAY = startOfWeekMonday(TODAY);

/**
 * The five weekdays the staff grid's month opens on: from the first day of this week that the month
 * holds (this week's Monday, or the 1st when the week began in the month before), or the month's last
 * five when fewer are left. Tests that read the month's cells use these: this week's days can fall
 * outside the month shown.
 */
const OPENING_WEEK = (() => {
  const month = monthWeekdays(TODAY);
  const opensAt = Math.max(
    0,
    month.findIndex((day) => THIS_WEEK.includes(day)),
  );
  const from = Math.max(0, Math.min(opensAt, month.length - 5));
  return month.slice(from, from + 5);
})();

/** The brief's desktop width; the phone project keeps its own 390 px. */
async function useBriefViewport(page: Page, projectName: string) {
  if (projectName === 'desktop') await page.setViewportSize({ width: 1366, height: 800 });
}

interface Person {
  id: number;
  displayName: string;
}

async function createPerson(
  api: APIRequestContext,
  tag: string,
  name: string,
  area: string,
  email: string | null,
): Promise<Person> {
  const username = `usability-${tag}-${name.toLowerCase()}@example.org`;
  const displayName = `${name} ${tag}`;
  const res = await api.post('/api/staff/users', {
    data: { username, password: 'usable-pass-123', displayName, email, role: 'facilitator', area },
  });
  expect(res.status(), await res.text()).toBe(201);
  return { id: ((await res.json()) as { id: number }).id, displayName };
}

let sequence = 0;

async function makeArea(testInfo: { project: { name: string }; workerIndex: number }) {
  const api = await staffApi();
  const tag = `${testInfo.project.name}${testInfo.workerIndex}-${Date.now()}-${sequence++}`;
  const area = `Usability ${tag}`;
  const created: number[] = [];
  return {
    api,
    tag,
    area,
    person: async (name: string, email: string | null = `${name.toLowerCase()}-${tag}@example.org`) => {
      const person = await createPerson(api, tag, name, area, email);
      created.push(person.id);
      await recordValidDbsCheck(api, person.id);
      return person;
    },
    cleanup: async () => {
      for (const id of created) await api.delete(`/api/staff/users/${id}`);
      await api.dispose();
    },
  };
}

function booking(id: number, userId: number, date: string, start: string, end: string): Booking {
  return {
    id,
    userId,
    title: 'Clay workshop',
    date,
    startTime: start,
    endTime: end,
    location: 'Hall',
    sharePointId: `usability-${id}`,
    schoolId: null,
    schoolName: 'Riverside Primary',
    schoolAddress: null,
    schoolPostcode: null,
    program: 'Clay',
    timeSlot: null,
    deliveryType: 'Live',
    year: null,
  };
}

/** Adds bookings to their facilitators' rows in the real /api/staff/grid answers (bookings only ever come from SharePoint). */
async function serveBookings(page: Page, extra: Booking[]) {
  await page.route(/\/api\/staff\/grid\?/, async (route: Route) => {
    const response = await route.fetch();
    const url = new URL(route.request().url());
    const from = url.searchParams.get('from') ?? '';
    const to = url.searchParams.get('to') ?? '';
    const real = (await response.json()) as { rows: Array<{ user: { id: number }; bookings: Booking[] }> };
    for (const row of real.rows) {
      row.bookings.push(...extra.filter((b) => b.userId === row.user.id && b.date >= from && b.date <= to));
    }
    await route.fulfill({ response, json: real });
  });
}

async function openDashboard(page: Page, area: string) {
  await loginAsStaff(page);
  await page.goto('/staff');
  await expect(page.getByTestId('schedule-grid')).toBeVisible();
  await chooseAreas(page, [area]);
}

const cell = (page: Page, person: Person, date: string) =>
  page.locator(
    `[data-testid="grid-row"][data-user-id="${person.id}"] [data-testid="grid-cell"][data-date="${date}"]`,
  );

test.describe('staff day edits change only what staff touch', () => {
  test('a saved day without times stays without times when only its status changes (the clearing choice is "none"); marking a booked day unavailable asks first and names the booking, its times typed oddly in SharePoint read right', async ({
    page,
  }, testInfo) => {
    await useBriefViewport(page, testInfo.project.name);
    const scene = await makeArea(testInfo);
    try {
      const ada = await scene.person('Ada');
      const bea = await scene.person('Bea');
      const adaDay = OPENING_WEEK[2]!;
      const beaDay = OPENING_WEEK[1]!;
      const saved = await scene.api.post('/api/staff/availability', {
        data: { userId: ada.id, date: adaDay, status: 'available', startTime: '', endTime: '', notes: '' },
      });
      expect(saved.status(), await saved.text()).toBe(200);
      await scene.api.post('/api/staff/availability', {
        data: { userId: bea.id, date: beaDay, status: 'available', startTime: '09:00', endTime: '15:00' },
      });
      // a row stored before times were normalised, as SharePoint sent it
      await serveBookings(page, [booking(970_000 + sequence, bea.id, beaDay, '010:00', '012:00')]);
      await openDashboard(page, scene.area);

      await showGridDay(page, adaDay);
      await cell(page, ada, adaDay).click();
      const adaDialog = page.getByRole('dialog', { name: ada.displayName });
      await expect(adaDialog.getByTestId('availability-view')).toContainText('No times set');
      await adaDialog.getByRole('button', { name: 'Edit', exact: true }).click();
      await expect(adaDialog.getByRole('combobox', { name: 'Start Time' })).toHaveText('none');
      await expect(adaDialog.getByRole('combobox', { name: 'End Time' })).toHaveText('none');
      await adaDialog.getByRole('combobox', { name: 'Start Time' }).click();
      await expect(page.getByRole('option').first()).toHaveText('none');
      await page.keyboard.press('Escape');
      await adaDialog.getByRole('radio', { name: 'Unavailable' }).check();
      await checkScreen(page, testInfo, 'staff-edit-saved-day-without-times');

      const request = page.waitForRequest(
        (r) => r.url().endsWith('/api/staff/availability') && r.method() === 'POST',
      );
      await adaDialog.getByRole('button', { name: 'Save' }).click();
      expect((await request).postDataJSON()).toMatchObject({
        status: 'unavailable',
        startTime: '',
        endTime: '',
      });
      await expect(adaDialog.getByTestId('availability-view')).toContainText('Unavailable');
      await expect(adaDialog.getByTestId('availability-view')).toContainText('No times set');

      // the history records the status change and no invented times
      const history = await scene.api.get(`/api/staff/history?userId=${ada.id}&date=${adaDay}`);
      const text = JSON.stringify(await history.json());
      expect(text).not.toContain('17:00');
      expect(text).not.toContain('5:00 PM');
      await adaDialog.getByRole('button', { name: 'Close' }).click();
      await expect(page.getByRole('dialog')).toHaveCount(0);

      await showGridDay(page, beaDay);
      await cell(page, bea, beaDay).click();
      const dialog = page.getByRole('dialog', { name: bea.displayName });
      await expect(dialog.getByRole('region', { name: 'Bookings' })).toContainText('10:00 AM – 12:00 PM');
      await dialog.getByRole('button', { name: 'Edit', exact: true }).click();
      await dialog.getByRole('radio', { name: 'Unavailable' }).check();

      let posts = 0;
      page.on('request', (r) => {
        if (r.url().endsWith('/api/staff/availability') && r.method() === 'POST') posts += 1;
      });
      await dialog.getByRole('button', { name: 'Save' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Mark a booked day unavailable?' });
      await expect(confirm).toContainText('Riverside Primary, 10:00 AM – 12:00 PM');
      await checkScreen(page, testInfo, 'staff-confirm-booked-unavailable');
      await confirm.getByRole('button', { name: 'Keep as it was' }).click();
      await expect(confirm).toBeHidden();
      expect(posts).toBe(0);
      await expect(dialog.getByRole('form', { name: 'Edit availability' })).toBeVisible();

      await dialog.getByRole('button', { name: 'Save' }).click();
      const sent = page.waitForRequest(
        (r) => r.url().endsWith('/api/staff/availability') && r.method() === 'POST',
      );
      await confirm.getByRole('button', { name: 'Mark unavailable' }).click();
      expect((await sent).postDataJSON()).toMatchObject({ status: 'unavailable' });
      await expect(dialog.getByTestId('availability-view')).toContainText('Unavailable');
    } finally {
      await scene.cleanup();
    }
  });
});

test.describe('the staff grid', () => {
  test(
    'desktop keeps the set widths; a phone shows a whole working week beside the names; the month opens on this week and Today brings it back',
    { tag: '@phone' },
    async ({ page }, testInfo) => {
      await useBriefViewport(page, testInfo.project.name);
      const scene = await makeArea(testInfo);
      try {
        const eve = await scene.person('Eve');
        await scene.api.post('/api/staff/availability', {
          data: { userId: eve.id, date: OPENING_WEEK[0], status: 'limited' },
        });
        await serveBookings(page, [
          booking(980_000 + sequence, eve.id, OPENING_WEEK[3]!, '09:00', '12:00'),
          booking(981_000 + sequence, eve.id, OPENING_WEEK[0]!, '09:00', '12:00'),
        ]);
        await openDashboard(page, scene.area);
        const widthOf = (locator: ReturnType<Page['locator']>) =>
          locator.evaluate((el) => el.getBoundingClientRect().width);
        const phone = testInfo.project.name === 'phone';
        expect(await widthOf(page.getByTestId('first-column-header'))).toBe(phone ? 128 : 200);
        expect(await widthOf(page.getByTestId('day-header').first())).toBe(phone ? 42 : 80);

        // every day of this week is inside the scroll area's visible part, beside the names
        const scroll = page.getByTestId('grid-scroll');
        const visible = await scroll.evaluate((el) => {
          const box = el.getBoundingClientRect();
          const names = el.querySelector('[data-testid="first-column-header"]')!.getBoundingClientRect();
          return [...el.querySelectorAll<HTMLElement>('[data-testid="day-header"]')]
            .filter((th) => {
              const r = th.getBoundingClientRect();
              return r.left >= names.right - 1 && r.right <= box.right + 1;
            })
            .map((th) => th.dataset.date);
        });
        for (const day of OPENING_WEEK) expect(visible, `${day} visible`).toContain(day);
        await expect(cell(page, eve, OPENING_WEEK[3]!)).toContainText('Booked');
        await checkScreen(page, testInfo, 'staff-grid-month');

        // a booked day with a status keeps its status colour as an outline, told apart from "not set"
        // in the dark theme too
        await expect(cell(page, eve, OPENING_WEEK[0]!)).toHaveAttribute('data-tone', 'limited-booked');
        await page.evaluate(() => document.documentElement.classList.replace('light', 'dark'));
        const look = (date: string) =>
          cell(page, eve, date).evaluate((el) => ({
            ring: getComputedStyle(el).boxShadow,
            background: getComputedStyle(el).backgroundColor,
          }));
        const bookedLimited = await look(OPENING_WEEK[0]!);
        const notSet = await look(OPENING_WEEK[2]!);
        expect(bookedLimited.ring).not.toBe('none');
        expect(notSet.ring).toBe('none');
        expect(bookedLimited.background).not.toBe(notSet.background);
        await page.evaluate(() => document.documentElement.classList.replace('dark', 'light'));

        if (!phone) {
          // this week's first day in the view sits right beside the names (or the grid is scrolled as
          // far as it goes, at the end of a month); another month opens at its start, and Today
          // brings this week back, also after scrolling away within the same month
          const thisWeekInFront = () =>
            scroll.evaluate((el, week) => {
              const names = el.querySelector('[data-testid="first-column-header"]')!.getBoundingClientRect();
              const headers = [...el.querySelectorAll<HTMLElement>('[data-testid="day-header"]')];
              const th = headers.find((h) => week.includes(h.dataset.date!));
              if (!th) return 'not in view';
              const r = th.getBoundingClientRect();
              const atEnd = Math.abs(el.scrollLeft - (el.scrollWidth - el.clientWidth)) <= 1;
              return Math.abs(r.left - names.right) <= 1 || (atEnd && r.left >= names.right - 1)
                ? 'in front'
                : `at ${r.left - names.right}px`;
            }, THIS_WEEK);
          await expect.poll(thisWeekInFront).toBe('in front');
          const firstOfView = await page.getByTestId('day-header').first().getAttribute('data-date');
          if (firstOfView! < MONDAY) expect(await scroll.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
          await scroll.evaluate((el) => {
            el.scrollLeft = el.scrollWidth;
          });
          await page.getByRole('button', { name: 'Next month' }).click();
          await expect.poll(() => scroll.evaluate((el) => el.scrollLeft)).toBe(0);
          await page.getByRole('button', { name: 'Today', exact: true }).click();
          await expect.poll(thisWeekInFront).toBe('in front');
          await scroll.evaluate((el) => {
            el.scrollLeft = 0;
          });
          await page.getByRole('button', { name: 'Today', exact: true }).click();
          await expect.poll(thisWeekInFront).toBe('in front');
        }

        // the week fills the card: columns of at least 120 px on a desktop, no empty third
        await page.getByRole('button', { name: 'Week', exact: true }).click();
        const weekColumn = await widthOf(page.getByTestId('day-header').first());
        if (phone) expect(weekColumn).toBe(42);
        else {
          expect(weekColumn).toBeGreaterThanOrEqual(120);
          const { table, inner } = await scroll.evaluate((el) => ({
            table: el.querySelector('table')!.getBoundingClientRect().width,
            inner: el.clientWidth,
          }));
          expect(inner - table).toBeLessThan(6);
        }
        await checkScreen(page, testInfo, 'staff-grid-week');
      } finally {
        await scene.cleanup();
      }
    },
  );

  test(
    'this week and next side by side across a month end: 23 November to 4 December, December loaded too',
    { tag: '@phone' },
    async ({ page }, testInfo) => {
      await useBriefViewport(page, testInfo.project.name);
      // a Monday whose two weeks cross into December, whatever day the suite runs on
      await page.clock.setFixedTime(new Date('2026-11-23T12:00:00'));
      const twoWeeks = [
        '2026-11-23',
        '2026-11-24',
        '2026-11-25',
        '2026-11-26',
        '2026-11-27',
        '2026-11-30',
        '2026-12-01',
        '2026-12-02',
        '2026-12-03',
        '2026-12-04',
      ];
      const scene = await makeArea(testInfo);
      try {
        const ida = await scene.person('Ida');
        for (const [date, status] of [
          ['2026-11-27', 'limited'],
          ['2026-12-03', 'available'],
        ] as const) {
          const res = await scene.api.post('/api/staff/availability', {
            data: { userId: ida.id, date, status, startTime: '09:00', endTime: '15:00', notes: '' },
          });
          expect(res.status(), await res.text()).toBe(200);
        }
        await scene.api.post('/api/staff/notes', {
          data: { facilitatorId: ida.id, date: '2026-12-01', note: 'Ask about December', priority: 'urgent' },
        });
        await serveBookings(page, [booking(990_000 + sequence, ida.id, '2026-12-02', '09:00', '12:00')]);
        await openDashboard(page, scene.area);

        // the month opens on November with today's column in view beside the names
        await expect(page.getByTestId('grid-label')).toHaveText('November 2026');
        const scroll = page.getByTestId('grid-scroll');
        const inView = () =>
          scroll.evaluate((el) => {
            const box = el.getBoundingClientRect();
            const names = el.querySelector('[data-testid="first-column-header"]')!.getBoundingClientRect();
            return [...el.querySelectorAll<HTMLElement>('[data-testid="day-header"]')]
              .filter((th) => {
                const r = th.getBoundingClientRect();
                return r.left >= names.right - 1 && r.right <= box.right + 1;
              })
              .map((th) => th.dataset.date);
          });
        await expect.poll(inView).toContain('2026-11-23');

        // two weeks: one page of the grid across the month end
        const gridAsked = page.waitForRequest((r) =>
          r.url().includes('/api/staff/grid?from=2026-11-23&to=2026-12-04'),
        );
        await page.getByRole('button', { name: '2 weeks', exact: true }).click();
        await gridAsked;
        await expect(page.getByRole('button', { name: '2 weeks', exact: true })).toHaveAttribute(
          'aria-pressed',
          'true',
        );
        await expect(page.getByTestId('grid-label')).toHaveText('23 Nov – 4 Dec 2026');
        await expect(page.getByTestId('day-header')).toHaveCount(10);
        expect(
          await page
            .getByTestId('day-header')
            .evaluateAll((ths) => ths.map((th) => th.getAttribute('data-date'))),
        ).toEqual(twoWeeks);
        await expect(cell(page, ida, '2026-11-27')).toHaveAttribute('data-tone', 'limited');
        await expect(cell(page, ida, '2026-12-03')).toHaveAttribute('data-tone', 'available');
        await expect(cell(page, ida, '2026-12-02')).toContainText('Booked');
        await expect(cell(page, ida, '2026-12-01')).toHaveAttribute('data-note', 'urgent');
        // December's first day says so; November's days are numbers only
        await expect(page.locator('[data-testid="day-header"][data-date="2026-12-01"]')).toHaveText(
          'Tue1 Dec',
        );
        await expect(page.locator('[data-testid="day-header"][data-date="2026-11-30"]')).toHaveText('Mon30');
        // the thick divider between the weeks
        expect(
          await page
            .locator('[data-testid="day-header"][data-date="2026-11-30"]')
            .evaluate((el) => getComputedStyle(el).borderLeftWidth),
        ).toBe('3px');

        // a desktop shows both weeks at once; a phone shows this week and scrolls to the next
        const phone = testInfo.project.name === 'phone';
        const columnWidth = await page
          .getByTestId('day-header')
          .first()
          .evaluate((el) => el.getBoundingClientRect().width);
        if (phone) expect(columnWidth).toBe(42);
        else expect(columnWidth).toBeGreaterThanOrEqual(80);
        const shown = await inView();
        for (const day of phone ? twoWeeks.slice(0, 5) : twoWeeks)
          expect(shown, `${day} visible`).toContain(day);
        await checkScreen(page, testInfo, 'staff-grid-two-weeks');

        // next moves on two weeks, Today comes back to this week and next
        await page.getByRole('button', { name: 'Next 2 weeks' }).click();
        await expect(page.getByTestId('grid-label')).toHaveText('7 Dec – 18 Dec 2026');
        await page.getByRole('button', { name: 'Today', exact: true }).click();
        await expect(page.getByTestId('grid-label')).toHaveText('23 Nov – 4 Dec 2026');
        await expect(cell(page, ida, '2026-12-03')).toHaveAttribute('data-tone', 'available');
      } finally {
        await scene.cleanup();
      }
    },
  );
});

test.describe('a signed-out or expired staff session', () => {
  test('a signed-out visitor, and a session that ends while a page is open, go to the staff login and back; only a path on this site is followed after it', async ({
    page,
  }, testInfo) => {
    await useBriefViewport(page, testInfo.project.name);
    await page.goto('/staff/free?date=2026-03-02');
    await expect(page).toHaveURL(/\/staff-login\?next=%2Fstaff%2Ffree%3Fdate%3D2026-03-02$/);
    await expect(page.getByText(/^401/)).toHaveCount(0);
    await checkScreen(page, testInfo, 'staff-login-return');
    await page.getByLabel('Username').fill(STAFF.username);
    await page.getByLabel('Password', { exact: true }).fill(STAFF.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/staff\/free\?date=2026-03-02$/);

    await page.goto('/staff/users');
    await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
    // the session ends elsewhere (another tab signed out)
    expect((await page.request.post('/api/logout')).ok()).toBe(true);
    // The page may notice on its own first (a refetch answered 401) and go to the login: then there
    // is no link left to click, and the same place has been reached.
    const back = page.getByRole('link', { name: 'Back to Dashboard' });
    await expect(async () => {
      if (new URL(page.url()).pathname === '/staff-login') return;
      await back.click({ timeout: 2_000 });
    }).toPass();
    // back to the dashboard after signing in, or to the users page when the page noticed first
    await expect(page).toHaveURL(/\/staff-login(\?next=%2Fstaff(%2Fusers)?)?$/);
    await expect(page.getByText(/401/)).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Staff Login' })).toBeVisible();

    for (const next of [
      'https://evil.example/x',
      '//evil.example/x',
      '/\\evil.example/x',
      'javascript:alert(1)',
    ]) {
      await page.goto(`/staff-login?next=${encodeURIComponent(next)}`);
      await page.getByLabel('Username').fill(STAFF.username);
      await page.getByLabel('Password', { exact: true }).fill(STAFF.password);
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await expect(page).toHaveURL(/\/staff$/);
      expect(new URL(page.url()).origin).toBe(new URL(BASE_URL).origin);
      await page.request.post('/api/logout');
    }
  });
});

test.describe('areas and finding people on the users page', () => {
  test(
    'Area in the create and edit dialogs and the table; the search box finds by name, email or area; long names wrap whole and addresses break between their parts',
    { tag: '@phone' },
    async ({ page }, testInfo) => {
      await useBriefViewport(page, testInfo.project.name);
      const scene = await makeArea(testInfo);
      try {
        const long = await scene.person(
          'Maximiliana-Evangelina Worthington-Fotheringay-Smythe-Bartholomew',
          `maximiliana.evangelina.worthington-${scene.tag}@very-long-school-domain.example.org`,
        );
        await loginAsStaff(page);
        await page.goto('/staff/users');
        await expect(page.getByRole('heading', { name: /^Facilitators \(\d+\)$/ })).toBeVisible();

        // search by area: only this test's person is in it
        const search = page.getByRole('searchbox', { name: 'Search facilitators' });
        await search.fill(scene.area);
        await expect(page.locator('tbody tr')).toHaveCount(1);
        const row = page.getByTestId(`user-row-${long.id}`);
        await expect(await cellUnder(page, row, 'Area')).toHaveText(scene.area);

        // the long name wraps onto more lines, whole (two people whose names start alike are told
        // apart); the whole name is also its title
        const name = row.getByTestId('user-name');
        await expect(name).toHaveText(long.displayName);
        const nameBox = await name.evaluate((el) => ({
          clipped: el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight,
          lines: el.getClientRects().length,
        }));
        expect(nameBox.clipped).toBe(false);
        expect(nameBox.lines).toBeGreaterThan(1);
        await expect(row.locator('[title]').first()).toHaveAttribute('title', long.displayName);
        // the email breaks only between its parts (after "@", "." or "-"), never inside a word
        const lines = await (await cellUnder(page, row, 'Email')).evaluate((el) => {
          const range = document.createRange();
          const text = el.firstChild?.parentElement ?? el;
          const tops = new Map<number, string>();
          const walker = document.createTreeWalker(text, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (let i = 0; i < (node.textContent ?? '').length; i++) {
              range.setStart(node, i);
              range.setEnd(node, i + 1);
              const top = Math.round(range.getBoundingClientRect().top);
              tops.set(top, (tops.get(top) ?? '') + node.textContent![i]);
            }
          }
          return [...tops.values()];
        });
        for (const line of lines.slice(0, -1)) expect(line, lines.join(' | ')).toMatch(/[@.-]$/);
        await checkScreen(page, testInfo, 'users-search-area');

        // search by email, then by name
        await search.fill(`worthington-${scene.tag}@very-long`);
        await expect(page.locator('tbody tr')).toHaveCount(1);
        await search.fill('no such person anywhere');
        await expect(page.getByText('No accounts match the search.')).toBeVisible();
        await search.fill('');

        // edit: Area is filled from the account and saved with it
        await search.fill(scene.area);
        await userAction(page, row, long.displayName, 'Edit');
        const dialog = page.getByRole('dialog', { name: 'Edit Facilitator' });
        await expect(dialog.getByLabel('Area')).toHaveValue(scene.area);
        const moved = `${scene.area} moved`;
        await dialog.getByLabel('Area').fill(moved);
        await checkScreen(page, testInfo, 'users-edit-area');
        const put = page.waitForRequest(
          (r) => r.method() === 'PUT' && r.url().includes(`/api/staff/users/${long.id}`),
        );
        await dialog.getByRole('button', { name: 'Update Facilitator' }).click();
        expect((await put).postDataJSON()).toMatchObject({ area: moved });
        await expect(dialog).toBeHidden();
        await search.fill(moved);
        await expect(await cellUnder(page, row, 'Area')).toHaveText(moved);
        const stored = (await (await scene.api.get('/api/staff/users')).json()) as {
          id: number;
          area: string;
        }[];
        expect(stored.find((u) => u.id === long.id)?.area).toBe(moved);
      } finally {
        await scene.cleanup();
      }
    },
  );
});

test.describe('who is free', () => {
  test(
    'each result opens that day for that person and shows how to reach them; a long address wraps',
    { tag: '@phone' },
    async ({ page }, testInfo) => {
      await useBriefViewport(page, testInfo.project.name);
      const scene = await makeArea(testInfo);
      try {
        const day = THIS_WEEK[4]!;
        const longEmail = `a.very.long.address.that.would.widen.every.card.${scene.tag}@an-extremely-long-school-domain.example.org`;
        const gil = await scene.person('Gil', longEmail);
        const hal = await scene.person('Hal');
        for (const person of [gil, hal]) {
          const res = await scene.api.post('/api/staff/availability', {
            data: {
              userId: person.id,
              date: day,
              status: 'available',
              startTime: '09:00',
              endTime: '15:00',
              notes: 'Can drive',
            },
          });
          expect(res.status(), await res.text()).toBe(200);
        }
        await scene.api.post('/api/staff/notes', {
          data: { facilitatorId: gil.id, date: day, note: 'Ask about the kiln', priority: 'high' },
        });
        await loginAsStaff(page);
        await page.goto(`/staff/free?date=${day}&areas=${encodeURIComponent(scene.area)}`);
        const rows = page.getByTestId('free-row');
        await expect(rows).toHaveCount(2);
        const gilRow = rows.filter({ hasText: gil.displayName });
        const email = gilRow.getByRole('link', { name: longEmail });
        await expect(email).toHaveAttribute('href', `mailto:${longEmail}`);

        // nothing is wider than the page: the long address wraps inside its card, and both cards
        // are as wide as each other
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        const widths = await rows.evaluateAll((els) =>
          els.map((el) => Math.round(el.getBoundingClientRect().width)),
        );
        expect(new Set(widths).size).toBe(1);
        await checkScreen(page, testInfo, 'free-results');

        await gilRow.getByRole('button', { name: `Open ${gil.displayName}'s day` }).click();
        const dialog = page.getByRole('dialog', { name: gil.displayName });
        await expect(dialog.getByTestId('availability-view')).toContainText('Available');
        await expect(dialog.getByTestId('availability-view')).toContainText('9:00 AM – 3:00 PM');
        await expect(dialog.getByTestId('availability-view')).toContainText('Can drive');
        await expect(dialog).toContainText('Ask about the kiln');
        await checkScreen(page, testInfo, 'free-open-day');

        // a change made there shows in the results once the dialog is closed
        await dialog.getByRole('button', { name: 'Edit', exact: true }).click();
        await dialog.getByRole('radio', { name: 'Unavailable' }).check();
        await dialog.getByRole('button', { name: 'Save' }).click();
        await expect(dialog.getByTestId('availability-view')).toContainText('Unavailable');
        await dialog.getByRole('button', { name: 'Close' }).click();
        await expect(page.getByRole('dialog')).toHaveCount(0);
        await expect(rows).toHaveCount(1);
        await expect(rows).toContainText(hal.displayName);
      } finally {
        await scene.cleanup();
      }
    },
  );
});
