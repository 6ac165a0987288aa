import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import {
  type APIRequestContext,
  test as base,
  expect,
  type Locator,
  type Page,
  request,
  type TestInfo,
} from '@playwright/test';
import { twMerge } from 'tailwind-merge';
import { BASE_URL, STAFF, type TestUser } from './constants';

export { expect };

/*
 * Signing in costs an argon2 check on the server (about a tenth of a second of a busy core) and the
 * suite signs in a few hundred times, mostly as the same few accounts. So each worker signs an account
 * in once and hands later tests the same session's cookies, after one cheap `/api/user` asking whether
 * that session still works (a test may have signed it out). Sessions made this way come from a
 * request context of their own, never from a test's page, so a sign-in inside a page (which ends the
 * session it had) never ends a cached one that another context of the same test still uses. Pages and
 * staffApi() keep separate sessions: a page that signs out never signs out the API context beside it.
 */
type SessionCookies = Awaited<ReturnType<APIRequestContext['storageState']>>['cookies'];
const sessionCache = new Map<string, SessionCookies>();

async function signedInCookies(
  path: '/api/login' | '/api/auth/staff-login',
  user: Pick<TestUser, 'username' | 'password'>,
  use: 'page' | 'api',
  stillWorks: (cookies: SessionCookies) => Promise<boolean>,
): Promise<SessionCookies> {
  // the password is part of the key: after a password change the new one must really sign in
  const key = JSON.stringify([use, path, user.username, user.password]);
  const cached = sessionCache.get(key);
  if (cached && (await stillWorks(cached))) return cached;
  sessionCache.delete(key);
  const api = await request.newContext({ baseURL: BASE_URL });
  try {
    const res = await api.post(path, { data: { username: user.username, password: user.password } });
    expect(res.status(), await res.text()).toBe(200);
    const { cookies } = await api.storageState();
    sessionCache.set(key, cookies);
    return cookies;
  } finally {
    await api.dispose();
  }
}

/** Whether these cookies still open a session of `username` (ended sessions answer 401). */
async function opensSessionOf(api: APIRequestContext, username: string) {
  const res = await api.get('/api/user');
  return res.ok() && ((await res.json()) as { username?: string }).username === username;
}

/** An API context signed in as the initial staff account. */
export async function staffApi(): Promise<APIRequestContext> {
  let api: APIRequestContext | undefined;
  const cookies = await signedInCookies('/api/auth/staff-login', STAFF, 'api', async (cookies) => {
    api = await request.newContext({ baseURL: BASE_URL, storageState: { cookies, origins: [] } });
    if (await opensSessionOf(api, STAFF.username)) return true;
    await api.dispose();
    api = undefined;
    return false;
  });
  return api ?? request.newContext({ baseURL: BASE_URL, storageState: { cookies, origins: [] } });
}

async function signPageIn(
  page: Page,
  path: '/api/login' | '/api/auth/staff-login',
  user: Pick<TestUser, 'username' | 'password'>,
) {
  const context = page.context();
  const cookies = await signedInCookies(path, user, 'page', async (cookies) => {
    await context.addCookies(cookies);
    return opensSessionOf(page.request, user.username);
  });
  await context.addCookies(cookies);
}

/** Signs the page's browser context in as a facilitator (its session cookies set, as a login sets them). */
export async function loginAsFacilitator(page: Page, user: Pick<TestUser, 'username' | 'password'>) {
  await signPageIn(page, '/api/login', user);
}

/** Signs the page's browser context in as the initial staff account. */
export async function loginAsStaff(page: Page) {
  await signPageIn(page, '/api/auth/staff-login', STAFF);
}

export interface CreatedUser extends TestUser {
  id: number;
}

interface Fixtures {
  /** Creates a facilitator only this test uses (deleted afterwards). */
  makeFacilitator: (overrides?: Partial<TestUser>) => Promise<CreatedUser>;
  /** With E2E_PROFILE_DIR set, records the test's Chromium trace there (see below). */
  browserProfile: undefined;
}

