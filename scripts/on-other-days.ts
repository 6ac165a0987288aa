/**
 * Runs the tests that depend on today's date on the days that break calendars, with Debian's
 * libfaketime moving the clock of every process of a run (the server, Chromium, the test runner) by the
 * same amount. Each day is worked out from the real date, so the script always tries the next such days.
 *
 *   npm run test:days                      the browser tests listed in e2e/date-dependent.ts, each day
 *   npm run test:days -- --list            the days and why each matters, without running anything
 *   npm run test:days -- --only 2027-01-01 one day
 *   npm run test:days -- --desktop         at the desktop size only (as CI runs them)
 *   npm run test:days -- --together 4      up to four days at once, each its own server and browser,
 *                                          printed as each day ends (the days wait on the browser far
 *                                          more than they use the processor)
 *   npm run test:days -- --all             every unit, API, system and browser test, screens checked too
 *
 * The browser tests work out what a screen shows from the real date, so they are the ones listed. The
 * unit and API tests give the server a clock of their own (`now` in the app's context) and mostly fixed
 * dates; `--all` runs them too, on the same days. Needs `apt-get install -y faketime` and a built client
 * (`npm run build`).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATE_DEPENDENT_TESTS } from '../e2e/date-dependent';

/** The Playwright arguments that run exactly the listed browser tests; throws for a title not found. */
export function dateDependentBrowserTests(): string[] {
  const files: string[] = [];
  const titles: string[] = [];
  for (const [file, names] of Object.entries(DATE_DEPENDENT_TESTS)) {
    const source = readFileSync(`e2e/${file}`, 'utf8');
    for (const name of names) {
      if (!source.includes(name))
        throw new Error(`e2e/date-dependent.ts lists "${name}", not found in e2e/${file}`);
      titles.push(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    }
    files.push(`e2e/${file}`);
  }
  return [...files, '--grep', titles.join('|')];
}

interface Day {
  date: string;
  why: string[];
}

const DAY_MS = 86_400_000;

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * The calendar days worth a browser run (UTC noons stand for days). Each kind of day gets the next such
 * day after today, except that a kind already met by a day picked for an earlier kind gets no day of
 * its own: 31 December is always a month's last day, and 1 January or 31 December may be the Sunday or
 * the mid-week 1st. The kinds with only a few days a year come first, so the common kinds are the ones
 * that get folded into them. Every day costs a whole browser run.
 *
 * Left to unit tests with a fixed clock at each such day's first and last instants
 * (src/shared/calendar-days.test.ts, src/client/features/staff-grid/lib/grid-days.test.ts): the clock
 * changes, a Saturday and the 2nd of a month that starts mid-week. A run moves the clock to noon, hours
 * away from the hour that moves, and its browser keeps the machine's zone (UTC in CI), so a run on a
 * clock change is a run on a Sunday. A Saturday is a weekend day as the Sunday is, and only the Sunday
 * meets a week counted from Sunday. The 2nd's week is the 1st's (ADR 113).
 */
export function daysToTry(now: Date): Day[] {
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 12) + DAY_MS;
  const next = (test: (ms: number) => boolean) => {
    for (let ms = start; ms < start + 800 * DAY_MS; ms += DAY_MS) if (test(ms)) return ms;
    throw new Error('no such day within two years');
  };
  const weekday = (ms: number) => new Date(ms).getUTCDay();
  const dayOfMonth = (ms: number) => new Date(ms).getUTCDate();
  const kinds: [(ms: number) => boolean, string][] = [
    [(ms) => isoDay(ms).endsWith('-12-31'), "31 December: the year's last day"],
    [(ms) => isoDay(ms).endsWith('-01-01'), '1 January: a new year, last month in the year before'],
    [
      (ms) => dayOfMonth(ms) === 1 && [2, 3, 4, 5].includes(weekday(ms)),
      "the 1st of a month that starts on a Tuesday to Friday: this week's Monday is in the month before",
    ],
    [(ms) => dayOfMonth(ms + DAY_MS) === 1, "a month's last day: tomorrow is in the next month"],
    [
      (ms) => weekday(ms) === 0,
      'a Sunday: not a weekday the grids show, the last day of the week, whose Monday is six days back',
    ],
  ];
  const days = new Map<number, Day>();
  for (const [isKind, why] of kinds) {
    const picked = [...days.keys()].sort((a, b) => a - b).find(isKind) ?? next(isKind);
    const day = days.get(picked) ?? { date: isoDay(picked), why: [] };
    day.why.push(why);
    days.set(picked, day);
  }
  return [...days.values()].sort((a, b) => a.date.localeCompare(b.date));
}

