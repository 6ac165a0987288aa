/**
 * Microsoft Graph calls for SharePoint lists (sharepoint-protocol.md sections 1, 4 and 5): bearer
 * token, User-Agent, retries with Retry-After or backoff, a shared pause while throttled, one token
 * renewal on 401, and the item operations the portal needs. No dependence on item order or page size.
 */
import { z } from 'zod';
import { type ColumnInfo, columnTypeOf } from './column-mapping';
import { SharePointError } from './errors';
import {
  backoffDelay,
  type PauseGate,
  parseRetryAfter,
  type RetryTimings,
  resolveTimings,
  sharedGate,
} from './retry';
import { networkReason, type TokenSource } from './token';

export const PREFER_NON_INDEXED = 'HonorNonIndexedQueriesWarningMayFailRandomly';

/** A list item as Graph returns it; unknown properties are ignored. */
export interface GraphItem {
  id: string;
  eTag?: string;
  lastModifiedDateTime?: string;
  fields?: Record<string, unknown>;
}

/** One entry of a delta page: a changed item or a deleted one. */
export type DeltaEntry = { id: string; deleted: true } | { id: string; deleted: false; item: GraphItem };

export interface DeltaResult {
  entries: DeltaEntry[];
  deltaLink: string;
}

export interface GraphClientOptions {
  graphBaseUrl: string;
  tokens: TokenSource;
  userAgent: string;
  timings?: Partial<RetryTimings>;
  /** Shared pause; by default one per Graph host for the whole process. */
  gate?: PauseGate;
  fetch?: typeof fetch;
}

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * A create is not safe to repeat blindly: after a lost answer it may already exist. Such calls are
   * retried only when the server certainly did not act on them (429, 401); every other failure goes
   * back to the caller, which looks the item up by its key before trying again.
   */
  notIdempotent?: boolean;
  /** Statuses the caller handles itself (returned, not thrown). */
  accept?: number[];
}

export interface GraphResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** One entry of `GET …/columns`; type facets (`text`, `number`, `dateTime`, …) stay as sent. */
const graphColumn = z.looseObject({
  name: z.string().min(1),
  displayName: z.string().optional(),
  indexed: z.boolean().optional(),
  hidden: z.boolean().optional(),
  readOnly: z.boolean().optional(),
});

/** Statuses worth retrying: throttled, overloaded, gateway trouble. */
const RETRY_STATUSES = new Set([429, 500, 502, 503, 504]);

/** Calls counted by kind, for benchmarks and tests. */
export interface CallStats {
  calls: number;
  retries: number;
  throttled: number;
}

export class GraphClient {
  readonly timings: RetryTimings;
  readonly gate: PauseGate;
  readonly stats: CallStats = { calls: 0, retries: 0, throttled: 0 };
  private readonly base: string;
  private readonly baseUrl: URL;
  private readonly fetchFn: typeof fetch;

  constructor(private readonly options: GraphClientOptions) {
    this.timings = resolveTimings(options.timings);
    this.base = options.graphBaseUrl.replace(/\/+$/, '');
    this.baseUrl = new URL(this.base);
    this.gate = options.gate ?? sharedGate(this.base);
    this.fetchFn = options.fetch ?? fetch;
  }

  /**
   * An absolute URL (a nextLink or deltaLink, used verbatim) or a path below the Graph base. Either
   * way it must stay below GRAPH_BASE_URL (same origin, same path prefix, after `..` and `%2e%2e`
   * are resolved): parts of these URLs come from settings staff type (the site URL) and from stored
   * links, and the bearer token goes wherever the URL points.
   */
  url(pathOrUrl: string): string {
    const full = /^https?:\/\//i.test(pathOrUrl) ? pathOrUrl : `${this.base}${pathOrUrl}`;
    let target: URL | undefined;
    try {
      target = new URL(full);
    } catch {
      target = undefined;
    }
    const basePath = this.baseUrl.pathname.replace(/\/+$/, '');
    if (
      !target ||
      target.origin !== this.baseUrl.origin ||
      !(target.pathname === basePath || target.pathname.startsWith(`${basePath}/`))
    ) {
      throw new SharePointError('not-configured', 'A SharePoint address points outside Microsoft Graph.');
    }
    return full;
  }

