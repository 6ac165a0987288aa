/**
 * Lighthouse against the production build served by the real app, in Debian's Chromium.
 *
 *   npx vite build --outDir /tmp/afp-dist --emptyOutDir
 *   npm run bench:lighthouse -- [--client-dir /tmp/afp-dist] [--facilitators 1000]
 *     [--presets mobile,desktop] [--pages login,calendar,...] [--runs 3] [--out /tmp/afp-lighthouse]
 *     [--previous /tmp/afp-lighthouse/summary.json]
 *
 * Pages: the login page (/auth, always measured: the reference in the same run), the staff login,
 * the facilitator's calendar, offers, settings and change of password (signed in as facilitator 1) and the staff dashboard, users, who is
 * free, completeness, open sessions and settings (signed in as staff), of an organisation of
 * `facilitators` facilitators seeded by bench/seed.ts. Each page is audited `runs` times; the row
 * shown is the run with the median performance score, with the range of scores beside it.
 * The session goes into the browser's cookie jar before Lighthouse opens the page, with the
 * script-readable sign-in hint the server sets beside it: without the hint the app treats the
 * visitor as anonymous and sends them to the login page. A run that ends on another page than the
 * one asked for (a redirect to a login page) is an error, not a score.
 * Each page and preset runs in a fresh Chromium with a fresh user-data-dir. Mobile is Lighthouse's
 * default (simulated slow 4G, 4x CPU slowdown); desktop is its desktop preset.
 *
 * Prints the scores for performance, accessibility and best practices, the performance metrics, and
 * every audit that lost points where a category is under its target (accessibility and best
 * practices 100, performance 95) with its details. The JSON reports are written to --out, with
 * summary.json: each page's score and metrics. The figures of the previous run (--previous, by
 * default the summary.json already in --out before this run overwrites it) are printed beside
 * each page's, so a change is read against the figure before it; compare them through the login
 * page's score of each run, which moves with the machine's load.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import { BENCH_PAGES, type BenchPage } from './pages';
import {
  argument,
  CHROMIUM_FLAGS,
  DEFAULT_CLIENT_DIR,
  resolveClientDir,
  type SeededApp,
  SYSTEM_CHROMIUM,
  sessionCookies,
  startSeededApp,
} from './serve-seeded';

const args = process.argv.slice(2);
const CLIENT_DIR = resolveClientDir(argument(args, 'client-dir', DEFAULT_CLIENT_DIR));
const FACILITATORS = Number(argument(args, 'facilitators', '1000'));
const PRESETS = argument(args, 'presets', 'mobile,desktop').split(',') as Array<'mobile' | 'desktop'>;
const ALL_PAGES = Object.keys(BENCH_PAGES).join(',');
const PAGE_NAMES = argument(args, 'pages', ALL_PAGES).split(',');
// The login page is the reference every run reports beside the others: scores move with the
// machine's load, so a page is compared with the login page measured in the same run.
if (!PAGE_NAMES.includes('login')) PAGE_NAMES.unshift('login');
/** Audits per page and preset; the row is the run with the median performance score. */
const RUNS = Math.max(1, Number(argument(args, 'runs', '3')));
const OUT = argument(args, 'out', join(tmpdir(), 'afp-lighthouse'));
const PREVIOUS = argument(args, 'previous', join(OUT, 'summary.json'));

/** One page and preset's median run, as summary.json keeps it for the next run to compare with. */
interface Summary {
  perf: string;
  a11y: string;
  metrics: Record<string, string>;
  loadAverage: string;
  when: string;
}
type Summaries = Record<string, Summary>;

function readPrevious(): Summaries {
  if (!existsSync(PREVIOUS)) return {};
  return JSON.parse(readFileSync(PREVIOUS, 'utf8')) as Summaries;
}

const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
const TARGETS: Record<(typeof CATEGORIES)[number], number> = {
  performance: 95,
  accessibility: 100,
  'best-practices': 100,
};
const METRICS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'speed-index',
];
const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_FLAGS];

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];
type AuditResult = Lhr['audits'][string];