function libfaketime(): string {
  const found = readdirSync('/usr/lib')
    .map((dir) => `/usr/lib/${dir}/faketime/libfaketime.so.1`)
    .find((path) => existsSync(path));
  if (!found) {
    console.error('libfaketime is not installed: apt-get install -y faketime');
    process.exit(1);
  }
  return found;
}

/** The environment that moves every process's clock to noon (UTC) of `date`, at the real clock's pace. */
function clockOn(date: string): NodeJS.ProcessEnv {
  const offset = Math.round((Date.parse(`${date}T12:00:00Z`) - Date.now()) / 1000);
  return { ...process.env, LD_PRELOAD: libfaketime(), FAKETIME: `${offset >= 0 ? '+' : ''}${offset}` };
}

/** Runs `command` on `date`, its output shown as it comes. */
function onDay(date: string, command: string[]): boolean {
  return spawnSync(command[0]!, command.slice(1), { stdio: 'inherit', env: clockOn(date) }).status === 0;
}

/**
 * Runs `command` on `date` beside other days: its output is kept and printed in one piece when it ends,
 * and its results go to a folder of its own (each run already picks its own ports).
 */
function onDayBeside(date: string, command: string[]): Promise<{ passed: boolean; output: string }> {
  const output = mkdtempSync(join(tmpdir(), `afp-days-${date}-`));
  const child = spawn(command[0]!, [...command.slice(1), '--output', output, '--reporter', 'list'], {
    env: clockOn(date),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout.on('data', (chunk) => (text += chunk));
  child.stderr.on('data', (chunk) => (text += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ passed: code === 0, output: text })));
}

async function main() {
  const args = process.argv.slice(2);
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
  const days = daysToTry(new Date()).filter((day) => !only || day.date === only);
  if (only && days.length === 0) days.push({ date: only, why: ['asked for'] });
  for (const day of days) console.log(`${day.date}  ${day.why.join('; ')}`);
  if (args.includes('--list')) return;
  if (!existsSync('dist/client/index.html')) {
    console.error('Build the client first: npm run build');
    process.exit(1);
  }
  const all = args.includes('--all');
  // without --all the screens are left to the run on the real date, which checks every one
  if (!all) process.env.E2E_SCREEN_CHECKS = '0';
  const browser = ['npx', 'playwright', 'test', ...(all ? [] : dateDependentBrowserTests())];
  if (args.includes('--desktop')) browser.push('--project', 'desktop');
  const together = args.includes('--together') ? Number(args[args.indexOf('--together') + 1]) : 1;
  const results: string[] = [];
  if (together > 1 && !all) {
    const waiting = [...days];
    const runNext = async (): Promise<void> => {
      const day = waiting.shift();
      if (!day) return;
      const { passed, output } = await onDayBeside(day.date, browser);
      console.log(`\n=== ${day.date} (${day.why.join('; ')})\n${output}`);
      results.push(`${day.date}: browser ${passed ? 'passed' : 'FAILED'}`);
      return runNext();
    };
    await Promise.all(Array.from({ length: together }, runNext));
    results.sort();
  }
  for (const day of together > 1 && !all ? [] : days) {
    console.log(`\n=== ${day.date} (${day.why.join('; ')})`);
    const outcome = (name: string, command: string[]) =>
      `${name} ${onDay(day.date, command) ? 'passed' : 'FAILED'}`;
    const outcomes = all
      ? [outcome('unit', ['npx', 'vitest', 'run']), outcome('system', ['npm', 'run', 'test:system'])]
      : [];
    outcomes.push(outcome('browser', browser));
    results.push(`${day.date}: ${outcomes.join(', ')}`);
  }
  console.log(`\n${results.join('\n')}`);
  if (results.some((line) => line.includes('FAILED'))) process.exit(1);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
