/**
 * API benchmark at several organisation sizes, with and without three years of history.
 *
 *   npm run bench [-- --sizes 100,1000,5000] [--runs 20] [--years 3]
 *   scripts/with-postgres.sh npm run bench -- --postgres     (the same on a throwaway PostgreSQL)
 *
 * For each size: a fresh database (PGlite in a temporary DATA_DIR, as `npm start` runs it, or a new
 * PostgreSQL database), facilitators and the current month seeded by bench/seed.ts (fixed: the same
 * rows every run), measured; then `--years` of past days added and measured again. Every call goes
 * through the whole app (`app.inject`: routing, session, access, validation, compression as a
 * browser asks for it), and beside each is the bare database query for the same rows through the
 * same driver, so the ratio is our overhead. Cached lists are measured warm (the same answer asked
 * for again), after a write that changes them, cold (the list answers' memory emptied first, as in
 * the first request after start-up; a big list's last answer kept in the database, ADR 56), cold
 * with nothing kept (that kept answer deleted too) and revalidated (If-None-Match with the ETag:
 * 304, no body).
 * A row's reference is measured in the same run: the bare query, or what it replaced.
 * Prints one table per size and history, then how each measure grows with size and with history.
 * Nothing fails on a budget: the figures go to docs/performance.md.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { type Database, openDatabase } from '../src/server/db/client';
import { listNotes } from '../src/server/modules/notes/service';
import { listUsers } from '../src/server/modules/users/service';
import {
  addDays,
  addMonths,
  monthGridRange,
  staffViewRange,
  startOfMonth,
  todayIn,
} from '../src/shared/calendar';
import { BENCH_PASSWORD, facilitatorUsername, seedDays, seedFacilitators } from './seed';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1]! : fallback;
};
const SIZES = option('sizes', '100,1000,5000').split(',').map(Number);
const RUNS = Number(option('runs', '20'));
const YEARS = Number(option('years', '3'));
const POSTGRES = args.includes('--postgres');
const STAFF = { username: 'bench-staff@example.org', password: 'bench-staff-password' };

interface Result {
  name: string;
  p50: number;
  p99: number;
  sent?: number;
  raw?: number;
  bare?: number;
  /** what `bare` is: the bare query unless said */
  reference?: string;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))]!;
};
const ms = (v: number | undefined) => (v === undefined ? '' : `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms`);
const kib = (v: number | undefined) => (v === undefined ? '' : `${(v / 1024).toFixed(1)} KiB`);

