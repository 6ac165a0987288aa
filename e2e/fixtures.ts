import AxeBuilder from '@axe-core/playwright';
import {
  type APIRequestContext,
  test as base,
  expect,
  type Page,
  request,
  type TestInfo,
} from '@playwright/test';
import { BASE_URL, STAFF, type TestUser } from './constants';

export { expect };

/** An API context signed in as the initial staff account. */
export async function staffApi(): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL: BASE_URL });
  const res = await api.post('/api/auth/staff-login', {
    data: { username: STAFF.username, password: STAFF.password },
  });
  if (!res.ok()) throw new Error(`staff login failed: ${res.status()} ${await res.text()}`);
  return api;
}

/** Signs the page's browser context in as a facilitator through the API (cookies are shared). */
export async function loginAsFacilitator(page: Page, user: Pick<TestUser, 'username' | 'password'>) {
  const res = await page.request.post('/api/login', {
    data: { username: user.username, password: user.password },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** Signs the page's browser context in as the initial staff account through the API. */
export async function loginAsStaff(page: Page) {
  const res = await page.request.post('/api/auth/staff-login', {
    data: { username: STAFF.username, password: STAFF.password },
  });
  expect(res.status(), await res.text()).toBe(200);
}

export interface CreatedUser extends TestUser {
  id: number;
}

interface Fixtures {
  /** Creates a facilitator only this test uses (deleted afterwards). */
  makeFacilitator: (overrides?: Partial<TestUser>) => Promise<CreatedUser>;
}

export const test = base.extend<Fixtures>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a function asks for from this pattern
  makeFacilitator: async ({}, use, testInfo) => {
    const api = await staffApi();
    const created: number[] = [];
    await use(async (overrides = {}) => {
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
    for (const id of created) await api.delete(`/api/staff/users/${id}`);
    await api.dispose();
  },
});

/** The single visible toast (spec: one at a time). */
export function toastLocator(page: Page) {
  return page.locator('[data-slot="toast"]');
}

/** Runs axe (WCAG 2 A and AA) on the page as it is now and fails on any violation. */
export async function expectNoAxeViolations(page: Page, context = '') {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const summary = results.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} :: ${n.failureSummary ?? ''}`),
  }));
  expect(summary, `axe violations ${context}`).toEqual([]);
}

/** Attaches a full-page screenshot to the report (and keeps the file in the test's output folder). */
export async function attachScreenshot(page: Page, testInfo: TestInfo, name: string) {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

async function showTheme(page: Page, theme: 'light' | 'dark') {
  await page.evaluate(async (t) => {
    const root = document.documentElement;
    // the same switch the app makes (lib/theme.tsx applyTheme): no transitions, so axe never sees
    // colours half-way between the themes
    root.classList.add('theme-switching');
    root.classList.remove('light', 'dark');
    root.classList.add(t);
    root.style.colorScheme = t;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    root.classList.remove('theme-switching');
  }, theme);
}

/**
 * The per-screen check: in light and then dark, run axe and attach a screenshot. The theme is switched
 * on the document only, so the page keeps its state (errors, toasts) and the stored choice is untouched.
 */
export async function checkScreen(page: Page, testInfo: TestInfo, name: string) {
  const original = await page.evaluate(() => document.documentElement.className);
  for (const theme of ['light', 'dark'] as const) {
    await showTheme(page, theme);
    await expectNoAxeViolations(page, `(${name}, ${theme})`);
    await attachScreenshot(page, testInfo, `${name}-${theme}`);
  }
  await page.evaluate((cls) => {
    document.documentElement.className = cls;
  }, original);
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
