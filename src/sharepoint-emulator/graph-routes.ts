import type { IncomingHttpHeaders } from 'node:http';
import { type Clock, isoSeconds } from './clock';
import {
  assertCursorUsable,
  type DeltaCursor,
  type DeltaQuirks,
  decodeDeltaCursor,
  encodeDeltaCursor,
  pendingEntries,
} from './delta';
import { GraphError, invalidRequest, notFound } from './errors';
import {
  evaluateFilter,
  FilterError,
  type FilterNode,
  type Operand,
  type OperandValue,
  parseFilter,
  referencedFields,
  validateFilter,
} from './odata-filter';
import { decodeToken, encodeToken, type Pager } from './paging';
import { hashSeed, shuffle } from './random';
import { type ExpandOptions, serializeColumn, serializeFields, serializeItem } from './serialize';
import {
  formatETag,
  type Store,
  type StoredItem,
  type StoredList,
  type StoredSite,
  SYSTEM_COLUMNS,
} from './store';
import type { ColumnDef, FieldInput } from './types';

export interface GraphContext {
  store: Store;
  pager: Pager;
  clock: Clock;
  graphBaseUrl(): string;
  deltaRetentionMs(): number;
  deltaQuirks: DeltaQuirks;
}

export interface GraphRequest {
  method: string;
  /** Raw (still percent-encoded) path after `/v1.0`. */
  rawPath: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface GraphResponse {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

const PREFER_NON_INDEXED = 'honornonindexedquerieswarningmayfailrandomly';
/** SharePoint's list view threshold: queries on columns without an index fail on larger lists. */
export const LIST_VIEW_THRESHOLD = 5000;

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw invalidRequest('Malformed URL');
  }
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** Resolves the site part of the path, in either the id form or the `{host}:/{path}:` form. */
function resolveSite(store: Store, rawPath: string): { site: StoredSite; rest: string[] } {
  const m = /^\/sites\/(.*)$/.exec(rawPath);
  if (!m)
    throw new GraphError(
      400,
      'BadRequest',
      `Resource not found for the segment '${rawPath.split('/')[1] ?? ''}'.`,
    );
  const after = m[1]!;
  const firstSlash = after.indexOf('/');
  const first = firstSlash < 0 ? after : after.slice(0, firstSlash);
  if (first.endsWith(':')) {
    const host = decodeSegment(first.slice(0, -1));
    const remainder = after.slice(first.length);
    const colon = remainder.indexOf(':');
    const sitePath = decodeSegment(colon < 0 ? remainder : remainder.slice(0, colon));
    const continuation = colon < 0 ? '' : remainder.slice(colon + 1);
    const site = store.findSiteByPath(host, sitePath || '/');
    if (!site) throw new GraphError(404, 'itemNotFound', 'Requested site could not be found');
    return { site, rest: splitRest(continuation) };
  }
  const idOrHost = decodeSegment(first);
  const rest = splitRest(firstSlash < 0 ? '' : after.slice(firstSlash));
  if (idOrHost.includes(',')) return { site: store.getSite(idOrHost), rest };
  const rootSite = store.findSiteByPath(idOrHost, '/');
  if (!rootSite) throw new GraphError(404, 'itemNotFound', 'Requested site could not be found');
  return { site: rootSite, rest };
}

function splitRest(path: string): string[] {
  return path.split('/').filter(Boolean).map(decodeSegment);
}

function siteJson(site: StoredSite): Record<string, unknown> {
  return {
    id: site.info.id,
    name: site.info.path.split('/').filter(Boolean).pop() ?? site.info.hostname,
    displayName: site.info.displayName,
    webUrl: site.info.webUrl,
    createdDateTime: isoSeconds(site.created),
    lastModifiedDateTime: isoSeconds(site.created),
    siteCollection: { hostname: site.info.hostname },
  };
}

function listJson(site: StoredSite, list: StoredList): Record<string, unknown> {
  return {
    '@odata.etag': `"${list.info.id},${list.changeSeq}"`,
    id: list.info.id,
    name: list.info.name,
    displayName: list.info.displayName,
    description: '',
    createdDateTime: isoSeconds(list.created),
    lastModifiedDateTime: isoSeconds(list.modified),
    webUrl: `${site.info.webUrl}/Lists/${encodeURIComponent(list.info.name)}`,
    parentReference: { siteId: site.info.id },
    list: { contentTypesEnabled: false, hidden: false, template: 'genericList' },
  };
}

function parseExpand(query: URLSearchParams): ExpandOptions {
  const expand = query.get('$expand') ?? query.get('expand');
  const selectRaw = query.get('$select') ?? query.get('select');
  const select = selectRaw ? selectRaw.split(',').map((s) => s.trim()) : undefined;
  if (!expand) return { fields: false, select };
  const m = /^\s*fields\s*(?:\(\s*(?:\$?select\s*=\s*([^)]*))?\s*\))?\s*$/.exec(expand);
  if (!m)
    throw invalidRequest(
      `Parsing OData Select and Expand failed: Could not find a property named '${expand}'.`,
    );
  const fieldSelect = m[1]
    ? m[1]
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;
  return { fields: true, fieldSelect, select };
}

