import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
import { BASE_URL, E2E_PORT, STAFF } from './e2e/constants';

/*
 * Debian's Chromium when the machine has it; never download browsers. Its headless shell comes first:
 * the full browser's headless mode runs the whole of Chrome, and the shell ran the same tests in a
 * fifth less time and nearly a third less CPU (ADR 54). The shell's binary is named directly:
 * /usr/bin/chromium-headless-shell is a shell script that starts it without exec. The shell has no
 * window, so a headed run (--headed, --debug, --ui) names the full browser in E2E_CHROMIUM.
 * Playwright's own browser is the fallback elsewhere.
 */
export const systemChromium =
  process.env.E2E_CHROMIUM ||
  ['/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path));

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  outputDir: './test-results',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: process.env.E2E_WORKERS ? Number(process.env.E2E_WORKERS) : 2,
  // generous: each screen runs axe and a full-page screenshot in two themes, on two shared cores
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    baseURL: BASE_URL,
    browserName: 'chromium',
    /*
     * Every test records a trace, kept only when it fails: its actions, network, console and
     * sources. Neither the film strip nor the DOM snapshots at each action: Playwright makes them
     * for every passing test too, and the snapshots alone cost the suite about a tenth of its time
     * (ADR 55). A failure still leaves its screenshot and the page's accessibility tree
     * (error-context.md). E2E_TRACE_SNAPSHOTS=1 records the snapshots again (--trace on alone
     * does not: it changes when a trace is kept, not what it records).
     */
    trace: {
      mode: 'retain-on-failure',
      screenshots: false,
      snapshots: process.env.E2E_TRACE_SNAPSHOTS === '1',
      sources: true,
    },
    screenshot: 'only-on-failure',
    /*
     * The portal's service worker is blocked, except in e2e/offline.spec.ts and
     * e2e/notifications.spec.ts, which need it: a request the worker answers does not pass
     * page.route(), which many specs use to hold or fail a request
     * (Playwright's advice), and each test's fresh context would otherwise download the whole app shell
     * again to precache it. E2E_SERVICE_WORKERS=allow runs any spec with the worker.
     */
    serviceWorkers: process.env.E2E_SERVICE_WORKERS === 'allow' ? 'allow' : 'block',
    launchOptions: {
      executablePath: systemChromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  /*
   * Every test runs in the desktop project. The phone project (390 px, touch) runs only the tests
   * tagged `{ tag: '@phone' }`: those whose screen or behaviour differs on a small touch screen (the
   * drawer, the phone layouts of the calendar, the staff grid and the tables, long-press and swipe)
   * and those that measure the layout (text that must wrap, a page that must not grow wider than the
   * screen), with their screen checks at that size. A test that asserts the same on both sizes runs
   * once.
   */
  projects: [
    { name: 'desktop', use: { viewport: { width: 1280, height: 800 } } },
    {
      name: 'phone',
      use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
      grep: /@phone/,
    },
  ],
  webServer: {
    command: 'node e2e/serve.mjs',
    url: `${BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 8_000 },
    env: {
      PORT: String(E2E_PORT),
      HOST: '127.0.0.1',
      // reminders link here; browsers' Origin is compared with it
      PUBLIC_URL: BASE_URL,
      INITIAL_STAFF_USERNAME: STAFF.username,
      INITIAL_STAFF_PASSWORD: STAFF.password,
    },
  },
});
