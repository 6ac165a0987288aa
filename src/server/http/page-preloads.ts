import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Each page's own code, named in the page's HTML (docs/decisions/0028-preload-each-page-s-code-in-its-html.md).
 * The client loads a page's code with a dynamic import, which the browser only starts once the main
 * script has downloaded and run: one round trip and one download after another. Named as
 * `<link rel="modulepreload">` in the HTML, it downloads beside the main script instead.
 *
 * Keys are the client's paths; values the modules (as Vite's manifest names them, relative to
 * src/client) that the router in src/client/app/router.tsx loads for that path.
 */
export const PAGE_MODULES: Record<string, { modules: string[]; staff: boolean }> = {
  '/': { modules: ['app/routes/home.tsx'], staff: false },
  '/settings': { modules: ['app/routes/settings.tsx'], staff: false },
  '/change-password': { modules: ['app/routes/change-password.tsx'], staff: false },
  '/offers': { modules: ['app/routes/offers.tsx'], staff: false },
  '/staff': { modules: ['app/routes/staff-dashboard.tsx', 'app/staff-prefetch.ts'], staff: true },
  '/staff-dashboard': { modules: ['app/routes/staff-dashboard.tsx', 'app/staff-prefetch.ts'], staff: true },
  '/staff/users': { modules: ['app/routes/staff-users.tsx'], staff: true },
  '/staff/free': { modules: ['app/routes/staff-free.tsx'], staff: true },
  '/staff/completeness': { modules: ['app/routes/staff-completeness.tsx'], staff: true },
  '/staff/sessions': { modules: ['app/routes/staff-sessions.tsx'], staff: true },
};

interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}
export type Manifest = Record<string, ManifestChunk>;

/** Vite's build manifest beside the client, or null (a build without one preloads nothing extra). */
export function readManifest(clientDir: string): Manifest | null {
  const file = join(clientDir, '.vite', 'manifest.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Manifest) : null;
}

/** `key` and every chunk it imports statically (what the browser must have before it runs). */
function closure(manifest: Manifest, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key) || !manifest[key]) return;
    seen.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return seen;
}

/**
 * The HTML for each page path: the built index.html with `<link rel="modulepreload">` for the
 * page's chunks that the entry does not already load. Paths not listed get the plain index.html.
 */
export function pagesWithPreloads(indexHtml: string, manifest: Manifest | null): Map<string, string> {
  const pages = new Map<string, string>();
  if (!manifest) return pages;
  const entries = Object.keys(manifest).filter((key) => manifest[key]!.isEntry);
  const loadedByEntry = closure(manifest, entries);
  for (const [path, { modules }] of Object.entries(PAGE_MODULES)) {
    const links = [...closure(manifest, modules)]
      .filter((key) => !loadedByEntry.has(key))
      .map((key) => `    <link rel="modulepreload" crossorigin href="/${manifest[key]!.file}">\n`)
      .join('');
    if (links) pages.set(path, indexHtml.replace('</head>', `${links}  </head>`));
  }
  return pages;
}
