import { mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * PGlite is single-process: a second process opening the same files corrupts them, and PGlite itself
 * does not notice (its postmaster.pid always says -42). Whoever opens DATA_DIR's database, the portal
 * or the backup and restore scripts, holds DATA_DIR/portal.lock while it does (docs/decisions/0005).
 *
 * A lock is stale, and is taken over, when it was written on this host by a process that has gone
 * (or before the last reboot), or on another host (another container on a shared volume) and not
 * refreshed for a minute; its holder refreshes it every 15 seconds.
 */
export const LOCK_FILE = 'portal.lock';
const REFRESH_MS = 15_000;
const FOREIGN_STALE_MS = 60_000;

interface LockInfo {
  holder: string;
  pid: number;
  host: string;
  boot: string | null;
  since: string;
}

export class DataDirLockedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  release(): void;
}

/** Lock files this process holds, so it can tell its own lock from one left by an earlier pid twin. */
const held = new Set<string>();

function bootId(): string | null {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return null;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // a killed child its parent has not reaped yet is a zombie: gone for our purposes
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

function readLock(file: string): LockInfo | null {
  try {
    const info = JSON.parse(readFileSync(file, 'utf8')) as LockInfo;
    return typeof info.pid === 'number' && typeof info.host === 'string' ? info : null;
  } catch {
    return null;
  }
}

/** Why the lock is still in force, or null when it is stale. */
function liveHolder(file: string, info: LockInfo | null): string | null {
  // unreadable: half-written by a process that died at once, or garbage; judge by age alone
  const ageMs = Date.now() - statSync(file).mtimeMs;
  if (!info) return ageMs > FOREIGN_STALE_MS ? null : 'an unreadable lock written moments ago';
  const who = `${info.holder} (pid ${info.pid} on ${info.host}, since ${info.since})`;
  if (info.host !== hostname()) return ageMs > FOREIGN_STALE_MS ? null : who;
  if (info.boot && info.boot !== bootId()) return null;
  if (info.pid === process.pid) return held.has(file) ? who : null;
  return processAlive(info.pid) ? who : null;
}

/**
 * Take DATA_DIR's lock or throw DataDirLockedError naming who holds it. `holder` says who we are
 * ("the portal", "a backup") in the message another process shows.
 */
export function acquireDataDirLock(dataDir: string, holder: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const file = join(resolve(dataDir), LOCK_FILE);
  const info: LockInfo = {
    holder,
    pid: process.pid,
    host: hostname(),
    boot: bootId(),
    since: new Date().toISOString(),
  };
  const content = `${JSON.stringify(info)}\n`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(file, content, { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let who: string | null;
      try {
        who = liveHolder(file, readLock(file));
      } catch {
        continue; // removed while we looked: try again
      }
      if (who) {
        throw new DataDirLockedError(
          `The database in DATA_DIR (${resolve(dataDir)}) is in use by ${who}. The embedded database allows ` +
            `one process at a time: stop it first. If no such process is running, delete ${file}.`,
        );
      }
      rmSync(file, { force: true });
      continue;
    }
    held.add(file);
    // The lock's age is read against this process's clock, so its times are set by that clock too,
    // not by the file system's (another host's on a network share, or a moved clock in tests).
    const touch = () => {
      const now = new Date();
      try {
        utimesSync(file, now, now);
      } catch {}
    };
    touch();
    const refresh = setInterval(touch, REFRESH_MS);
    refresh.unref();
    return {
      release() {
        clearInterval(refresh);
        if (!held.delete(file)) return;
        // only our own lock: never one another process took over after we were judged gone
        try {
          if (readFileSync(file, 'utf8') === content) rmSync(file, { force: true });
        } catch {}
      },
    };
  }
  throw new DataDirLockedError(`Could not take the lock ${file}: other processes keep replacing it.`);
}
