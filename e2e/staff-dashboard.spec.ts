import type { APIRequestContext, Page, Route } from '@playwright/test';
import type { Booking } from '../src/shared/schemas/bookings';
import { addDays, monthLabel, monthWeekdays, startOfWeekMonday, today, weekDays } from './dates';
import { addFault, BOOKINGS_DELTA, withSharePointLock } from './emulator';
import {
  expect as baseExpect,
  checkScreen,
  chooseAreas,
  chooseOption,
  loginAsStaff,
  recordRefreshStates,
  refreshStates,
  showGridDay,
  staffApi,
  test,
  toastLocator,
} from './fixtures';

// The machine is shared; give slow renders room without making any assertion weaker.
const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 120_000 });

/**
 * Staff dashboard (docs/product.md, "Staff dashboard"). Every test makes its own facilitators in areas no
 * other test uses and narrows the area filter to them, so the shared server's other users never
 * change what a test sees. Bookings come from SharePoint, so the few a scenario needs are added to the
 * real /api/staff/bookings answer in the browser; the Refresh Bookings test uses the real refresh
 * against the e2e server's SharePoint emulator (e2e/emulator.ts), failures included.
 *
 * What the page decides on its own (the loading line, the search box, the filters' choices, the day
 * dialog's forms, the scheduler status and its polling, Logout, Refresh Bookings waiting for the grid)
 * is tested beside its components (src/client/app/routes/staff-dashboard.test.tsx, features/staff-grid
 * and features/notes); that a facilitator gets none of the staff data is the access matrix's
 * (src/server/test/access-matrix.test.ts).
 */

const TODAY = today();
const MONTH_DAYS = monthWeekdays(TODAY);
// four weekdays of the current month, early in the month so they sit near the first column
const [D0, D1, D2, D3, D4] = MONTH_DAYS as [string, string, string, string, string];

interface Person {
  id: number;
  username: string;
  displayName: string;
  area: string | null;
}

interface Scenario {
  area: string;
  otherArea: string;
  adam: Person;
  beth: Person;
  zara: Person;
  bookings: Booking[];
  cleanup: () => Promise<void>;
}

let sequence = 0;

async function createPerson(api: APIRequestContext, displayName: string, area: string | null, tag: string) {
  const username = `staffgrid-${tag}-${displayName.split(' ')[0]!.toLowerCase()}@example.org`;
  const res = await api.post('/api/staff/users', {
    data: { username, password: 'grid-pass-123', displayName, email: username, role: 'facilitator', area },
  });
  expect(res.status(), await res.text()).toBe(201);
  const body = (await res.json()) as { id: number };
  return { id: body.id, username, displayName, area } satisfies Person;
}

function booking(id: number, userId: number, date: string): Booking {
  return {
    id,
    userId,
    title: 'Clay workshop',
    date,
    startTime: '09:00',
    endTime: '12:00',
    location: 'Hall',
    sharePointId: `e2e-${id}`,
    schoolId: null,
    schoolName: 'Riverside Primary',
    schoolAddress: null,
    schoolPostcode: null,
    program: 'Clay',
    timeSlot: 'Morning',
    deliveryType: 'Live',
    year: null,
  };
}

/**
 * Adam: D0 available + booked, D1 limited (normal and urgent notes), D2 unavailable (high note),
 * D3 a booking only, D4 nothing. Zara: D0 available with a normal note. Beth (other area): nothing.
 */
async function makeScenario(testTag: string): Promise<Scenario> {
  const api = await staffApi();
  const tag = `${testTag}-${Date.now()}-${sequence++}`;
  const area = `Area ${tag}`;
  const otherArea = `Other ${tag}`;
  const zara = await createPerson(api, `zara ${tag}`, area, tag);
  const adam = await createPerson(api, `Adam ${tag}`, area, tag);
  const beth = await createPerson(api, `beth ${tag}`, otherArea, tag);
  const day = async (userId: number, date: string, status: string, extra: object = {}) => {
    const res = await api.post('/api/staff/availability', { data: { userId, date, status, ...extra } });
    expect(res.status(), await res.text()).toBe(200);
  };
  await day(adam.id, D0, 'available');
  await day(adam.id, D1, 'limited', { startTime: '10:00', endTime: '14:00', notes: 'Mornings only' });
  await day(adam.id, D2, 'unavailable');
  await day(zara.id, D0, 'available');
  const note = async (facilitatorId: number, date: string, text: string, priority: string) => {
    const res = await api.post('/api/staff/notes', { data: { facilitatorId, date, note: text, priority } });
    expect(res.status(), await res.text()).toBe(201);
  };
  await note(adam.id, D1, 'Check DBS', 'normal');
  await note(adam.id, D1, 'Call before Friday', 'urgent');
  await note(adam.id, D2, 'Prefers KS2', 'high');
  await note(zara.id, D0, 'New starter', 'normal');
  const base = 900_000 + sequence * 10;
  const bookings = [booking(base, adam.id, D0), booking(base + 1, adam.id, D3)];
  return {
    area,
    otherArea,
    adam,
    beth,
    zara,
    bookings,
    cleanup: async () => {
      for (const person of [adam, beth, zara]) await api.delete(`/api/staff/users/${person.id}`);
      await api.dispose();
    },
  };
}