/*
 * E2E_PROFILE_DIR=/tmp/profiles records, for every test, a Chromium trace with V8's sampling
 * profiler into that folder, one JSON file per test; `npm run bench:e2e-profile -- /tmp/profiles`
 * then says which scripts the renderers' CPU went to (the app's files, axe, Playwright's own). For
 * finding where the suite's time goes; unset, nothing is recorded.
 */
const PROFILE_DIR = process.env.E2E_PROFILE_DIR;
const PROFILE_CATEGORIES = ['toplevel', 'v8.execute', 'disabled-by-default-v8.cpu_profiler'];

export const test = base.extend<Fixtures>({
  browserProfile: [
    async ({ browser }, use, testInfo) => {
      if (!PROFILE_DIR) return use(undefined);
      await browser.startTracing(undefined, { categories: PROFILE_CATEGORIES });
      try {
        await use(undefined);
      } finally {
        const trace = await browser.stopTracing();
        mkdirSync(PROFILE_DIR, { recursive: true });
        writeFileSync(join(PROFILE_DIR, `${testInfo.project.name}-${testInfo.testId}.json`), trace);
      }
    },
    { auto: true },
  ],
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a function asks for from this pattern
  makeFacilitator: async ({}, use, testInfo) => {
    let api: APIRequestContext | undefined;
    const created: number[] = [];
    await use(async (overrides = {}) => {
      api ??= await staffApi();
      const unique = `${testInfo.project.name}-${testInfo.workerIndex}-${Date.now()}-${created.length}`;
      const user: TestUser = {
        username: `e2e-${unique}@example.org`,
        password: 'first-pass-123',
        displayName: `Test Facilitator ${created.length + 1}`,
        ...overrides,
      };
      const res = await api.post('/api/staff/users', {
        data: {
          ...user,
          displayName: user.displayName ?? '',
          email: user.username,
          freelancerId: '',
          role: 'facilitator',
        },
      });
      expect(res.ok(), await res.text()).toBeTruthy();
      const body = (await res.json()) as { id: number };
      created.push(body.id);
      return { ...user, id: body.id };
    });
    await api?.dispose();
    if (created.length === 0) return;
    // a fresh context for the clean-up: the test may have ended the shared staff session meanwhile
    const cleanup = await staffApi();
    for (const id of created) await cleanup.delete(`/api/staff/users/${id}`);
    await cleanup.dispose();
  },
});

/**
 * A facilitator in `area`, created through the staff API (the caller deletes it), marked available
 * on `date` with `notes`; answers its id.
 */
export async function addAvailableFacilitator(
  api: APIRequestContext,
  person: { username: string; password: string; displayName: string; area: string },
  date: string,
  notes = '',
): Promise<number> {
  const res = await api.post('/api/staff/users', {
    data: { ...person, email: person.username, role: 'facilitator' },
  });
  expect(res.status(), await res.text()).toBe(201);
  const id = ((await res.json()) as { id: number }).id;
  const day = await api.post('/api/staff/availability', {
    data: { userId: id, date, status: 'available', startTime: '', endTime: '', notes },
  });
  expect(day.status(), await day.text()).toBe(200);
  return id;
}

/**
 * The laptop width people reported on (1366 px) in the desktop project; the phone project keeps its
 * 390 px. For tests whose screens must hold at both widths.
 */
export async function laptopOnDesktop(page: Page, testInfo: TestInfo) {
  if (testInfo.project.name === 'desktop') await page.setViewportSize({ width: 1366, height: 800 });
}

/** The single visible toast (one at a time). */
export function toastLocator(page: Page) {
  return page.locator('[data-slot="toast"]');
}

/**
 * Stops the page's clock (page.clock.install() before the page loaded) a little ahead of the page's
 * present time and answers that moment; from then on only page.clock.runFor moves the page's time,
 * so a test asserts what a timer does without waiting for it in real time. The page's clock runs on
 * while the pause is asked for, so on a busy machine the chosen moment can already be past; it is
 * then chosen again from the page's new time.
 */
