// Whether the built client in dist/client still matches its sources. `npm start` rebuilds when it
// does not, so a `git pull` never leaves the portal serving the previous client.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What the client build is made from, relative to the repository root. */
// package.json too: its `sideEffects` decides which modules each page's file keeps (ADR 61)
export const CLIENT_SOURCES = [
  'src/client',
  'src/shared',
  'vite.config.ts',
  'package.json',
  'package-lock.json',
];

/** The built entry page: vite writes it last on every build, so its time is the build's stamp. */
export const BUILD_STAMP = join('dist', 'client', 'index.html');

/** The newest modification time (ms) of any file under `paths`; 0 when none exist. */
export function newestModification(root, paths = CLIENT_SOURCES) {
  let newest = 0;
  const visit = (path) => {
    if (!existsSync(path)) return;
    const stats = statSync(path);
    if (stats.isDirectory()) {
      for (const entry of readdirSync(path)) visit(join(path, entry));
    } else if (stats.mtimeMs > newest) {
      newest = stats.mtimeMs;
    }
  };
  for (const path of paths) visit(join(root, path));
  return newest;
}

/** Why the client must be built before the portal starts, or null when the build is current. */
export function clientBuildReason(root) {
  const stamp = join(root, BUILD_STAMP);
  if (!existsSync(stamp)) return 'no client build yet';
  if (newestModification(root) > statSync(stamp).mtimeMs)
    return 'the client sources changed since the last build';
  return null;
}
