import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Only the portal's own user may read DATA_DIR: it holds password hashes, sessions and the app secret. */
const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

/**
 * Make DATA_DIR private before the embedded database opens it. PGlite writes a new database's files
 * (the catalog, the WAL) with mode 0666 whatever the umask, and rewrites a few at every start with
 * 0644, so every local user could read the password hashes: call `restrictDataDir` again once the
 * database is open. Files PostgreSQL creates while it runs (new relations, WAL segments) follow the
 * process umask, which becomes 077. The umask is process-wide on purpose: nothing this server
 * writes is meant for other users.
 */
export function secureDataDir(dataDir: string): void {
  process.umask(0o077);
  mkdirSync(dataDir, { recursive: true, mode: DIR_MODE });
  restrictDataDir(dataDir);
}

/** Directories to 0700 and files to at most 0600 under `path`, never following a symbolic link. */
export function restrictDataDir(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return; // never follow a link out of DATA_DIR
  if (stat.isDirectory()) {
    if ((stat.mode & 0o777) !== DIR_MODE) chmodSync(path, DIR_MODE);
    for (const name of readdirSync(path)) restrictDataDir(join(path, name));
  } else if ((stat.mode & 0o077) !== 0) {
    chmodSync(path, stat.mode & FILE_MODE);
  }
}