/** Adds the scenario's bookings to their facilitators' rows in the real /api/staff/grid answers. */
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

async function openDashboard(page: Page, scenario?: Scenario) {
  await loginAsStaff(page);
  if (scenario) await serveBookings(page, scenario.bookings);
  await page.goto('/staff');
  await expect(page.getByTestId('schedule-grid')).toBeVisible();
}

async function closeDialog(dialog: ReturnType<Page['getByRole']>) {
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
}

/** One facilitator's day as the server holds it, read with the page's staff session. */
async function staffDay(page: Page, userId: number, date: string) {
  const answer = await page.request.get(`/api/staff/availabilities?from=${date}&to=${date}`);
  expect(answer.ok(), await answer.text()).toBe(true);
  const days = (await answer.json()) as Array<{ userId: number; startTime: string; endTime: string }>;
  return days.find((day) => day.userId === userId);
}

const rowNames = (page: Page) => page.getByTestId('row-name').allInnerTexts();
const cell = (page: Page, person: Person, date: string) =>
  page.locator(
    `[data-testid="grid-row"][data-user-id="${person.id}"] [data-testid="grid-cell"][data-date="${date}"]`,
  );
const row = (page: Page, person: Person) =>
  page.locator(`[data-testid="grid-row"][data-user-id="${person.id}"]`);

/*
 * A bookings request the page sent last may still be in serveBookings: it is let finish before the
 * context closes under it (a closed context disposes the answer the handler is reading).
 */
const finishServingBookings = ({ page }: { page: Page }) => page.unrouteAll({ behavior: 'wait' });

