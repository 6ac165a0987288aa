/**
 * API benchmark at several organisation sizes, with years of history behind the current month.
 *
 *   npm run bench [-- --sizes 200,1000,5000] [--runs 20] [--years 3]
 *   scripts/with-postgres.sh npm run bench -- --postgres     (the same on a throwaway PostgreSQL)
 *   npm run bench -- --sizes 5000 --statements               (and each statement of a grid request)
 *   npm run bench -- --sizes 5000 --keep /tmp/afp-bench      (seed once into DIR/<size>, reuse it after)
 *
 * For each size: a fresh database (PGlite in a temporary DATA_DIR, as `npm start` runs it, or a new
 * PostgreSQL database), facilitators, the current month and `--years` of past days seeded by
 * bench/seed.ts (fixed: the same rows every run). Then the app and the database are closed and
 * opened again, and the first request after that restart is the **cold** figure: nothing is kept
 * anywhere but in the database's own files. Every call goes through the whole app (`app.inject`:
 * routing, session, access, validation, the response schema, compression as a browser asks for it),
 * and beside each is the **bare** query: the same rows read by hand through the same driver with
 * the same indexes, measured in the same run, so the ratio is our overhead. Warm figures are the p50
 * of `--runs` requests; revalidated ones send the ETag back (304, no body).
 * --statements also prints every statement one warm grid request sends (session, versions, page,
 * counts, rows …), each timed again alone through the driver (p50 of `--runs`), and the whole
 * request beside their sum: what is left is the app's own work (serialising, compressing).
 * Nothing fails on a budget: the figures go to docs/performance.md.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../src/server/app';
import { type Config, loadConfig } from '../src/server/config';
import { type Database, openDatabase } from '../src/server/db/client';
import { addDays, addMonths, staffViewRange, todayIn } from '../src/shared/calendar';
import { GRID_PAGE_SIZE } from '../src/shared/schemas/staff-grid';
import { seedDays, seedFacilitators } from './seed';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 && args[at + 1] ? args[at + 1]! : fallback;
};
const SIZES = option('sizes', '200,1000,5000').split(',').map(Number);
const RUNS = Number(option('runs', '20'));
const YEARS = Number(option('years', '3'));
const POSTGRES = args.includes('--postgres');
const STATEMENTS = args.includes('--statements');
/** --keep DIR: each size's PGlite database lives in DIR/<size>, seeded on the first run and reused after. */
const KEEP = option('keep', '');
/** How many cold requests, each after its own restart (the figure is their median). */
const COLD_RUNS = Number(option('cold-runs', '3'));

/** Written into a kept database's directory once its seeding finished. */
const SEEDED = 'bench-seeded.txt';

/** The statements the app sends while `capturing` is set (--statements). */
let capturing: Array<{ query: string; params: unknown[] }> | null = null;
const onQuery = (query: string, params: unknown[]) => capturing?.push({ query, params });
const STAFF = { username: 'bench-staff@example.org', password: 'bench-staff-password' };

interface Row {
  name: string;
  api: number;
  bare: number;
  sent?: number;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))]!;
};
const ms = (v: number) => `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms`;
const kib = (v: number | undefined) => (v === undefined ? '' : `${(v / 1024).toFixed(1)} KiB`);