export async function pausePageClock(page: Page, ahead = 500): Promise<number> {
  let pausedAt = 0;
  await expect(async () => {
    pausedAt = (await page.evaluate(() => Date.now())) + ahead;
    await page.clock.pauseAt(pausedAt);
  }).toPass();
  return pausedAt;
}

/** The WCAG levels every screen is checked against. */
const AXE_TAGS = ['wcag2a', 'wcag2aa'];
/**
 * The rules among AXE_TAGS whose outcome depends on the colours on screen. checkScreen's theme
 * switch changes nothing else: it swaps one class on <html>, whose only effect is the colour
 * variables and `color-scheme` (the `dark:` variants in the client are all colours), and the DOM,
 * layout and visibility stay as they were. So the second theme needs only these rules; every other
 * rule would give the same answer again (ADR 43). color-contrast is also most of an axe run's time.
 */
const THEME_DEPENDENT_RULES = ['color-contrast', 'link-in-text-block'];
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: Array<{ target: unknown[]; failureSummary?: string }>;
}

type AxeWindow = Window & {
  axe?: {
    run: (context: unknown, options: unknown) => Promise<unknown>;
    getRules: (tags: string[]) => Array<{ ruleId: string }>;
  };
};

/**
 * Runs axe-core in the page itself. @axe-core/playwright's AxeBuilder injects axe into every frame
 * and then opens a blank page for axe.finishRun, on every call: about 4 of the 5 seconds a check
 * took here. The app's pages have no frames, so one injection per document and a direct axe.run
 * apply the same rules and report the same violations. A page with frames still uses AxeBuilder.
 */
async function axeViolations(
  page: Page,
  rules: 'all' | 'theme-dependent',
  injected?: boolean,
): Promise<AxeViolation[]> {
  if (page.frames().length > 1) {
    const builder = new AxeBuilder({ page }).withTags(AXE_TAGS);
    if (rules === 'theme-dependent') builder.withRules(THEME_DEPENDENT_RULES);
    return (await builder.analyze()).violations;
  }
  // page.evaluate runs outside the page's CSP, as AxeBuilder's injection does
  if (!(injected ?? (await page.evaluate(() => 'axe' in window)))) await page.evaluate(axeSource);
  return page.evaluate(
    async ({ tags, only }) => {
      const axe = (window as AxeWindow).axe!;
      if (only) {
        // a rule renamed or retagged by an axe upgrade must fail here, not be skipped silently
        const known = new Set(axe.getRules(tags).map((rule) => rule.ruleId));
        const missing = only.filter((rule) => !known.has(rule));
        if (missing.length > 0) throw new Error(`axe has no ${tags.join('/')} rule ${missing.join(', ')}`);
      }
      const results = (await axe.run(document, {
        runOnly: only ? { type: 'rule', values: only } : { type: 'tag', values: tags },
        // only violations are read: not listing every passing node is quicker
        resultTypes: ['violations'],
      })) as { violations: AxeViolation[] };
      return results.violations;
    },
    { tags: AXE_TAGS, only: rules === 'theme-dependent' ? THEME_DEPENDENT_RULES : null },
  );
}

