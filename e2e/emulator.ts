/**
 * The specs' side of the SharePoint emulator that e2e/server-with-fixtures.ts runs next to the app:
 * its `/__emulator/*` control plane (src/sharepoint-emulator/README.md) over plain HTTP, and a lock
 * for the tests that refresh bookings or inject SharePoint failures.
 */
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { E2E_EMULATOR_PORT, EMULATOR_URL } from './constants';

export interface EmulatorItem {
  id: string;
  fields: Record<string, string | number | boolean>;
}

interface ListInfo {
  id: string;
  displayName: string;
}

interface SiteWithLists {
  id: string;
  webUrl: string;
  lists: ListInfo[];
}

async function control<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${EMULATOR_URL}/__emulator${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`emulator ${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The one portal site the e2e server seeded, with its lists. */
async function portalSite(): Promise<SiteWithLists> {
  const [site] = await control<SiteWithLists[]>('GET', '/sites');
  if (!site) throw new Error('the emulator has no site: did e2e/server-with-fixtures.ts seed it?');
  return site;
}

function listName(site: SiteWithLists, name: string): string {
  const list = site.lists.find((l) => l.displayName === name);
  if (!list) throw new Error(`the emulator site has no list ${name}`);
  return list.displayName;
}

/** What the settings page must hold to reach the emulator (the values the e2e server saved). */
export async function emulatorSettings() {
  const site = await portalSite();
  const info = await control<{
    tenantId: string;
    clientId: string;
    clientSecret: string;
    username: string;
    password: string;
  }>('GET', '/info');
  return {
    siteUrl: site.webUrl,
    availabilityListName: listName(site, 'Availability'),
    bookingsListName: listName(site, 'Bookings'),
    facilitatorListName: listName(site, 'Facilitators'),
    schoolsListName: listName(site, 'Schools'),
    tenantId: info.tenantId,
    clientId: info.clientId,
    clientSecret: info.clientSecret,
    username: info.username,
    password: info.password,
  };
}

async function itemsPath(list: string): Promise<string> {
  const site = await portalSite();
  return `/sites/${encodeURIComponent(site.id)}/lists/${encodeURIComponent(listName(site, list))}/items`;
}

/** Someone adds an item to the list in SharePoint (it shows up in the next delta). */
export async function addSharePointItem(list: string, fields: Record<string, string>): Promise<EmulatorItem> {
  return control<EmulatorItem>('POST', await itemsPath(list), fields);
}

export async function sharePointItems(list: string): Promise<EmulatorItem[]> {
  return control<EmulatorItem[]>('GET', await itemsPath(list));
}

export interface FaultRule {
  method?: string | string[];
  /** glob on the Graph path, e.g. `*\/items/delta` */
  path?: string;
  times?: number | 'always';
  action:
    | { type: 'status'; status: number; retryAfter?: number; code?: string; message?: string }
    | { type: 'delay'; ms: number }
    | { type: 'destroy' }
    /** the call waits until the rule is removed (the function addFault returns), then is answered */
    | { type: 'hold' };
}

/** Adds a failure rule; the returned function removes exactly that rule again. */
export async function addFault(rule: FaultRule): Promise<() => Promise<void>> {
  const { id } = await control<{ id: number }>('POST', '/faults', rule);
  return async () => {
    await control('DELETE', `/faults/${id}`);
  };
}

/** The delta call of a bookings refresh (the outbox and the connection test never use it). */
export const BOOKINGS_DELTA = '*/items/delta';

/**
 * The path (a fault rule's glob) of listing the portal's own site's lists. Only that site: another
 * spec's site (settings-columns.spec.ts reads one at the same time) still answers.
 */
export async function portalListsPath(): Promise<string> {
  const site = await portalSite();
  return `*/sites/${site.id}/lists`;
}

/** The path (a fault rule's glob) of reading one list's items, e.g. the Schools list a refresh reads. */
export async function listItemsPath(list: string): Promise<string> {
  const site = await portalSite();
  const found = site.lists.find((l) => l.displayName === list);
  if (!found) throw new Error(`the emulator site has no list ${list}`);
  return `*/lists/${found.id}/items`;
}

const LOCK_DIR = join(tmpdir(), `afp-e2e-${E2E_EMULATOR_PORT}-sharepoint.lock`);
const STALE_LOCK_MS = 180_000;

/**
 * Runs `fn` while no other worker refreshes bookings or injects SharePoint failures. The app joins a
 * refresh that is already running instead of starting another, so a test that adds a booking and
 * then refreshes, or one that makes the refresh fail, must not overlap with another such test.
 */
export async function withSharePointLock<T>(fn: () => Promise<T>, waitMs = 100_000): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      mkdirSync(LOCK_DIR);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    try {
      // left behind by a worker that was killed while holding it
      if (Date.now() - statSync(LOCK_DIR).mtimeMs > STALE_LOCK_MS) rmSync(LOCK_DIR, { recursive: true });
    } catch {
      // released meanwhile
    }
    if (Date.now() > deadline) throw new Error('waited too long for the SharePoint lock');
    await sleep(200);
  }
  try {
    return await fn();
  } finally {
    rmSync(LOCK_DIR, { recursive: true, force: true });
  }
}

/** Seeds another site (e.g. with tenant-style column names) and returns its URL and id. */
export async function seedEmulatorSite(options: Record<string, unknown>) {
  // a retried spec runs its beforeAll again in a new worker: the emulator keeps the site it made first
  const path = typeof options.path === 'string' ? options.path : undefined;
  const existing = path
    ? (await control<SiteWithLists[]>('GET', '/sites')).find((site) => new URL(site.webUrl).pathname === path)
    : undefined;
  if (existing) return { siteUrl: existing.webUrl, siteId: existing.id, created: false };
  const seeded = await control<{ siteUrl: string; site: { id: string } }>('POST', '/seed', options);
  return { siteUrl: seeded.siteUrl, siteId: seeded.site.id, created: true };
}

/** A list with the columns given, on a site of the emulator. */
export async function createEmulatorList(body: {
  siteId: string;
  displayName: string;
  columns: Array<{ name: string; displayName: string; type: string }>;
  items?: Array<Record<string, string>>;
}) {
  await control('POST', '/lists', body);
}

/** Registers a PEM certificate for the emulator's app, as uploading it under Certificates & secrets does. */
export async function registerEmulatorCertificate(certificate: string) {
  await control('POST', '/certificates', { certificate });
}
