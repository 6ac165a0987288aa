import { randomUUID } from 'node:crypto';
import { type Clock, isoSeconds } from './clock';
import { GraphError, invalidRequest, notFound } from './errors';
import type { ColumnDef, FieldInput, FieldValue, ItemSnapshot, ListInfo, ListRef, SiteInfo } from './types';
import { coerceForWrite } from './values';

export interface StoredItem {
  id: number;
  guid: string;
  version: number;
  created: number;
  modified: number;
  fields: Map<string, FieldValue>;
  /** Position of this item's latest change in the list's change sequence; drives delta. */
  changeSeq: number;
}

export interface StoredList {
  info: ListInfo;
  created: number;
  modified: number;
  items: Map<number, StoredItem>;
  /** Ids are never reused, as in SharePoint. */
  nextId: number;
  changeSeq: number;
  /** item id → sequence number of its deletion. */
  tombstones: Map<number, number>;
  /** Bumped to invalidate every delta token issued for this list. */
  deltaEpoch: number;
}

export interface StoredSite {
  info: SiteInfo;
  created: number;
  lists: Map<string, StoredList>;
}

export interface CreateSiteInput {
  hostname: string;
  path: string;
  displayName?: string;
  /** IANA zone used for date-only columns; defaults to Europe/London. */
  timeZone?: string;
}

export interface CreateListInput {
  displayName: string;
  name?: string;
  columns: ColumnDef[];
}

/** Title exists on every SharePoint list, so it is added when a definition leaves it out. */
const TITLE_COLUMN: ColumnDef = { name: 'Title', displayName: 'Title', type: 'text' };

/** Read-only system columns; not indexed, so filtering on them needs the Prefer header. */
export const SYSTEM_COLUMNS: ColumnDef[] = [
  { name: 'Created', displayName: 'Created', type: 'dateTime' },
  { name: 'Modified', displayName: 'Modified', type: 'dateTime' },
];

const normalisePath = (path: string) => `/${path.replace(/^\/+|\/+$/g, '')}`.toLowerCase();

export function formatETag(item: StoredItem): string {
  return `"${item.guid},${item.version}"`;
}

export class Store {
  /** Told after every recorded change of an item (what change notifications report). */
  onListChanged: ((list: ListInfo) => void) | undefined;

  private sites = new Map<string, StoredSite>();

  constructor(private readonly clock: Clock) {}

  reset(): void {
    this.sites.clear();
  }

  createSite(input: CreateSiteInput): SiteInfo {
    const hostname = input.hostname.toLowerCase();
    const path = `/${input.path.replace(/^\/+|\/+$/g, '')}`;
    if (this.findSiteByPath(hostname, path)) throw new Error(`Site ${hostname}${path} already exists`);
    const id = `${hostname},${randomUUID()},${randomUUID()}`;
    const name = path.split('/').filter(Boolean).pop() ?? hostname;
    const info: SiteInfo = {
      id,
      hostname,
      path,
      displayName: input.displayName ?? name,
      webUrl: `https://${hostname}${path === '/' ? '' : path}`,
      timeZone: input.timeZone ?? 'Europe/London',
    };
    this.sites.set(id.toLowerCase(), { info, created: this.clock.now(), lists: new Map() });
    return info;
  }

  allSites(): SiteInfo[] {
    return [...this.sites.values()].map((s) => s.info);
  }

  findSiteByPath(hostname: string, path: string): StoredSite | undefined {
    const host = hostname.toLowerCase();
    const wanted = normalisePath(path);
    for (const site of this.sites.values()) {
      if (site.info.hostname === host && normalisePath(site.info.path) === wanted) return site;
    }
    return undefined;
  }

  getSite(siteId: string): StoredSite {
    const site = this.sites.get(siteId.toLowerCase());
    if (!site) throw notFound('site');
    return site;
  }

  createList(siteId: string, input: CreateListInput): ListInfo {
    const site = this.getSite(siteId);
    if (this.findList(site, input.displayName)) throw new Error(`List ${input.displayName} already exists`);
    const columns = input.columns.some((c) => c.name === 'Title')
      ? input.columns.map((c) => ({ ...c }))
      : [{ ...TITLE_COLUMN }, ...input.columns.map((c) => ({ ...c }))];
    const info: ListInfo = {
      id: randomUUID(),
      siteId: site.info.id,
      name: input.name ?? input.displayName.replace(/\s+/g, ''),
      displayName: input.displayName,
      columns,
    };
    const now = this.clock.now();
    site.lists.set(info.id, {
      info,
      created: now,
      modified: now,
      items: new Map(),
      nextId: 1,
      changeSeq: 0,
      tombstones: new Map(),
      deltaEpoch: 0,
    });
    return info;
  }

  /** By id, or by display name (case-insensitive, as SharePoint titles are). */
  findList(site: StoredSite, idOrTitle: string): StoredList | undefined {
    const byId = site.lists.get(idOrTitle.toLowerCase()) ?? site.lists.get(idOrTitle);
    if (byId) return byId;
    const wanted = idOrTitle.toLowerCase();
    for (const list of site.lists.values()) {
      if (list.info.displayName.toLowerCase() === wanted) return list;
    }
    return undefined;
  }

  getList(ref: ListRef): StoredList {
    const siteId = ref.siteId;
    const key = 'list' in ref ? ref.list : ref.id;
    const list = this.findList(this.getSite(siteId), key);
    if (!list) throw notFound('list');
    return list;
  }