test.describe('staff dashboard', () => {
  // these tests only read the scenario (one adds a person of its own and removes it): one for all
  let scenario: Scenario;
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a function asks for from this pattern
  test.beforeAll(async ({}, testInfo) => {
    scenario = await makeScenario(`${testInfo.project.name}${testInfo.workerIndex}`);
  });
  test.afterEach(finishServingBookings);
  test.afterAll(async () => {
    await scenario.cleanup();
  });

  test('the month grid by default, its first page and cells; the week view and navigation; Manage Users', async ({
    page,
  }, testInfo) => {
    // a facilitator whose name sorts before everyone's (digits before letters): the grid's first row
    const api = await staffApi();
    const tag = `${testInfo.project.name}${testInfo.workerIndex}-${Date.now()}`;
    const first = await createPerson(api, `0First ${tag}`, scenario.otherArea, tag);
    try {
      const saved = await api.post('/api/staff/availability', {
        data: { userId: first.id, date: D0, status: 'limited' },
      });
      expect(saved.status(), await saved.text()).toBe(200);
      const requested: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname === '/api/staff/grid') {
          requested.push(`grid ${url.searchParams.get('from')} ${url.searchParams.get('to')}`);
        }
      });
      await loginAsStaff(page);
      await serveBookings(page, [...scenario.bookings, booking(990_000 + sequence++, first.id, D1)]);
      const firstPage = page.waitForRequest(
        (r) => r.url().includes('/api/staff/grid?') && !r.url().includes('cursor='),
      );
      await page.goto('/staff-dashboard');
      await firstPage;
      await expect(page.getByTestId('schedule-grid')).toBeVisible();
      // the real server's scheduler status
      await expect(page.getByTestId('scheduler-status')).toContainText(
        /(Updating booking cache\.\.\.|Background updates active|Outside office hours)\s*Next update: \S+/,
      );

      // month view by default: every weekday of this month, nothing else, and only that range asked for
      await expect(page.getByTestId('schedule-grid')).toHaveAttribute('data-view', 'month');
      await expect(page.getByTestId('grid-label')).toHaveText(monthLabel(TODAY));
      const headers = page.getByTestId('day-header');
      await expect(headers).toHaveCount(MONTH_DAYS.length);
      expect(await headers.evaluateAll((els) => els.map((el) => el.getAttribute('data-date')))).toEqual(
        MONTH_DAYS,
      );
      expect(requested).toContain(`grid ${MONTH_DAYS[0]} ${MONTH_DAYS[MONTH_DAYS.length - 1]}`);

      // the first page draws its rows with their days and sessions, and the dialog reads them
      const firstRow = row(page, first);
      await expect(firstRow).toBeVisible();
      await showGridDay(page, D0);
      await expect(cell(page, first, D0)).toHaveAttribute('data-tone', 'limited');
      await expect(cell(page, first, D1)).toHaveAttribute('data-tone', 'booked-only');
      await expect(cell(page, first, D2)).toHaveAttribute('data-tone', 'empty');
      await cell(page, first, D0).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toContainText('0First');
      await closeDialog(dialog);

      await chooseAreas(page, [scenario.area]);
      await checkScreen(page, testInfo, 'staff-dashboard-month');

      // cells: colours by status, lighter with a booking, grey, blue, Booked badge, note icons
      const { adam, zara } = scenario;
      await showGridDay(page, D0);
      await expect(cell(page, adam, D0)).toHaveAttribute('data-tone', 'available-booked');
      await expect(cell(page, adam, D1)).toHaveAttribute('data-tone', 'limited');
      await expect(cell(page, adam, D2)).toHaveAttribute('data-tone', 'unavailable');
      await expect(cell(page, adam, D3)).toHaveAttribute('data-tone', 'booked-only');
      await expect(cell(page, adam, D4)).toHaveAttribute('data-tone', 'empty');
      await expect(cell(page, zara, D0)).toHaveAttribute('data-tone', 'available');

      const background = (date: string, person = adam) =>
        cell(page, person, date).evaluate((el) => getComputedStyle(el).backgroundColor);
      const colours = {
        availableBooked: await background(D0),
        limited: await background(D1),
        unavailable: await background(D2),
        bookedOnly: await background(D3),
        empty: await background(D4),
        available: await background(D0, zara),
      };
      expect(new Set(Object.values(colours)).size).toBe(6);
      // lighter with a booking: same hue, lower alpha
      const alpha = (colour: string) => {
        const match = /\/ ([\d.]+)\)|rgba\([^)]*,\s*([\d.]+)\)/.exec(colour);
        return Number(match?.[1] ?? match?.[2] ?? 1);
      };
      expect(alpha(colours.availableBooked)).toBeLessThan(alpha(colours.available));

      await expect(cell(page, adam, D0).getByText('Booked', { exact: true })).toBeVisible();
      await expect(cell(page, adam, D3).getByText('Booked', { exact: true })).toBeVisible();
      await expect(cell(page, adam, D1).getByText('Booked', { exact: true })).toHaveCount(0);

      await expect(cell(page, adam, D1)).toHaveAttribute('data-note', 'urgent');
      await expect(cell(page, adam, D2)).toHaveAttribute('data-note', 'high');
      await expect(cell(page, zara, D0)).toHaveAttribute('data-note', 'normal');
      await expect(cell(page, adam, D0)).not.toHaveAttribute('data-note');
      const iconColour = (person: Person, date: string) =>
        cell(page, person, date)
          .getByTestId('note-icon')
          .evaluate((el) => getComputedStyle(el).color);
      const red = await iconColour(adam, D1);
      const orange = await iconColour(adam, D2);
      const blue = await iconColour(zara, D0);
      expect(new Set([red, orange, blue]).size).toBe(3);
      expect(red).toMatch(/rgb\(2\d\d, \d{1,2}, \d{1,2}\)|oklch/);

      await expect(cell(page, adam, D1)).toHaveAccessibleName(/Limited Availability, Has urgent notes/);
      await expect(cell(page, adam, D3)).toHaveAccessibleName(/No availability set, Booked/);

      // week view, navigation and exactly the visible range requested
      await page.getByRole('button', { name: 'Week', exact: true }).click();
      await expect(page.getByRole('button', { name: 'Week', exact: true })).toHaveAttribute(
        'aria-pressed',
        'true',
      );
      const week = weekDays(TODAY);
      await expect(headers).toHaveCount(5);
      expect(await headers.evaluateAll((els) => els.map((el) => el.getAttribute('data-date')))).toEqual(week);
      await expect(headers.first()).toContainText('Mon');
      if (week.includes(TODAY)) {
        await expect(page.locator(`[data-testid="day-header"][data-date="${TODAY}"]`)).toHaveAttribute(
          'aria-current',
          'date',
        );
      }
      await expect.poll(() => requested).toContain(`grid ${week[0]} ${week[4]}`);

      await page.getByRole('button', { name: 'Next week' }).click();
      const nextMonday = addDays(startOfWeekMonday(TODAY), 7);
      await expect(headers.first()).toHaveAttribute('data-date', nextMonday);
      await expect.poll(() => requested).toContain(`grid ${nextMonday} ${addDays(nextMonday, 4)}`);
      await page.getByRole('button', { name: 'Previous week' }).click();
      await page.getByRole('button', { name: 'Previous week' }).click();
      await expect(headers.first()).toHaveAttribute('data-date', addDays(startOfWeekMonday(TODAY), -7));
      await page.getByRole('button', { name: 'Today' }).click();
      await expect(headers.first()).toHaveAttribute('data-date', week[0]!);

      await checkScreen(page, testInfo, 'staff-dashboard-week');

      // month navigation
      await page.getByRole('button', { name: 'Month', exact: true }).click();
      await page.getByRole('button', { name: 'Next month' }).click();
      const nextMonthDays = monthWeekdays(addDays(MONTH_DAYS[MONTH_DAYS.length - 1]!, 7));
      await expect(page.getByTestId('grid-label')).toHaveText(monthLabel(nextMonthDays[0]!));
      await expect(headers).toHaveCount(nextMonthDays.length);
      await expect
        .poll(() => requested)
        .toContain(`grid ${nextMonthDays[0]} ${nextMonthDays[nextMonthDays.length - 1]}`);
      await page.getByRole('button', { name: 'Today' }).click();
      await expect(page.getByTestId('grid-label')).toHaveText(monthLabel(TODAY));

      // a month that cannot be read says so in place of the rows; the controls stay, and Try again reads it
      await page.route(
        (url) => url.pathname === '/api/staff/grid',
        (route) => route.fulfill({ status: 503, json: { message: 'The portal is busy.' } }),
        { times: 1 },
      );
      await page.getByRole('button', { name: 'Previous month' }).click();
      const failed = page.getByRole('alert').filter({ hasText: 'The dashboard could not be loaded' });
      await expect(failed).toContainText('The dashboard could not be loaded: The portal is busy.');
      await expect(page.getByRole('searchbox', { name: 'Search by name or email' })).toBeVisible();
      await checkScreen(page, testInfo, 'staff-dashboard-read-failed');
      await failed.getByRole('button', { name: 'Try again' }).click();
      await expect(page.getByTestId('grid-count')).toBeVisible();
      await expect(failed).toHaveCount(0);
      await page.getByRole('button', { name: 'Today' }).click();
      await expect(page.getByTestId('grid-label')).toHaveText(monthLabel(TODAY));
      // every request was for a range the grid showed: never more than a month of weekdays
      for (const entry of requested) {
        const [, from, to] = entry.split(' ');
        expect(from! <= to!).toBe(true);
        expect(new Date(to!).getTime() - new Date(from!).getTime()).toBeLessThan(31 * 86_400_000);
      }

      await page.getByRole('link', { name: 'Manage Users' }).click();
      await expect(page).toHaveURL(/\/staff\/users$/);
    } finally {
      await api.delete(`/api/staff/users/${first.id}`);
      await api.dispose();
    }
  });

  test(
    'grid geometry: column widths, 70vh on a desktop, sticky header and first column, Monday borders; a search',
    { tag: '@phone' },
    async ({ page }, testInfo) => {
      await openDashboard(page, scenario);
      const widthOf = (locator: ReturnType<Page['locator']>) =>
        locator.evaluate((el) => el.getBoundingClientRect().width);
      // the set widths on a desktop; a phone narrows them to fit a working week beside the names
      const phone = testInfo.project.name === 'phone';
      expect(await widthOf(page.getByTestId('first-column-header'))).toBe(phone ? 128 : 200);
      expect(await widthOf(page.getByTestId('day-header').first())).toBe(phone ? 42 : 80);
      // 70 % of the window on a desktop; on a phone the page scrolls the grid (ADR 80)
      const scroll = page.getByTestId('grid-scroll');
      const maxHeight = await scroll.evaluate((el) => getComputedStyle(el).maxHeight);
      const viewportHeight = page.viewportSize()!.height;
      if (phone) expect(maxHeight).toBe('none');
      else expect(Number.parseFloat(maxHeight)).toBeCloseTo(viewportHeight * 0.7, 0);

      const borders = await page
        .getByTestId('day-header')
        .evaluateAll((els) =>
          els.map((el) => [el.getAttribute('data-date'), getComputedStyle(el).borderLeftWidth]),
        );
      for (const [date, width] of borders) {
        const isMonday = new Date(`${date}T12:00:00Z`).getUTCDay() === 1;
        expect(width, `${date}`).toBe(isMonday ? '3px' : '1px');
      }

      await page.getByRole('button', { name: 'Week', exact: true }).click();
      // a week's columns are 120 px at least and widen to fill the card on a desktop
      const weekColumn = await widthOf(page.getByTestId('day-header').first());
      if (phone) expect(weekColumn).toBe(42);
      else expect(weekColumn).toBeGreaterThanOrEqual(120);

      // sticky: after scrolling down (a desktop's grid) and right, the header row and first column stay
      await page.getByRole('button', { name: 'Month', exact: true }).click();
      const header = page.locator('thead');
      const firstHeader = page.getByTestId('first-column-header');
      const before = await scroll.evaluate((el) => el.getBoundingClientRect().top);
      await scroll.evaluate((el) => {
        el.scrollTop = 400;
        el.scrollLeft = 300;
      });
      expect(await header.evaluate((el) => getComputedStyle(el).position)).toBe('sticky');
      expect(await firstHeader.evaluate((el) => getComputedStyle(el).position)).toBe('sticky');
      const headerTop = await header.evaluate((el) => el.getBoundingClientRect().top);
      if (!phone) expect(Math.abs(headerTop - before)).toBeLessThan(3);
      const scrollLeft = await scroll.evaluate((el) => el.getBoundingClientRect().left);
      const firstLeft = await firstHeader.evaluate((el) => el.getBoundingClientRect().left);
      if ((await scroll.evaluate((el) => el.scrollLeft)) > 0)
        expect(Math.abs(firstLeft - scrollLeft)).toBeLessThan(3);

      // a search, typed in capitals: the server finds the name whatever its case
      // (the box's behaviour is in src/client/app/routes/staff-dashboard.test.tsx)
      await chooseAreas(page, [scenario.area, scenario.otherArea]);
      await page
        .getByRole('searchbox', { name: 'Search by name or email' })
        .fill(scenario.zara.displayName.toUpperCase());
      await expect.poll(() => rowNames(page)).toEqual([scenario.zara.displayName]);
      await expect(page.getByTestId('grid-count')).toContainText('Showing 1 of');
      await checkScreen(page, testInfo, 'staff-dashboard-search');
      // and an email finds its facilitator
      await page.getByRole('searchbox', { name: 'Search by name or email' }).fill(scenario.beth.username);
      await expect.poll(() => rowNames(page)).toEqual([scenario.beth.displayName]);
    },
  );

  test('filters: areas preselected, none shows nobody, No area option, facilitators all and none; the rows', async ({
    page,
  }, testInfo) => {
    await openDashboard(page, scenario);
    // every area (and "No area") is selected at first load
    await page.getByTestId('area-filter').click();
    const areas = page.getByRole('dialog', { name: 'Choose areas' });
    await expect(areas.getByRole('checkbox', { name: scenario.area, exact: true })).toBeChecked();
    await expect(areas.getByRole('checkbox', { name: scenario.otherArea, exact: true })).toBeChecked();
    // the shared facilitators (Alice, Ben) have no area: they sit under "No area"
    await expect(areas.getByRole('checkbox', { name: 'No area', exact: true })).toBeChecked();
    await expect(page.getByTestId('area-filter')).toContainText('Areas: All');

    // none selected: nobody shown
    await areas.getByRole('button', { name: 'None', exact: true }).click();
    await expect(page.getByTestId('area-filter')).toContainText('Areas: None');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('grid-row')).toHaveCount(0);
    await expect(page.getByTestId('grid-empty')).toHaveText('No facilitators match the selected filters.');
    await expect(page.getByTestId('grid-count')).toContainText('Showing 0 of');
    await checkScreen(page, testInfo, 'staff-dashboard-no-area-selected');

    // "No area" alone shows Alice and not our area's people
    await chooseAreas(page, ['No area']);
    await expect(page.getByTestId('row-name').filter({ hasText: 'Alice Walker' })).toBeVisible();
    await expect(row(page, scenario.adam)).toHaveCount(0);

    // one area
    await chooseAreas(page, [scenario.otherArea]);
    await expect.poll(() => rowNames(page)).toEqual([scenario.beth.displayName]);

    // facilitators: none, then one, then all
    await chooseAreas(page, [scenario.area, scenario.otherArea]);
    await page.getByTestId('facilitator-filter').click();
    const chooser = page.getByRole('dialog', { name: 'Choose facilitators' });
    await chooser.getByRole('button', { name: 'None', exact: true }).click();
    await expect(page.getByTestId('facilitator-filter')).toContainText('Facilitators: None');
    await expect(page.getByTestId('grid-row')).toHaveCount(0);
    await chooser.getByRole('textbox', { name: 'Search facilitators' }).fill(scenario.zara.displayName);
    await chooser.getByRole('checkbox', { name: new RegExp(scenario.zara.displayName) }).check();
    await page.keyboard.press('Escape');
    await expect.poll(() => rowNames(page)).toEqual([scenario.zara.displayName]);
    // opened again, the list still has its search and the choice made in it
    await page.getByTestId('facilitator-filter').click();
    await expect(chooser.getByRole('textbox', { name: 'Search facilitators' })).toHaveValue(
      scenario.zara.displayName,
    );
    await expect(
      chooser.getByRole('checkbox', { name: new RegExp(scenario.zara.displayName) }),
    ).toBeChecked();
    await chooser.getByRole('button', { name: 'All', exact: true }).click();
    await page.keyboard.press('Escape');
    await expect
      .poll(() => rowNames(page))
      .toEqual([scenario.adam.displayName, scenario.beth.displayName, scenario.zara.displayName]);
    await expect(page.getByTestId('facilitator-filter')).toContainText('Facilitators: All');

    // rows: sorted case-insensitively (above), name, email and last update
    await expect(row(page, scenario.adam)).toContainText(scenario.adam.username);
    await expect(row(page, scenario.adam).getByTestId('row-updated')).toHaveText(
      /^Last updated: \d{1,2} \w{3} \d{4}$/,
    );
    await expect(row(page, scenario.beth).getByTestId('row-updated')).toHaveText('No availability set');
    await expect(page.getByTestId('grid-count')).toContainText('Showing 3 of');

    // the staff account is never a row and never a filter choice
    await page.getByTestId('facilitator-filter').click();
    await chooser.getByRole('textbox', { name: 'Search facilitators' }).fill('e2e-staff@example.org');
    await expect(chooser.getByText('No facilitators found.')).toBeVisible();
    await page.keyboard.press('Escape');
  });
});

