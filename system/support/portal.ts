/**
 * The real portal as its own process (src/server/main.ts, exactly what `npm start` runs), so system
 * tests can send it signals, kill it, run several side by side and restart it on the same data.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedDataDir } from '../../e2e/pglite-template.mjs';
import { freePort } from './net';

const root = fileURLToPath(new URL('../..', import.meta.url));

export const SYSTEM_STAFF = { username: 'system-staff@example.org', password: 'system-staff-password' };
export const SYSTEM_APP_SECRET = 'system-test-secret-system-test-secret-01';

export interface PortalOptions {
  /** DATA_DIR for the embedded database, or DATABASE_URL for PostgreSQL */
  dataDir?: string;
  databaseUrl?: string;
  env?: Record<string, string>;
  /** how long to wait for /api/health (ms) */
  startTimeout?: number;
  /** the script to run, from the repository root (default src/server/main.ts, what `npm start` runs) */
  entry?: string;
}

export interface PortalProcess {
  url: string;
  port: number;
  process: ChildProcess;
  /** everything the process wrote to stdout and stderr so far */
  output(): string;
  /** resolves with the exit code and signal once the process has ended */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** send a signal and wait for the exit */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function startPortal(options: PortalOptions): Promise<PortalProcess> {
  const port = await freePort();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    APP_SECRET: SYSTEM_APP_SECRET,
    INITIAL_STAFF_USERNAME: SYSTEM_STAFF.username,
    INITIAL_STAFF_PASSWORD: SYSTEM_STAFF.password,
    DATA_DIR: options.dataDir ?? '/nonexistent-data-dir',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...options.env,
  };
  const child = spawn(process.execPath, ['--import', 'tsx', options.entry ?? 'src/server/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  let ended = false;
  void exited.then(() => {
    ended = true;
  });

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.startTimeout ?? 60_000);
  for (;;) {
    if (ended) throw new Error(`the portal exited before it was ready:\n${output}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the portal did not become healthy in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  return {
    url,
    port,
    process: child,
    output: () => output,
    exited,
    async stop(signal = 'SIGTERM') {
      if (!ended) child.kill(signal);
      return exited;
    },
  };
}

/**
 * A new DATA_DIR holding the empty PGlite cluster the e2e portals start from, for a portal on the
 * embedded database. initdb in WebAssembly is several seconds of CPU (6.6 s here on a quiet
 * machine, against 1.1 s to copy and open the cluster), and no system test is about it: the portal
 * opens the copy as it opens its data after a restart and applies every migration itself, as on a
 * first start. Falls back to a new cluster when no template can be made.
 */
export async function emptyDataDir(prefix: string): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  await seedDataDir(dataDir);
  return dataDir;
}
