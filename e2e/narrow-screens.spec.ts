import type { Locator, Page, TestInfo } from '@playwright/test';
import { hostToday } from './calendar-fixtures';
import { addDays, startOfWeekMonday } from './dates';
import {
  addAvailableFacilitator,
  expect as baseExpect,
  checkScreen,
  chooseAreas,
  laptopOnDesktop,
  loginAsStaff,
  staffApi,
  test,
} from './fixtures';
import { recordValidDbsCheck } from './safeguarding-records';
import { userAction } from './table';

/*
 * The staff screens people reported on a 390 px phone and a 1366 px laptop: names readable in full,
 * nothing wider than the screen, nothing cut, dialogs whose buttons stay on screen. Every run makes
 * its own facilitators in an area of its own, so the two projects never see each other's.
 */
const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 150_000 });

// Wednesday of next week: a working day whatever today is, inside the grid's two weeks
const DAY = addDays(startOfWeekMonday(hostToday()), 9);
const UNBROKEN = 'Maximilianbartholomewfeatherstonehaughmontgomery';
const LONG_NOTE = `Bring${'x'.repeat(300)}`;

interface Person {
  id: number;
  name: string;
  username: string;
}

interface Scene {
  tag: string;
  area: string;
  chloe: Person;
  chloe2: Person;
  unbroken: Person;
  cleanup: () => Promise<void>;
}

async function makeScene(testInfo: TestInfo): Promise<Scene> {
  const api = await staffApi();
  const tag = `${testInfo.project.name}-${Date.now()}`;
  const area = `Narrow ${tag}`;
  const made: Person[] = [];
  const person = async (name: string) => {
    const username = `narrow-${made.length}-${tag}@a-rather-long-school-domain.example.org`;
    const id = await addAvailableFacilitator(
      api,
      { username, password: 'narrow-pass-1', displayName: name, area },
      DAY,
      LONG_NOTE,
    );
    await recordValidDbsCheck(api, id, 60);
    const made1 = { id, name, username };
    made.push(made1);
    return made1;
  };
  const chloe = await person('Chloe Abernathy-Smithson');
  const chloe2 = await person('Chloe Abernathy-Smythe');
  const unbroken = await person(UNBROKEN);
  return {
    tag,
    area,
    chloe,
    chloe2,
    unbroken,
    cleanup: async () => {
      for (const p of made) await api.delete(`/api/staff/users/${p.id}`);
      await api.dispose();
    },
  };
}

/** This test's facilitators, and the page signed in as staff at the project's width. */
async function sceneForStaff(page: Page, testInfo: TestInfo): Promise<Scene> {
  const scene = await makeScene(testInfo);
  await laptopOnDesktop(page, testInfo);
  await loginAsStaff(page);
  return scene;
}

/** Whether an element shows all of its text: nothing cut off by truncation or line clamping. */
const showsAll = (locator: Locator) =>
  locator.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1);

/** How far the page is wider than the window (0: it fits). */
const overflowX = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

const box = async (locator: Locator) => (await locator.boundingBox())!;

test(
  'the staff grid: whole names, the navigation on one line, and on a phone one scroll',
  { tag: '@phone' },
  async ({ page }, testInfo) => {
    const scene = await sceneForStaff(page, testInfo);
    const phone = testInfo.project.name === 'phone';
    try {
      await page.goto('/staff');
      await expect(page.getByTestId('schedule-grid')).toBeVisible();
      await chooseAreas(page, [scene.area]);
      await page.getByRole('button', { name: '2 weeks', exact: true }).click();

      const rows = page.getByTestId('grid-row');
      await expect(rows).toHaveCount(3);
      const names = rows.getByTestId('row-name');
      // two people whose names start alike are told apart, and a long unbroken name is readable too
      await expect(names).toHaveText(['Chloe Abernathy-Smithson', 'Chloe Abernathy-Smythe', UNBROKEN]);
      // the two Chloes whole; a name of 48 letters without a space gets three lines, and its title
      for (const name of (await names.all()).slice(0, 2)) expect(await showsAll(name)).toBe(true);
      await expect(names.last()).toHaveAttribute('title', UNBROKEN);
      for (const updated of await rows.getByTestId('row-updated').all()) {
        await expect(updated).toHaveText(/^Last updated: /);
        expect(await showsAll(updated)).toBe(true);
      }

      // previous, Today, next and the range they show on one line
      const navigation = page.getByTestId('grid-navigation');
      const middles = await Promise.all(
        [
          navigation.getByRole('button', { name: 'Previous 2 weeks' }),
          navigation.getByRole('button', { name: 'Today' }),
          navigation.getByRole('button', { name: 'Next 2 weeks' }),
        ].map(async (button) => {
          const { y, height } = await box(button);
          return Math.round(y + height / 2);
        }),
      );
      expect(new Set(middles).size).toBe(1);

      // a phone scrolls the page only; a desktop's grid keeps its own scroll in 70 % of the window
      const scroll = page.getByTestId('grid-scroll');
      const style = await scroll.evaluate((el) => ({
        maxHeight: getComputedStyle(el).maxHeight,
        inner: el.scrollHeight - el.clientHeight,
      }));
      if (phone) {
        expect(style.maxHeight).toBe('none');
        expect(style.inner).toBeLessThanOrEqual(1);
      } else {
        expect(Number.parseFloat(style.maxHeight)).toBeCloseTo(page.viewportSize()!.height * 0.7, 0);
      }
      expect(await overflowX(page)).toBeLessThanOrEqual(0);
      await checkScreen(page, testInfo, 'grid-names');
    } finally {
      await scene.cleanup();
    }
  },
);