async function freshDatabase(
  size: number,
): Promise<{ database: Database; env: Record<string, string>; drop: () => Promise<void> }> {
  if (!POSTGRES) {
    const dataDir = mkdtempSync(join(tmpdir(), `afp-bench-${size}-`));
    const database = await openDatabase({ dataDir });
    return {
      database,
      env: { DATA_DIR: dataDir },
      drop: async () => {
        await database.close();
        rmSync(dataDir, { recursive: true, force: true });
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
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: 'unused' });
  return {
    database,
    env: { DATABASE_URL: url.toString() },
    drop: async () => {
      await database.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/** The built client's entry script (served from dist/client, the server's default), if built. */
function builtEntryScript(): string | undefined {
  const index = fileURLToPath(new URL('../dist/client/index.html', import.meta.url));
  if (!existsSync(index)) return undefined;
  return /<script type="module"[^>]* src="(\/assets\/[^"]+\.js)"/.exec(readFileSync(index, 'utf8'))?.[1];
}

async function benchSize(size: number): Promise<Map<string, Map<string, Result>>> {
  const { database, env, drop } = await freshDatabase(size);
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    APP_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    INITIAL_STAFF_USERNAME: STAFF.username,
    INITIAL_STAFF_PASSWORD: STAFF.password,
    BACKGROUND_JOBS: 'false',
    LOGIN_THROTTLE: 'perAccount=1000,perAddress=1000,windowMs=60000,blockMs=1000',
    // the budget of days written is not what is measured: 20 runs of the year's bulk save pass it
    REQUEST_BUDGETS: 'dayWrites=100000000',
    ...env,
  });
  const built = await buildApp(config, { database });
  const { app, ctx } = built;
  const db = ctx.db;
  const results = new Map<string, Map<string, Result>>();
  try {
    const today = todayIn(config.ORG_TIMEZONE);
    // what the screens ask for: the facilitator's month grid (whole weeks) and the staff views
    const myMonth = monthGridRange(startOfMonth(today));
    const monthRange = staffViewRange('month', today);
    const week = staffViewRange('week', today);
    // ISO dates sort as text: the earlier start and the later end of the two ranges
    const seedRange = {
      from: [myMonth.from, monthRange.from].sort()[0]!,
      to: [myMonth.to, monthRange.to].sort()[1]!,
    };
    const started = performance.now();
    const ids = await seedFacilitators(db, size);
    const monthSeed = await seedDays(db, seedRange.from, seedRange.to);
    console.log(
      `\n${size} facilitators: ${monthSeed.availability} availability days, ${monthSeed.bookings} bookings, ` +
        `${monthSeed.notes} notes for ${seedRange.from}..${seedRange.to} (${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );

    const signIn = async (url: string, username: string, password: string) => {
      const response = await app.inject({ method: 'POST', url, payload: { username, password } });
      if (response.statusCode !== 200) throw new Error(`sign-in ${username}: ${response.statusCode}`);
      return `afp_session=${response.cookies.find((c) => c.name === 'afp_session')!.value}`;
    };
    const staff = await signIn('/api/auth/staff-login', STAFF.username, STAFF.password);
    const me = await signIn('/api/login', facilitatorUsername(1), BENCH_PASSWORD);
    const myId = ids[0]!;

    const scenarios: Array<['none' | 'history', () => Promise<void>]> = [
      ['none', async () => {}],
      [
        'history',
        async () => {
          const t0 = performance.now();
          const from = addMonths(seedRange.from, -12 * YEARS);
          const to = addDays(seedRange.from, -1);
          const past = await seedDays(db, from, to);
          console.log(
            `  + ${YEARS} years of history: ${past.availability} days, ${past.bookings} bookings, ${past.notes} notes ` +
              `for ${from}..${to} (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
          );
        },
      ],
    ];

    for (const [scenario, prepare] of scenarios) {
      await prepare();
      const table = new Map<string, Result>();
      results.set(scenario, table);
      const headers = (cookie: string) => ({ cookie, 'accept-encoding': 'br, gzip' });

      const sizeOf = (response: { headers: Record<string, unknown>; rawPayload: Buffer }) => {
        const encoding = response.headers['content-encoding'];
        const raw =
          encoding === 'br'
            ? brotliDecompressSync(response.rawPayload).length
            : encoding === 'gzip'
              ? gunzipSync(response.rawPayload).length
              : response.rawPayload.length;
        return { sent: response.rawPayload.length, raw };
      };

      /** GET url RUNS times (after warm-ups); `before` runs untimed ahead of each sample. */
      const read = async (
        name: string,
        url: string,
        cookie: string,
        bare: () => Promise<unknown>,
        before?: () => Promise<unknown>,
        options: { ifNoneMatch?: boolean; reference?: string } = {},
      ) => {
        const times: number[] = [];
        const bareTimes: number[] = [];
        let size = { sent: 0, raw: 0 };
        let etag: string | undefined;
        const expected = options.ifNoneMatch ? 304 : 200;
        for (let run = -2; run < RUNS; run++) {
          // an answer's harder compression, made after it was sent, is not this sample's cost
          await ctx.lists.settled();
          if (before) await before();
          const extra: Record<string, string> = options.ifNoneMatch && etag ? { 'if-none-match': etag } : {};
          const t0 = performance.now();
          const response = await app.inject({
            method: 'GET',
            url,
            headers: { ...headers(cookie), ...extra },
          });
          const elapsed = performance.now() - t0;
          etag = response.headers.etag as string | undefined;
          const wanted = run === -2 && options.ifNoneMatch ? 200 : expected;
          if (response.statusCode !== wanted)
            throw new Error(`${url}: ${response.statusCode} ${response.body}`);
          size = sizeOf(response);
          const b0 = performance.now();
          await bare();
          if (run >= 0) {
            times.push(elapsed);
            bareTimes.push(performance.now() - b0);
          }
        }
        table.set(name, {
          name,
          p50: percentile(times, 50),
          p99: percentile(times, 99),
          ...size,
          bare: percentile(bareTimes, 50),
          reference: options.reference,
        });
      };
      // Cold: the list answers' memory emptied, as in the first request after start-up; a big
      // list's last answer is still kept in the database (ADR 56). The database's own page cache
      // stays as the earlier requests left it.
      const emptyListMemory = async () => ctx.lists.clear();
      // Cold with nothing kept: memory and the kept answers emptied, as on the first view of a
      // list since it last changed (the texts kept per facilitator and account stay: ADR 44, 45).
      const emptyListMemoryAndKept = async () => {
        ctx.lists.clear();
        await db.execute(sql`delete from list_answers_kept`);
      };
      // The reference for a 304: the same request answered in full.
      const fullAnswer = (url: string, cookie: string) => () =>
        app.inject({ method: 'GET', url, headers: headers(cookie) });

      const availabilityRows = (from: string, to: string, userId?: number) =>
        db.execute(
          userId === undefined
            ? sql`select * from availability where date between ${from} and ${to} order by date, user_id`
            : sql`select * from availability where user_id = ${userId} and date between ${from} and ${to} order by date`,
        );
      const bookingRows = (from: string, to: string, userId?: number) =>
        db.execute(
          userId === undefined
            ? sql`select * from bookings where date between ${from} and ${to} order by date, start_time, id`
            : sql`select * from bookings where user_id = ${userId} and date between ${from} and ${to} order by date, start_time, id`,
        );
      // A write that changes nothing a user sees but moves the list's version: the next read is cold.
      const touchAvailability = (userId: number) =>
        db.execute(
          sql`update availability set notes = notes where id = (select min(id) from availability where user_id = ${userId})`,
        );
      const touchBookings = () =>
        db.execute(sql`update bookings set title = title where id = (select min(id) from bookings)`);

      const m = monthRange;
      const mine = myMonth;
      const q = (r: { from: string; to: string }) => `from=${r.from}&to=${r.to}`;
      await read('facilitator month: availability (warm)', `/api/availability?${q(mine)}`, me, () =>
        availabilityRows(mine.from, mine.to, myId),
      );
      await read(
        'facilitator month: availability (after a write)',
        `/api/availability?${q(mine)}`,
        me,
        () => availabilityRows(mine.from, mine.to, myId),
        () => touchAvailability(myId),
      );
      await read('facilitator month: bookings (warm)', `/api/bookings?${q(mine)}`, me, () =>
        bookingRows(mine.from, mine.to, myId),
      );
      await read('staff month: users', '/api/staff/users', staff, () =>
        db.execute(sql`select * from users order by id`),
      );
      await read(
        'staff month: users, cold',
        '/api/staff/users',
        staff,
        // the earlier way: rows through the driver, mapped, then the serializer
        async () => JSON.stringify(await listUsers(db)),
        emptyListMemory,
        { reference: 'rows + JSON.stringify (before)' },
      );
      await read(
        'staff month: users, cold, nothing kept',
        '/api/staff/users',
        staff,
        async () => JSON.stringify(await listUsers(db)),
        emptyListMemoryAndKept,
        { reference: 'rows + JSON.stringify (before)' },
      );
      await read(
        'staff month: users, revalidated (304)',
        '/api/staff/users',
        staff,
        fullAnswer('/api/staff/users', staff),
        undefined,
        { ifNoneMatch: true, reference: 'the full 200 answer' },
      );
      await read('staff month: availabilities (warm)', `/api/staff/availabilities?${q(m)}`, staff, () =>
        availabilityRows(m.from, m.to),
      );
      await read(
        'staff month: availabilities (after a write)',
        `/api/staff/availabilities?${q(m)}`,
        staff,
        () => availabilityRows(m.from, m.to),
        () => touchAvailability(ids[Math.floor(ids.length / 2)]!),
      );
      await read(
        'staff month: availabilities, cold (empty memory)',
        `/api/staff/availabilities?${q(m)}`,
        staff,
        () => availabilityRows(m.from, m.to),
        emptyListMemory,
      );
      await read(
        'staff month: availabilities, cold, nothing kept',
        `/api/staff/availabilities?${q(m)}`,
        staff,
        () => availabilityRows(m.from, m.to),
        emptyListMemoryAndKept,
      );
      await read(
        'staff month: availabilities, revalidated (304)',
        `/api/staff/availabilities?${q(m)}`,
        staff,
        fullAnswer(`/api/staff/availabilities?${q(m)}`, staff),
        undefined,
        { ifNoneMatch: true, reference: 'the full 200 answer' },
      );
      await read('staff month: bookings (warm)', `/api/staff/bookings?${q(m)}`, staff, () =>
        bookingRows(m.from, m.to),
      );
      await read(
        'staff month: bookings (after a write)',
        `/api/staff/bookings?${q(m)}`,
        staff,
        () => bookingRows(m.from, m.to),
        touchBookings,
      );
      await read('staff week: availabilities (warm)', `/api/staff/availabilities?${q(week)}`, staff, () =>
        availabilityRows(week.from, week.to),
      );
      await read(
        'staff week: availabilities (after a write)',
        `/api/staff/availabilities?${q(week)}`,
        staff,
        () => availabilityRows(week.from, week.to),
        () => touchAvailability(ids[0]!),
      );
      await read('staff week: bookings (warm)', `/api/staff/bookings?${q(week)}`, staff, () =>
        bookingRows(week.from, week.to),
      );
      const notesUrl = `/api/staff/notes?date=${today}&view=month`;
      await read('staff month: notes', notesUrl, staff, () =>
        db.execute(sql`select * from staff_notes where date between ${m.from} and ${m.to} order by date, id`),
      );
      await read(
        'staff month: notes, after a note changed',
        notesUrl,
        staff,
        // the earlier way, on every request: rows through the driver, mapped, then stringified
        async () => JSON.stringify(await listNotes(db, m)),
        () =>
          db.execute(sql`update staff_notes set note = note where id = (select min(id) from staff_notes)`),
        { reference: 'rows + JSON.stringify (before)' },
      );
      await read(
        'staff month: notes, revalidated (304)',
        notesUrl,
        staff,
        fullAnswer(notesUrl, staff),
        undefined,
        {
          ifNoneMatch: true,
          reference: 'the full 200 answer',
        },
      );

      // Who is free on a day, ranked, and the same with everyone shown (the offer dialog's candidates
      // are this search for the session's day). Reference: the bare reads of the rows it ranks.
      const freeRows = async () => {
        await db.execute(sql`select * from users where role <> 'staff'`);
        await db.execute(sql`select * from availability where date = ${today}`);
        await db.execute(sql`select * from bookings where date = ${today} and user_id is not null`);
        await db.execute(sql`select * from staff_notes where date = ${today}`);
        await db.execute(sql`select * from safeguarding_records`);
      };
      await read('who is free, a day', `/api/staff/free?date=${today}`, staff, freeRows, undefined, {
        reference: 'the bare reads of its rows',
      });
      await read(
        'who is free, a day, everyone shown',
        `/api/staff/free?date=${today}&include=all`,
        staff,
        freeRows,
        undefined,
        { reference: 'the bare reads of its rows' },
      );

      // A file of the built client, when there is one (`npm run build`): the same for everyone, so a
      // signed-in browser's cookie costs it nothing (ADR 58). Reference: the same request, no cookie.
      const script = builtEntryScript();
      if (script) {
        await read(
          'a script of the page, signed in',
          script,
          staff,
          () => app.inject({ method: 'GET', url: script, headers: { 'accept-encoding': 'br, gzip' } }),
          undefined,
          { reference: 'the same file, no cookie' },
        );
      }

      // The staff dashboard's three calls at once, as the browser sends them: warm, then cold.
      const together = async (name: string, before?: () => Promise<unknown>) => {
        const urls = ['/api/staff/users', `/api/staff/availabilities?${q(m)}`, `/api/staff/bookings?${q(m)}`];
        const times: number[] = [];
        let sent = 0;
        let raw = 0;
        for (let run = -2; run < RUNS; run++) {
          if (before) await before();
          const t0 = performance.now();
          const responses = await Promise.all(
            urls.map((url) => app.inject({ method: 'GET', url, headers: headers(staff) })),
          );
          if (run >= 0) times.push(performance.now() - t0);
          sent = responses.reduce((sum, r) => sum + sizeOf(r).sent, 0);
          raw = responses.reduce((sum, r) => sum + sizeOf(r).raw, 0);
        }
        table.set(name, { name, p50: percentile(times, 50), p99: percentile(times, 99), sent, raw });
      };
      await together('staff month: users + availabilities + bookings together (warm)');
      await together('staff month: users + availabilities + bookings together (after writes)', async () => {
        await touchAvailability(ids[1]!);
        await touchBookings();
      });

      // Writes: one day, and a year of weekdays in one bulk update, as a facilitator.
      const writes = async (
        name: string,
        send: (run: number) => Promise<{ statusCode: number; body: string }>,
        bare: (run: number) => Promise<unknown>,
      ) => {
        const times: number[] = [];
        const bareTimes: number[] = [];
        for (let run = -2; run < RUNS; run++) {
          const t0 = performance.now();
          const response = await send(run);
          const elapsed = performance.now() - t0;
          if (response.statusCode !== 200)
            throw new Error(`${name}: ${response.statusCode} ${response.body}`);
          const b0 = performance.now();
          await bare(run);
          if (run >= 0) {
            times.push(elapsed);
            bareTimes.push(performance.now() - b0);
          }
        }
        table.set(name, {
          name,
          p50: percentile(times, 50),
          p99: percentile(times, 99),
          bare: percentile(bareTimes, 50),
        });
      };
      const statusFor = (run: number) => (['available', 'limited', 'unavailable'] as const)[(run + 3) % 3]!;
      const saveDate = addDays(seedRange.to, 40);
      await writes(
        'single save',
        (run) =>
          app.inject({
            method: 'POST',
            url: '/api/availability',
            headers: { cookie: me },
            payload: { date: saveDate, status: statusFor(run), startTime: '', endTime: '', notes: '' },
          }),
        // the same upsert for another facilitator, written directly
        (run) =>
          db.execute(sql`insert into availability (user_id, date, status) values (${ids[2]!}, ${saveDate}, ${statusFor(run)})
                         on conflict (user_id, date) do update set status = excluded.status, updated_at = now()`),
      );
      const yearFrom = addDays(seedRange.to, 1);
      const yearTo = addDays(seedRange.to, 365);
      await writes(
        'bulk save of a year (weekdays)',
        (run) =>
          app.inject({
            method: 'POST',
            url: '/api/availability/bulk',
            headers: { cookie: me },
            payload: {
              startDate: yearFrom,
              endDate: yearTo,
              daysOfWeek: [1, 2, 3, 4, 5],
              status: statusFor(run),
              startTime: '09:00',
              endTime: '15:00',
              notes: 'term time',
            },
          }),
        (run) =>
          db.execute(sql`insert into availability (user_id, date, status, start_time, end_time, notes)
                         select ${ids[3]!}, day::date, ${statusFor(run)}, '09:00', '15:00', 'term time'
                         from generate_series(${yearFrom}::date, ${yearTo}::date, '1 day') day
                         where extract(isodow from day) < 6
                         on conflict (user_id, date) do update set status = excluded.status,
                           start_time = excluded.start_time, end_time = excluded.end_time,
                           notes = excluded.notes, updated_at = now()`),
      );
      printTable(
        `${size} facilitators, ${scenario === 'none' ? 'current month only' : `with ${YEARS} years of history`}`,
        table,
      );
    }
  } finally {
    await built.close();
    await drop();
  }
  return results;
}

