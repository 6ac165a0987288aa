import type { Page } from '@playwright/test';
import { bookingFields, hostToday } from './calendar-fixtures';
import { monthLabel, monthWeekdays } from './dates';
import { addSharePointItem, withSharePointLock } from './emulator';
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
import { cellUnder } from './table';

/**
 * Stored text that looks like HTML must reach every screen as plain text. Each field gets its own
 * payload (so a failure names the field that leaked) and each payload mixes a script tag, an element
 * with an event handler, harmless markup and an entity that would collapse to one character if the
 * text were ever parsed as HTML.
 */

const expect = baseExpect.configure({ timeout: 15_000 });

const today = hostToday();
// a fresh facilitator has nothing on any day, so the month's first weekdays are free to use
const [NOTES_DAY, BOOKED_DAY] = monthWeekdays(today) as [string, string];

function payloads(tag: string) {
  return {
    // starts with a letter so the name sorts like any other in the users table other tests read
    name: `Ann <b>bold</b> <img src=x onerror="window.__xss=1"> &amp; ${tag}`,
    // unique per test, so the area filter can show this facilitator alone
    area: `Area <script>window.__xss=1</script> &lt;${tag}&gt;`,
    freelancerId: `<i>E2E</i>-${tag}`,
    notesDay: `Notes <img src=x onerror="window.__xss=1"> <b>bold</b> &amp; more`,
    bookedDayNotes: `<script>window.__xss=1</script>Booked-day notes &quot;quoted&quot;`,
    staffNote: `Priority <svg onload="alert(1)"></svg><script>alert(1)</script> &#60;b&#62;`,
    title: `Title <b>bold</b> <img src=x onerror="alert(1)">`,
    school: `School <img src=x onerror="window.__xss=1"> &amp; Co`,
    program: `<script>window.__xss=1</script>Programme <b>bold</b>`,
    address: `<a href="javascript:window.__xss=1">1 Road</a> &nbsp;`,
    postcode: `<u>LS1</u> &gt;`,
  };
}

/**
 * Nothing the payloads could create is in the document and nothing they could run has run. React
 * never writes an inline on* attribute, so any element carrying one came from data.
 */
async function expectNothingInjected(page: Page, dialogs: string[], where: string) {
  const injected = await page.evaluate(() => {
    const found: string[] = [];
    for (const el of document.querySelectorAll('*')) {
      for (const attr of el.attributes)
        if (attr.name.startsWith('on')) found.push(`${el.tagName} ${attr.name}`);
    }
    for (const el of document.querySelectorAll('img[src="x"], a[href^="javascript:"], svg[onload]')) {
      found.push(el.outerHTML);
    }
    for (const el of document.querySelectorAll('script')) {
      if (/__xss|alert/.test(el.textContent ?? '')) found.push(el.outerHTML);
    }
    for (const el of document.querySelectorAll('b, i, u')) {
      if (['bold', 'E2E', 'LS1'].includes(el.textContent ?? '')) found.push(el.outerHTML);
    }
    return { found, xss: (window as { __xss?: unknown }).__xss };
  });
  expect(injected.found, `elements made from stored text (${where})`).toEqual([]);
  expect(injected.xss, `window.__xss (${where})`).toBeUndefined();
  expect(dialogs, `dialogs opened (${where})`).toEqual([]);
}

