import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { BASE_URL } from './constants';
import {
  expect as baseExpect,
  checkScreen,
  loginAsFacilitator,
  staffApi,
  test,
  toastLocator,
} from './fixtures';

const expect = baseExpect.configure({ timeout: 15_000 });
// push needs the portal's service worker (playwright.config.ts blocks it elsewhere)
test.use({ serviceWorkers: 'allow' });

/*
 * Push notifications turned on and off from the settings. Chromium's headless builds have no push
 * service: pushManager.subscribe rejects ("Registration failed - permission denied") even with the
 * notifications permission granted. The first test checks what a person in such a browser is told;
 * the second stands in for the browser's push service (the PushManager in the page) and checks that
 * the device the card subscribes reaches the server and is forgotten when turned off.
 */

async function devices(api: APIRequestContext): Promise<number> {
  const res = await api.get('/api/push/status');
  expect(res.ok(), await res.text()).toBeTruthy();
  return ((await res.json()) as { devices: number }).devices;
}

/** Opens the settings once the service worker controls the page (the card subscribes through it). */
async function openSettings(page: Page) {
  await page.goto('/settings');
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Notifications' })).toBeVisible();
}

const deviceState = (page: Page) => page.getByRole('status').filter({ hasText: /Push notifications are/ });

test('a browser without a push service: the card says why notifications cannot be turned on', async ({
  page,
  context,
  makeFacilitator,
}, testInfo) => {
  const staff = await staffApi();
  const facilitator = await makeFacilitator();
  await context.grantPermissions(['notifications'], { origin: BASE_URL });
  await loginAsFacilitator(page, facilitator);
  await openSettings(page);
  await expect(deviceState(page)).toHaveText('Push notifications are off for this device.');
  const before = await devices(staff);

  await page.getByRole('button', { name: 'Turn on notifications on this device' }).click();
  await expect(toastLocator(page)).toContainText('Notifications could not be turned on');
  await expect(toastLocator(page)).toContainText(
    "This browser's push service would not register this device, so push notifications cannot be turned on here.",
  );
  await expect(deviceState(page)).toHaveText('Push notifications are off for this device.');
  await expect(page.getByRole('button', { name: 'Turn on notifications on this device' })).toBeEnabled();
  expect(await devices(staff)).toBe(before);
  await checkScreen(page, testInfo, 'settings-push-refused');
  await staff.dispose();
});

test('turning push on reaches the server, and turning it off makes the server forget the device', async ({
  page,
  context,
  makeFacilitator,
}, testInfo) => {
  const staff = await staffApi();
  const facilitator = await makeFacilitator();
  await context.grantPermissions(['notifications'], { origin: BASE_URL });
  // the device's keys, as a push service would give them; the endpoint is on a public address (no look-up)
  const p256dh = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
    .publicKey.export({ format: 'der', type: 'spki' })
    .subarray(-65)
    .toString('base64url');
  const device = {
    endpoint: `https://93.184.215.14/push/e2e-${Date.now()}-${randomBytes(4).toString('hex')}`,
    p256dh,
    auth: randomBytes(16).toString('base64url'),
  };
  await context.addInitScript((device) => {
    type Stored = { key: ArrayBuffer | null };
    const key = 'e2e-push-subscription';
    const make = (stored: Stored) => ({
      endpoint: device.endpoint,
      options: { userVisibleOnly: true, applicationServerKey: stored.key },
      toJSON: () => ({ endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } }),
      unsubscribe: async () => {
        sessionStorage.removeItem(key);
        return true;
      },
    });
    const read = (): Stored | null => {
      const raw = sessionStorage.getItem(key);
      return raw ? { key: Uint8Array.from(JSON.parse(raw) as number[]).buffer } : null;
    };
    PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
      const bytes = new Uint8Array(options?.applicationServerKey as ArrayBuffer);
      sessionStorage.setItem(key, JSON.stringify([...bytes]));
      return make({ key: bytes.buffer }) as unknown as PushSubscription;
    };
    PushManager.prototype.getSubscription = async () => {
      const stored = read();
      return (stored ? make(stored) : null) as unknown as PushSubscription | null;
    };
  }, device);

  await loginAsFacilitator(page, facilitator);
  await openSettings(page);
  await expect(deviceState(page)).toHaveText('Push notifications are off for this device.');
  const before = await devices(staff);

  await page.getByRole('button', { name: 'Turn on notifications on this device' }).click();
  await expect(toastLocator(page)).toContainText('Notifications turned on');
  await expect(deviceState(page)).toHaveText('Push notifications are on for this device.');
  await expect.poll(() => devices(staff)).toBe(before + 1);
  // the server holds it as this person's device: subscribing it again as them changes nothing there
  const again = await page.request.post('/api/push/subscription', {
    data: { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
    headers: { Origin: BASE_URL },
  });
  expect(again.ok(), await again.text()).toBeTruthy();
  expect(await devices(staff)).toBe(before + 1);
  await checkScreen(page, testInfo, 'settings-push-on');

  // still on after a reload: the card reads the device's subscription
  await page.reload();
  await expect(deviceState(page)).toHaveText('Push notifications are on for this device.');

  await page.getByRole('button', { name: 'Turn off on this device' }).click();
  await expect(toastLocator(page).filter({ hasText: 'Notifications turned off' })).toBeVisible();
  await expect(deviceState(page)).toHaveText('Push notifications are off for this device.');
  await expect.poll(() => devices(staff)).toBe(before);
  await staff.dispose();
});
