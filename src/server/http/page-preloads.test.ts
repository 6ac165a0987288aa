import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STAFF_VIEW, monthGridRange, staffViewRange } from '../../shared/calendar';
import type { PublicUser } from '../../shared/schemas/users';
import { firstGridIds } from '../../shared/staff-grid-order';
import { createTestApp, type TestApp } from '../test/harness';
import { PAGE_MODULES, pageDataUrls } from './page-preloads';

// A built client shaped like Vite's output: the entry loads the shared chunk; the dashboard and
// the calendar are loaded on demand and import chunks of their own.
const manifest = {
  'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_shared-1.js'] },
  '_shared-1.js': { file: 'assets/shared-1.js' },
  '_grid-1.js': { file: 'assets/grid-1.js', imports: ['_shared-1.js'] },
  'app/routes/staff-dashboard.tsx': {
    file: 'assets/staff-dashboard-1.js',
    imports: ['index.html', '_grid-1.js', '_shared-1.js'],
  },
  'app/staff-prefetch.ts': { file: 'assets/staff-prefetch-1.js', imports: ['index.html'] },
  'app/routes/home.tsx': { file: 'assets/home-1.js', imports: ['index.html', '_shared-1.js'] },
};
const INDEX = '<!doctype html><html><head><title>portal</title></head><body></body></html>';

let app: TestApp;
let dir: string;
let staff: string;
let facilitator: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'afp-preloads-'));
  mkdirSync(join(dir, '.vite'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest));
  // 23:30 on 31 March in London is already 1 April in Auckland: the day is the organisation's
  app = await createTestApp(
    { ORG_TIMEZONE: 'Pacific/Auckland', CLIENT_DIR: dir },
    { now: () => new Date('2026-03-31T23:30:00Z') },
  );
});
beforeAll(async () => {
  staff = await app.loginStaff();
  await app.createUser({ username: 'fac@example.org', password: 'password-123' });
  facilitator = await app.login('fac@example.org', 'password-123');
});
afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

const preloads = (html: string) =>
  [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);
const page = async (url: string, cookie?: string) => {
  const response = await app.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  expect(response.statusCode).toBe(200);
  return response.body;
};

describe("a page's HTML names the page's own code", () => {
  it("staff opening the dashboard get its chunks and the chunks they import, not the entry's", async () => {
    const html = await page('/staff', staff);
    expect(preloads(html)).toEqual([
      '/assets/staff-dashboard-1.js',
      '/assets/grid-1.js',
      '/assets/staff-prefetch-1.js',
    ]);
    expect(html.indexOf('modulepreload')).toBeLessThan(html.indexOf('</head>'));
    // the query string does not change the page
    expect(preloads(await page('/staff?view=week', staff))).toHaveLength(3);
  });

  it('a facilitator opening the calendar gets its chunk', async () => {
    expect(preloads(await page('/', facilitator))).toEqual(['/assets/home-1.js']);
  });

  it('nobody signed in, a facilitator on a staff page, or a page without its own code: the plain page', async () => {
    expect(await page('/', undefined)).toBe(INDEX);
    expect(await page('/staff', undefined)).toBe(INDEX);
    expect(await page('/staff/users', undefined)).toBe(INDEX);
    expect(await page('/staff', facilitator)).toBe(INDEX);
    expect(await page('/auth', staff)).toBe(INDEX);
    expect(await page('/no-such-page', staff)).toBe(INDEX);
  });
});

const dataPreloads = (html: string) =>
  [...html.matchAll(/<link rel="preload" as="fetch" crossorigin="use-credentials" href="([^"]+)">/g)].map(
    (m) => m[1]!,
  );
const range = ({ from, to }: { from: string; to: string }) => `from=${from}&to=${to}`;
const staffUsers = async () =>
  (await app.app.inject({ url: '/api/staff/users', headers: { cookie: staff } })).json() as PublicUser[];

