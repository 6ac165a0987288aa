#!/usr/bin/env node
// `npm start`: build the client when it is missing or older than its sources, then run the server.
// `node scripts/start.mjs scripts/demo.ts` runs another entry (the demo) the same way.
// The server runs from TypeScript through tsx (docs/decisions/0002-run-server-with-tsx.md).
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clientBuildReason } from './client-build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const reason = process.argv.includes('--rebuild') ? 'asked for with --rebuild' : clientBuildReason(root);
if (reason) {
  console.log(`Building the client (${reason})...`);
  const build = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// the first argument that is not a flag names the entry; the portal itself by default
const entry = process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? join('src', 'server', 'main.ts');
const server = spawn(process.execPath, ['--import', 'tsx', join(root, entry)], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