async function expectNoViolations(
  page: Page,
  context: string,
  rules: 'all' | 'theme-dependent' = 'all',
  injected?: boolean,
) {
  const violations = await test.step(`axe ${context}`, () => axeViolations(page, rules, injected), {
    box: true,
  });
  const summary = violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} :: ${n.failureSummary ?? ''}`),
  }));
  expect(summary, `axe violations ${context}`).toEqual([]);
}

/** Attaches a full-page screenshot to the report (and keeps the file in the test's output folder). */
export async function attachScreenshot(page: Page, testInfo: TestInfo, name: string) {
  await test.step(
    `screenshot ${name}`,
    async () => {
      const file = testInfo.outputPath(`${name}.png`);
      await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
      await testInfo.attach(name, { path: file, contentType: 'image/png' });
    },
    { box: true },
  );
}

type CheckWindow = AxeWindow & { __checkPaused?: Set<Animation>; __checkClassName?: string };

/**
 * Shows the theme the way the app switches it (lib/theme.tsx applyTheme: no transitions, so axe
 * never sees colours half-way between the themes), on the document only, so the page keeps its
 * state and the stored choice is untouched. Then lets finite animations (a dialog or toast sliding
 * in) end, so axe and the screenshot see the settled screen, and pauses endless ones (spinners,
 * pulsing dots) where they are: with software rendering a spinning icon repaints all the time and
 * made one axe run take 20 s instead of 1 s. Runs before every axe run, because the screenshot's
 * `animations: 'disabled'` restarts them. One round trip; answers whether axe is in the page.
 */
async function showThemeSettled(page: Page, theme: 'light' | 'dark'): Promise<boolean> {
  return page.evaluate(async (t) => {
    const w = window as CheckWindow;
    const root = document.documentElement;
    w.__checkClassName ??= root.className;
    root.classList.add('theme-switching');
    root.classList.remove('light', 'dark');
    root.classList.add(t);
    root.style.colorScheme = t;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    root.classList.remove('theme-switching');

    w.__checkPaused ??= new Set();
    const running = document.getAnimations().filter((a) => a.playState === 'running');
    const endless = running.filter((a) => a.effect?.getComputedTiming().endTime === Number.POSITIVE_INFINITY);
    for (const animation of endless) {
      animation.pause();
      w.__checkPaused.add(animation);
    }
    const finite = running.filter((a) => !endless.includes(a)).map((a) => a.finished.catch(() => {}));
    // never wait on an animation for long: the check then runs on the screen as it is
    await Promise.race([Promise.all(finite), new Promise((resolve) => setTimeout(resolve, 2_000))]);
    return 'axe' in window;
  }, theme);
}

/** Puts the document's classes back and lets the paused animations run on. */
async function restoreAfterCheck(page: Page) {
  await page.evaluate(() => {
    const w = window as CheckWindow;
    if (w.__checkClassName !== undefined) document.documentElement.className = w.__checkClassName;
    for (const animation of w.__checkPaused ?? []) if (animation.playState === 'paused') animation.play();
    w.__checkClassName = undefined;
    w.__checkPaused = undefined;
  });
}

/**
 * The client joins class names without resolving Tailwind conflicts (ADR 68): two utilities for the
 * same property on one element (`px-4` from a component, `px-2` from its caller) would leave the
 * winner to the stylesheet's order, not to the order they were written in. Every checked screen must
 * have none. tailwind-merge, the library that resolved them at run time before, names them here: any
 * class it would drop from an element's list is one such conflict.
 */
async function expectNoClassConflicts(page: Page, context: string) {
  const lists = await page.evaluate(() => [
    ...new Set(Array.from(document.querySelectorAll('[class]'), (el) => el.getAttribute('class') ?? '')),
  ]);
  const conflicts = lists.flatMap((list) => {
    const kept = new Set(twMerge(list).split(' '));
    const dropped = list.split(/\s+/).filter((name) => name && !kept.has(name));
    return dropped.length > 0 ? [`"${list}" would lose ${dropped.join(' ')}`] : [];
  });
  expect(conflicts, `classes that override each other on one element ${context}`).toEqual([]);
}

/**
 * Whether checkScreen attaches its screenshots. They are for a person reviewing a screen, and a
 * full-page capture costs a busy machine about as much as the axe run beside it; in CI nobody opens
 * them, so CI takes none unless E2E_SCREENSHOTS=1 asks (E2E_SCREENSHOTS=0 skips them anywhere). A
 * failing test still gets Playwright's own screenshot (`screenshot: 'only-on-failure'`).
 */
const takeScreenshots = process.env.E2E_SCREENSHOTS ? process.env.E2E_SCREENSHOTS !== '0' : !process.env.CI;

/**
 * E2E_SCREEN_CHECKS=0 leaves the screen checks out: the runs on other days (scripts/on-other-days.ts)
 * check what the dates change, after the run on the real date has checked every screen.
 */
const checkScreens = process.env.E2E_SCREEN_CHECKS !== '0';

/**
 * The per-screen check: in light and then dark, run axe and attach a full-page screenshot (see
 * takeScreenshots). Light runs every WCAG 2 A and AA rule; dark runs the rules whose answer the
 * theme can change (THEME_DEPENDENT_RULES), the others having answered for both. In light, it
 * also fails on classes that override each other on one element (expectNoClassConflicts).
 */
export async function checkScreen(page: Page, testInfo: TestInfo, name: string) {
  if (!checkScreens) return;
  await test.step(`check screen ${name} (axe${takeScreenshots ? ' and screenshot' : ''}, light and dark; class clashes)`, async () => {
    try {
      for (const theme of ['light', 'dark'] as const) {
        const injected = await showThemeSettled(page, theme);
        const rules = theme === 'light' ? 'all' : 'theme-dependent';
        await expectNoViolations(page, `(${name}, ${theme})`, rules, injected);
        if (theme === 'light') await expectNoClassConflicts(page, `(${name})`);
        if (takeScreenshots) await attachScreenshot(page, testInfo, `${name}-${theme}`);
      }
    } finally {
      await restoreAfterCheck(page);
    }
  });
}

/**
 * Picks an option from a select list and waits for the list to close. A click can land while the
 * list is still scrolling or positioning itself, on its scroll arrow rather than on the option; the
 * list then stays open and hides the rest of the page from the accessibility tree. The choice is
 * confirmed by the list closing, and made again if it did not close.
 */
export async function chooseOption(trigger: Locator, option: string | RegExp) {
  const page = trigger.page();
  const list = page.getByRole('listbox');
  await expect(async () => {
    if ((await list.count()) === 0) await trigger.click();
    await page
      .getByRole('option', { name: option, exact: typeof option === 'string' })
      .click({ timeout: 5_000 });
    await expect(list).toHaveCount(0, { timeout: 2_000 });
  }).toPass();
}

/**
 * Scrolls the staff grid sideways until `date`'s column is in view, as a person does to reach a day:
 * the grid draws only the day columns in view and a few either side (ADR 67). The header row keeps
 * every day, so its cell for the day is there to scroll to.
 */
export async function showGridDay(page: Page, date: string) {
  await page
    .getByTestId('grid-scroll')
    .locator(`[data-testid="day-header"][data-date="${date}"]`)
    .evaluate((header) => header.scrollIntoView({ block: 'nearest', inline: 'center' }));
}

/** Shows only these areas in the staff grid's area filter. */
export async function chooseAreas(page: Page, labels: string[]) {
  await page.getByTestId('area-filter').click();
  const dialog = page.getByRole('dialog', { name: 'Choose areas' });
  await dialog.getByRole('button', { name: 'None', exact: true }).click();
  for (const label of labels) await dialog.getByRole('checkbox', { name: label, exact: true }).check();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
}

/** Records every refresh message and progress value the page shows, in order, as "message@value". */
export async function recordRefreshStates(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __refreshStates: string[] }).__refreshStates = seen;
    const read = () => {
      const message = document.querySelector('[data-testid="refresh-message"]')?.textContent ?? null;
      const value = document.querySelector('[data-testid="refresh-progress"]')?.getAttribute('data-value');
      const entry = message ? `${message}@${value}` : 'cleared';
      if (seen[seen.length - 1] !== entry && !(seen.length === 0 && entry === 'cleared')) seen.push(entry);
    };
    new MutationObserver(read).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['data-value'],
    });
  });
}

/** What recordRefreshStates has seen so far. */
export const refreshStates = (page: Page) =>
  page.evaluate(() => (window as unknown as { __refreshStates: string[] }).__refreshStates);

/**
 * Holds the browser's matching requests (of `method`, when given) until the returned function is
 * called; then the real server answers them. Lets a test see an in-between state ("Creating...")
 * for exactly as long as it needs instead of slowing every request by a fixed time.
 */
export async function holdRequests(page: Page, url: string | RegExp, method?: string) {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    if (method && route.request().method() !== method) return route.fallback();
    await held;
    await route.fallback();
  });
  return release;
}
