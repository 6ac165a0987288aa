/**
 * `npm start` on a fresh clone, timed to its first answer (ADR 42).
 *
 *   npm run bench:start -- [--ref HEAD] [--port 5871]
 *
 * Clones this checkout at `--ref` into a temporary folder, links this checkout's node_modules into it
 * (hard links, `cp -al`; its `.cache` left out, so no PGlite template or build cache helps),
 * gives it an empty temporary folder (so tsx compiles everything again) and runs `npm start` there on
 * an empty data folder. It asks for `/api/health` and `/staff-login` every 100 ms and prints when the
 * port first answered (any status: the "starting" 503 counts, it is what a person sees), when the
 * health check first said 200 (the app ready) and when the portal page was served (the client built),
 * with the load average before and after. Run `--ref` at two commits back to back to compare them.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const option = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback;
};
const ref = option('ref', 'HEAD');
const port = Number(option('port', '5871'));

const work = mkdtempSync(join(tmpdir(), 'afp-bench-start-'));
const clone = join(work, 'clone');
const run = (command: string, args: string[], cwd: string) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: 'inherit' });
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')}: ${code}`)),
    );
  });

const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

try {
  await run('git', ['clone', '-q', root, clone], work);
  await run('git', ['checkout', '-q', ref], clone);
  // hard links (GNU cp): quick, and nothing of this checkout's node_modules is changed
  await run('cp', ['-al', join(root, 'node_modules'), clone], work);
  rmSync(join(clone, 'node_modules', '.cache'), { recursive: true, force: true });
  const emptyTmp = join(work, 'tmp');
  mkdirSync(emptyTmp);

  console.log(`${ref}: load average before ${load()}`);
  const started = performance.now();
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
  const portal = spawn('npm', ['start'], {
    cwd: clone,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', TMPDIR: emptyTmp },
    stdio: 'ignore',
    detached: true,
  });
  let exited = false;
  const ended = new Promise<void>((resolve) => portal.on('exit', () => resolve()));
  void ended.then(() => {
    exited = true;
  });
  const seen: Record<'first answer' | 'app ready' | 'client built', string | undefined> = {
    'first answer': undefined,
    'app ready': undefined,
    'client built': undefined,
  };
  while (!exited && Object.values(seen).includes(undefined)) {
    try {
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      seen['first answer'] ??= `${seconds()} s (${health.status})`;
      if (health.ok) seen['app ready'] ??= `${seconds()} s`;
      if ((await fetch(`http://127.0.0.1:${port}/staff-login`)).status === 200)
        seen['client built'] ??= `${seconds()} s`;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 600_000) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!exited) process.kill(-portal.pid!, 'SIGTERM');
  await ended;
  for (const [what, when] of Object.entries(seen))
    console.log(`${ref}: ${what.padEnd(13)} ${when ?? 'never'}`);
  console.log(`${ref}: load average after ${load()}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
