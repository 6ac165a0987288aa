import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'afp-serve-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Starts the portal process as `npm start` does and collects its output until it names its address. */
async function startPortal(): Promise<{ output: string; url: string; stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/server/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/\S+)\n.*\n/.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => reject(new Error(`the portal exited (${code}) before listening:\n${output}`)));
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      child.on('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { output, url, stop };
}

describe('starting the portal', () => {
  it('prints the address it answers on, and whether it created the first staff account and with which password', async () => {
    const first = await startPortal();
    try {
      expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await fetch(`${first.url}/api/health`)).status).toBeLessThan(500);
      expect(first.output).toContain('First staff account created: admin (sign in at /staff-login).');
      // the generated password is shown once, by the process, and it signs in
      const shown = /username: admin\n {2}password: (\S+)\nThis password is shown only once/.exec(
        first.output,
      );
      expect(shown).not.toBeNull();
      const login = await fetch(`${first.url}/api/auth/staff-login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: shown![1] }),
      });
      expect(login.status).toBe(200);
    } finally {
      await first.stop();
    }

    const second = await startPortal();
    try {
      expect(second.output).toContain('A staff account already exists; none was created.');
      expect(second.output).not.toContain('First staff account created');
      expect(second.output).not.toContain('password:');
    } finally {
      await second.stop();
    }
  }, 120_000);
});
