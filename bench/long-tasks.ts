/**
 * The long tasks of a page's load in Chromium with the CPU slowed down, each with what ran inside it:
 * where Lighthouse's total blocking time comes from, measured rather than simulated.
 *
 *   npx vite build --outDir /tmp/afp-dist --emptyOutDir
 *   npm run bench:tasks -- [--client-dir /tmp/afp-dist] [--facilitators 1000]
 *     [--pages calendar,staffSettings,...] [--runs 1] [--slowdown 4]
 *
 * Pages are bench/pages.ts's, opened with their session as bench/lighthouse.ts opens them, on a
 * phone-sized viewport. The CPU is slowed `slowdown` times (Lighthouse's mobile preset uses 4),
 * the network is not. For each load it prints the first contentful paint, every main-thread task
 * over 50 ms from the navigation until the page has been idle, and inside each task the trace
 * events that took longest (script evaluation, a function called, a timer, an event, style and
 * layout), each named by its file, the function and line it entered (real names in a build
 * without minifying) and an event's type. "Blocking" adds up each task's time over 50 ms, over the
 * whole load and from the first paint on (Lighthouse's total blocking time counts the latter, in
 * its own simulation). "Busy" adds up every main-thread task from the navigation on, long or not:
 * the work a change adds or removes, which moves less between runs than where the tasks' edges
 * fall. Where the first paint falls moves a lot between runs, so compare builds by the whole
 * load's figures, run one after the other.
 */
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { BENCH_PAGES } from './pages';
import {
  argument,
  CHROMIUM_FLAGS,
  DEFAULT_CLIENT_DIR,
  resolveClientDir,
  SYSTEM_CHROMIUM,
  sessionCookies,
  startSeededApp,
} from './serve-seeded';

const args = process.argv.slice(2);
const CLIENT_DIR = resolveClientDir(argument(args, 'client-dir', DEFAULT_CLIENT_DIR));
const FACILITATORS = Number(argument(args, 'facilitators', '1000'));
const PAGE_NAMES = argument(args, 'pages', 'calendar,dashboard,users,completeness,staffSettings').split(',');
const RUNS = Math.max(1, Number(argument(args, 'runs', '1')));
const SLOWDOWN = Math.max(1, Number(argument(args, 'slowdown', '4')));

const LONG_TASK_MS = 50;
/** Trace events worth naming inside a task; the rest are their parents or too small to matter. */
const SHOWN_EVENTS = new Set([
  'EvaluateScript',
  'v8.evaluateModule',
  'v8.compile',
  'v8.compileModule',
  'FunctionCall',
  'TimerFire',
  'FireAnimationFrame',
  'EventDispatch',
  'RunMicrotasks',
  'ParseHTML',
  'ParseAuthorStyleSheet',
  'UpdateLayoutTree',
  'Layout',
  'Paint',
  'MajorGC',
  'MinorGC',
]);

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: {
    data?: {
      url?: string;
      documentLoaderURL?: string;
      functionName?: string;
      lineNumber?: number;
      type?: string;
    };
  };
}

interface LongTask {
  startMs: number;
  durationMs: number;
  inside: Array<[string, number]>;
}