  async request<T = unknown>(
    method: string,
    pathOrUrl: string,
    options: RequestOptions = {},
  ): Promise<GraphResponse<T>> {
    const { timings } = this;
    const url = this.url(pathOrUrl);
    let renewedToken = false;
    let lastError: SharePointError | undefined;
    for (let attempt = 1; attempt <= timings.maxAttempts; attempt++) {
      await this.gate.wait();
      const token = await this.options.tokens.getToken();
      const headers: Record<string, string> = {
        Authorization: `Bearer ${token}`,
        Accept: 'application/json',
        'User-Agent': this.options.userAgent,
        ...options.headers,
      };
      let payload: string | undefined;
      if (options.body !== undefined) {
        headers['Content-Type'] = 'application/json';
        payload = JSON.stringify(options.body);
      }
      this.stats.calls++;
      if (attempt > 1) this.stats.retries++;
      let response: Response;
      try {
        response = await this.fetchFn(url, {
          method,
          headers,
          body: payload,
          signal: AbortSignal.timeout(timings.requestTimeoutMs),
        });
      } catch (error) {
        lastError = new SharePointError(
          'network',
          `SharePoint did not answer ${method} ${describeUrl(url)}: ${networkReason(error)}`,
          { retryable: true, cause: error },
        );
        if (options.notIdempotent) throw lastError;
        if (attempt < timings.maxAttempts) await timings.sleep(backoffDelay(attempt, timings));
        continue;
      }

      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        // the body was cut off: as good as no answer
        lastError = new SharePointError(
          'network',
          `SharePoint's answer to ${method} ${describeUrl(url)} was cut off: ${networkReason(error)}`,
          { retryable: true, cause: error },
        );
        if (options.notIdempotent) throw lastError;
        if (attempt < timings.maxAttempts) await timings.sleep(backoffDelay(attempt, timings));
        continue;
      }

      if (response.ok || options.accept?.includes(response.status)) {
        let body: unknown;
        if (text.trim() !== '') {
          try {
            body = JSON.parse(text);
          } catch (error) {
            lastError = new SharePointError(
              'protocol',
              `SharePoint answered ${method} ${describeUrl(url)} with something that is not JSON.`,
              { status: response.status, retryable: true, cause: error },
            );
            if (options.notIdempotent) throw lastError;
            if (attempt < timings.maxAttempts) await timings.sleep(backoffDelay(attempt, timings));
            continue;
          }
        }
        return { status: response.status, body: body as T, headers: response.headers };
      }

      const error = graphError(method, url, response, text, timings);
      if (response.status === 401 && !renewedToken) {
        // The token may have expired early or been revoked: one new token, then give up.
        renewedToken = true;
        await this.options.tokens.getToken(true);
        attempt--;
        continue;
      }
      if (!RETRY_STATUSES.has(response.status)) throw error;
      lastError = error;
      const retryAfter = error.details.retryAfterMs;
      const throttled = response.status === 429 || retryAfter !== undefined;
      if (throttled) {
        this.stats.throttled++;
        // Everyone waits (the gate is checked before every call): more calls now only prolong it.
        this.gate.pause(retryAfter ?? backoffDelay(attempt, timings));
      }
      // A create that met a server error may have been stored: the caller decides.
      if (options.notIdempotent && response.status !== 429) throw error;
      if (!throttled && attempt < timings.maxAttempts) await timings.sleep(backoffDelay(attempt, timings));
    }
    throw (
      lastError ?? new SharePointError('network', `SharePoint did not answer ${method} ${describeUrl(url)}`)
    );
  }

  async get<T = unknown>(pathOrUrl: string, headers?: Record<string, string>): Promise<T> {
    return (await this.request<T>('GET', pathOrUrl, { headers })).body;
  }

  // -----------------------------------------------------------------------------------------------
  // Sites, lists, columns

  /** `https://host/sites/Team` → the site id (`host,guid,guid`). */
  async resolveSite(siteUrl: string): Promise<{ id: string; displayName?: string; webUrl?: string }> {
    const url = new URL(siteUrl);
    // the host name and each path segment become path segments of a Graph URL: a segment that is
    // "." or ".." after decoding would climb out of /sites
    const segments = url.pathname.split('/').map(decodeURIComponentSafe);
    const hostName = /^[a-z0-9-]+(\.[a-z0-9-]+)*$/i;
    if (!hostName.test(url.hostname) || segments.some((part) => part === '.' || part === '..')) {
      throw new SharePointError(
        'not-configured',
        `The SharePoint site URL ${siteUrl} is not a site address.`,
      );
    }
    const path = url.pathname.replace(/\/+$/, '');
    const encodedPath = path
      .split('/')
      .filter(Boolean)
      .map((segment) => encodeURIComponent(decodeURIComponentSafe(segment)))
      .join('/');
    const target = encodedPath ? `/sites/${url.hostname}:/${encodedPath}` : `/sites/${url.hostname}`;
    const site = await this.get<{ id?: unknown; displayName?: unknown; webUrl?: unknown }>(target);
    if (typeof site?.id !== 'string' || site.id === '') {
      throw new SharePointError('protocol', `SharePoint returned no id for the site ${siteUrl}.`);
    }
    return {
      id: site.id,
      displayName: typeof site.displayName === 'string' ? site.displayName : undefined,
      webUrl: typeof site.webUrl === 'string' ? site.webUrl : undefined,
    };
  }

  /** The list's id, or undefined when the site has no list with that display name. */
  async findList(siteId: string, displayName: string): Promise<string | undefined> {
    const filter = `displayName eq ${odataString(displayName)}`;
    const body = await this.get<{ value?: Array<{ id?: unknown; displayName?: unknown }> }>(
      `/sites/${encodeURIComponent(siteId)}/lists?$filter=${encodeURIComponent(filter)}`,
    );
    const lists = Array.isArray(body?.value) ? body.value : [];
    // A server might ignore the filter: check the name ourselves.
    const match =
      lists.find((l) => l.displayName === displayName) ??
      lists.find(
        (l) => typeof l.displayName === 'string' && l.displayName.toLowerCase() === displayName.toLowerCase(),
      );
    return typeof match?.id === 'string' ? match.id : undefined;
  }

  /** The list's columns with their types (Graph's columnDefinition); entries without a name are skipped. */
  async columns(siteId: string, listId: string): Promise<ColumnInfo[]> {
    const out: ColumnInfo[] = [];
    for await (const page of this.pages(`${listPath(siteId, listId)}/columns`)) {
      for (const raw of page) {
        const parsed = graphColumn.safeParse(raw);
        if (!parsed.success) continue;
        const column = parsed.data;
        out.push({
          name: column.name,
          displayName: column.displayName ?? column.name,
          type: columnTypeOf(column),
          indexed: column.indexed === true,
          hidden: column.hidden === true,
          readOnly: column.readOnly === true,
        });
      }
    }
    return out;
  }

  // -----------------------------------------------------------------------------------------------
  // Items

  /** Follows `@odata.nextLink` verbatim, re-sending the headers on every page. Pages may be empty. */
  async *pages(firstUrl: string, headers?: Record<string, string>): AsyncGenerator<unknown[]> {
    let next: string | undefined = firstUrl;
    let emptyInARow = 0;
    for (let count = 0; next; count++) {
      // A page may be empty, even with the same link as before; a feed that never moves on is broken.
      if (count > 100_000 || emptyInARow > 1000) {
        throw new SharePointError('protocol', 'SharePoint kept sending pages without end.');
      }
      const body: { value?: unknown; '@odata.nextLink'?: unknown } = await this.get(next, headers);
      if (!Array.isArray(body?.value)) {
        throw new SharePointError(
          'protocol',
          `SharePoint's answer to ${describeUrl(this.url(next))} has no value list.`,
        );
      }
      emptyInARow = body.value.length === 0 ? emptyInARow + 1 : 0;
      yield body.value;
      const link = body['@odata.nextLink'];
      next = typeof link === 'string' && link !== '' ? link : undefined;
    }
  }

  /**
   * Every item of a list (with fields), optionally filtered. A filter always travels with the
   * Prefer header, so a column that is not indexed still works (sharepoint-protocol.md section 4).
   */
  async listItems(
    siteId: string,
    listId: string,
    options: { filter?: string; top?: number } = {},
  ): Promise<GraphItem[]> {
    let url = `${listPath(siteId, listId)}/items?$expand=fields&$top=${options.top ?? 500}`;
    const headers: Record<string, string> = {};
    if (options.filter) {
      url += `&$filter=${encodeURIComponent(options.filter)}`;
      headers.Prefer = PREFER_NON_INDEXED;
    }
    const items: GraphItem[] = [];
    for await (const page of this.pages(url, headers)) {
      for (const entry of page) items.push(asItem(entry));
    }
    return items;
  }

  async getItem(siteId: string, listId: string, itemId: string): Promise<GraphItem | undefined> {
    const response = await this.request<unknown>(
      'GET',
      `${listPath(siteId, listId)}/items/${encodeURIComponent(itemId)}?$expand=fields`,
      { accept: [404] },
    );
    return response.status === 404 ? undefined : asItem(response.body);
  }

  /** POST a new item. Not retried on a lost answer: look the item up by its key before trying again. */
  async createItem(siteId: string, listId: string, fields: Record<string, unknown>): Promise<GraphItem> {
    const response = await this.request<unknown>('POST', `${listPath(siteId, listId)}/items`, {
      body: { fields },
      notIdempotent: true,
    });
    return asItem(response.body);
  }

  /**
   * PATCH some columns. With `ifMatch` a 412 (someone changed the item) re-reads the item and
   * re-applies the change with the new eTag, up to three times. Missing item → undefined.
   */
  async updateItemFields(
    siteId: string,
    listId: string,
    itemId: string,
    fields: Record<string, unknown>,
    ifMatch?: string,
  ): Promise<Record<string, unknown> | undefined> {
    let eTag = ifMatch;
    for (let round = 1; ; round++) {
      const response = await this.request<Record<string, unknown>>(
        'PATCH',
        `${listPath(siteId, listId)}/items/${encodeURIComponent(itemId)}/fields`,
        { body: fields, headers: eTag ? { 'If-Match': eTag } : {}, accept: [404, 412] },
      );
      if (response.status === 404) return undefined;
      if (response.status !== 412) return response.body ?? {};
      if (round >= 3) {
        throw new SharePointError(
          'http',
          `The SharePoint item ${itemId} kept changing while it was being updated.`,
          {
            status: 412,
            code: 'resourceModified',
            retryable: true,
          },
        );
      }
      const fresh = await this.getItem(siteId, listId, itemId);
      if (!fresh) return undefined;
      eTag = fresh.eTag;
    }
  }

  /**
   * PATCH some columns only if the item is still the version `eTag` names. Unlike updateItemFields a
   * 412 is the answer, not something to work around: the caller decided on that version's contents.
   */
  async updateItemIfUnchanged(
    siteId: string,
    listId: string,
    itemId: string,
    fields: Record<string, unknown>,
    eTag: string,
  ): Promise<'updated' | 'missing' | 'changed'> {
    const response = await this.request<Record<string, unknown>>(
      'PATCH',
      `${listPath(siteId, listId)}/items/${encodeURIComponent(itemId)}/fields`,
      { body: fields, headers: { 'If-Match': eTag }, accept: [404, 412] },
    );
    if (response.status === 404) return 'missing';
    return response.status === 412 ? 'changed' : 'updated';
  }

  /**
   * All changes since `deltaLink`, or every item when there is none. Throws a 410 SharePointError
   * when the link has expired (the caller starts over without it). The same item may appear
   * several times: the last occurrence wins.
   */
  async delta(siteId: string, listId: string, deltaLink?: string, top?: number): Promise<DeltaResult> {
    let next: string | undefined =
      deltaLink ?? `${listPath(siteId, listId)}/items/delta?$expand=fields${top ? `&$top=${top}` : ''}`;
    const byId = new Map<string, DeltaEntry>();
    let pages = 0;
    while (next) {
      const body = await this.deltaPage(next);
      pages++;
      if (pages > 100_000) throw new SharePointError('protocol', 'The change feed never ended.');
      for (const raw of body.value) {
        const entry = raw as { id: string; deleted?: unknown; '@removed'?: unknown };
        byId.delete(entry.id); // keep insertion order = last occurrence
        if (entry.deleted !== undefined || entry['@removed'] !== undefined) {
          byId.set(entry.id, { id: entry.id, deleted: true });
        } else {
          byId.set(entry.id, { id: entry.id, deleted: false, item: asItem(raw) });
        }
      }
      const nextLink = body['@odata.nextLink'];
      const finalLink = body['@odata.deltaLink'];
      if (typeof nextLink === 'string' && nextLink !== '') {
        next = nextLink;
      } else if (typeof finalLink === 'string' && finalLink !== '') {
        return { entries: [...byId.values()], deltaLink: finalLink };
      } else {
        throw new SharePointError('protocol', 'The change feed ended without a delta link.');
      }
    }
    throw new SharePointError('protocol', 'The change feed ended without a delta link.');
  }

  /** One delta page; an entry without an id means a broken page, which is fetched again. */
  private async deltaPage(url: string): Promise<{ value: unknown[]; [key: string]: unknown }> {
    const { timings } = this;
    for (let attempt = 1; ; attempt++) {
      const body = await this.get<{ value?: unknown }>(url);
      const value = body?.value;
      const valid =
        Array.isArray(value) &&
        value.every(
          (e) => e !== null && typeof e === 'object' && typeof (e as { id?: unknown }).id === 'string',
        );
      if (valid) return body as { value: unknown[] };
      if (attempt >= timings.maxAttempts) {
        throw new SharePointError('protocol', 'SharePoint kept sending a change page with a broken entry.', {
          retryable: true,
        });
      }
      await timings.sleep(backoffDelay(attempt, timings));
    }
  }
}

