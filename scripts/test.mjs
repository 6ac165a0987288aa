#!/usr/bin/env node
// `npm test`: the type check, the lint and the client's build side by side, then the unit, system and
// browser suites one after another (docs/decisions/0113-what-each-ci-pass-adds-date-runs-checks-side-by-side.md).
// The three checks need nothing from each other and the type check uses one core, so on two cores they
// take about as long as the type check alone; the suites each use every core, so they take turns. Each
// step's time is printed as it ends; the first step to fail stops the run, its output shown in full.
//
//   npm test                  everything
//   npm test -- --checks      the type check, the lint and the build only
import { spawn } from 'node:child_process';

const CHECKS = [
  ['typecheck', ['run', 'typecheck']],
  ['lint', ['run', 'lint']],
  ['build', ['run', 'build']],
];
const SUITES = [
  ['unit tests', ['run', 'test:unit']],
  ['system tests', ['run', 'test:system']],
  ['browser tests', ['run', 'test:e2e']],
];

const started = performance.now();
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const running = new Set();

/** Ends every step still running, each with the processes it started. */
function stopAll(signal = 'SIGTERM') {
  for (const child of running) {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopAll(signal);
    process.exit(130);
  });
}

/**
 * Runs `npm <args>` as a process group of its own (so a failure elsewhere can end it whole). Its output
 * is kept and answered when `quiet`, else shown as it comes.
 */
function run(name, args, quiet) {
  const since = performance.now();
  const child = spawn('npm', args, {
    detached: true,
    stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });
  running.add(child);
  let output = '';
  if (quiet) {
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
  }
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      running.delete(child);
      resolve({ name, passed: code === 0, how: signal ?? `exit ${code}`, output, time: seconds(since) });
    });
  });
}

function fail(step) {
  stopAll();
  if (step.output) process.stdout.write(step.output);
  console.error(`\n=== ${step.name} FAILED (${step.how}) after ${step.time}; npm test stops here`);
  process.exit(1);
}

console.log(`=== ${CHECKS.map(([name]) => name).join(', ')}, side by side`);
await Promise.all(
  CHECKS.map(async ([name, args]) => {
    const step = await run(name, args, true);
    if (!step.passed) fail(step);
    process.stdout.write(step.output);
    console.log(`=== ${name} passed in ${step.time}\n`);
  }),
);

if (!process.argv.includes('--checks')) {
  for (const [name, args] of SUITES) {
    console.log(`=== ${name}`);
    const step = await run(name, args, false);
    if (!step.passed) fail(step);
    console.log(`=== ${name} passed in ${step.time}\n`);
  }
}
console.log(`=== npm test passed in ${seconds(started)}`);