describe("a page's HTML starts the page's first reads", () => {
  it("the dashboard's session, users and the grid's first rows in the month around the organisation's today, before its scripts", async () => {
    const month = staffViewRange(DEFAULT_STAFF_VIEW, '2026-04-01');
    const html = await page('/staff', staff);
    const ids = firstGridIds(await staffUsers()).join(',');
    expect(ids).not.toBe('');
    expect(dataPreloads(html)).toEqual([
      '/api/user',
      '/api/staff/users',
      `/api/staff/availabilities?${range(month)}&userIds=${ids}`,
      `/api/staff/bookings?${range(month)}&userIds=${ids}`,
      `/api/staff/notes?date=${month.from}&view=${DEFAULT_STAFF_VIEW}`,
      '/api/admin/scheduler/status',
    ]);
    expect(html.indexOf('rel="preload"')).toBeLessThan(html.indexOf('modulepreload'));
    // each is a read this person may make, answered as the page will ask for it
    for (const url of dataPreloads(html)) {
      const response = await app.app.inject({ url, headers: { cookie: staff } });
      expect(response.statusCode, url).toBe(200);
    }
  });

  it("the grid's first rows are the ones the client works out from the users list, and follow its changes", async () => {
    const firstRows = async () => {
      const url = dataPreloads(await page('/staff', staff)).find((u) => u.includes('userIds='))!;
      return new URL(url, 'http://x').searchParams.get('userIds')!.split(',').map(Number);
    };
    const before = await firstRows();
    expect(before).toEqual(firstGridIds(await staffUsers()));
    // a name that sorts first (case apart) leads them at once; staff are never among them
    const first = await app.createUser({ username: 'AAA-first@example.org', password: 'password-123' });
    const after = await firstRows();
    expect(after[0]).toBe(first.id);
    expect(after).toEqual(firstGridIds(await staffUsers()));
    const staffIds = (await staffUsers()).filter((u) => u.role === 'staff').map((u) => u.id);
    expect(after.some((id) => staffIds.includes(id))).toBe(false);
  });

  it("a facilitator's calendar starts their own month", async () => {
    const month = monthGridRange('2026-04-01');
    const html = await page('/', facilitator);
    expect(dataPreloads(html)).toEqual([
      '/api/user',
      `/api/availability?${range(month)}`,
      `/api/bookings?${range(month)}`,
    ]);
    for (const url of dataPreloads(html)) {
      const response = await app.app.inject({ url, headers: { cookie: facilitator } });
      expect(response.statusCode, url).toBe(200);
    }
  });

  it('with no facilitators to put first, the dashboard preloads the whole range, which is then small', () => {
    const month = staffViewRange(DEFAULT_STAFF_VIEW, '2026-04-01');
    const gridLists = (urls: string[]) =>
      urls.filter(
        (url) => url.startsWith('/api/staff/availabilities') || url.startsWith('/api/staff/bookings'),
      );
    expect(gridLists(pageDataUrls('/staff', '2026-04-01', []))).toEqual([
      `/api/staff/availabilities?${range(month)}`,
      `/api/staff/bookings?${range(month)}`,
    ]);
    expect(gridLists(pageDataUrls('/staff', '2026-04-01', [7, 3]))).toEqual([
      `/api/staff/availabilities?${range(month)}&userIds=7,3`,
      `/api/staff/bookings?${range(month)}&userIds=7,3`,
    ]);
  });

  it('every signed-in page at least starts the session read; nobody else gets a preload', async () => {
    for (const path of Object.keys(PAGE_MODULES)) {
      const cookie = PAGE_MODULES[path]!.staff ? staff : facilitator;
      expect(dataPreloads(await page(path, cookie))[0], path).toBe('/api/user');
    }
    expect(dataPreloads(await page('/staff', facilitator))).toEqual([]);
    expect(dataPreloads(await page('/auth', staff))).toEqual([]);
  });
});

describe('the table of pages', () => {
  it('names only modules the client has, so a renamed route cannot silently lose its preload', async () => {
    const { readFileSync } = await import('node:fs');
    const router = readFileSync(new URL('../../client/app/router.tsx', import.meta.url), 'utf8');
    for (const { modules } of Object.values(PAGE_MODULES)) {
      for (const module of modules) {
        const imported = `./${module.replace(/^app\//, '').replace(/\.tsx?$/, '')}`;
        expect(router, module).toContain(`import('${imported}')`);
      }
    }
  });
});
