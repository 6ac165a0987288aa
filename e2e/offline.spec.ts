import type { APIRequestContext, Page } from '@playwright/test';
import { BASE_URL } from './constants';
import { addDays, longDate, today } from './dates';
import {
  expect as baseExpect,
  type CreatedUser,
  checkScreen,
  loginAsFacilitator,
  loginAsStaff,
  staffApi,
  test,
  toastLocator,
} from './fixtures';
import { offerByApi, openSession } from './open-sessions';
import { recordValidDbsCheck } from './safeguarding-records';

const expect = baseExpect.configure({ timeout: 15_000 });
test.describe.configure({ timeout: 150_000 });
// the one spec that runs with the portal's service worker (playwright.config.ts blocks it elsewhere)
test.use({ serviceWorkers: 'allow' });

/*
 * The installable app and a facilitator's days offline: the manifest and the service worker, the
 * next 14 days opened with the network off, changes made offline sent when it is back with their
 * outcomes, and nothing kept after sign-out. Each test makes its own facilitators and sessions.
 */

let seq = 0;
async function offeree(api: APIRequestContext, make: () => Promise<CreatedUser>): Promise<CreatedUser> {
  const user = await make();
  seq += 1;
  const saved = await api.put(`/api/staff/users/${user.id}`, {
    data: { version: 1, username: user.username, freelancerId: `e2e-offline-${Date.now()}-${seq}` },
  });
  expect(saved.ok(), await saved.text()).toBeTruthy();
  await recordValidDbsCheck(api, user.id, 60);
  return user;
}

/** Opens the calendar and waits until the service worker controls the page and has kept its reads. */
async function firstVisit(page: Page) {
  await page.goto('/');
  await expect(page.getByRole('grid').first()).toBeVisible();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  // the page's reads, read again for the worker once it took over, are in its cache
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const cache = await caches.open('afp-offline-reads');
        return (await cache.keys()).map((request) => new URL(request.url).pathname).sort();
      }),
    )
    .toEqual(expect.arrayContaining(['/api/availability', '/api/bookings', '/api/offers', '/api/user']));
}

const cell = (page: Page, date: string) => page.locator(`td[data-date="${date}"]`);

async function offerKept(page: Page) {
  return page.evaluate(async () => {
    const names = await caches.keys();
    const reads = names.includes('afp-offline-reads')
      ? (await (await caches.open('afp-offline-reads')).keys()).length
      : 0;
    const waiting = await new Promise<number>((resolve, reject) => {
      const open = indexedDB.open('afp-device');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains('outbox')) return resolve(0);
        const count = db.transaction('outbox').objectStore('outbox').count();
        count.onsuccess = () => resolve(count.result);
        count.onerror = () => reject(count.error);
      };
    });
    return { reads, waiting, owner: localStorage.getItem('afp-device-owner') };
  });
}

test('the portal installs: a manifest with icons, and a service worker for the whole site', async ({
  page,
  makeFacilitator,
}) => {
  const user = await makeFacilitator();
  await loginAsFacilitator(page, user);
  await firstVisit(page);
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  const manifest = await (await page.request.get(href!)).json();
  expect(manifest).toMatchObject({ name: 'Arts Facilitator Portal', start_url: '/', display: 'standalone' });
  const sizes = manifest.icons.map(
    (icon: { sizes: string; purpose: string }) => `${icon.sizes} ${icon.purpose}`,
  );
  expect(sizes).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
  for (const icon of manifest.icons) {
    const png = await page.request.get(icon.src);
    expect(png.headers()['content-type']).toBe('image/png');
  }
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(scope).toBe(`${BASE_URL}/`);
});