async function audit(served: SeededApp, page: BenchPage, preset: 'mobile' | 'desktop'): Promise<Lhr> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'afp-lighthouse-profile-'));
  const chrome = await chromeLauncher.launch({
    chromePath: SYSTEM_CHROMIUM,
    chromeFlags: CHROME_FLAGS,
    userDataDir,
    logLevel: 'silent',
  });
  try {
    const session = page.session(served);
    if (session) await signIn(chrome.port, served.address, session);
    const result = await lighthouse(
      served.address + page.path,
      { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] },
      preset === 'desktop' ? desktopConfig : undefined,
    );
    if (!result) throw new Error(`Lighthouse returned nothing for ${page.path}`);
    if (result.lhr.runtimeError) {
      throw new Error(`${page.path}: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`);
    }
    const landed = new URL(result.lhr.finalDisplayedUrl).pathname;
    if (landed !== page.path) throw new Error(`${page.path} ended on ${landed}: the page was not measured`);
    return result.lhr;
  } finally {
    chrome.kill();
    rmSync(userDataDir, { recursive: true, force: true });
  }
}

/**
 * The session cookie and the sign-in hint, as a sign-in leaves them, in the launched browser's
 * cookie jar (Lighthouse clears caches and storage between runs, not cookies).
 */
async function signIn(port: number, address: string, session: string) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0];
    if (!context) throw new Error('the launched Chromium has no default context');
    await context.addCookies(sessionCookies(address, session));
  } finally {
    // disconnects; the browser and its default context (with the cookies) stay
    await browser.close();
  }
}

const score = (value: number | null | undefined) =>
  value === null || value === undefined ? '–' : String(Math.round(value * 100));

/** A line or two per item of an audit's details: the node, URL and savings where there are any. */
function describeDetails(result: AuditResult, limit = 6): string[] {
  const details = result.details as { type?: string; items?: Array<Record<string, unknown>> } | undefined;
  const items = Array.isArray(details?.items) ? details.items : [];
  const lines = items.slice(0, limit).map((item) => {
    const parts: string[] = [];
    const node = item.node as { selector?: string; snippet?: string; explanation?: string } | undefined;
    if (node?.selector) parts.push(`node ${node.selector}`);
    if (node?.snippet) parts.push(node.snippet.slice(0, 160));
    if (typeof item.url === 'string') parts.push(item.url);
    if (typeof item.source === 'object' && item.source && 'url' in item.source) {
      parts.push(String((item.source as { url: string }).url));
    }
    if (typeof item.description === 'string') parts.push(item.description.slice(0, 200));
    if (typeof item.wastedBytes === 'number')
      parts.push(`could save ${(item.wastedBytes / 1024).toFixed(1)} KiB`);
    if (typeof item.wastedMs === 'number') parts.push(`could save ${Math.round(item.wastedMs)} ms`);
    if (typeof item.totalBytes === 'number') parts.push(`${(item.totalBytes / 1024).toFixed(1)} KiB`);
    if (node?.explanation) parts.push(node.explanation.replace(/\s+/g, ' ').slice(0, 300));
    if (parts.length === 0) parts.push(JSON.stringify(item).slice(0, 200));
    return `        - ${parts.join(' | ')}`;
  });
  if (items.length > limit) lines.push(`        … and ${items.length - limit} more`);
  return lines;
}

