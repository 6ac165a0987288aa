// The empty PGlite cluster every e2e server starts from (the shared one in serve.mjs and the Microsoft
// specs' own portals in microsoft-portal.ts), and the system tests' portals on the embedded database
// (system/support/portal.ts). Plain JavaScript: serve.mjs runs under plain Node.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * A fresh PGlite database costs an initdb (in WebAssembly) of several seconds, 15 s on a busy machine,
 * and most of a server's start-up; opening an existing one takes under a second. So the empty
 * cluster that initdb makes is kept once per PGlite version (node_modules/.cache, next to the package
 * that made it) and copied into each server's DATA_DIR: the server opens it the way it opens its data
 * after a restart and applies every migration itself, so the database it starts with is the same.
 * Answers the template's folder, or undefined when none could be made.
 */
async function emptyClusterTemplate() {
  const pglitePackage = join(root, 'node_modules/@electric-sql/pglite/package.json');
  const { version } = JSON.parse(readFileSync(pglitePackage, 'utf8'));
  const cacheRoot = join(root, 'node_modules/.cache/afp-e2e');
  const template = join(cacheRoot, `pglite-${version}-empty`);
  if (existsSync(join(template, 'PG_VERSION'))) return template;
  mkdirSync(cacheRoot, { recursive: true });
  // made aside and renamed into place, so a run never copies a half-made template (two runs starting
  // together each make one; the second rename loses and its copy is dropped)
  const making = mkdtempSync(join(cacheRoot, 'making-'));
  const { PGlite } = await import('@electric-sql/pglite');
  const db = new PGlite(making);
  await db.waitReady;
  await db.close();
  try {
    renameSync(making, template);
  } catch {
    rmSync(making, { recursive: true, force: true });
  }
  return existsSync(join(template, 'PG_VERSION')) ? template : undefined;
}

/**
 * Puts a copy of the empty cluster where a server with this DATA_DIR keeps its database
 * (openDatabase in src/server/db/client.ts: DATA_DIR/pglite). Not fatal when it fails: the server
 * then makes its database from scratch, only more slowly.
 */
export async function seedDataDir(dataDir) {
  const target = join(dataDir, 'pglite');
  try {
    const template = await emptyClusterTemplate();
    if (template) cpSync(template, target, { recursive: true });
  } catch (error) {
    console.error('No PGlite template: the portal starts on a new cluster.', error);
    rmSync(target, { recursive: true, force: true });
  }
}