test(
  'the next 14 days open with no connection; a day saved offline is sent when the connection is back; sign-out keeps nothing',
  {
    tag: '@phone',
  },
  async ({ page, context, makeFacilitator }, testInfo) => {
    const api = await staffApi();
    const user = await offeree(api, () => makeFacilitator());
    // a booking of theirs in the next days (an offer they accepted) and an offer still open
    const school = `Offline School ${testInfo.project.name} ${Date.now()}`;
    const booked = await openSession(api, school);
    await offerByApi(api, booked.id, user.id);
    await loginAsFacilitator(page, user);
    const mine = await (await page.request.get('/api/offers')).json();
    expect((await page.request.post(`/api/offers/${mine[0].id}/accept`)).ok()).toBe(true);
    const offered = await openSession(api, `Offered ${school}`);
    await offerByApi(api, offered.id, user.id);
    // a day marked available, the last of the next 14
    const marked = addDays(today(), 13);
    const saved = await page.request.post('/api/availability', {
      data: { date: marked, status: 'available', notes: 'Marked before going offline' },
    });
    expect(saved.ok(), await saved.text()).toBe(true);

    await firstVisit(page);
    await context.setOffline(true);
    await page.reload();
    await expect(
      page.getByRole('status').filter({ hasText: 'Offline — showing what was saved at' }),
    ).toBeVisible();
    await expect(cell(page, booked.date)).toContainText(school);
    await cell(page, booked.date)
      .getByRole('button', { name: new RegExp(`^Booking: ${school}`) })
      .click();
    await expect(page.getByRole('dialog')).toContainText('9:30 AM');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    if (marked.slice(0, 7) !== today().slice(0, 7) && (await cell(page, marked).count()) === 0)
      await page.getByRole('button', { name: 'Next month' }).click();
    await expect(cell(page, marked)).toContainText(/available/i);
    await checkScreen(page, testInfo, 'calendar-offline');

    // a day saved with no connection waits on the device
    const day = addDays(today(), 1) === booked.date ? addDays(today(), 2) : addDays(today(), 1);
    if ((await cell(page, day).count()) === 0)
      await page.getByRole('button', { name: 'Previous month' }).click();
    await cell(page, day).click();
    const dialog = page.getByRole('dialog', { name: 'Update Availability' });
    await expect(dialog).toContainText(longDate(day));
    await dialog.getByRole('radio', { name: 'Unavailable' }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(toastLocator(page)).toContainText('Saved on this device');
    await expect(page.getByText('1 change waiting to be sent when you are back online.')).toBeVisible();
    expect((await offerKept(page)).waiting).toBe(1);

    // back online: it is sent, and the page says so
    await context.setOffline(false);
    // A browser says "online" to the page when the connection returns. Playwright's emulation did not
    // say it to this page, reloaded while offline, in this suite's runs (it then waited for the retry),
    // so the test says it. The retry every 20 s for when no such event comes, and an "online" while the
    // retry sends, are checked by device-status.test.tsx.
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    const outcomes = page.getByRole('region', { name: 'Changes made offline' });
    await expect(outcomes.getByRole('listitem')).toHaveText([
      `Your availability for ${longDateNoWeekday(day)}: sent.`,
    ]);
    await expect(page.getByText('Offline — showing what was saved at')).toHaveCount(0);
    const after = await (await page.request.get(`/api/availability?from=${day}&to=${day}`)).json();
    expect(after).toEqual([expect.objectContaining({ date: day, status: 'unavailable' })]);
    await expect.poll(async () => (await offerKept(page)).waiting).toBe(0);
    await checkScreen(page, testInfo, 'calendar-offline-sent');

    // signing out leaves nothing of theirs on the device
    const menu = page.getByRole('button', { name: 'Open navigation menu' });
    if (await menu.isVisible()) await menu.click();
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/auth$/);
    expect(await offerKept(page)).toEqual({ reads: 0, waiting: 0, owner: null });
    await api.dispose();
  },
);

test('an offer accepted offline that someone else took meanwhile says why when the connection is back', async ({
  page,
  context,
  makeFacilitator,
  playwright,
}, testInfo) => {
  const api = await staffApi();
  const school = `Offline Race ${testInfo.project.name} ${Date.now()}`;
  const session = await openSession(api, school);
  const late = await offeree(api, () => makeFacilitator({ displayName: 'Late Facilitator' }));
  const winner = await offeree(api, () => makeFacilitator({ displayName: 'Winning Facilitator' }));
  await offerByApi(api, session.id, late.id);
  await offerByApi(api, session.id, winner.id);

  await loginAsFacilitator(page, late);
  await firstVisit(page);
  await page.goto('/offers');
  await expect(page.getByRole('button', { name: /^Answer the offer for / })).toBeVisible();
  await context.setOffline(true);
  await page.getByRole('button', { name: /^Answer the offer for / }).click();
  const dialog = page.getByRole('dialog', { name: 'Session offered to you' });
  await dialog.getByRole('button', { name: 'Accept session' }).click();
  await expect(toastLocator(page)).toContainText('Saved on this device');

  // meanwhile the other facilitator accepts
  const offers = await (await api.get(`/api/staff/sessions/${session.id}/offers`)).json();
  const winning = offers.find((o: { userId: number }) => o.userId === winner.id);
  const other = await playwright.request.newContext({ baseURL: BASE_URL });
  expect((await other.post('/api/login', { data: winner })).ok()).toBe(true);
  expect((await other.post(`/api/offers/${winning.id}/accept`)).ok()).toBe(true);
  await other.dispose();

  await context.setOffline(false);
  const outcomes = page.getByRole('region', { name: 'Changes made offline' });
  await expect(outcomes).toContainText(
    `Accepting the session offered on ${longDateNoWeekday(session.date)}: not sent. This offer can no longer be answered. Another facilitator accepted it first.`,
    { timeout: 45_000 },
  );
  await checkScreen(page, testInfo, 'offer-offline-refused');
  await api.dispose();
});

/** "7 December 2026", as the portal names a day in a change's label. */
function longDateNoWeekday(day: string): string {
  return longDate(day).replace(/^\S+ /, '');
}

test('staff signing out from a staff page leaves nothing kept on the device either', async ({ page }) => {
  await loginAsStaff(page);
  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  // what a device may keep: a kept read, a waiting change and the owner record
  await page.evaluate(async () => {
    await (await caches.open('afp-offline-reads')).put('/api/user', new Response('{}'));
    await new Promise<void>((resolve, reject) => {
      const open = indexedDB.open('afp-device');
      open.onupgradeneeded = () => open.result.createObjectStore('outbox');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        const tx = db.transaction('outbox', 'readwrite');
        tx.objectStore('outbox').put({ key: 'x' }, 'x');
        tx.oncomplete = () => {
          db.close();
          resolve();
        };
        tx.onerror = () => reject(tx.error);
      };
    });
    localStorage.setItem('afp-device-owner', '1');
  });
  expect(await offerKept(page)).toEqual({ reads: 1, waiting: 1, owner: '1' });

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/staff-login$/);
  expect(await offerKept(page)).toEqual({ reads: 0, waiting: 0, owner: null });
  expect((await page.request.get('/api/staff/users')).status()).toBe(401);
});