function parseTop(query: URLSearchParams): number | undefined {
  const raw = query.get('$top') ?? query.get('top');
  if (raw === null) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw invalidRequest(`Invalid value '${raw}' for $top.`);
  return Number(raw);
}

function columnOf(list: StoredList, name: string): ColumnDef | undefined {
  return list.info.columns.find((c) => c.name === name) ?? SYSTEM_COLUMNS.find((c) => c.name === name);
}

function systemValue(item: StoredItem, name: string): string | undefined {
  if (name === 'Created') return isoSeconds(item.created);
  if (name === 'Modified') return isoSeconds(item.modified);
  return undefined;
}

function compileItemFilter(
  list: StoredList,
  text: string,
  prefer: string | undefined,
): (item: StoredItem) => boolean {
  let node: FilterNode;
  try {
    node = parseFilter(text);
  } catch (err) {
    throw invalidRequest(`Invalid filter clause: ${(err as Error).message}`);
  }
  const honoursNonIndexed = (prefer ?? '').toLowerCase().includes(PREFER_NON_INDEXED);
  for (const name of referencedFields(node)) {
    const col = columnOf(list, name);
    if (!col) throw invalidRequest(`Field '${name}' is not recognized`);
    if (!col.indexed && list.items.size > LIST_VIEW_THRESHOLD) {
      // Past the threshold the Prefer header no longer helps: SharePoint refuses the query.
      throw new GraphError(
        500,
        'generalException',
        'The attempted operation is prohibited because it exceeds the list view threshold.',
      );
    }
    if (!col.indexed && !honoursNonIndexed) {
      throw invalidRequest(
        `Field '${name}' cannot be referenced in filter or orderby as it is not indexed. Provide the 'Prefer: HonorNonIndexedQueriesWarningMayFailRandomly' header to allow this, but be warned that such queries may fail on large lists.`,
      );
    }
  }
  const typeOf = (operand: Operand): OperandValue['type'] =>
    operand.kind === 'id' ? 'id' : columnOf(list, operand.name)!.type;
  try {
    validateFilter(node, typeOf);
  } catch (err) {
    if (err instanceof FilterError) throw invalidRequest(`Invalid filter clause: ${err.message}`);
    throw err;
  }
  return (item) =>
    evaluateFilter(node, (operand) => {
      if (operand.kind === 'id') return { type: 'id', value: item.id };
      const value = item.fields.get(operand.name) ?? systemValue(item, operand.name);
      return { type: typeOf(operand), value };
    });
}

/** Query string with `$` left readable, as Graph writes it. */
function buildQuery(params: Array<[string, string]>): string {
  return params
    .map(([k, v]) => `${encodeURIComponent(k).replace(/%24/g, '$')}=${encodeURIComponent(v)}`)
    .join('&');
}