test.describe('stored text containing HTML', () => {
  // Turn the app's Content-Security-Policy off, which would stop an injected handler from running:
  // the test is about rendering, so a leak must be able to show itself through window.__xss or an alert.
  test.use({ bypassCSP: true });
  test.describe.configure({ timeout: 120_000 });

  test('shows as literal text on the facilitator and staff screens', async ({
    page,
    makeFacilitator,
  }, testInfo) => {
    const text = payloads(`${testInfo.project.name}-${testInfo.workerIndex}-${Date.now()}`);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss();
    });

    const user = await makeFacilitator({ displayName: text.name });
    const api = await staffApi();
    try {
      // an edit names the version of the account it was made on
      const listed = (await (await api.get('/api/staff/users')).json()) as {
        id: number;
        version: number;
      }[];
      const { version } = listed.find((u) => u.id === user.id)!;
      const updated = await api.put(`/api/staff/users/${user.id}`, {
        data: { version, freelancerId: text.freelancerId, area: text.area },
      });
      expect(updated.status(), await updated.text()).toBe(200);

      // the facilitator saves both days before the booking arrives: a booked day refuses changes
      await loginAsFacilitator(page, user);
      for (const [date, notes] of [
        [NOTES_DAY, text.notesDay],
        [BOOKED_DAY, text.bookedDayNotes],
      ] as const) {
        const saved = await page.request.post('/api/availability', {
          data: { date, status: 'limited', startTime: '10:00', endTime: '14:00', notes },
        });
        expect(saved.status(), await saved.text()).toBe(200);
        expect(((await saved.json()) as { notes: string }).notes).toBe(notes);
      }
      const note = await api.post('/api/staff/notes', {
        data: { facilitatorId: user.id, date: BOOKED_DAY, note: text.staffNote, priority: 'urgent' },
      });
      expect(note.status(), await note.text()).toBe(201);

      // the refresh joins one already running, so no other test may refresh while this booking waits
      await withSharePointLock(async () => {
        await addSharePointItem(
          'Bookings',
          bookingFields({
            freelancerId: text.freelancerId,
            date: BOOKED_DAY,
            title: text.title,
            startTime: '10:00',
            endTime: '12:00',
            schoolName: text.school,
            schoolAddress: text.address,
            schoolPostcode: text.postcode,
            program: text.program,
            timeSlot: 'Morning',
          }),
        );
        const refreshed = await api.post('/api/staff/bookings/refresh');
        expect(refreshed.status(), await refreshed.text()).toBe(200);
      });
      const bookings = await api.get(`/api/staff/bookings?from=${BOOKED_DAY}&to=${BOOKED_DAY}`);
      expect(
        ((await bookings.json()) as Array<{ userId: number | null; schoolName: string | null }>).filter(
          (b) => b.userId === user.id,
        ),
        'the booking reached the facilitator unchanged',
      ).toEqual([expect.objectContaining({ schoolName: text.school })]);
    } finally {
      await api.dispose();
    }

    await test.step('facilitator home: header, user menu, day dialog, booking details', async () => {
      await page.goto('/');
      await expect(page.getByRole('grid', { name: monthLabel(today) })).toBeVisible();
      const welcome = page.getByTestId('welcome');
      await expect(welcome).toHaveText(`Welcome, ${text.name}`);
      await expect(welcome.getByText(text.name, { exact: true })).toBeVisible();

      await page.getByTestId('user-menu').click();
      const menu = page.getByRole('menu');
      await expect(menu.getByText(text.name, { exact: true })).toBeVisible();
      await expectNothingInjected(page, dialogs, 'facilitator user menu');
      await page.keyboard.press('Escape');
      await expect(menu).toHaveCount(0);

      const notesCell = page.locator(`td[data-date="${NOTES_DAY}"]`);
      // the cell's accessible name carries the notes too; an attribute is never parsed, but it must hold them whole
      await expect.poll(() => notesCell.getAttribute('aria-label')).toContain(`notes: ${text.notesDay}`);
      await notesCell.click();
      const dayDialog = page.getByRole('dialog', { name: 'Update Availability' });
      await expect(dayDialog.getByLabel('Notes (optional)')).toHaveValue(text.notesDay);
      await expectNothingInjected(page, dialogs, 'facilitator day dialog');
      await page.keyboard.press('Escape');
      await expect(dayDialog).toHaveCount(0);

      const chip = page.locator(`td[data-date="${BOOKED_DAY}"]`).getByTestId('booking-chip');
      await expect(chip).toHaveText(text.title);
      await chip.click();
      const details = page.getByRole('dialog', { name: text.title });
      await expect(details).toBeVisible();
      const field = (name: string) => details.locator(`dd[data-field="${name}"]`);
      await expect(field('School')).toHaveText(text.school);
      await expect(field('Program')).toHaveText(text.program);
      await expect(field('Location')).toHaveText(`${text.address}, ${text.postcode}`);
      await expect(details.getByText(text.school, { exact: true })).toBeVisible();
      await expectNothingInjected(page, dialogs, 'facilitator booking details');
      await page.keyboard.press('Escape');
      await expect(details).toHaveCount(0);
    });

    await page.context().clearCookies();
    await loginAsStaff(page);

    await test.step('staff users table', async () => {
      await page.goto('/staff/users');
      const row = page.getByTestId(`user-row-${user.id}`);
      await expect(row.getByRole('cell').first()).toHaveText(text.name);
      await expect(row.getByText(text.name, { exact: true })).toBeVisible();
      await expect(await cellUnder(page, row, 'Freelancer ID')).toHaveText(text.freelancerId);
      await expectNothingInjected(page, dialogs, 'staff users table');
    });

    await test.step('staff dashboard: area filter, grid row, day dialog', async () => {
      await page.goto('/staff');
      await expect(page.getByTestId('schedule-grid')).toBeVisible();
      await page.getByTestId('area-filter').click();
      const areas = page.getByRole('dialog', { name: 'Choose areas' });
      await expect(areas.getByText(text.area, { exact: true })).toBeVisible();
      await expectNothingInjected(page, dialogs, 'staff area filter');
      await page.keyboard.press('Escape');
      await expect(areas).toBeHidden();
      // the checkbox is found by its accessible name, which equals the stored area only if kept as text
      await chooseAreas(page, [text.area]);

      const row = page.locator(`[data-testid="grid-row"][data-user-id="${user.id}"]`);
      await expect(row.getByTestId('row-name')).toHaveText(text.name);
      await showGridDay(page, BOOKED_DAY);
      await row.locator(`[data-testid="grid-cell"][data-date="${BOOKED_DAY}"]`).click();
      const dialog = page.getByRole('dialog', { name: text.name });
      await expect(dialog).toBeVisible();
      await expect(
        dialog.getByTestId('availability-view').getByText(text.bookedDayNotes, { exact: true }),
      ).toBeVisible();
      await expect(dialog.getByTestId('note-list').getByText(text.staffNote, { exact: true })).toBeVisible();
      const booking = dialog.getByRole('region', { name: 'Bookings' }).getByRole('listitem');
      await expect(booking.getByText(text.school, { exact: true })).toBeVisible();
      await expect(booking.getByText(`${text.program} · Morning`, { exact: true })).toBeVisible();
      await expectNothingInjected(page, dialogs, 'staff day dialog');
      await checkScreen(page, testInfo, 'hostile-text-staff-day');
      await page.getByRole('button', { name: 'Close' }).click();
      await expect(dialog).toBeHidden();

      await showGridDay(page, NOTES_DAY);
      await row.locator(`[data-testid="grid-cell"][data-date="${NOTES_DAY}"]`).click();
      await expect(
        dialog.getByTestId('availability-view').getByText(text.notesDay, { exact: true }),
      ).toBeVisible();
      await expectNothingInjected(page, dialogs, 'staff day dialog (notes day)');
    });
  });
});
