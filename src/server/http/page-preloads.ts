import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type DateRange,
  type DateString,
  DEFAULT_STAFF_VIEW,
  monthGridRange,
  staffViewRange,
  startOfMonth,
} from '../../shared/calendar';

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

const rangeQuery = (range: DateRange) =>
  `from=${encodeURIComponent(range.from)}&to=${encodeURIComponent(range.to)}`;

/**
 * The API reads each page makes first, written exactly as the client asks for them (the same
 * address, so the browser hands the preloaded answer to the client's own request;
 * docs/decisions/0040-each-page-s-html-starts-its-first-reads.md). `today` is the organisation's:
 * where the browser's day differs (a visitor in another time zone, around midnight) the client asks
 * for another range and the preloaded one goes unused. `firstGridIds` are the staff grid's first
 * rows as the server sees them; the client works them out from its own users list the same way
 * (src/shared/staff-grid-order.ts), and if the two differ that preload goes unused.
 */
export function pageDataUrls(
  path: string,
  today: DateString,
  firstGridIds: readonly number[] = [],
): string[] {
  switch (path) {
    case '/': {
      const month = monthGridRange(startOfMonth(today));
      return [`/api/availability?${rangeQuery(month)}`, `/api/bookings?${rangeQuery(month)}`];
    }
    case '/offers':
      return ['/api/offers'];
    case '/staff':
    case '/staff-dashboard': {
      const range = staffViewRange(DEFAULT_STAFF_VIEW, today);
      /*
       * With first rows, only they are preloaded: the grid reads the whole range once they are
       * drawn (ADR 46). Preloading the whole range as well filled the browser's six connections
       * ahead of the page's scripts and, on a slow phone network, shared its bandwidth with them
       * (ADR 51). Without first rows (no facilitators yet) the whole range is small: preload it.
       */
      const listQuery = `${rangeQuery(range)}${firstGridIds.length ? `&userIds=${firstGridIds.join(',')}` : ''}`;
      return [
        '/api/staff/users',
        `/api/staff/availabilities?${listQuery}`,
        `/api/staff/bookings?${listQuery}`,
        `/api/staff/notes?date=${encodeURIComponent(range.from)}&view=${DEFAULT_STAFF_VIEW}`,
        '/api/admin/scheduler/status',
      ];
    }
    case '/staff/users':
      return ['/api/staff/users', '/api/staff/safeguarding'];
    case '/staff/sessions':
      return ['/api/staff/sessions'];
    default:
      return [];
  }
}

/**
 * `<link rel="preload" as="fetch">` for the session read every signed-in page starts with and the
 * page's first reads, placed before the page's scripts so they start as the HTML arrives instead
 * of after the scripts have run. `use-credentials` matches the client's `credentials: 'include'`.
 */
export function withDataPreloads(
  html: string,
  path: string,
  today: DateString,
  firstGridIds: readonly number[] = [],
): string {
  const links = ['/api/user', ...pageDataUrls(path, today, firstGridIds)]
    .map((url) => `    <link rel="preload" as="fetch" crossorigin="use-credentials" href="${url}">\n`)
    .join('');
  // first in the head: the browser starts requests in the order it meets them
  return html.replace(/<head>\n?/, (head) => `${head}${links}`);
}
