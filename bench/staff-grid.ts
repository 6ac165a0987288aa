/**
 * Staff grid benchmark: a month of the dashboard with 1,000 facilitators.
 *
 *   npx tsx bench/staff-grid.ts [--facilitators 1000] [--runs 30] [--browser-runs 5] [--no-browser]
 *
 * Seeds a fresh PGlite database (in a temporary DATA_DIR) with facilitators in a handful of areas, a
 * month of weekday availability for each, bookings on about a fifth of the days and some notes. Then:
 *  1. API: GET /api/staff/users, /api/staff/availabilities and /api/staff/bookings for the month, the
 *     three calls the dashboard waits for, through app.inject (no network), p50/p99, the bytes sent
 *     (compressed, as a browser asks) and their uncompressed size, and the bare database query for
 *     the same rows beside each (the ratio is our overhead).
 *  2. Browser (when dist/client exists): the same app listening on a local port, headless Chromium with
 *     a fresh profile per run, time from navigation to the first rendered grid row, and the number of
 *     rows actually in the DOM (virtualisation keeps it small).
 * Prints a table. Budgets are printed beside the figures; nothing fails.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { hashPassword } from '../src/server/auth/passwords';
import { loadConfig } from '../src/server/config';
import { availability, bookings, staffNotes, users } from '../src/server/db/schema';
import { monthWeekdays, startOfMonth, todayIn } from '../src/shared/calendar';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? Number(args[index + 1]) : fallback;
};
const FACILITATORS = option('facilitators', 1000);
const RUNS = option('runs', 30);
const BROWSER_RUNS = option('browser-runs', 5);
const WITH_BROWSER = !args.includes('--no-browser');

const STAFF = { username: 'bench-staff@example.org', password: 'bench-staff-password' };
const AREAS = ['North', 'South', 'East', 'West', 'Central', 'Coast', 'Valley'];
const STATUSES = ['available', 'limited', 'unavailable'] as const;

const root = fileURLToPath(new URL('..', import.meta.url));
const clientDir = join(root, 'dist/client');

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

// A small deterministic random source so every run seeds the same organisation.
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'afp-bench-grid-'));
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    APP_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    INITIAL_STAFF_USERNAME: STAFF.username,
    INITIAL_STAFF_PASSWORD: STAFF.password,
    HOST: '127.0.0.1',
  });
  const { app, ctx, close } = await buildApp(config, {
    scheduler: false,
    clientDir,
    loginThrottle: { perAccount: 1000, perAddress: 1000, windowMs: 60_000, blockMs: 1000 },
  });
  const rows: [string, string, string, string, string][] = [];

  try {
    // ---------------------------------------------------------------- seed
    const today = todayIn(config.ORG_TIMEZONE);
    const month = startOfMonth(today);
    const days = monthWeekdays(month);
    const range = { from: days[0]!, to: days[days.length - 1]! };
    const seedStarted = performance.now();
    const passwordHash = await hashPassword('facilitator-password');
    const userIds: number[] = [];
    for (let i = 0; i < FACILITATORS; i += 500) {
      const chunk = Array.from({ length: Math.min(500, FACILITATORS - i) }, (_, k) => {
        const n = i + k + 1;
        return {
          username: `facilitator${String(n).padStart(4, '0')}@example.org`,
          passwordHash,
          displayName: `${n % 3 === 0 ? 'dr ' : ''}Facilitator ${String(n).padStart(4, '0')}`,
          email: `facilitator${n}@example.org`,
          freelancerId: `F${n}`,
          role: 'facilitator',
          area: n % 11 === 0 ? null : AREAS[n % AREAS.length]!,
          lastAvailabilityUpdatedAt: n % 5 === 0 ? null : new Date(),
        };
      });
      const inserted = await ctx.db.insert(users).values(chunk).returning({ id: users.id });
      userIds.push(...inserted.map((r) => r.id));
    }
    const availabilityRows = userIds.flatMap((userId) =>
      days
        .filter(() => random() < 0.85)
        .map((date) => ({
          userId,
          date,
          status: STATUSES[Math.floor(random() * 3)]!,
          startTime: random() < 0.5 ? '09:00' : '',
          endTime: random() < 0.5 ? '17:00' : '',
          notes: random() < 0.1 ? 'Prefers mornings' : '',
        })),
    );
    for (let i = 0; i < availabilityRows.length; i += 2000) {
      await ctx.db.insert(availability).values(availabilityRows.slice(i, i + 2000));
    }
    let bookingNumber = 0;
    const bookingRows = userIds.flatMap((userId) =>
      days
        .filter(() => random() < 0.2)
        .map((date) => {
          bookingNumber += 1;
          return {
            userId,
            date,
            title: `Workshop ${bookingNumber}`,
            sharePointId: `bench-${bookingNumber}`,
            startTime: '09:30',
            endTime: '12:00',
            location: 'School hall',
            schoolName: `School ${bookingNumber % 300}`,
            schoolAddress: '1 High Street',
            schoolPostcode: 'AB1 2CD',
            program: 'Clay',
            timeSlot: 'Morning',
            deliveryType: 'Live',
            year: 'Year 5',
          };
        }),
    );
    for (let i = 0; i < bookingRows.length; i += 1000) {
      await ctx.db.insert(bookings).values(bookingRows.slice(i, i + 1000));
    }
    const noteRows = userIds
      .filter(() => random() < 0.3)
      .map((facilitatorId) => ({
        facilitatorId,
        date: days[Math.floor(random() * days.length)]!,
        note: 'Check DBS renewal',
        priority: (['normal', 'high', 'urgent'] as const)[Math.floor(random() * 3)]!,
      }));
    if (noteRows.length > 0) await ctx.db.insert(staffNotes).values(noteRows);
    const seedMs = performance.now() - seedStarted;
    console.log(
      `Seeded ${FACILITATORS} facilitators, ${availabilityRows.length} availability rows, ` +
        `${bookingRows.length} bookings, ${noteRows.length} notes for ${range.from}..${range.to} in ${(seedMs / 1000).toFixed(1)} s`,
    );

    // ---------------------------------------------------------------- API
    const login = await app.inject({ method: 'POST', url: '/api/auth/staff-login', payload: STAFF });
    const cookie = `afp_session=${login.cookies.find((c) => c.name === 'afp_session')!.value}`;
    const calls = [
      '/api/staff/users',
      `/api/staff/availabilities?from=${range.from}&to=${range.to}`,
      `/api/staff/bookings?from=${range.from}&to=${range.to}`,
      `/api/staff/notes?date=${range.from}&view=month`,
    ];
    // The bare database query for the same rows, for the ratio "our overhead" (driver decoding
    // included: that is what any server on this database pays).
    const bare: Record<string, () => Promise<unknown>> = {
      [calls[0]!]: () => ctx.db.execute(sql`select * from users order by id`),
      [calls[1]!]: () =>
        ctx.db.execute(
          sql`select * from availability where date between ${range.from} and ${range.to} order by date, user_id`,
        ),
      [calls[2]!]: () =>
        ctx.db.execute(
          sql`select * from bookings where date between ${range.from} and ${range.to} order by date, start_time, id`,
        ),
      [calls[3]!]: () =>
        ctx.db.execute(sql`select * from staff_notes where date between ${range.from} and ${range.to}`),
    };
    // as a browser asks: compressed answers
    const headers = { cookie, 'accept-encoding': 'br, gzip' };
    const timings = new Map<string, number[]>(calls.map((url) => [url, []]));
    const bareTimings = new Map<string, number[]>(calls.map((url) => [url, []]));
    const sizes = new Map<string, { raw: number; sent: number }>();
    const together: number[] = [];
    // each call on its own, then the dashboard's three together (as the browser sends them)
    for (let run = -3; run < RUNS; run++) {
      for (const url of calls) {
        const b0 = performance.now();
        await bare[url]!();
        if (run >= 0) bareTimings.get(url)!.push(performance.now() - b0);
        const t0 = performance.now();
        const response = await app.inject({ method: 'GET', url, headers });
        if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
        if (run >= 0) timings.get(url)!.push(performance.now() - t0);
        const encoding = response.headers['content-encoding'];
        const raw =
          encoding === 'br'
            ? brotliDecompressSync(response.rawPayload).length
            : encoding === 'gzip'
              ? gunzipSync(response.rawPayload).length
              : response.rawPayload.length;
        sizes.set(url, { raw, sent: response.rawPayload.length });
      }
      const started = performance.now();
      await Promise.all(calls.slice(0, 3).map((url) => app.inject({ method: 'GET', url, headers })));
      if (run >= 0) together.push(performance.now() - started);
    }
    for (const url of calls) {
      const sorted = [...timings.get(url)!].sort((a, b) => a - b);
      const bareP50 = percentile(
        [...bareTimings.get(url)!].sort((a, b) => a - b),
        50,
      );
      rows.push([
        `GET ${url.split('?')[0]}`,
        ms(percentile(sorted, 50)),
        ms(percentile(sorted, 99)),
        `${kb(sizes.get(url)!.sent)} (${kb(sizes.get(url)!.raw)})`,
        `${ms(bareP50)} (x${(percentile(sorted, 50) / bareP50).toFixed(1)})`,
      ]);
    }
    const sortedTogether = [...together].sort((a, b) => a - b);
    const totalBytes = calls.slice(0, 3).reduce((sum, url) => sum + sizes.get(url)!.sent, 0);
    rows.push([
      'the three dashboard calls, in parallel',
      ms(percentile(sortedTogether, 50)),
      ms(percentile(sortedTogether, 99)),
      kb(totalBytes),
      '',
    ]);

    // ---------------------------------------------------------------- browser
    if (WITH_BROWSER && existsSync(join(clientDir, 'index.html')) && existsSync('/usr/bin/chromium')) {
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      const browserTimes: number[] = [];
      const domRows: number[] = [];
      const nextMonthTimes: number[] = [];
      for (let run = 0; run < BROWSER_RUNS; run++) {
        const profile = mkdtempSync(join(tmpdir(), 'afp-bench-profile-'));
        const context = await chromium.launchPersistentContext(profile, {
          executablePath: '/usr/bin/chromium',
          headless: true,
          viewport: { width: 1280, height: 800 },
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        });
        try {
          const page = context.pages()[0] ?? (await context.newPage());
          const signIn = await page.request.post(`${address}/api/auth/staff-login`, { data: STAFF });
          if (!signIn.ok()) throw new Error(`browser staff login: ${signIn.status()}`);
          const t0 = performance.now();
          await page.goto(`${address}/staff`);
          await page
            .locator('[data-testid="grid-row"]')
            .first()
            .waitFor({ state: 'visible', timeout: 60_000 });
          browserTimes.push(performance.now() - t0);
          domRows.push(await page.locator('[data-testid="grid-row"]').count());
          const label = await page.getByTestId('grid-label').textContent();
          const t1 = performance.now();
          await page.getByRole('button', { name: 'Next month' }).click();
          await page.waitForFunction(
            (previous) => {
              const text = document.querySelector('[data-testid="grid-label"]')?.textContent;
              const count = document.querySelector('[data-testid="grid-count"]')?.textContent ?? '';
              return text !== previous && !count.includes('updating');
            },
            label,
            { timeout: 60_000 },
          );
          nextMonthTimes.push(performance.now() - t1);
        } finally {
          await context.close();
          rmSync(profile, { recursive: true, force: true });
        }
      }
      const sortedBrowser = [...browserTimes].sort((a, b) => a - b);
      const sortedNext = [...nextMonthTimes].sort((a, b) => a - b);
      rows.push([
        `Chromium: navigation → first grid row (${BROWSER_RUNS} cold runs)`,
        ms(percentile(sortedBrowser, 50)),
        `${ms(sortedBrowser[sortedBrowser.length - 1]!)} (max)`,
        `${Math.max(...domRows)} rows in DOM`,
        '',
      ]);
      rows.push([
        'Chromium: Next month → grid updated',
        ms(percentile(sortedNext, 50)),
        `${ms(sortedNext[sortedNext.length - 1]!)} (max)`,
        '',
        '',
      ]);
    } else if (WITH_BROWSER) {
      rows.push([
        'Chromium',
        'skipped: no dist/client (run npx vite build) or no /usr/bin/chromium',
        '',
        '',
        '',
      ]);
    }
  } finally {
    await close();
    rmSync(dataDir, { recursive: true, force: true });
  }

  const header: [string, string, string, string, string] = [
    'measure',
    'p50',
    'p99',
    'payload sent (uncompressed)',
    'bare query p50 (ratio)',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ');
  console.log(`\nStaff grid, month view, ${FACILITATORS} facilitators, ${RUNS} API runs\n`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const r of rows) console.log(line(r));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
