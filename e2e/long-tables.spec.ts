import type { Locator, Page } from '@playwright/test';
import {
  DEFAULT_CLIENT_DIR,
  SESSION_COOKIE_NAME,
  type SeededApp,
  startSeededApp,
} from '../bench/serve-seeded';
import { SESSION_HINT_COOKIE } from '../src/shared/sign-in';
import { expect as baseExpect, checkScreen, test } from './fixtures';

/*
 * Tables of more than a hundred rows draw only the rows in view (ADR 49). The shared e2e server
 * has far fewer accounts, so these tests run the real app seeded with an organisation of its own
 * (bench/serve-seeded.ts, the one the Lighthouse bench measures), on a port of its own.
 */
const FACILITATORS = 300;
const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ mode: 'serial', timeout: 180_000 });

let app: SeededApp;
test.beforeAll(async () => {
  test.setTimeout(180_000);
  // the build the e2e server serves (E2E_BUILD_DIR, as in e2e/serve.mjs), else dist/client
  app = await startSeededApp({
    facilitators: FACILITATORS,
    clientDir: process.env.E2E_BUILD_DIR ?? DEFAULT_CLIENT_DIR,
  });
});
test.afterAll(async () => {
  await app?.close();
});

async function openAsStaff(page: Page, path: string) {
  await page.context().addCookies([
    { name: SESSION_COOKIE_NAME, value: app.staffSession, url: app.address, httpOnly: true, sameSite: 'Lax' },
    { name: SESSION_HINT_COOKIE, value: '1', url: app.address, sameSite: 'Lax' },
  ]);
  await page.goto(`${app.address}${path}`);
}

/**
 * Counts, from the page's start, every resize of the empty rows standing in for the rows not drawn.
 * Rows measured taller or shorter than the table's estimate change how many fit, and the table
 * draws itself again as it opens.
 */
async function countSpacerResizes(page: Page) {
  await page.addInitScript(() => {
    const counter = window as unknown as { spacerResizes: number };
    counter.spacerResizes = 0;
    new MutationObserver((changes) => {
      for (const change of changes) {
        if ((change.target as Element).getAttribute('data-slot') === 'table-spacer') counter.spacerResizes++;
      }
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['style'] });
  });
}

/** The rows are as tall as the table expects: it opened in one drawing, not two. */
async function expectOneDrawing(page: Page, rows: Locator) {
  await expect(rows.last()).toBeVisible();
  // rows are measured as they mount and again by a ResizeObserver, which reports after a frame
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  expect(await page.evaluate(() => (window as unknown as { spacerResizes: number }).spacerResizes)).toBe(0);
}

/** Scrolls `scroller` to its end until `item` is drawn (items are measured as they come, so the end moves). */
async function scrollUntilDrawn(scroller: Locator, item: Locator) {
  await expect
    .poll(async () => {
      await scroller.evaluate((element) => {
        element.scrollTop = element.scrollHeight;
      });
      return item.count();
    })
    .toBe(1);
  await expect(item).toBeVisible();
  return item;
}

/** Scrolls the table's region to its end until the row at `rowIndex` is drawn. */
function scrollToRow(region: Locator, table: Locator, rowIndex: number) {
  return scrollUntilDrawn(region, table.locator(`tr[aria-rowindex="${rowIndex}"]`));
}