/** Audits that cost the category points: weighted (or, for performance, any scored) below 1. */
function failingAudits(lhr: Lhr, category: (typeof CATEGORIES)[number]): AuditResult[] {
  const refs = lhr.categories[category]?.auditRefs ?? [];
  return refs
    .map((ref) => ({ ref, result: lhr.audits[ref.id]! }))
    .filter(
      ({ ref, result }) =>
        result &&
        result.score !== null &&
        result.score < 1 &&
        (ref.weight > 0 || ['metricSavings', 'numeric', 'binary'].includes(result.scoreDisplayMode)) &&
        result.scoreDisplayMode !== 'informative' &&
        result.scoreDisplayMode !== 'notApplicable' &&
        result.scoreDisplayMode !== 'manual',
    )
    .sort((a, b) => b.ref.weight - a.ref.weight)
    .map(({ result }) => result);
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  const served = await startSeededApp({ facilitators: FACILITATORS, clientDir: CLIENT_DIR });
  console.log(
    `Lighthouse: client ${CLIENT_DIR}, ${FACILITATORS} facilitators (seeded ${served.seeded.availability} ` +
      `availability, ${served.seeded.bookings} bookings in ${served.seeded.seconds.toFixed(1)} s), ${served.address}`,
  );
  const previous = readPrevious();
  const summaries: Summaries = { ...previous };
  const rows: string[][] = [];
  let version = '';
  const findings: string[] = [];
  try {
    for (const preset of PRESETS) {
      for (const name of PAGE_NAMES) {
        const page = BENCH_PAGES[name];
        if (!page) throw new Error(`unknown page ${name}; one of ${Object.keys(BENCH_PAGES).join(', ')}`);
        const started = performance.now();
        const runs: Lhr[] = [];
        for (let run = 0; run < RUNS; run++) {
          // a run Chromium gave up on (a protocol timeout on a loaded machine) is reported and
          // skipped rather than losing every page measured so far
          try {
            runs.push(await audit(served, page, preset));
          } catch (error) {
            console.log(`  ${page.name} (${preset}), run ${run + 1}: ${(error as Error).message}`);
          }
        }
        if (runs.length === 0) {
          rows.push([page.name, preset, 'failed']);
          continue;
        }
        const perf = (r: Lhr) => r.categories.performance?.score ?? 0;
        const sorted = [...runs].sort((a, b) => perf(a) - perf(b));
        const lhr = sorted[Math.floor((sorted.length - 1) / 2)]!;
        version = lhr.lighthouseVersion;
        const file = join(OUT, `${name}-${preset}.json`);
        writeFileSync(file, JSON.stringify(lhr, null, 1));
        const metrics = METRICS.map((id) => lhr.audits[id]?.displayValue ?? '–');
        const spread = runs.length > 1 ? `${score(perf(sorted[0]!))}–${score(perf(sorted.at(-1)!))}` : '';
        const key = `${name} ${preset}`;
        const before = previous[key];
        const beside = (now: string, then: string | undefined) => (then ? `${now} (${then})` : now);
        rows.push([
          page.name,
          preset,
          beside(score(perf(lhr)), before?.perf),
          beside(score(lhr.categories.accessibility?.score), before?.a11y),
          score(lhr.categories['best-practices']?.score),
          spread,
          ...metrics.map((value, i) => beside(value, before?.metrics[METRICS[i]!])),
        ]);
        summaries[key] = {
          perf: score(perf(lhr)),
          a11y: score(lhr.categories.accessibility?.score),
          metrics: Object.fromEntries(METRICS.map((id, i) => [id, metrics[i]!])),
          loadAverage: loadavg()[0]!.toFixed(1),
          when: new Date().toISOString(),
        };
        writeFileSync(join(OUT, 'summary.json'), JSON.stringify(summaries, null, 1));
        console.log(
          `  ${page.name} (${preset}) done in ${((performance.now() - started) / 1000).toFixed(0)} s → ${file}`,
        );
        for (const category of CATEGORIES) {
          const value = Math.round((lhr.categories[category]?.score ?? 0) * 100);
          if (value >= TARGETS[category]) continue;
          findings.push(`  ${page.name}, ${preset}, ${category} ${value} (target ${TARGETS[category]}):`);
          for (const result of failingAudits(lhr, category)) {
            findings.push(
              `      ${result.id} (score ${score(result.score)}): ${result.title}` +
                `${result.displayValue ? ` — ${result.displayValue}` : ''}`,
            );
            findings.push(...describeDetails(result));
          }
        }
      }
    }
  } finally {
    await served.close();
  }

  const header = [
    'page',
    'preset',
    'perf',
    'a11y',
    'best pr.',
    'perf range',
    'FCP',
    'LCP',
    'TBT',
    'CLS',
    'SI',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join(' | ')
      .trimEnd();
  console.log(
    `\nLighthouse ${version} scores, Chromium from ${SYSTEM_CHROMIUM} (${FACILITATORS} facilitators; ` +
      `median of ${RUNS} runs by performance, its metrics; load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')})\n`,
  );
  const previousLogin = PRESETS.map((p) => previous[`login ${p}`]).find(Boolean);
  console.log(
    previousLogin
      ? `In brackets: the previous run (${PREVIOUS}, ${previousLogin.when}, load average ${previousLogin.loadAverage}).\n`
      : `No previous run at ${PREVIOUS}: nothing to print beside the figures.\n`,
  );
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const r of rows) console.log(line(r));
  console.log(
    findings.length
      ? `\nAudits losing points where a category is under target:\n${findings.join('\n')}`
      : '\nEvery category meets its target.',
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
