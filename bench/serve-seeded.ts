/**
 * The real app on a temporary DATA_DIR, seeded for the browser benchmarks, listening on 127.0.0.1.
 * Used by bench/browser.ts and bench/lighthouse.ts; on its own it serves a seeded organisation until
 * Ctrl-C, for looking at the pages by hand:
 *
 *   npx tsx bench/serve-seeded.ts [--facilitators 1000] [--client-dir dist/client] [--port 5050]
 *
 * Seeds `facilitators` facilitators (bench/seed.ts) with availability, bookings and notes for the
 * days the facilitator month and the staff month show today, and a staff account.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedDataDir } from '../e2e/pglite-template.mjs';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { addDays, monthGridRange, staffViewRange, startOfMonth, todayIn } from '../src/shared/calendar';
import { SESSION_HINT_COOKIE } from '../src/shared/schemas/auth';
import { BENCH_PASSWORD, facilitatorUsername, seedDays, seedFacilitators, seedOpenSessions } from './seed';

export const STAFF = { username: 'bench-staff@example.org', password: 'bench-staff-password' };
/** The facilitator the benchmarks sign in as: facilitator 1, who has availability and bookings. */
export const FACILITATOR = { username: facilitatorUsername(1), password: BENCH_PASSWORD };
export const SESSION_COOKIE_NAME = 'afp_session';
/**
 * The cookies a sign-in leaves in the browser: the session, and beside it the script-readable hint
 * without which the app takes the visitor for anonymous and sends them to a login page.
 */
export function sessionCookies(address: string, session: string) {
  return [
    { name: SESSION_COOKIE_NAME, value: session, url: address, httpOnly: true, sameSite: 'Lax' as const },
    { name: SESSION_HINT_COOKIE, value: '1', url: address, sameSite: 'Lax' as const },
  ];
}

/** The benches measure Debian's full browser, what a person runs (not the tests' headless shell). */
export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/** What headless Chromium needs on this machine, for the benches that drive it. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const root = fileURLToPath(new URL('..', import.meta.url));
export const DEFAULT_CLIENT_DIR = join(root, 'dist/client');

export interface SeededApp {
  /** http://127.0.0.1:port */
  address: string;
  facilitators: number;
  seeded: { availability: number; bookings: number; notes: number; seconds: number };
  /** The session cookie's value for the staff account and for facilitator 1. */
  staffSession: string;
  facilitatorSession: string;
  close: () => Promise<void>;
}

/** `--name value` from argv, or the fallback. */
export function argument(args: string[], name: string, fallback: string): string {
  const index = args.indexOf(`--${name}`);
  return index >= 0 && args[index + 1] !== undefined ? args[index + 1]! : fallback;
}

export function resolveClientDir(dir: string): string {
  const clientDir = resolve(dir);
  if (!existsSync(join(clientDir, 'index.html'))) {
    throw new Error(
      `${clientDir}/index.html is missing: build the client first (npx vite build --outDir ${clientDir} --emptyOutDir)`,
    );
  }
  return clientDir;
}

export async function startSeededApp(options: {
  facilitators: number;
  clientDir: string;
  port?: number;
}): Promise<SeededApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'afp-bench-browser-'));
  // from the empty cluster the e2e servers start from: a new one costs an initdb in WebAssembly
  await seedDataDir(dataDir);
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    APP_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    INITIAL_STAFF_USERNAME: STAFF.username,
    INITIAL_STAFF_PASSWORD: STAFF.password,
    HOST: '127.0.0.1',
    BACKGROUND_JOBS: 'false',
    CLIENT_DIR: options.clientDir,
    // every cold run signs in again; the throttle is not what is measured
    LOGIN_THROTTLE: 'perAccount=100000,perAddress=100000,windowMs=60000,blockMs=1000',
  });
  const { app, ctx, close } = await buildApp(config);
  try {
    const today = todayIn(config.ORG_TIMEZONE);
    const month = monthGridRange(startOfMonth(today));
    const staffMonth = staffViewRange('month', today);
    // ISO dates sort as strings: the union of the two ranges
    const from = [month.from, staffMonth.from].sort()[0]!;
    const to = [month.to, staffMonth.to].sort()[1]!;
    const started = performance.now();
    await seedFacilitators(ctx.db, options.facilitators);
    const rows = await seedDays(ctx.db, from, to);
    // the open-sessions page lists the next weeks' sessions, whatever day of the month this is
    await seedOpenSessions(ctx.db, today, addDays(today, 14));
    const seconds = (performance.now() - started) / 1000;

    const sessionOf = async (url: string, payload: { username: string; password: string }) => {
      const response = await app.inject({ method: 'POST', url, payload });
      const cookie = response.cookies.find((c) => c.name === SESSION_COOKIE_NAME);
      if (response.statusCode !== 200 || !cookie) {
        throw new Error(`${url} as ${payload.username}: ${response.statusCode} ${response.body}`);
      }
      return cookie.value;
    };
    const staffSession = await sessionOf('/api/auth/staff-login', STAFF);
    const facilitatorSession = await sessionOf('/api/login', FACILITATOR);
    const address = await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
    return {
      address,
      facilitators: options.facilitators,
      seeded: { ...rows, seconds },
      staffSession,
      facilitatorSession,
      close: async () => {
        await close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await close();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

async function main() {
  const args = process.argv.slice(2);
  const served = await startSeededApp({
    facilitators: Number(argument(args, 'facilitators', '1000')),
    clientDir: resolveClientDir(argument(args, 'client-dir', DEFAULT_CLIENT_DIR)),
    port: Number(argument(args, 'port', '5050')),
  });
  console.log(`Serving ${served.facilitators} facilitators at ${served.address}`);
  console.log(`  staff: ${STAFF.username} / ${STAFF.password}`);
  console.log(`  facilitator: ${FACILITATOR.username} / ${FACILITATOR.password}`);
  const stop = () => {
    void served.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