test('the users table of 301 accounts draws the rows in view, and finds, scrolls and reads as a table of 301', async ({
  page,
}, testInfo) => {
  await countSpacerResizes(page);
  await openAsStaff(page, '/staff/users');
  await expect(page.getByRole('heading', { name: `Facilitators (${FACILITATORS + 1})` })).toBeVisible();
  const table = page.getByRole('table', { name: 'Facilitators' });
  const region = page.getByRole('region', { name: 'Facilitators, scrollable' });
  // the header row and every account, for assistive technology
  await expect(table).toHaveAttribute('aria-rowcount', String(FACILITATORS + 2));
  const rows = table.locator('tbody tr[aria-rowindex]');
  await expect(rows.first()).toHaveAttribute('aria-rowindex', '2');
  const drawn = await rows.count();
  expect(drawn).toBeGreaterThan(5);
  expect(drawn).toBeLessThan(60);
  await expectOneDrawing(page, rows);
  await checkScreen(page, testInfo, 'users-long-table');

  // the last account is reached by scrolling, with its place in the whole list
  const last = await scrollToRow(region, table, FACILITATORS + 2);
  await expect(last.getByRole('button', { name: /^Actions for / })).toBeVisible();
  expect(await rows.count()).toBeLessThan(60);

  // the region scrolls from the keyboard
  await region.evaluate((element) => {
    element.scrollTop = 0;
  });
  await region.focus();
  await page.keyboard.press('PageDown');
  await expect.poll(() => region.evaluate((element) => element.scrollTop)).toBeGreaterThan(0);

  // any account is found by the search, wherever it is in the list
  await page.getByRole('searchbox', { name: 'Search facilitators' }).fill('Facilitator 0250');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Facilitator 0250');
  await expect(page.getByText(`1 of ${FACILITATORS + 1} shown`)).toBeVisible();
  await expect(table).toHaveAttribute('aria-rowcount', '2');
  await expect(page.getByRole('region', { name: 'Facilitators, scrollable' })).toHaveCount(0);
});

test('the completeness table of 300 facilitators draws the rows in view and sorts the whole list', async ({
  page,
}, testInfo) => {
  await countSpacerResizes(page);
  await openAsStaff(page, '/staff/completeness');
  await expect(page.getByRole('heading', { name: 'Availability completeness', level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: /^Availability completeness, / });
  await expect(table).toHaveAttribute('aria-rowcount', String(FACILITATORS + 1));
  const rows = page.getByTestId('completeness-row');
  await expect(rows.first()).toHaveAttribute('aria-rowindex', '2');
  expect(await rows.count()).toBeLessThan(60);
  await expectOneDrawing(page, rows);
  await checkScreen(page, testInfo, 'completeness-long-table');

  // the name that sorts last, read at the end of the list, comes first sorted the other way
  const region = page.getByRole('region', { name: /^Availability completeness, .*, scrollable$/ });
  const last = await scrollToRow(region, table, FACILITATORS + 1);
  const lastName = (await last.getByTestId('completeness-name').textContent())?.trim();
  expect(lastName).toMatch(/Facilitator \d{4}/);
  const byName = table.locator('thead').getByRole('button', { name: 'Name' });
  await byName.click();
  await expect(table.locator('thead th[aria-sort="descending"]')).toHaveCount(1);
  await region.evaluate((element) => {
    element.scrollTop = 0;
  });
  await expect(table.locator('tr[aria-rowindex="2"]').getByTestId('completeness-name')).toHaveText(lastName!);

  // a row's checkbox is reached and ticked from the keyboard (next month, the page's first, has
  // no availability yet: everyone can be reminded)
  const firstBox = table.locator('tr[aria-rowindex="2"]').getByRole('checkbox');
  await firstBox.focus();
  await page.keyboard.press('Space');
  await expect(firstBox).toBeChecked();
});

test('the staff grid filter of 300 facilitators draws the choices in view, and finds, scrolls to and unticks any of them', async ({
  page,
}, testInfo) => {
  await openAsStaff(page, '/staff');
  await expect(page.getByTestId('grid-count')).toHaveText(
    `Showing ${FACILITATORS} of ${FACILITATORS} facilitators`,
  );
  await page.getByTestId('facilitator-filter').click();
  const chooser = page.getByRole('dialog', { name: 'Choose facilitators' });
  const choices = chooser.getByRole('checkbox');
  await expect(choices.first()).toBeChecked();
  const drawn = await choices.count();
  expect(drawn).toBeGreaterThan(5);
  expect(drawn).toBeLessThan(60);
  await checkScreen(page, testInfo, 'staff-grid-long-facilitator-filter');

  // the last facilitator in the list is reached by scrolling it, and unticking them leaves them out
  const scroller = chooser.getByRole('list', { name: 'Facilitators' }).locator('xpath=..');
  const last = await scrollUntilDrawn(scroller, chooser.getByRole('checkbox', { name: /Facilitator 0299/ }));
  await last.uncheck();
  await expect(page.getByTestId('facilitator-filter')).toContainText(
    `Facilitators: ${FACILITATORS - 1} of ${FACILITATORS}`,
  );
  expect(await choices.count()).toBeLessThan(60);

  // any facilitator is found by the search, wherever it is in the list
  await chooser.getByRole('textbox', { name: 'Search facilitators' }).fill('Facilitator 0150');
  await expect(choices).toHaveCount(1);
  await choices.first().uncheck();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('grid-count')).toHaveText(
    `Showing ${FACILITATORS - 2} of ${FACILITATORS} facilitators`,
  );
});