export function listPath(siteId: string, listId: string): string {
  return `/sites/${encodeURIComponent(siteId)}/lists/${encodeURIComponent(listId)}`;
}

/** An OData string literal: single quotes, with `'` doubled. */
export function odataString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

function asItem(raw: unknown): GraphItem {
  const item = raw as { id?: unknown; eTag?: unknown; lastModifiedDateTime?: unknown; fields?: unknown };
  const fields =
    item?.fields && typeof item.fields === 'object' ? (item.fields as Record<string, unknown>) : undefined;
  // Ids are strings in Graph; accept a number from a lenient server.
  const id =
    typeof item?.id === 'string' ? item.id : typeof item?.id === 'number' ? String(item.id) : undefined;
  if (!id)
    throw new SharePointError('protocol', 'SharePoint returned an item without an id.', { retryable: true });
  return {
    id,
    eTag: typeof item.eTag === 'string' ? item.eTag : undefined,
    lastModifiedDateTime:
      typeof item.lastModifiedDateTime === 'string' ? item.lastModifiedDateTime : undefined,
    fields,
  };
}

function graphError(
  method: string,
  url: string,
  response: Response,
  text: string,
  timings: RetryTimings,
): SharePointError {
  let code: string | undefined;
  let message: string | undefined;
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body?.error?.code === 'string') code = body.error.code;
    if (typeof body?.error?.message === 'string') message = body.error.message;
  } catch {
    // not JSON: the status says enough
  }
  const retryAfterMs = parseRetryAfter(
    response.headers.get('retry-after'),
    timings.now(),
    timings.maxRetryAfterMs,
  );
  const summary = `HTTP ${response.status}${code ? ` ${code}` : ''}`;
  return new SharePointError(
    'http',
    `SharePoint refused ${method} ${describeUrl(url)} (${summary})${message ? `: ${truncate(message, 300)}` : ''}`,
    { status: response.status, code, retryable: RETRY_STATUSES.has(response.status), retryAfterMs },
  );
}

/** The path of a URL without its query, for messages. */
function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return decodeURIComponentSafe(parsed.pathname);
  } catch {
    return url;
  }
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
