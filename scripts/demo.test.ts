import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'afp-demo-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs `npm run demo`'s entry until it prints its summary, then stops it as Ctrl-C would. */
async function runDemo(env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'scripts/demo.ts')], {
    cwd: root,
    env: { ...process.env, PORT: '0', EMULATOR_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (/ {2}Data {12}.*\n/.test(output)) resolve();
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then((code) => reject(new Error(`the demo exited (${code}) early:\n${output}`)));
  });
  child.kill('SIGINT');
  expect(await exited).toBe(0);
  return output;
}

describe('npm run demo', () => {
  it('keeps its database in DATA_DIR when that is set, and leaves it there', async () => {
    const dataDir = join(scratch, 'chosen');
    const output = await runDemo({ DATA_DIR: dataDir, TMPDIR: join(scratch, 'unused') });
    expect(output).toContain(`Data            ${dataDir} (DATA_DIR, kept when the demo stops)`);
    expect(existsSync(join(dataDir, 'pglite'))).toBe(true);
  }, 240_000);

  it('without DATA_DIR uses a temporary folder and removes it on exit', async () => {
    const temp = mkdtempSync(join(scratch, 'tmp-'));
    const output = await runDemo({ DATA_DIR: '', TMPDIR: temp });
    expect(output).toMatch(/removed when the demo stops/);
    // (tsx keeps its own cache there too)
    expect(readdirSync(temp).filter((name) => name.startsWith('afp-demo-'))).toEqual([]);
  }, 240_000);
});