function queryWithout(query: URLSearchParams, drop: string[]): Array<[string, string]> {
  return [...query.entries()].filter(([k]) => !drop.includes(k));
}

/** Ties a skiptoken to the query it came from, so a rebuilt (non-verbatim) link is rejected. */
function queryFingerprint(query: URLSearchParams): string {
  const keys = ['$filter', 'filter', '$top', 'top', '$expand', 'expand', '$select', 'select'];
  return hashSeed(keys.map((k) => `${k}=${query.get(k) ?? ''}`).join('&')).toString(36);
}

export class GraphRouter {
  constructor(private readonly ctx: GraphContext) {}

  handle(req: GraphRequest): GraphResponse {
    const { site, rest } = resolveSite(this.ctx.store, req.rawPath);
    const [lists, listKey, sub, itemKey, leaf, ...extra] = rest;
    if (lists === undefined) return this.only(req, 'GET', () => ({ status: 200, body: siteJson(site) }));
    if (lists !== 'lists')
      throw new GraphError(400, 'BadRequest', `Resource not found for the segment '${lists}'.`);
    if (listKey === undefined) return this.only(req, 'GET', () => this.getLists(site, req.query));
    const list = this.ctx.store.findList(site, listKey);
    if (!list) throw notFound('list');
    if (sub === undefined) return this.only(req, 'GET', () => ({ status: 200, body: listJson(site, list) }));
    if (sub === 'columns' && itemKey === undefined) {
      return this.only(req, 'GET', () => ({
        status: 200,
        body: {
          value: [
            ...list.info.columns.map((c) => serializeColumn(c)),
            ...SYSTEM_COLUMNS.map((c) => serializeColumn(c, true)),
          ],
        },
      }));
    }
    if (sub !== 'items' || extra.length > 0)
      throw new GraphError(400, 'BadRequest', 'Unsupported resource path.');
    if (itemKey === undefined) {
      if (req.method === 'GET') return this.getItems(site, list, req);
      if (req.method === 'POST') return this.createItem(site, list, req);
      throw methodNotAllowed();
    }
    if (itemKey === 'delta' || itemKey === 'delta()') {
      if (leaf !== undefined) throw new GraphError(400, 'BadRequest', 'Unsupported resource path.');
      return this.only(req, 'GET', () => this.delta(site, list, req));
    }
    const ref = { siteId: site.info.id, list: list.info.id };
    if (leaf === undefined) {
      if (req.method === 'GET') {
        const item = this.ctx.store.getItem(ref, itemKey);
        return { status: 200, body: serializeItem(site.info, list, item, parseExpand(req.query)) };
      }
      if (req.method === 'DELETE') {
        this.ctx.store.deleteItem(ref, itemKey, header(req.headers, 'if-match'));
        return { status: 204 };
      }
      throw methodNotAllowed();
    }
    if (leaf !== 'fields')
      throw new GraphError(400, 'BadRequest', `Resource not found for the segment '${leaf}'.`);
    if (req.method === 'GET') {
      return { status: 200, body: serializeFields(this.ctx.store.getItem(ref, itemKey)) };
    }
    if (req.method === 'PATCH') {
      const body = req.body;
      if (!body || typeof body !== 'object' || Array.isArray(body))
        throw invalidRequest('The request body must be a JSON object.');
      const item = this.ctx.store.updateItem(
        ref,
        itemKey,
        body as FieldInput,
        header(req.headers, 'if-match'),
      );
      return { status: 200, headers: { ETag: formatETag(item) }, body: serializeFields(item) };
    }
    throw methodNotAllowed();
  }

  private only(req: GraphRequest, method: string, run: () => GraphResponse): GraphResponse {
    if (req.method !== method) throw methodNotAllowed();
    return run();
  }

