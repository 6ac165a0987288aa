import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer as createTcpServer, type Server, type Socket } from 'node:net';
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

/** A free local port: bound, read and released (the portal below must be told its port up front). */
async function freePort(): Promise<number> {
  const probe = createTcpServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** The portal's process on a port, with its output on a pipe. */
function spawnPortalOn(port: number, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', join(root, 'src/server/main.ts')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

describe('before the database is ready', () => {
  it('already answers on its port: 503 "starting" for pages and the API', async () => {
    // a "database" that accepts connections and never answers: the portal cannot finish starting
    const sockets: Socket[] = [];
    let connected: () => void = () => {};
    const databaseReached = new Promise<void>((resolve) => {
      connected = resolve;
    });
    const silentDatabase: Server = createTcpServer((socket) => {
      sockets.push(socket);
      connected();
    });
    await new Promise<void>((resolve) => silentDatabase.listen(0, '127.0.0.1', resolve));
    const databasePort = (silentDatabase.address() as AddressInfo).port;
    const port = await freePort();
    const child = spawnPortalOn(port, {
      DATA_DIR: dataDir,
      DATABASE_URL: `postgres://portal:secret@127.0.0.1:${databasePort}/portal`,
    });
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    try {
      // the portal opens its database only after it listens, so reaching it means the port is open
      await Promise.race([
        databaseReached,
        exited.then(() => {
          throw new Error('the portal exited before it reached its database');
        }),
      ]);
      const page = await fetch(`http://127.0.0.1:${port}/staff-login`);
      expect(page.status).toBe(503);
      expect(page.headers.get('retry-after')).toBe('2');
      expect(await page.text()).toContain('<h1>The portal is starting</h1>');
      const health = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(health.status).toBe(503);
      expect(await health.json()).toEqual({ message: 'The portal is starting; try again in a moment' });
      // the process answers, and it is not ready
      expect((await fetch(`http://127.0.0.1:${port}/api/health/live`)).status).toBe(200);
      const ready = await fetch(`http://127.0.0.1:${port}/api/health/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({
        status: 'not-ready',
        reason: 'starting',
        message: 'The portal is starting',
      });
    } finally {
      child.kill('SIGKILL');
      await exited;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silentDatabase.close(() => resolve()));
    }
  }, 120_000);
});

describe('held for maintenance', () => {
  it('answers "down for maintenance" without opening the database, which stays free for a restore', async () => {
    const port = await freePort();
    const heldDir = mkdtempSync(join(tmpdir(), 'afp-held-'));
    const child = spawnPortalOn(port, { DATA_DIR: heldDir, DATABASE_URL: '', MAINTENANCE: 'true' });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await new Promise<void>((resolve) => {
        let output = '';
        child.stdout!.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('held for maintenance')) resolve();
        });
      });
      const page = await fetch(`http://127.0.0.1:${port}/staff-login`);
      expect(page.status).toBe(503);
      expect(await page.text()).toContain('<h1>The portal is down for maintenance</h1>');
      const api = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(api.status).toBe(503);
      expect(await api.json()).toEqual({ message: 'The portal is down for maintenance; try again later' });
      expect((await fetch(`http://127.0.0.1:${port}/api/health/live`)).status).toBe(200);
      const ready = await fetch(`http://127.0.0.1:${port}/api/health/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ status: 'not-ready', reason: 'maintenance' });
      // the embedded database was never created, so a restore can write it
      expect(readdirSync(heldDir)).toEqual([]);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      rmSync(heldDir, { recursive: true, force: true });
    }
  }, 120_000);
});
