import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError, LOCK_FILE } from './data-dir-lock';

const root = mkdtempSync(join(tmpdir(), 'afp-lock-'));
let n = 0;
const freshDir = () => join(root, `d${n++}`);
const bootId = existsSync('/proc/sys/kernel/random/boot_id')
  ? readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
  : null;

/** Dates the file by this process's clock, as the lock does, `ageMs` ago. */
function setAge(file: string, ageMs: number) {
  const then = new Date(Date.now() - ageMs);
  utimesSync(file, then, then);
}

function writeLock(dir: string, fields: Record<string, unknown>, ageMs = 0) {
  const file = join(dir, LOCK_FILE);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    file,
    JSON.stringify({ holder: 'a running portal', host: hostname(), boot: bootId, since: 'then', ...fields }),
  );
  setAge(file, ageMs);
  return file;
}

let sleeper: ChildProcess;
let deadPid: number;
beforeAll(async () => {
  sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  const quick = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  deadPid = quick.pid!;
  await new Promise((resolve) => quick.on('exit', resolve));
});
afterAll(() => {
  sleeper.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

describe('DATA_DIR lock', () => {
  it('is exclusive within a process and free again after release', () => {
    const dir = freshDir();
    const lock = acquireDataDirLock(dir, 'a running portal');
    expect(() => acquireDataDirLock(dir, 'a backup')).toThrow(DataDirLockedError);
    expect(() => acquireDataDirLock(dir, 'a backup')).toThrow(
      new RegExp(`in use by a running portal \\(pid ${process.pid} on ${hostname()}.*delete .*portal\\.lock`),
    );
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    acquireDataDirLock(dir, 'a backup').release();
  });

  it('refuses while another live process on this host holds it', () => {
    const dir = freshDir();
    const file = writeLock(dir, { pid: sleeper.pid });
    expect(() => acquireDataDirLock(dir, 'a backup')).toThrow(`pid ${sleeper.pid}`);
    expect(JSON.parse(readFileSync(file, 'utf8')).pid).toBe(sleeper.pid);
  });

  it('takes over a lock left by a process that has gone (a crash or SIGKILL)', () => {
    const dir = freshDir();
    writeLock(dir, { pid: deadPid });
    const lock = acquireDataDirLock(dir, 'a running portal');
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('takes over a lock with its own pid that it does not hold (a container restarted as pid 1)', () => {
    const dir = freshDir();
    writeLock(dir, { pid: process.pid });
    acquireDataDirLock(dir, 'a running portal').release();
  });

  it.runIf(bootId)('takes over a lock written before the last reboot, even if its pid is alive now', () => {
    const dir = freshDir();
    writeLock(dir, { pid: sleeper.pid, boot: 'an-earlier-boot' });
    acquireDataDirLock(dir, 'a running portal').release();
  });

  it('another host (a container on a shared volume): refused while refreshed, taken over after a minute', () => {
    const dir = freshDir();
    writeLock(dir, { pid: 1, host: 'another-container' }, 5_000);
    expect(() => acquireDataDirLock(dir, 'a backup')).toThrow('pid 1 on another-container');
    writeLock(dir, { pid: 1, host: 'another-container' }, 120_000);
    acquireDataDirLock(dir, 'a backup').release();
  });

  it('an unreadable lock counts while fresh and is taken over once old', () => {
    const dir = freshDir();
    const file = writeLock(dir, {});
    writeFileSync(file, '');
    setAge(file, 0);
    expect(() => acquireDataDirLock(dir, 'a backup')).toThrow('an unreadable lock');
    setAge(file, 120_000);
    acquireDataDirLock(dir, 'a backup').release();
  });

  it('release never removes a lock another process has since taken over', () => {
    const dir = freshDir();
    const lock = acquireDataDirLock(dir, 'a running portal');
    const file = join(dir, LOCK_FILE);
    writeFileSync(file, JSON.stringify({ holder: 'a backup', pid: sleeper.pid, host: hostname() }));
    lock.release();
    expect(existsSync(file)).toBe(true);
  });
});
