import { hostToday } from './calendar-fixtures';
import { addDays, startOfWeekMonday } from './dates';
import {
  addAvailableFacilitator,
  expect as baseExpect,
  checkScreen,
  laptopOnDesktop,
  loginAsStaff,
  staffApi,
  test,
} from './fixtures';
import { recordValidDbsCheck } from './safeguarding-records';
import { userAction } from './table';

/**
 * Data protection, as staff: a person's Personal data dialog shows who has seen their whole
 * certificate number and downloads their subject access archive (which is entered in the log); the
 * school's assurance page opens for a range. Every run makes its own facilitator.
 */
const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 180_000 });

const TODAY = hostToday();
const DAY = addDays(startOfWeekMonday(TODAY), 9);

test('staff download a person’s data, read the viewing log and open the school’s assurance', async ({
  page,
}, testInfo) => {
  const api = await staffApi();
  const tag = `${testInfo.project.name}-${Date.now()}`;
  const name = `Dana Data ${tag}`;
  const id = await addAvailableFacilitator(
    api,
    { username: `dp-${tag}@example.org`, password: 'dp-pass-1234', displayName: name, area: `DP ${tag}` },
    DAY,
  );
  try {
    // the save's answer carries the whole number: one entry in the log
    await recordValidDbsCheck(api, id);
    await laptopOnDesktop(page, testInfo);
    await loginAsStaff(page);
    await page.goto('/staff/users');
    await page.getByLabel('Search facilitators').fill(tag);
    const row = page.getByRole('row').filter({ hasText: name });
    await userAction(page, row, name, 'Personal data');
    const dialog = page.getByRole('dialog', { name: `Personal data: ${name}` });
    const log = dialog.getByRole('table', { name: `Who has seen the certificate number of ${name}` });
    await expect(log.getByRole('row')).toHaveCount(2);
    await expect(log).toContainText('Safeguarding records saved by staff');
    await expect(dialog.getByText('No photo is kept.')).toBeVisible();
    await checkScreen(page, testInfo, 'personal-data-dialog');

    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download their data' }).click();
    expect((await download).suggestedFilename()).toMatch(
      new RegExp(`^subject-access-${id}-\\d{4}-\\d{2}-\\d{2}\\.zip$`),
    );
    await page.keyboard.press('Escape');

    // opened again, the log reads afresh: the archive is in it
    await userAction(page, row, name, 'Personal data');
    await expect(log.getByRole('row')).toHaveCount(3);
    await expect(log).toContainText('Subject access archive');
    await page.keyboard.press('Escape');

    await page.goto(
      `/staff/assurance?from=${TODAY}&to=${addDays(TODAY, 7)}&school=${encodeURIComponent(`No school ${tag}`)}`,
    );
    await expect(page.getByRole('heading', { name: 'Confirmation of safeguarding checks' })).toBeVisible();
    await expect(page.getByText('No one was sent to a session in these days.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();
    await checkScreen(page, testInfo, 'school-assurance');
    const pdf = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download PDF' }).click();
    expect((await pdf).suggestedFilename()).toBe(`assurance-${TODAY}-to-${addDays(TODAY, 7)}.pdf`);
  } finally {
    await api.delete(`/api/staff/users/${id}`);
    await api.dispose();
  }
});