  private getLists(site: StoredSite, query: URLSearchParams): GraphResponse {
    const filter = query.get('$filter') ?? query.get('filter');
    let lists = [...site.lists.values()];
    if (filter) {
      // Graph supports $filter on /lists for displayName only.
      const m = /^\s*displayName\s+eq\s+'((?:[^']|'')*)'\s*$/.exec(filter);
      if (!m) throw invalidRequest('The provided filter statement is not supported.');
      const wanted = m[1]!.replace(/''/g, "'").toLowerCase();
      lists = lists.filter((l) => l.info.displayName.toLowerCase() === wanted);
    }
    return { status: 200, body: { value: lists.map((l) => listJson(site, l)) } };
  }

  private itemsUrl(site: StoredSite, list: StoredList, suffix = ''): string {
    return `${this.ctx.graphBaseUrl()}/sites/${site.info.id}/lists/${list.info.id}/items${suffix}`;
  }

  private getItems(site: StoredSite, list: StoredList, req: GraphRequest): GraphResponse {
    const { query } = req;
    const expand = parseExpand(query);
    const top = parseTop(query);
    const filterText = query.get('$filter') ?? query.get('filter');
    const matches = filterText
      ? compileItemFilter(list, filterText, header(req.headers, 'prefer'))
      : () => true;
    const fingerprint = queryFingerprint(query);
    const skiptoken = query.get('$skiptoken');
    const ref = { siteId: site.info.id, list: list.info.id };
    const pager = this.ctx.pager;
    const size = pager.pageSize(top);

    let page: StoredItem[];
    let next: Record<string, string | number> | undefined;
    let state = skiptoken === null ? undefined : decodeToken(skiptoken);
    const validToken =
      state?.Paged === 'TRUE' &&
      state.q === fingerprint &&
      (state.c !== undefined || Number.isSafeInteger(Number(state.p_ID)));
    if (skiptoken !== null && !validToken) {
      throw invalidRequest('The $skiptoken is not valid for this request; follow @odata.nextLink verbatim.');
    }
    if (!state && pager.settings.shuffle) {
      const ids = shuffle(
        pager.random(),
        this.ctx.store
          .itemsOf(ref)
          .filter(matches)
          .map((i) => i.id),
      );
      state = { Paged: 'TRUE', c: pager.saveSnapshot(ids), o: '0', q: fingerprint };
    }
    if (state?.c !== undefined) {
      const ids = pager.snapshot(state.c);
      if (!ids) throw invalidRequest('The $skiptoken has expired.');
      const offset = Number(state.o);
      const slice = ids.slice(offset, offset + size);
      // Items deleted since the first page simply drop out, as they would on SharePoint.
      page = slice.map((id) => list.items.get(id)).filter((i): i is StoredItem => i !== undefined);
      if (offset + slice.length < ids.length)
        next = { Paged: 'TRUE', c: state.c, o: offset + slice.length, q: fingerprint };
    } else {
      const afterId = state ? Number(state.p_ID) : 0;
      const candidates = this.ctx.store.itemsOf(ref).filter((i) => i.id > afterId && matches(i));
      page = candidates.slice(0, size);
      if (candidates.length > page.length) {
        next = { Paged: 'TRUE', p_ID: page.at(-1)?.id ?? afterId, q: fingerprint };
      }
    }

    const body: Record<string, unknown> = {
      '@odata.context': `${this.ctx.graphBaseUrl()}/$metadata#sites('${encodeURIComponent(site.info.id)}')/lists('${list.info.id}')/items`,
      value: page.map((item) => serializeItem(site.info, list, item, expand)),
    };
    if (next) {
      const params = [
        ...queryWithout(query, ['$skiptoken']),
        ['$skiptoken', encodeToken(next)] as [string, string],
      ];
      body['@odata.nextLink'] = `${this.itemsUrl(site, list)}?${buildQuery(params)}`;
    }
    return { status: 200, body };
  }

  private createItem(site: StoredSite, list: StoredList, req: GraphRequest): GraphResponse {
    const body = req.body as { fields?: unknown } | undefined;
    if (
      !body ||
      typeof body !== 'object' ||
      !body.fields ||
      typeof body.fields !== 'object' ||
      Array.isArray(body.fields)
    ) {
      throw invalidRequest('The request body must be a JSON object with a "fields" object.');
    }
    const item = this.ctx.store.createItem(
      { siteId: site.info.id, list: list.info.id },
      body.fields as FieldInput,
    );
    return {
      status: 201,
      headers: { Location: this.itemsUrl(site, list, `/${item.id}`), ETag: formatETag(item) },
      body: serializeItem(site.info, list, item, { fields: true }),
    };
  }

  private delta(site: StoredSite, list: StoredList, req: GraphRequest): GraphResponse {
    const { query } = req;
    const expand = parseExpand(query);
    const top = parseTop(query);
    const token = query.get('token') ?? query.get('$deltatoken');
    const now = this.ctx.clock.now();
    const carried = queryWithout(query, ['token', '$deltatoken']);
    const linkWith = (cursor: DeltaCursor, phase: 'n' | 'd') => {
      const t = `${phase}${encodeDeltaCursor(cursor)}`;
      return `${this.itemsUrl(site, list, '/delta')}?${buildQuery([...carried, ['token', t]])}`;
    };
    const fresh = (since: number): DeltaCursor => ({
      listId: list.info.id,
      epoch: list.deltaEpoch,
      since,
      upTo: list.changeSeq,
      after: since,
      issuedAt: now,
    });

    let cursor: DeltaCursor;
    if (token === null) {
      cursor = fresh(0);
    } else if (token === 'latest') {
      return { status: 200, body: { value: [], '@odata.deltaLink': linkWith(fresh(list.changeSeq), 'd') } };
    } else {
      const phase = token[0];
      const decoded = decodeDeltaCursor(token.slice(1));
      if (!decoded || (phase !== 'n' && phase !== 'd')) throw invalidRequest('The delta token is malformed.');
      const restartUrl =
        carried.length > 0
          ? `${this.itemsUrl(site, list, '/delta')}?${buildQuery(carried)}`
          : this.itemsUrl(site, list, '/delta');
      assertCursorUsable(list, decoded, { nowMs: now, retentionMs: this.ctx.deltaRetentionMs(), restartUrl });
      // A deltaLink starts a new round covering everything changed since it was issued.
      cursor = phase === 'd' ? fresh(decoded.since) : { ...decoded, issuedAt: now };
    }

    const pending = pendingEntries(list, cursor);
    const size = this.ctx.pager.pageSize(top);
    let page = pending.slice(0, size);
    if (this.ctx.pager.settings.shuffle) page = shuffle(this.ctx.pager.random(), page);
    const quirks = this.ctx.deltaQuirks;
    const value: unknown[] = page.map((entry) => {
      if (entry.kind === 'item') {
        const item = serializeItem(site.info, list, entry.item, expand) as Record<string, unknown>;
        if (quirks.omitFields) delete item.fields;
        return item;
      }
      const base = { id: String(entry.id), parentReference: { siteId: site.info.id } };
      return quirks.deletedAs === 'removed'
        ? { ...base, '@removed': { reason: 'deleted' } }
        : { ...base, deleted: { state: 'deleted' } };
    });
    if (quirks.repeatItems && value.length > 0) value.push(value[0]);
    if (quirks.errorEntryNextPage) {
      quirks.errorEntryNextPage = false;
      value.push({
        error: {
          code: 'InternalServerError',
          message: 'Cannot write a deleted resource when writing a response.',
        },
      });
    }
    const body: Record<string, unknown> = { value };
    if (pending.length > page.length) {
      const lastSeq = Math.max(cursor.after, ...page.map((e) => e.seq));
      body['@odata.nextLink'] = linkWith({ ...cursor, after: lastSeq }, 'n');
    } else {
      body['@odata.deltaLink'] = linkWith({ ...cursor, since: cursor.upTo, after: cursor.upTo }, 'd');
    }
    return { status: 200, body };
  }
}

function methodNotAllowed(): GraphError {
  return new GraphError(405, 'methodNotAllowed', 'The HTTP method is not supported for this resource.');
}
