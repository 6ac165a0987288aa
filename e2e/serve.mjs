// Runs the built portal for the Playwright suite on a fresh embedded database.
// PORT, INITIAL_STAFF_USERNAME and INITIAL_STAFF_PASSWORD come from playwright.config.ts.
// DATA_DIR and CLIENT_DIR live in one temp folder that is removed when the server stops.
import { execSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedDataDir } from './pglite-template.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

// `npm run build` is the normal way; build only what is missing so a fresh clone still works.
// E2E_BUILD_DIR points at another build (e.g. `vite build --outDir /tmp/x`), so several people working
// in one checkout can each run the suite against their own build.
const buildDir = process.env.E2E_BUILD_DIR ?? join(root, 'dist/client');
if (!existsSync(join(buildDir, 'index.html'))) {
  execSync(`npx vite build --outDir ${JSON.stringify(buildDir)} --emptyOutDir`, {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

const runDir = mkdtempSync(join(tmpdir(), 'afp-e2e-'));
const dataDir = join(runDir, 'data');
// a snapshot of the build, so a rebuild of dist/client during the run cannot pull files from under the
// server (used when the server honours CLIENT_DIR; otherwise it serves dist/client directly)
const clientDir = join(runDir, 'client');
cpSync(buildDir, clientDir, { recursive: true });

// openDatabase (src/server/db/client.ts) keeps PGlite's files in DATA_DIR/pglite
await seedDataDir(dataDir);

const env = {
  ...process.env,
  CLIENT_DIR: clientDir,
  PORT: process.env.PORT ?? '5179',
  HOST: process.env.HOST ?? '127.0.0.1',
  DATA_DIR: dataDir,
  INITIAL_STAFF_USERNAME: process.env.INITIAL_STAFF_USERNAME ?? 'e2e-staff@example.org',
  INITIAL_STAFF_PASSWORD: process.env.INITIAL_STAFF_PASSWORD ?? 'Staff-e2e-Passw0rd',
};

// e2e/server-with-fixtures.ts is the real app plus the calendar spec's fixture bookings
// the local tsx directly (what `npx tsx` runs) so a stop signal reaches the server, not just npx
const tsx = join(root, 'node_modules/tsx/dist/cli.mjs');
const server = spawn(process.execPath, [tsx, 'e2e/server-with-fixtures.ts'], {
  cwd: root,
  env,
  stdio: 'inherit',
});

let stopping = false;
function stop(signal) {
  if (stopping) return;
  stopping = true;
  server.kill(signal);
  // never hang the test run on a server that will not stop
  setTimeout(() => server.kill('SIGKILL'), 5000).unref();
}

process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));

server.on('exit', (code, signal) => {
  rmSync(runDir, { recursive: true, force: true });
  process.exit(stopping ? 0 : (code ?? (signal ? 1 : 0)));
});
