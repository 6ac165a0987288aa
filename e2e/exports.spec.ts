import { readFile } from 'node:fs/promises';
import { parseString } from '@fast-csv/parse';
import type { APIRequestContext, Download, Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { monthWeekdays, today } from './dates';
import {
  expect as baseExpect,
  checkScreen,
  chooseAreas,
  loginAsFacilitator,
  loginAsStaff,
  staffApi,
  test,
  toastLocator,
} from './fixtures';

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 150_000 });

/**
 * Downloads: staff download the grid they are looking at (month, area filter) as CSV and
 * .xlsx; a facilitator downloads their own availability as CSV. The files are read back with fast-csv
 * and exceljs; values a spreadsheet would run as formulas come back neutralised.
 */

const TODAY = today();
const MONTH = monthWeekdays(TODAY);
const [D0, D1] = MONTH as [string, string];
const FORMULA = '=HYPERLINK("http://evil.example","click")';

interface Person {
  id: number;
  username: string;
  password: string;
  displayName: string;
}

function parseCsv(text: string): Promise<string[][]> {
  return new Promise((resolve, reject) => {
    const rows: string[][] = [];
    parseString<string[], string[]>(text, { headers: false })
      .on('data', (row: string[]) => rows.push(row))
      .on('error', reject)
      .on('end', () => resolve(rows));
  });
}

async function downloaded(download: Download) {
  return readFile(await download.path());
}

async function csvRows(download: Download) {
  const bytes = await downloaded(download);
  expect([...bytes.subarray(0, 3)], 'UTF-8 byte order mark').toEqual([0xef, 0xbb, 0xbf]);
  return parseCsv(bytes.subarray(3).toString('utf8'));
}

let api: APIRequestContext;
let area: string;
let people: Person[] = [];

// biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a hook asks for from this pattern
test.beforeAll(async ({}, testInfo) => {
  api = await staffApi();
  const tag = `${testInfo.project.name}-${Date.now()}`;
  area = `Export ${tag}`;
  people = [];
  for (const name of ['Ada', '+Bo']) {
    const username = `export-${name.replace('+', '')}-${tag}@example.org`.toLowerCase();
    const res = await api.post('/api/staff/users', {
      data: {
        username,
        password: 'export-pass-1',
        displayName: `${name} ${tag}`,
        email: username,
        role: 'facilitator',
        area,
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    people.push({
      id: ((await res.json()) as { id: number }).id,
      username,
      password: 'export-pass-1',
      displayName: `${name} ${tag}`,
    });
  }
  const day = async (
    userId: number,
    date: string,
    status: string,
    notes: string,
    startTime = '',
    endTime = '',
  ) => {
    const res = await api.post('/api/staff/availability', {
      data: { userId, date, status, startTime, endTime, notes },
    });
    expect(res.status(), await res.text()).toBe(200);
  };
  await day(people[0]!.id, D0, 'limited', 'Mornings, then "school run"', '09:00', '12:00');
  await day(people[0]!.id, D1, 'unavailable', FORMULA);
  await day(people[1]!.id, D0, 'available', '@everyone');
});

test.afterAll(async () => {
  for (const p of people) await api.delete(`/api/staff/users/${p.id}`);
  await api.dispose();
});

async function openStaffGrid(page: Page) {
  await loginAsStaff(page);
  await page.goto('/staff');
  await expect(page.getByTestId('schedule-grid')).toBeVisible();
  await chooseAreas(page, [area]);
  await expect(page.getByTestId('grid-count')).toContainText('Showing 2 of');
}

async function chooseDownload(page: Page, label: string) {
  await page.getByTestId('staff-export').click();
  const menu = page.getByRole('menu');
  await expect(menu).toContainText('2 facilitators');
  const download = page.waitForEvent('download');
  await menu.getByRole('menuitem', { name: label }).click();
  return download;
}

test('staff download the grid they are looking at as CSV', async ({ page }, testInfo) => {
  await openStaffGrid(page);
  await page.getByTestId('staff-export').click();
  await expect(page.getByTestId('staff-export-scope')).toHaveText(
    `2 facilitators${MONTH[0]} to ${MONTH.at(-1)}`,
  );
  await checkScreen(page, testInfo, 'export-menu');
  await page.keyboard.press('Escape');

  const download = await chooseDownload(page, 'CSV (.csv)');
  expect(download.suggestedFilename()).toBe(`facilitator-schedule_${MONTH[0]}_to_${MONTH.at(-1)}.csv`);
  const [header, ...rows] = await csvRows(download);
  expect(header).toEqual([
    'Date',
    'Facilitator',
    'Email',
    'Area',
    'Status',
    'Start',
    'End',
    'Availability notes',
    'Bookings',
  ]);
  // only the two facilitators the filter shows, one row per weekday of the month each
  expect(rows).toHaveLength(2 * MONTH.length);
  const names = new Set(rows.map((r) => r[1]));
  expect(names).toEqual(new Set([people[0]!.displayName, `'${people[1]!.displayName}`]));
  const ada = rows.filter((r) => r[1] === people[0]!.displayName);
  expect(ada.map((r) => r[0])).toEqual(MONTH);
  expect(ada[0]).toEqual([
    D0,
    people[0]!.displayName,
    people[0]!.username,
    area,
    'Limited Availability',
    '9:00 AM',
    '12:00 PM',
    'Mornings, then "school run"',
    '',
  ]);
  expect(ada[1]![7]).toBe(`'${FORMULA}`);
  expect(rows.find((r) => r[0] === D0 && r[1] !== people[0]!.displayName)![7]).toBe("'@everyone");
  await expect(toastLocator(page)).toContainText('Download started');
});

test('staff download the same view as an Excel workbook', async ({ page }) => {
  await openStaffGrid(page);
  const download = await chooseDownload(page, 'Excel workbook (.xlsx)');
  expect(download.suggestedFilename()).toBe(`facilitator-schedule_${MONTH[0]}_to_${MONTH.at(-1)}.xlsx`);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await downloaded(download)) as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  expect(sheet.actualRowCount).toBe(1 + 2 * MONTH.length);
  const rows: unknown[][] = [];
  sheet.eachRow((row, n) => {
    if (n > 1) rows.push((row.values as unknown[]).slice(1));
  });
  const ada = rows.filter((r) => r[1] === people[0]!.displayName);
  expect(ada[0]![0]).toEqual(new Date(`${D0}T00:00:00Z`));
  expect(ada[1]![7]).toBe(`'${FORMULA}`);
  expect(rows.some((r) => r[1] === `'${people[1]!.displayName}`)).toBe(true);
});

test('a facilitator downloads their own availability for the month or a chosen range', async ({
  page,
}, testInfo) => {
  await loginAsFacilitator(page, people[0]!);
  await page.goto('/');
  await page.getByRole('button', { name: 'Download', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Download my availability' });
  await expect(dialog.getByLabel('From')).toHaveValue(`${TODAY.slice(0, 7)}-01`);
  await checkScreen(page, testInfo, 'export-own-dialog');

  // a reversed range is explained, not sent
  await dialog.getByLabel('To').fill(`${TODAY.slice(0, 4)}-01-01`);
  await dialog.getByLabel('From').fill(`${TODAY.slice(0, 4)}-02-01`);
  await dialog.getByRole('button', { name: 'Download CSV' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('The end date must be on or after the start date.');

  await dialog.getByLabel('From').fill(D0);
  await dialog.getByLabel('To').fill(D1);
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`my-availability_${D0}_to_${D1}.csv`);
  await expect(dialog).toBeHidden();
  const [header, ...rows] = await csvRows(file);
  expect(header).toEqual(['Date', 'Status', 'Start', 'End', 'Availability notes', 'Bookings']);
  expect(rows[0]).toEqual([
    D0,
    'Limited Availability',
    '9:00 AM',
    '12:00 PM',
    'Mornings, then "school run"',
    '',
  ]);
  expect(rows.find((r) => r[0] === D1)).toEqual([D1, 'Unavailable', '', '', `'${FORMULA}`, '']);

  // the staff export is not theirs to use
  expect((await page.request.get(`/api/staff/export?from=${D0}&to=${D1}`)).status()).toBe(403);
});