function longTasks(
  events: TraceEvent[],
  path: string,
): { fcpMs: number | null; busyMs: number; tasks: LongTask[] } {
  const navigation = events.find(
    (e) => e.name === 'navigationStart' && (e.args?.data?.documentLoaderURL ?? '').includes(path),
  );
  if (!navigation) throw new Error(`no navigation to ${path} in the trace`);
  const main = events.filter(
    (e) => e.pid === navigation.pid && e.tid === navigation.tid && e.ph === 'X' && e.dur !== undefined,
  );
  const fcp = events.find(
    (e) => e.name === 'firstContentfulPaint' && e.pid === navigation.pid && e.ts > navigation.ts,
  );
  const ms = (us: number) => Math.round(us / 1000);
  const loadTasks = main.filter((e) => e.name === 'RunTask' && e.ts >= navigation.ts);
  const busyMs = ms(loadTasks.reduce((sum, task) => sum + (task.dur ?? 0), 0));
  const tasks = loadTasks
    .filter((task) => (task.dur ?? 0) > LONG_TASK_MS * 1000)
    .map((task) => {
      const end = task.ts + (task.dur ?? 0);
      const byKind = new Map<string, number>();
      for (const e of main) {
        if (e === task || e.ts < task.ts || e.ts + (e.dur ?? 0) > end || !SHOWN_EVENTS.has(e.name)) continue;
        const data = e.args?.data;
        // the file, the function called in it (line, in a build without minifying), the event's type
        const key = [
          e.name,
          data?.url?.replace(/^.*\//, ''),
          data?.functionName ? `${data.functionName}:${data.lineNumber}` : undefined,
          data?.type,
        ]
          .filter(Boolean)
          .join(' ');
        byKind.set(key, (byKind.get(key) ?? 0) + (e.dur ?? 0));
      }
      const inside = [...byKind]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .map(([kind, us]): [string, number] => [kind, ms(us)]);
      return { startMs: ms(task.ts - navigation.ts), durationMs: ms(task.dur ?? 0), inside };
    });
  return { fcpMs: fcp ? ms(fcp.ts - navigation.ts) : null, busyMs, tasks };
}

async function main() {
  const served = await startSeededApp({ facilitators: FACILITATORS, clientDir: CLIENT_DIR });
  console.log(
    `Long tasks at ${SLOWDOWN}x CPU slowdown: client ${CLIENT_DIR}, ${FACILITATORS} facilitators, ${served.address}`,
  );
  try {
    for (const name of PAGE_NAMES) {
      const page = BENCH_PAGES[name];
      if (!page) throw new Error(`unknown page ${name}; one of ${Object.keys(BENCH_PAGES).join(', ')}`);
      for (let run = 1; run <= RUNS; run++) {
        // a browser of its own per load: Playwright gives each launch a fresh, empty profile
        const browser = await chromium.launch({
          executablePath: existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : undefined,
          args: CHROMIUM_FLAGS,
        });
        try {
          const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true });
          const session = page.session(served);
          if (session) {
            await context.addCookies(sessionCookies(served.address, session));
          }
          const tab = await context.newPage();
          const cdp = await context.newCDPSession(tab);
          await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOWDOWN });
          await browser.startTracing(tab, {
            categories: [
              'toplevel',
              'devtools.timeline',
              'disabled-by-default-devtools.timeline',
              'v8.execute',
              'blink.user_timing',
              'loading',
            ],
          });
          await tab.goto(served.address + page.path, { waitUntil: 'networkidle' });
          // settle: two idle periods of the page's own main thread after its requests are done
          for (let i = 0; i < 2; i++) {
            await tab.evaluate(
              () => new Promise((resolve) => requestIdleCallback(() => resolve(null), { timeout: 3000 })),
            );
          }
          const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
          const { fcpMs, busyMs, tasks } = longTasks(trace.traceEvents, page.path);
          const overLimit = (list: LongTask[]) =>
            list.reduce((sum, task) => sum + task.durationMs - LONG_TASK_MS, 0);
          const blocking = overLimit(tasks.filter((task) => fcpMs !== null && task.startMs >= fcpMs));
          console.log(
            `\n${page.name}, run ${run}: FCP ${fcpMs ?? '?'} ms, main thread busy ${busyMs} ms, ${tasks.length} long tasks, blocking ${overLimit(tasks)} ms in all, ${blocking} ms after FCP`,
          );
          for (const task of tasks) {
            const inside = task.inside.map(([kind, taskMs]) => `${kind} ${taskMs}`).join(' | ');
            console.log(`  at ${task.startMs} ms, ${task.durationMs} ms: ${inside}`);
          }
        } finally {
          await browser.close();
        }
      }
    }
  } finally {
    await served.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