test.describe('staff dashboard: the day dialog changes the scenario', () => {
  let scenario: Scenario;
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a function asks for from this pattern
  test.beforeEach(async ({}, testInfo) => {
    scenario = await makeScenario(`${testInfo.project.name}${testInfo.workerIndex}`);
  });
  test.afterEach(async ({ page }) => {
    await finishServingBookings({ page });
    await scenario.cleanup();
  });

  test("day dialog: notes listed by priority, added and deleted; a day's availability edited; the grid follows", async ({
    page,
  }, testInfo) => {
    // the dialog's forms on their own (defaults, blanks refused, Cancel, failures):
    // day-availability.test.tsx and day-notes.test.tsx
    await openDashboard(page, scenario);
    await chooseAreas(page, [scenario.area]);
    const { adam } = scenario;
    await showGridDay(page, D1);
    await cell(page, adam, D1).click();
    const dialog = page.getByRole('dialog', { name: adam.displayName });
    await expect(dialog.getByTestId('availability-view')).toContainText('Limited Availability');
    await expect(dialog.getByTestId('availability-view')).toContainText('10:00 AM – 2:00 PM');
    const items = dialog.getByTestId('note-item');
    await expect(items).toHaveCount(2);
    await expect(items.first()).toContainText('Urgent');
    await expect(items.first()).toContainText('Call before Friday');
    await expect(items.nth(1)).toContainText('Normal');
    await checkScreen(page, testInfo, 'staff-day-dialog-notes');

    // a high note is added: the list is read again
    await dialog.getByRole('textbox', { name: 'New note' }).fill('Bring the kiln key');
    await chooseOption(dialog.getByRole('combobox', { name: 'Priority' }).last(), 'High');
    await dialog.getByRole('button', { name: 'Add Note' }).click();
    await expect(toastLocator(page)).toContainText('Note created');
    await expect(items).toHaveCount(3);
    await expect(items.filter({ hasText: 'Bring the kiln key' })).toContainText('High');

    // deleting the urgent note, asked about by its priority, leaves the high one as the icon's colour
    await items.first().getByRole('button', { name: 'Delete note' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm.getByRole('heading')).toHaveText('Delete this urgent note?');
    await checkScreen(page, testInfo, 'staff-note-delete-confirm');
    await confirm.getByRole('button', { name: 'Delete note' }).click();
    await expect(toastLocator(page)).toContainText('Note deleted');
    await expect(items).toHaveCount(2);
    await expect(items.first()).toContainText('Bring the kiln key');
    await closeDialog(dialog);
    await expect(cell(page, adam, D1)).toHaveAttribute('data-note', 'high');

    // an empty day: edit opens with 09:00 to 17:00, is marked unavailable and saved, and given a note
    await cell(page, adam, D4).click();
    await expect(dialog.getByTestId('availability-view')).toHaveText('No availability set');
    await dialog.getByRole('button', { name: 'Edit', exact: true }).click();
    await expect(dialog.getByRole('combobox', { name: 'Start Time (optional)' })).toHaveText('9:00 AM');
    await expect(dialog.getByRole('radio', { name: 'Available', exact: true })).toBeChecked();
    await checkScreen(page, testInfo, 'staff-day-dialog-edit');
    await dialog.getByRole('radio', { name: 'Unavailable' }).check();
    await dialog.getByRole('textbox', { name: 'Notes (optional)' }).fill('Set by staff e2e');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(toastLocator(page)).toContainText('Availability updated');
    // the view shows the day as the grid reads it again
    await expect(dialog.getByTestId('availability-view')).toContainText('Unavailable');
    await expect(dialog.getByTestId('availability-view')).toContainText('No times set');
    await expect(dialog.getByTestId('availability-view')).toContainText('Set by staff e2e');
    expect(await staffDay(page, adam.id, D4)).toMatchObject({
      status: 'unavailable',
      startTime: '',
      endTime: '',
    });
    await dialog.getByRole('textbox', { name: 'New note' }).fill('Urgent thing');
    await chooseOption(dialog.getByRole('combobox', { name: 'Priority' }).last(), 'Urgent');
    await dialog.getByRole('button', { name: 'Add Note' }).click();
    await expect(dialog.getByTestId('note-item')).toHaveCount(1);
    await closeDialog(dialog);
    await expect(cell(page, adam, D4)).toHaveAttribute('data-tone', 'unavailable');
    await expect(cell(page, adam, D4)).toHaveAttribute('data-note', 'urgent');
  });
});

test.describe('staff dashboard without scenario data', () => {
  test('a portal without SharePoint settings says so and points to Settings, not to a schedule', async ({
    page,
  }, testInfo) => {
    await loginAsStaff(page);
    // what a fresh install answers (the e2e server has settings, so the answers say otherwise)
    await page.route('**/api/admin/scheduler/status', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...(await response.json()), sharePointConfigured: false } });
    });
    await page.route('**/api/staff/sessions', async (route) => {
      const response = await route.fetch();
      await route.fulfill({
        response,
        json: { sessions: [], pending: [], sharePointConfigured: false },
      });
    });
    await page.goto('/staff');
    const mode = page.getByTestId('change-mode');
    await expect(mode).toHaveText(
      'SharePoint is not set up yet, so no bookings come in: set it up in Settings',
    );
    await expect(mode.getByRole('link', { name: 'set it up in Settings' })).toHaveAttribute(
      'href',
      '/settings',
    );
    await expect(page.getByText('checked on a schedule')).toHaveCount(0);
    await checkScreen(page, testInfo, 'dashboard-not-set-up');

    await page.goto('/staff/sessions');
    await expect(page.getByRole('status').filter({ hasText: 'SharePoint is not set up yet' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Set it up in Settings' })).toHaveAttribute(
      'href',
      '/settings',
    );
    await expect(page.getByText('has a facilitator')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Refresh from SharePoint' })).toBeDisabled();
    await checkScreen(page, testInfo, 'open-sessions-not-set-up');
  });

  test('refresh bookings from the emulator: success refetches bookings and clears after 1 s; a SharePoint failure shows why', async ({
    page,
  }, testInfo) => {
    await loginAsStaff(page);
    let bookingLoads = 0;
    // the grid's first page, which holds the bookings
    page.on('request', (request) => {
      if (/\/api\/staff\/grid\?(?!.*cursor=)/.test(request.url())) bookingLoads += 1;
    });
    // the second refresh's answer is held back until the in-between state has been checked
    let release: () => void = () => {};
    let held: Promise<void> | null = null;
    await page.route('**/api/staff/bookings/refresh', async (route) => {
      if (held) await held;
      await route.continue();
    });
    await page.goto('/staff');
    await expect(page.getByTestId('schedule-grid')).toBeVisible();
    expect(bookingLoads).toBe(1);

    // success
    // no other test's refresh runs meanwhile: the page would rightly show that refresh's stage
    await withSharePointLock(async () => {
      await recordRefreshStates(page);
      const refreshed = page.waitForResponse('**/api/staff/bookings/refresh');
      await page.getByRole('button', { name: 'Refresh Bookings' }).click();
      const response = await refreshed;
      expect(response.status(), await response.text()).toBe(200);
      expect(await response.json()).toMatchObject({ added: expect.any(Number), total: expect.any(Number) });
    });
    await expect(page.getByTestId('refresh-message')).toHaveText('Complete!');
    const completeSeenAt = Date.now();
    await expect.poll(() => bookingLoads).toBe(2);
    await expect(page.getByTestId('refresh-message')).toHaveCount(0);
    // shown for 1 s; the bound leaves room for noticing it late on a busy machine
    expect(Date.now() - completeSeenAt).toBeGreaterThan(250);
    // "Processing" shows only when the page read the server's stage during its short storing step
    // (e2e/sharepoint.spec.ts holds SharePoint's answers to see every stage)
    const states = await refreshStates(page);
    expect(states.filter((state) => state !== 'Processing booking data...@75')).toEqual([
      'Connecting to SharePoint...@25',
      'Complete!@100',
      'cleared',
    ]);
    expect(states.indexOf('Processing booking data...@75')).toBeLessThanOrEqual(1);

    // failure
    held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await withSharePointLock(async () => {
      await recordRefreshStates(page);
      const started = page.waitForResponse('**/api/staff/bookings/refresh');
      // the page reads the server's stage while its refresh is asked for: nothing has reached SharePoint
      const statusRead = page.waitForResponse('**/api/admin/scheduler/status');
      await page.getByRole('button', { name: 'Refresh Bookings' }).click();
      await expect(page.getByRole('button', { name: 'Refreshing...' })).toBeDisabled();
      await statusRead;
      await expect(page.getByTestId('refresh-message')).toHaveText('Connecting to SharePoint...');
      await checkScreen(page, testInfo, 'staff-dashboard-refreshing');
      // the request is still held in the browser: the server's refresh only starts at release().
      // SharePoint is down for the change feed: every try answers 503 (a short Retry-After keeps the
      // connector's retries quick), so the refresh gives up with a real error
      const restore = await addFault({
        path: BOOKINGS_DELTA,
        times: 'always',
        action: { type: 'status', status: 503, retryAfter: 0.1 },
      });
      try {
        release();
        const response = await started;
        expect(response.status()).toBe(503);
        expect(((await response.json()) as { message: string }).message).toMatch(
          /^Could not refresh bookings: /,
        );
      } finally {
        await restore();
      }
    });
    await expect(page.getByTestId('refresh-message')).toHaveText('Error occurred during refresh');
    const errorSeenAt = Date.now();
    // the reason stays in a toast after the line clears, with the way to the settings
    await expect(toastLocator(page)).toContainText('Could not refresh bookings');
    await expect(
      toastLocator(page).getByRole('link', { name: 'Check the SharePoint settings' }),
    ).toHaveAttribute('href', '/settings');
    await expect(page.getByRole('button', { name: 'Refresh Bookings' })).toBeEnabled();
    await expect(page.getByTestId('refresh-message')).toHaveCount(0);
    // shown for 2 s; the bound leaves room for noticing it late on a busy machine
    expect(Date.now() - errorSeenAt).toBeGreaterThan(600);
    // SharePoint never sent the changes, so the server never reached "Processing" and neither did the page
    expect(await refreshStates(page)).toEqual([
      'Connecting to SharePoint...@25',
      'Error occurred during refresh@50',
      'cleared',
    ]);
  });
});