/** Where a size's database lives, and how to open it again after a restart. */
async function freshDatabase(size: number) {
  if (!POSTGRES) {
    const kept = KEEP ? join(KEEP, `${size}-${YEARS}y`) : '';
    const dataDir = kept || mkdtempSync(join(tmpdir(), `afp-bench-${size}-`));
    if (kept) mkdirSync(kept, { recursive: true });
    return {
      env: { DATA_DIR: dataDir },
      seeded: kept !== '' && existsSync(join(kept, SEEDED)),
      markSeeded: () => {
        if (kept) writeFileSync(join(kept, SEEDED), `${size} facilitators, ${YEARS} years\n`);
      },
      open: () => openDatabase({ dataDir, onQuery }),
      drop: async () => {
        if (!kept) rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const serverUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('--postgres needs TEST_DATABASE_URL (scripts/with-postgres.sh sets it)');
  const name = `afp_bench_${size}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    seeded: false,
    markSeeded: () => {},
    open: () => openDatabase({ databaseUrl: url.toString(), dataDir: 'unused', onQuery }),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

async function start(config: Config, database: Database) {
  const built = await buildApp(config, { database });
  const response = await built.app.inject({
    method: 'POST',
    url: '/api/auth/staff-login',
    payload: STAFF,
  });
  if (response.statusCode !== 200) throw new Error(`staff sign-in: ${response.statusCode}`);
  const cookie = `afp_session=${response.cookies.find((c) => c.name === 'afp_session')!.value}`;
  return { ...built, cookie };
}

/** The grid's first page read by hand: the page's accounts by the order's index, then their rows. */
async function bareFirstPage(database: Database, range: { from: string; to: string }) {
  const db = database.db;
  const people = (await db.execute(
    sql`select * from users where role <> 'staff'
        order by lower(coalesce(nullif(btrim(display_name), ''), username)), id limit ${GRID_PAGE_SIZE + 1}`,
  )) as unknown as { rows: Array<{ id: number }> };
  const ids = sql.join(
    people.rows.slice(0, GRID_PAGE_SIZE).map((p) => sql`${p.id}`),
    sql`, `,
  );
  await Promise.all([
    db.execute(
      sql`select * from availability where user_id in (${ids}) and date between ${range.from} and ${range.to}`,
    ),
    db.execute(
      sql`select * from bookings where user_id in (${ids}) and date between ${range.from} and ${range.to}`,
    ),
    db.execute(
      sql`select * from staff_notes where facilitator_id in (${ids}) and date between ${range.from} and ${range.to}`,
    ),
    db.execute(sql`select * from safeguarding_records where user_id in (${ids})`),
  ]);
}

/** Each statement of one grid request, timed alone through the driver, beside the whole request. */
async function timeStatements(database: Database, request: () => Promise<unknown>) {
  const client = (database.pool ??
    (database.db as unknown as { $client: { query: typeof pg.Pool.prototype.query } }).$client) as {
    query(text: string, params: unknown[]): Promise<unknown>;
  };
  capturing = [];
  await request();
  const statements = capturing;
  capturing = null;
  const whole: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const t0 = performance.now();
    await request();
    whole.push(performance.now() - t0);
  }
  let sum = 0;
  console.log('  statements of one warm grid request, each alone (p50):');
  for (const { query, params } of statements) {
    const times: number[] = [];
    for (let run = -1; run < RUNS; run++) {
      const t0 = performance.now();
      await client.query(query, params);
      if (run >= 0) times.push(performance.now() - t0);
    }
    const p50 = percentile(times, 50);
    sum += p50;
    console.log(`    ${ms(p50).padStart(10)}  ${query.replace(/\s+/g, ' ').slice(0, 110)}`);
  }
  const total = percentile(whole, 50);
  console.log(
    `    ${ms(sum).padStart(10)}  the ${statements.length} statements' sum; the whole request ${ms(total)}`,
  );
}

async function benchSize(size: number): Promise<Row[]> {
  const where = await freshDatabase(size);
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    APP_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    INITIAL_STAFF_USERNAME: STAFF.username,
    INITIAL_STAFF_PASSWORD: STAFF.password,
    BACKGROUND_JOBS: 'false',
    LOGIN_THROTTLE: 'perAccount=1000,perAddress=1000,windowMs=60000,blockMs=1000',
    ...where.env,
  });
  const month = staffViewRange('month', todayIn(config.ORG_TIMEZONE));
  const gridUrl = `/api/staff/grid?from=${month.from}&to=${month.to}`;
  const headers = (cookie: string, etag?: string) => ({
    cookie,
    'accept-encoding': 'br, gzip',
    ...(etag ? { 'if-none-match': etag } : {}),
  });

  // seed, then stop: what is measured starts from a restart
  let database = await where.open();
  let app = await start(config, database);
  if (where.seeded) {
    console.log(`\n${size} facilitators, ${YEARS} years of history: kept from an earlier run (${KEEP})`);
  } else {
    const t0 = performance.now();
    await seedFacilitators(database.db, size);
    const seeded = await seedDays(database.db, addMonths(month.from, -12 * YEARS), addDays(month.to, 7));
    console.log(
      `\n${size} facilitators, ${YEARS} years of history: ${seeded.availability} days, ${seeded.bookings} bookings, ` +
        `${seeded.notes} notes (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
    );
    where.markSeeded();
  }
  await app.app.close();
  await database.close();

  const rows: Row[] = [];
  // cold: the first grid request after a restart, and the bare reads of the same rows first after
  // another restart (signed in the same way), COLD_RUNS times each; their medians
  const coldTimes: number[] = [];
  const coldBare: number[] = [];
  let coldSent = 0;
  for (let run = 0; run < COLD_RUNS; run++) {
    database = await where.open();
    app = await start(config, database);
    const c0 = performance.now();
    const cold = await app.app.inject({ url: gridUrl, headers: headers(app.cookie) });
    coldTimes.push(performance.now() - c0);
    if (cold.statusCode !== 200) throw new Error(`${gridUrl}: ${cold.statusCode} ${cold.body}`);
    coldSent = cold.rawPayload.length;
    await app.app.close();
    await database.close();
    database = await where.open();
    app = await start(config, database);
    const b0 = performance.now();
    await bareFirstPage(database, month);
    coldBare.push(performance.now() - b0);
    await app.app.close();
    await database.close();
  }
  rows.push({
    name: 'first grid page, cold',
    api: percentile(coldTimes, 50),
    bare: percentile(coldBare, 50),
    sent: coldSent,
  });
  try {
    database = await where.open();
    app = await start(config, database);

    /** p50 of RUNS requests beside the p50 of the bare reads, after two untimed ones. */
    const warm = async (name: string, url: string, bare: () => Promise<unknown>, revalidate = false) => {
      const times: number[] = [];
      const bareTimes: number[] = [];
      let etag: string | undefined;
      let sent = 0;
      for (let run = -2; run < RUNS; run++) {
        const s0 = performance.now();
        const response = await app.app.inject({
          url,
          headers: headers(app.cookie, revalidate ? etag : undefined),
        });
        const elapsed = performance.now() - s0;
        const expected = revalidate && etag ? 304 : 200;
        if (response.statusCode !== expected) throw new Error(`${url}: ${response.statusCode}`);
        etag = response.headers.etag as string | undefined;
        sent = response.rawPayload.length;
        const r0 = performance.now();
        await bare();
        if (run >= 0) {
          times.push(elapsed);
          bareTimes.push(performance.now() - r0);
        }
      }
      rows.push({ name, api: percentile(times, 50), bare: percentile(bareTimes, 50), sent });
    };
    const db = database.db;
    await warm('first grid page, warm', gridUrl, () => bareFirstPage(database, month));
    await warm('first grid page, 304', gridUrl, () => bareFirstPage(database, month), true);
    if (STATEMENTS) {
      await timeStatements(database, () => app.app.inject({ url: gridUrl, headers: headers(app.cookie) }));
    }
    await warm(
      'GET /api/staff/availabilities (month)',
      `/api/staff/availabilities?from=${month.from}&to=${month.to}`,
      () => db.execute(sql`select * from availability where date between ${month.from} and ${month.to}`),
    );
    await warm(
      'GET /api/staff/bookings (month)',
      `/api/staff/bookings?from=${month.from}&to=${month.to}`,
      () => db.execute(sql`select * from bookings where date between ${month.from} and ${month.to}`),
    );
    await warm('GET /api/staff/users', '/api/staff/users', () => db.execute(sql`select * from users`));
  } finally {
    await app.app.close();
    await database.close();
    await where.drop();
  }
  for (const row of rows) {
    console.log(
      `  ${row.name.padEnd(40)} ${ms(row.api).padStart(10)}   bare ${ms(row.bare).padStart(10)}   ×${(row.api / row.bare).toFixed(1)}   ${kib(row.sent)}`,
    );
  }
  return rows;
}

async function main() {
  console.log(`API bench on ${POSTGRES ? 'PostgreSQL' : 'PGlite'}: sizes ${SIZES.join(', ')}, ${RUNS} runs`);
  const cold = new Map<number, number>();
  for (const size of SIZES) {
    const rows = await benchSize(size);
    cold.set(size, rows[0]!.api);
  }
  const smallest = cold.get(SIZES[0]!)!;
  console.log(`\nFirst grid page, cold (${YEARS} years of history):`);
  for (const [size, value] of cold) {
    console.log(
      `  ${String(size).padStart(5)} facilitators: ${ms(value)} (×${(value / smallest).toFixed(2)} of ${SIZES[0]})`,
    );
  }
}

await main();