test('who is free with everyone shown, 300 facilitators: the cards in view, each with its place, and a new search at the top', async ({
  page,
}, testInfo) => {
  await openAsStaff(page, '/staff/free?include=all');
  const list = page.getByRole('list', { name: 'Facilitators, best match first' });
  const cards = list.locator(':scope > li[aria-posinset]');
  await expect(cards.first()).toHaveAttribute('aria-posinset', '1');
  await expect(cards.first()).toHaveAttribute('aria-setsize', String(FACILITATORS));
  const drawn = await cards.count();
  expect(drawn).toBeGreaterThan(2);
  expect(drawn).toBeLessThan(40);
  // the page ends where its content does: nothing drawn in the list reaches below it
  expect(await page.evaluate(() => document.documentElement.scrollHeight - document.body.scrollHeight)).toBe(
    0,
  );
  await checkScreen(page, testInfo, 'free-long-list');

  // the last card is reached by scrolling the list's region
  const region = page.getByRole('region', { name: 'Facilitators, best match first, scrollable' });
  const last = await scrollUntilDrawn(region, list.locator(`li[aria-posinset="${FACILITATORS}"]`));
  await expect(last.getByTestId('free-row')).toBeVisible();
  expect(await cards.count()).toBeLessThan(40);

  // another day's search starts at its best match
  const date = page.getByLabel('Date', { exact: true });
  const next = new Date(`${await date.inputValue()}T12:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  await date.fill(next.toISOString().slice(0, 10));
  const nextLabel = next.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
  await expect(page.getByTestId('free-summary')).toContainText(nextLabel);
  await expect.poll(() => region.evaluate((element) => element.scrollTop)).toBe(0);
  await expect(list.locator('li[aria-posinset="1"]')).toHaveCount(1);
});

test('an open session offered among 300 facilitators: the candidates drawn in view, each with its place, any reached by scrolling', async ({
  page,
}, testInfo) => {
  await openAsStaff(page, '/staff/sessions');
  await page
    .getByRole('button', { name: /^Offer / })
    .first()
    .click();
  const dialog = page.getByRole('dialog', { name: 'Offer this session' });
  const list = dialog.getByRole('list', { name: 'Facilitators' });
  const candidates = list.locator(':scope > li[aria-posinset]');
  await expect(candidates.first()).toHaveAttribute('aria-setsize', String(FACILITATORS));
  const drawn = await candidates.count();
  expect(drawn).toBeGreaterThan(3);
  expect(drawn).toBeLessThan(60);
  await checkScreen(page, testInfo, 'offer-dialog-long-list');

  // the last is reached by scrolling the list, and can be chosen there
  const last = await scrollUntilDrawn(
    list.locator('xpath=..'),
    list.locator(`li[aria-posinset="${FACILITATORS}"]`),
  );
  await last.getByRole('checkbox').check();
  await expect(last.getByRole('checkbox')).toBeChecked();
  expect(await candidates.count()).toBeLessThan(60);
});
