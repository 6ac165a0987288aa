/**
 * startTunedPortal: like startPortal (system/support/portal.ts) — a real portal process on a free
 * port, same environment, same health wait — but running system/support/tuned-main.ts, which hands
 * buildApp short SharePoint retry timings and outbox/scheduler waits. Use it only where production
 * waits (30 s request timeout, 30 s first outbox retry, 2 s drain idle) do not fit a test budget.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SchedulerOptions } from '../../src/server/jobs/scheduler';
import type { OutboxOptions } from '../../src/server/sharepoint/outbox-worker';
import type { RetryTimings } from '../../src/server/sharepoint/retry';
import { freePort } from './net';
import { type PortalOptions, type PortalProcess, SYSTEM_APP_SECRET, SYSTEM_STAFF } from './portal';

const root = fileURLToPath(new URL('../..', import.meta.url));

type Numeric<T> = { [K in keyof T as T[K] extends number ? K : never]?: T[K] };

/** Only plain values: they travel to the process as JSON. */
export interface PortalTuning {
  timings?: Numeric<RetryTimings>;
  outbox?: Numeric<OutboxOptions>;
  scheduler?: Partial<SchedulerOptions>;
}

/** Compressed but proportionate: the same retry ladders and lease rules, in tens of milliseconds. */
export const FAST_PORTAL_TUNING: PortalTuning = {
  timings: {
    baseDelayMs: 25,
    maxDelayMs: 250,
    maxAttempts: 5,
    maxRetryAfterMs: 3000,
    requestTimeoutMs: 1500,
  },
  outbox: { retryBaseMs: 200, retryMaxMs: 1500, concurrency: 4 },
  scheduler: { drainIdleMs: 100 },
};

export async function startTunedPortal(
  options: PortalOptions & { tuning?: PortalTuning },
): Promise<PortalProcess> {
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
    AFP_SYSTEM_TUNING: JSON.stringify(options.tuning ?? FAST_PORTAL_TUNING),
    ...options.env,
  };
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'system/support/tuned-main.ts'], {
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