  listsOf(siteId: string): StoredList[] {
    return [...this.getSite(siteId).lists.values()];
  }

  private column(list: StoredList, name: string): ColumnDef {
    const col = list.info.columns.find((c) => c.name === name);
    if (!col) throw invalidRequest(`Field '${name}' is not recognized`);
    return col;
  }

  private timeZone(list: StoredList): string {
    return this.getSite(list.info.siteId).info.timeZone;
  }

  private checkUnique(list: StoredList, fields: Map<string, FieldValue>, exceptId?: number): void {
    for (const col of list.info.columns) {
      if (!col.enforceUniqueValues) continue;
      const value = fields.get(col.name);
      if (value === undefined) continue;
      const needle = String(value).toLowerCase();
      for (const other of list.items.values()) {
        if (other.id === exceptId) continue;
        const v = other.fields.get(col.name);
        if (v !== undefined && String(v).toLowerCase() === needle) {
          throw new GraphError(
            409,
            'nameAlreadyExists',
            `The list item could not be added or updated because duplicate values were found in the following field(s) in the list: ${col.name}.`,
          );
        }
      }
    }
  }

  private applyInput(list: StoredList, target: Map<string, FieldValue>, input: FieldInput): void {
    const tz = this.timeZone(list);
    for (const [name, raw] of Object.entries(input)) {
      // Clients echo these back from reads; Graph ignores them rather than failing.
      if (name === 'id' || name.startsWith('@odata.') || name.endsWith('@odata.type')) continue;
      if (SYSTEM_COLUMNS.some((c) => c.name === name)) {
        throw invalidRequest(`Field '${name}' is read-only`);
      }
      const value = coerceForWrite(this.column(list, name), raw, tz);
      if (value === undefined) target.delete(name);
      else target.set(name, value);
    }
  }

  private checkRequired(list: StoredList, fields: Map<string, FieldValue>): void {
    for (const col of list.info.columns) {
      if (col.required && !fields.has(col.name)) {
        throw invalidRequest(`Field '${col.name}' is required.`);
      }
    }
  }

  createItem(ref: ListRef, input: FieldInput): StoredItem {
    const list = this.getList(ref);
    const fields = new Map<string, FieldValue>();
    this.applyInput(list, fields, input);
    this.checkRequired(list, fields);
    this.checkUnique(list, fields);
    const now = this.clock.now();
    const item: StoredItem = {
      id: list.nextId++,
      guid: randomUUID(),
      version: 1,
      created: now,
      modified: now,
      fields,
      changeSeq: ++list.changeSeq,
    };
    list.items.set(item.id, item);
    list.modified = now;
    this.onListChanged?.(list.info);
    return item;
  }

  getItem(ref: ListRef, id: string | number): StoredItem {
    const list = this.getList(ref);
    const n = typeof id === 'number' ? id : /^\d+$/.test(id) ? Number(id) : Number.NaN;
    const item = list.items.get(n);
    if (!item) throw notFound('item');
    return item;
  }

  private checkIfMatch(item: StoredItem, ifMatch: string | undefined): void {
    if (ifMatch === undefined || ifMatch.trim() === '*') return;
    if (ifMatch.trim() !== formatETag(item)) {
      throw new GraphError(
        412,
        'resourceModified',
        'The resource has changed since the caller last read it; usually an eTag mismatch',
        {},
        'entityTagDoesNotMatch',
      );
    }
  }

  /**
   * `unrecorded`: the change leaves no trace in the change feed, as when SharePoint's delta loses an
   * entry; only a full read of the list sees it.
   */
  updateItem(
    ref: ListRef,
    id: string | number,
    input: FieldInput,
    ifMatch?: string,
    options: { unrecorded?: boolean } = {},
  ): StoredItem {
    const list = this.getList(ref);
    const item = this.getItem(ref, id);
    this.checkIfMatch(item, ifMatch);
    const fields = new Map(item.fields);
    this.applyInput(list, fields, input);
    this.checkRequired(list, fields);
    this.checkUnique(list, fields, item.id);
    item.fields = fields;
    item.version++;
    item.modified = this.clock.now();
    if (!options.unrecorded) item.changeSeq = ++list.changeSeq;
    list.modified = item.modified;
    if (!options.unrecorded) this.onListChanged?.(list.info);
    return item;
  }

  deleteItem(
    ref: ListRef,
    id: string | number,
    ifMatch?: string,
    options: { unrecorded?: boolean } = {},
  ): void {
    const list = this.getList(ref);
    const item = this.getItem(ref, id);
    this.checkIfMatch(item, ifMatch);
    list.items.delete(item.id);
    if (!options.unrecorded) list.tombstones.set(item.id, ++list.changeSeq);
    list.modified = this.clock.now();
    if (!options.unrecorded) this.onListChanged?.(list.info);
  }

  /** Items in ascending id order, the order SharePoint uses when none is asked for. */
  itemsOf(ref: ListRef): StoredItem[] {
    return [...this.getList(ref).items.values()].sort((a, b) => a.id - b.id);
  }
}

export function snapshot(item: StoredItem): ItemSnapshot {
  return {
    id: String(item.id),
    eTag: formatETag(item),
    version: item.version,
    createdDateTime: isoSeconds(item.created),
    lastModifiedDateTime: isoSeconds(item.modified),
    fields: Object.fromEntries(item.fields),
  };
}
