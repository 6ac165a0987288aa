#!/usr/bin/env node
// `npm start`: run the server, and build the client when it is missing or older than its sources.
// `node scripts/start.mjs scripts/demo.ts` runs another entry (the demo) the same way.
// The server runs from TypeScript through tsx (docs/decisions/0002-run-server-with-tsx.md).
//
// The portal's own server starts at once, beside the build: until the build is in place its pages
// answer "The portal is starting" and reload themselves (docs/decisions/0027-start-serving-while-the-client-builds.md). Other entries
// (the demo) wait for the build, as they expect a client when they start.
import { spawn } from 'node:child_process';
import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clientBuildReason } from './client-build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const clientDir = join(root, 'dist', 'client');
// built beside the served folder and moved in with one rename, so the server never sees half a build
const nextDir = join(root, 'dist', 'client-next');

const reason = process.argv.includes('--rebuild') ? 'asked for with --rebuild' : clientBuildReason(root);
// the first argument that is not a flag names the entry; the portal itself by default
const portal = join('src', 'server', 'main.ts');
const entry = process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? portal;

let server = null;
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopping = true;
    build?.kill(signal);
    if (server) server.kill(signal);
    else process.exit(1);
  });
}

let build = null;
/** Resolves when the client is built and in place; exits the whole start when the build fails. */
const built = reason
  ? new Promise((resolve) => {
      console.log(`Building the client (${reason})...`);
      const started = performance.now();
      build = spawn(
        process.execPath,
        [
          join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
          'build',
          '--logLevel',
          'warn',
          '--outDir',
          nextDir,
          '--emptyOutDir',
        ],
        { cwd: root, stdio: 'inherit' },
      );
      build.on('exit', (code, signal) => {
        build = null;
        if (code !== 0) {
          if (!stopping) console.error(`The client build failed (${signal ?? `exit code ${code}`}).`);
          server?.kill('SIGTERM');
          if (!server) process.exit(code ?? 1);
          process.exitCode = code ?? 1;
          return;
        }
        rmSync(clientDir, { recursive: true, force: true });
        renameSync(nextDir, clientDir);
        console.log(`Client built in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
        resolve();
      });
    })
  : Promise.resolve();

const startServer = (extra) => {
  server = spawn(process.execPath, ['--import', 'tsx', join(root, entry), ...extra], {
    cwd: root,
    stdio: 'inherit',
  });
  server.on('exit', (code, signal) => {
    build?.kill('SIGTERM');
    process.exit(process.exitCode || (code ?? (signal ? 1 : 0)));
  });
};

if (entry === portal) {
  // a stale build goes first: the server must not serve the previous client (README, Run the portal)
  if (reason) rmSync(clientDir, { recursive: true, force: true });
  startServer(reason ? ['--client-building'] : []);
} else {
  built.then(() => startServer([]));
}