test(
  'a long note keeps the day dialog inside the screen, its buttons in reach',
  { tag: '@phone' },
  async ({ page }, testInfo) => {
    const scene = await sceneForStaff(page, testInfo);
    try {
      const api = await staffApi();
      const note = await api.post('/api/staff/notes', {
        data: {
          facilitatorId: scene.unbroken.id,
          date: DAY,
          note: `Call${'y'.repeat(300)}`,
          priority: 'urgent',
        },
      });
      expect(note.status(), await note.text()).toBe(201);
      await api.dispose();
      await page.goto('/staff');
      await chooseAreas(page, [scene.area]);
      await page.getByRole('button', { name: '2 weeks', exact: true }).click();
      const cell = page.locator(
        `[data-testid="grid-row"][data-user-id="${scene.unbroken.id}"] [data-testid="grid-cell"][data-date="${DAY}"]`,
      );
      await cell.scrollIntoViewIfNeeded();
      await cell.click();
      const dialog = page.getByRole('dialog', { name: UNBROKEN });
      await expect(dialog.getByTestId('availability-view')).toContainText(LONG_NOTE);
      await expect(dialog.getByTestId('note-item')).toHaveCount(1);
      expect(await dialog.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
      const width = page.viewportSize()!.width;
      for (const button of [
        dialog.getByRole('button', { name: 'Edit', exact: true }),
        dialog.getByRole('button', { name: 'Delete note' }),
        dialog.getByRole('button', { name: 'Add Note' }),
      ]) {
        const { x, width: w } = await box(button);
        expect(x).toBeGreaterThanOrEqual(0);
        expect(x + w).toBeLessThanOrEqual(width);
      }
      await checkScreen(page, testInfo, 'day-dialog-long-note');
    } finally {
      await scene.cleanup();
    }
  },
);

test(
  'who is free: a long unbroken name wraps inside its card',
  { tag: '@phone' },
  async ({ page }, testInfo) => {
    const scene = await sceneForStaff(page, testInfo);
    try {
      await page.goto(`/staff/free?date=${DAY}&areas=${encodeURIComponent(scene.area)}`);
      const card = page.locator(`[data-testid="free-row"][data-name="${UNBROKEN}"]`);
      await expect(card).toBeVisible();
      const { x, width } = await box(card);
      expect(x + width).toBeLessThanOrEqual(page.viewportSize()!.width);
      expect(await overflowX(page)).toBeLessThanOrEqual(0);
      await checkScreen(page, testInfo, 'free-long-name');
    } finally {
      await scene.cleanup();
    }
  },
);

/** The right edge of the sticky Actions column's cell in a row, and of everything before it. */
async function rightOfColumnsBeforeActions(row: Locator) {
  return row.evaluate((tr) => {
    const cells = [...tr.querySelectorAll('td')].filter((td) => getComputedStyle(td).display !== 'none');
    const actions = cells.at(-1)!.getBoundingClientRect();
    const role = [...tr.querySelectorAll('[data-role-look]')]
      .find((badge) => badge.getClientRects().length > 0)!
      .getBoundingClientRect();
    return { actionsLeft: actions.left, roleRight: role.right };
  });
}

test(
  'the users page: state and actions in words on a phone, the role whole at 1366 px',
  { tag: '@phone' },
  async ({ page }, testInfo) => {
    const scene = await sceneForStaff(page, testInfo);
    const phone = testInfo.project.name === 'phone';
    try {
      await page.goto('/staff/users');
      await page.getByRole('searchbox', { name: 'Search facilitators' }).fill(scene.area);
      const rows = page.locator('tbody tr');
      await expect(rows).toHaveCount(3);
      const row = rows.filter({ hasText: scene.chloe.username });
      if (phone) {
        // the safeguarding state and role under the name, not in columns of their own
        await expect(page.getByRole('columnheader')).toHaveText([
          'Name',
          'Username',
          'Email',
          'Freelancer ID',
          'Area',
          'Actions',
        ]);
        await expect(row.getByTestId('user-badges')).toBeVisible();
        await expect(row.getByTestId('user-badges')).toContainText('Checks valid');
        await expect(row.getByTestId('user-badges')).toContainText(/facilitator/i);
      } else {
        await expect(row.getByTestId('user-safeguarding')).toHaveText('Checks valid');
        // the table fits a laptop: the role is not under the sticky actions
        const { actionsLeft, roleRight } = await rightOfColumnsBeforeActions(row);
        expect(roleRight).toBeLessThanOrEqual(actionsLeft);
        expect(await showsAll(row.locator('[data-role-look]').filter({ visible: true }))).toBe(true);
      }
      await expect(row.getByTestId('user-name')).toHaveText(scene.chloe.name);
      expect(await overflowX(page)).toBeLessThanOrEqual(0);
      await checkScreen(page, testInfo, 'users-narrow');

      // one Actions button per row, its choices in words
      await row.getByRole('button', { name: `Actions for ${scene.chloe.name}` }).click();
      await expect(page.getByRole('menuitem')).toHaveText([
        'History',
        'Safeguarding records',
        'Personal data',
        'Edit',
        'Invite to set a password',
        'Clear sign-in pauses',
        'Deactivate (a leaver)',
        'Erase personal data…',
        'Delete',
      ]);
      await checkScreen(page, testInfo, 'users-actions-menu');
      await page.keyboard.press('Escape');
      await userAction(page, row, scene.chloe.name, 'Safeguarding records');
      await expect(
        page.getByRole('dialog', { name: `Safeguarding records of ${scene.chloe.name}` }),
      ).toBeVisible();
    } finally {
      await scene.cleanup();
    }
  },
);

test(
  'completeness on a phone: each status, weekday count and email in view',
  { tag: '@phone' },
  async ({ page }, testInfo) => {
    const scene = await sceneForStaff(page, testInfo);
    try {
      await page.goto(`/staff/completeness?month=${DAY.slice(0, 7)}&area=${encodeURIComponent(scene.area)}`);
      const rows = page.getByTestId('completeness-row');
      await expect(rows).toHaveCount(3);
      const region = await box(page.getByRole('table', { name: /^Availability completeness, / }));
      const width = page.viewportSize()!.width;
      for (const row of await rows.all()) {
        for (const part of [
          row.locator('[data-slot="badge"]'),
          row.getByText(/ of \d+ weekdays$/),
          row.getByText(/@a-rather-long-school-domain/),
        ]) {
          const { x, width: w } = await box(part);
          expect(x + w).toBeLessThanOrEqual(Math.min(width, region.x + region.width) + 1);
        }
        await expect(row.locator('[data-slot="badge"]')).toHaveText('Partial');
        expect(await showsAll(row.locator('[data-slot="badge"]'))).toBe(true);
      }
      await checkScreen(page, testInfo, 'completeness-narrow');
    } finally {
      await scene.cleanup();
    }
  },
);

test(
  'the new-session dialog opens on itself, not in a field',
  { tag: '@phone' },
  async ({ page }, testInfo) => {
    await laptopOnDesktop(page, testInfo);
    await loginAsStaff(page);
    await page.goto('/staff/sessions');
    await page.getByRole('button', { name: 'New session' }).click();
    const dialog = page.getByRole('dialog', { name: 'New session' });
    await expect(dialog).toBeFocused();
    // a date too far ahead is refused by the picker and by the server alike
    await expect(dialog.getByLabel('Date')).toHaveAttribute('max', /^\d{4}-\d{2}-\d{2}$/);
    await dialog.getByRole('button', { name: 'Create session' }).click();
    await expect(dialog.getByText("Choose the session's date")).toBeVisible();
    await checkScreen(page, testInfo, 'new-session-dialog');
  },
);