function printTable(title: string, table: Map<string, Result>) {
  const header = ['measure', 'p50', 'p99', 'sent (uncompressed)', 'reference p50', 'ratio', 'reference'];
  const rows = [...table.values()].map((r) => [
    r.name,
    ms(r.p50),
    ms(r.p99),
    r.sent === undefined ? '' : `${kib(r.sent)} (${kib(r.raw)})`,
    ms(r.bare),
    r.bare === undefined ? '' : `x${(r.p50 / r.bare).toFixed(2)}`,
    r.bare === undefined ? '' : (r.reference ?? 'bare query'),
  ]);
  printRows(`\n${title} (${POSTGRES ? 'PostgreSQL' : 'PGlite'}, ${RUNS} runs)`, header, rows);
}

function printRows(title: string, header: string[], rows: string[][]) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(title);
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
}

async function main() {
  const all = new Map<number, Map<string, Map<string, Result>>>();
  for (const size of SIZES) all.set(size, await benchSize(size));
  const smallest = Math.min(...SIZES);
  const largest = Math.max(...SIZES);
  const names = [...all.get(smallest)!.get('history')!.keys()];
  const header = [
    'measure (p50)',
    ...SIZES.map((s) => `${s}`),
    `growth ${smallest} → ${largest}`,
    ...SIZES.map((s) => `history/none at ${s}`),
  ];
  const rows = names.map((name) => {
    const at = (size: number, scenario: string) => all.get(size)!.get(scenario)!.get(name)!.p50;
    return [
      name,
      ...SIZES.map((s) => ms(at(s, 'history'))),
      `x${(at(largest, 'history') / at(smallest, 'history')).toFixed(1)}`,
      ...SIZES.map((s) => `x${(at(s, 'history') / at(s, 'none')).toFixed(2)}`),
    ];
  });
  printRows(
    `\nGrowth (${POSTGRES ? 'PostgreSQL' : 'PGlite'}): p50 with ${YEARS} years of history at each size; ` +
      'the ratio of history to none is what history costs a range-scoped read',
    header,
    rows,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
