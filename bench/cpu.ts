/**
 * Where a command's CPU goes: runs it, and prints its wall time, the machine's busy CPU-seconds over
 * that time, and the CPU-seconds of the command's own process tree by kind of process (Chromium's
 * renderers, browser and GPU processes, the e2e server, the Playwright or Vitest workers).
 *
 *   npm run bench:cpu -- npx playwright test --reporter=dot
 *   npm run bench:cpu -- npm run test:system
 *
 * Linux only: it reads /proc. Every process below the command is sampled every 200 ms and charged
 * the CPU it used since its last sample, so a process that lives less than one interval, or the last
 * interval of any process, is missed; the machine-wide figure (from /proc/stat) misses nothing, and
 * includes whatever else the machine ran meanwhile, so the load average before is printed too.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

const SAMPLE_MS = 200;
const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux this runs on

const command = process.argv.slice(2);
if (command.length === 0) {
  console.error('usage: npm run bench:cpu -- <command> [arguments]');
  process.exit(2);
}

/** user + system ticks of the whole machine: [busy, total]. */
function machineTicks(): [number, number] {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = fields;
  const busy = user + nice + system + irq + softirq + steal;
  return [busy, busy + idle + iowait];
}

interface ProcessSample {
  parent: number;
  ticks: number;
}

/** Every process's parent and its own user + system ticks (the fields after the command name). */
function readProcesses(): Map<number, ProcessSample> {
  const found = new Map<number, ProcessSample>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // the name is in parentheses and may itself hold spaces or parentheses
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      found.set(Number(entry), { parent: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // it ended between the listing and the read
    }
  }
  return found;
}

function kindOf(pid: number): string {
  let commandLine: string;
  try {
    commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return 'ended before it was named';
  }
  if (/chrom/.test(commandLine)) {
    const type = /--type=([\w-]+)/.exec(commandLine)?.[1];
    if (type === 'renderer') return 'Chromium renderers';
    if (type === 'gpu-process') return 'Chromium GPU process';
    if (type) return `Chromium ${type}`;
    return 'Chromium browser process';
  }
  if (/server-with-fixtures|e2e\/serve\.mjs/.test(commandLine)) return 'e2e server';
  if (/playwright/.test(commandLine)) return 'Playwright runner and workers';
  if (/vitest/.test(commandLine)) return 'Vitest and its workers';
  if (/postgres|pg_ctl|initdb/.test(commandLine)) return 'PostgreSQL';
  const words = commandLine.trim().split(' ');
  const program = words[0]?.split('/').pop() ?? '';
  if (program !== 'node') return program;
  // a node process by the script it runs: its first argument that names a file of ours
  const script = words.slice(1).find((word) => /\.(ts|mjs|js)$/.test(word) && !word.includes('node_modules'));
  return `node ${script ?? words.slice(1).join(' ')}`;
}

const started = performance.now();
const [busyBefore, totalBefore] = machineTicks();
const loadBefore = loadavg()[0]!.toFixed(1);
const child = spawn(command[0]!, command.slice(1), { stdio: 'inherit' });
const rootPid = child.pid!;

const lastTicks = new Map<number, number>();
const kinds = new Map<number, string>();
const byKind = new Map<string, number>();

function sample() {
  const processes = readProcesses();
  const children = new Map<number, number[]>();
  for (const [pid, { parent }] of processes) {
    const siblings = children.get(parent);
    if (siblings) siblings.push(pid);
    else children.set(parent, [pid]);
  }
  const tree = [rootPid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  for (const pid of tree) {
    const ticks = processes.get(pid)?.ticks;
    if (ticks === undefined) continue;
    if (!kinds.has(pid)) kinds.set(pid, kindOf(pid));
    const kind = kinds.get(pid)!;
    byKind.set(kind, (byKind.get(kind) ?? 0) + ticks - (lastTicks.get(pid) ?? 0));
    lastTicks.set(pid, ticks);
  }
}

const timer = setInterval(sample, SAMPLE_MS);
child.on('exit', (code, signal) => {
  clearInterval(timer);
  const wall = (performance.now() - started) / 1000;
  const [busyAfter, totalAfter] = machineTicks();
  const seconds = (ticks: number) => (ticks / TICKS_PER_SECOND).toFixed(1);
  const rows = [...byKind].filter(([, ticks]) => ticks > 0).sort((a, b) => b[1] - a[1]);
  const own = rows.reduce((sum, [, ticks]) => sum + ticks, 0);
  console.error(`\n${command.join(' ')}`);
  console.error(
    `wall ${wall.toFixed(1)} s; machine busy ${seconds(busyAfter - busyBefore)} of ${seconds(totalAfter - totalBefore)} CPU-s; load average before ${loadBefore}, after ${loadavg()[0]!.toFixed(1)}`,
  );
  console.error('CPU-seconds of the command, by kind of process:');
  for (const [kind, ticks] of rows) {
    console.error(
      `  ${seconds(ticks).padStart(8)}  ${((100 * ticks) / own).toFixed(0).padStart(3)} %  ${kind}`,
    );
  }
  console.error(`  ${seconds(own).padStart(8)}         in all`);
  process.exitCode = code ?? (signal ? 1 : 0);
});
