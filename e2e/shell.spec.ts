import { checkScreen, expect, loginAsFacilitator, test, toastLocator } from './fixtures';

test('unknown paths show the not-found page', async ({ page }, testInfo) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
  await checkScreen(page, testInfo, 'not-found');
});

test('pages load without console errors or CSP violations', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (msg) => {
    // a signed-out visitor asks nothing that answers 401 (which the browser would log as an error)
    if (msg.type() === 'error') problems.push(msg.text());
  });
  page.on('pageerror', (err) => problems.push(err.message));
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
  await page.goto('/auth');
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
  await page.goto('/staff-login');
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
  expect(problems).toEqual([]);
});

/**
 * JavaScript bytes as sent (Brotli, headers included) for a page opened in a fresh page, once
 * `ready` is visible and the network is quiet.
 */
async function scriptsOf(
  page: import('@playwright/test').Page,
  path: string,
  ready = page.getByRole('button', { name: 'Sign In', exact: true }),
) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  // Chromium asks for Brotli over https only; the portal runs on https, so ask for it here too
  await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': 'br, gzip, deflate' } });
  const urls = new Map<string, string>();
  const scripts: Array<{ url: string; bytes: number }> = [];
  cdp.on('Network.requestWillBeSent', (e) => {
    if (e.type === 'Script') urls.set(e.requestId, e.request.url);
  });
  cdp.on('Network.loadingFinished', (e) => {
    const url = urls.get(e.requestId);
    if (url) scripts.push({ url, bytes: e.encodedDataLength });
  });
  await page.goto(path);
  await expect(ready).toBeVisible();
  await page.waitForLoadState('networkidle');
  await cdp.detach();
  return scripts;
}

test('the login pages load under 130 KB of compressed JavaScript and no staff code', async ({ page }) => {
  for (const path of ['/auth', '/staff-login']) {
    const scripts = await scriptsOf(page, path);
    const total = scripts.reduce((sum, script) => sum + script.bytes, 0);
    expect(total, `${path}: ${scripts.map((s) => `${s.url} ${s.bytes}`).join(', ')}`).toBeLessThan(130_000);
    expect(scripts.filter((script) => /\/staff-(?!login-)|schedule-grid|zod/.test(script.url))).toEqual([]);
  }
});

/*
 * A build that carries the modules the offers feature's index also exports (the staff’s open
 * sessions, a schema library, list windowing) sent 197 KB here. Only what a page uses goes into its
 * file (docs/decisions/0061-client-modules-marked-free-of-side-effects.md); the decline step, with
 * its form code, comes when an offer's dialog opens (ADR 99).
 */
test('the offers page loads only its own code: under 150 KB of compressed JavaScript', async ({
  page,
  makeFacilitator,
}) => {
  await loginAsFacilitator(page, await makeFacilitator());
  const scripts = await scriptsOf(
    page,
    '/offers',
    page.getByRole('heading', { name: 'Waiting for your answer' }),
  );
  const total = scripts.reduce((sum, script) => sum + script.bytes, 0);
  expect(total, scripts.map((s) => `${s.url} ${s.bytes}`).join(', ')).toBeLessThan(150_000);
  expect(scripts.filter((script) => /staff-/.test(script.url))).toEqual([]);
});

/*
 * Toasts' own code loads with the first toast. If it cannot be loaded (the connection dropped, or a
 * deploy removed the old files), that toast is drawn plainly, without the toast library; the page,
 * and what was typed in it, stays, and the next toast asks for the code again.
 */
test('a toast whose code cannot be loaded is drawn plainly, and the page stays; the next toast is drawn too', async ({
  page,
  makeFacilitator,
}, testInfo) => {
  await loginAsFacilitator(page, await makeFacilitator());
  const toasterFile = /\/assets\/toaster-[^/]*\.js$/;
  let refused = 0;
  await page.route(toasterFile, (route) => {
    refused++;
    return route.abort();
  });
  await page.goto('/change-password');
  const current = page.getByLabel('Current Password', { exact: true });
  await current.fill('not-my-password');
  await page.getByLabel('New Password', { exact: true }).fill('second-pass-456');
  await page.getByLabel('Confirm New Password', { exact: true }).fill('second-pass-456');
  const submit = page.getByRole('button', { name: 'Change Password' });
  // a wrong current password: the answer is shown as a toast
  await submit.click();
  const plainToast = page.locator('[data-slot="plain-toast"]');
  await expect(plainToast).toHaveRole('alert');
  await expect(plainToast).toContainText('Current password is incorrect');
  expect(refused).toBeGreaterThan(0);
  await expect(submit).toBeEnabled();
  await expect(current).toHaveValue('not-my-password');
  await checkScreen(page, testInfo, 'plain-toast');

  // the next toast asks for the code again; Chromium answers a module that failed to load with the
  // same failure for the page's life, so that toast is drawn plainly too, and the page still stays
  await page.unroute(toasterFile);
  await plainToast.getByRole('button', { name: 'Close' }).click();
  await expect(plainToast).toHaveCount(0);
  await submit.click();
  await expect(page.getByText('Current password is incorrect')).toBeVisible();
  await expect(current).toHaveValue('not-my-password');
  await expect(page.getByRole('heading', { name: 'Something went wrong' })).toHaveCount(0);
});

test('the document title', async ({ page }) => {
  await page.goto('/auth');
  await expect(page).toHaveTitle('Facilitator Availability Calendar');
});

test('the stored theme applies before the app script runs (no flash)', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('vite-ui-theme', 'dark'));
  // without the app bundle only the inline theme script can set the class
  await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
  await page.route('**/main.tsx', (route) => route.abort());
  await page.goto('/auth');
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
});

test('the policy runs the inline theme script and blocks any other inline script', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('vite-ui-theme', 'dark'));
  await page.goto('/auth');
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
  // the theme script ran (inline, allowed by its hash): the page is dark
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  const outcome = await page.evaluate(
    () =>
      new Promise<{ ran: boolean; blocked: string }>((resolve) => {
        document.addEventListener(
          'securitypolicyviolation',
          (event) =>
            resolve({
              ran: (window as unknown as { injected?: boolean }).injected === true,
              blocked: event.violatedDirective,
            }),
          { once: true },
        );
        const script = document.createElement('script');
        script.textContent = 'window.injected = true;';
        document.head.append(script);
      }),
  );
  expect(outcome).toEqual({ ran: false, blocked: 'script-src-elem' });
});

test.describe('toasts', () => {
  async function failLogin(page: import('@playwright/test').Page, username: string) {
    await page.getByLabel('Username', { exact: true }).fill(username);
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  }

  test('a swipe to the right dismisses it', { tag: '@phone' }, async ({ page }, testInfo) => {
    await page.goto('/auth');
    await failLogin(page, `toast-swipe-${testInfo.project.name}@example.org`);
    const toast = toastLocator(page);
    await expect(toast).toBeVisible();
    // measure the toast only once its slide-in has finished
    await toast.evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));
    const box = await toast.boundingBox();
    if (!box) throw new Error('toast has no box');
    const y = box.y + box.height / 2;
    const x = box.x + 20;
    await page.mouse.move(x, y);
    await page.mouse.down();
    for (let step = 1; step <= 12; step++) await page.mouse.move(x + step * 8, y);
    await page.mouse.up();
    const releasedAt = Date.now();
    await expect(toast).toHaveCount(0);
    // well before the 5 s auto-close, so it was the swipe that closed it
    expect(Date.now() - releasedAt).toBeLessThan(4_000);
  });
});
