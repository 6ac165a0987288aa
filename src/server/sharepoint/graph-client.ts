/**
 * Microsoft Graph calls for SharePoint lists: bearer
 * token, User-Agent, every call under the one retry policy (retry.ts, ADR 0032), one token renewal on
 * 401, every answer read through its schema (graph-answers.ts, ADR 0033), and the item operations
 * the portal needs. No dependence on item order or page size.
 */
import type { z } from 'zod';
import { type ColumnInfo, columnTypeOf } from './column-mapping';
import { SharePointError } from './errors';
import {
  columnsPage,
  deltaPage,
  graphErrorBody,
  graphItem,
  graphSite,
  itemsPage,
  listsPage,
  readAnswer,
  updatedFields,
} from './graph-answers';
import {
  LATER_STATUSES,
  type PauseGate,
  parseRetryAfter,
  type RetryTimings,
  resolveTimings,
  sharedGate,
  withRetries,
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

/**
 * How often a conditional update that met a 412 reads the item again and re-applies the change. A
 * list item that changes under us three times running is a busy item: the outbox tries it later.
 */
export const CONFLICT_REREADS = 2;

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

  /**
   * One Graph call under the retry policy (retry.ts): at most `maxAttempts` sends within
   * `totalBudgetMs`, plus one more send after a 401 that renewed the token. With `answer`, a
   * successful body must match that schema (graph-answers.ts) or the call fails with a clear
   * 'protocol' error, which is not repeated at once.
   */
  async request<S extends z.ZodType = z.ZodUnknown>(
    method: string,
    pathOrUrl: string,
    options: RequestOptions & { answer?: S } = {},
  ): Promise<GraphResponse<z.output<S>>> {
    const url = this.url(pathOrUrl);
    let renewedToken = false;
    const send = async (attempt: number): Promise<GraphResponse<z.output<S>>> => {
      const first = await this.sendOnce(method, url, options, attempt);
      if (first.status !== 401 || renewedToken) return this.settle(method, url, first, options);
      // The token may have expired early or been revoked: one new token, then give up.
      renewedToken = true;
      await this.options.tokens.getToken(true);
      return this.settle(method, url, await this.sendOnce(method, url, options, attempt), options);
    };
    return withRetries(this.timings, this.gate, send, { notIdempotent: options.notIdempotent });
  }

  /** One send; an answer that never arrived or was cut off becomes a 'network' error. */
  private async sendOnce(
    method: string,
    url: string,
    options: RequestOptions,
    attempt: number,
  ): Promise<{ status: number; ok: boolean; text: string; headers: Headers }> {
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
        signal: AbortSignal.timeout(this.timings.requestTimeoutMs),
      });
    } catch (error) {
      throw new SharePointError(
        'network',
        `SharePoint did not answer ${method} ${describeUrl(url)}: ${networkReason(error)}`,
        { retryable: true, cause: error },
      );
    }
    try {
      return {
        status: response.status,
        ok: response.ok,
        text: await response.text(),
        headers: response.headers,
      };
    } catch (error) {
      throw new SharePointError(
        'network',
        `SharePoint's answer to ${method} ${describeUrl(url)} was cut off: ${networkReason(error)}`,
        { retryable: true, cause: error },
      );
    }
  }

  /** An answer as the caller gets it, or the error it stands for. */
  private settle<S extends z.ZodType>(
    method: string,
    url: string,
    response: { status: number; ok: boolean; text: string; headers: Headers },
    options: RequestOptions & { answer?: S },
  ): GraphResponse<z.output<S>> {
    if (response.status === 429) this.stats.throttled++;
    if (!response.ok && !options.accept?.includes(response.status))
      throw graphError(method, url, response, this.timings);
    let body: unknown;
    if (response.text.trim() !== '') {
      try {
        body = JSON.parse(response.text);
      } catch (error) {
        throw new SharePointError(
          'protocol',
          `SharePoint answered ${method} ${describeUrl(url)} with something that is not JSON.`,
          { status: response.status, retryable: true, cause: error },
        );
      }
    }
    if (response.ok && options.answer)
      body = readAnswer(options.answer, body, `SharePoint's answer to ${method} ${describeUrl(url)}`);
    return { status: response.status, body: body as z.output<S>, headers: response.headers };
  }

  async get(pathOrUrl: string, headers?: Record<string, string>): Promise<unknown> {
    return (await this.request('GET', pathOrUrl, { headers })).body;
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
    const { body: site } = await this.request('GET', target, { answer: graphSite });
    return { id: site.id, displayName: site.displayName, webUrl: site.webUrl };
  }

  /** The list's id, or undefined when the site has no list with that display name. */
  async findList(siteId: string, displayName: string): Promise<string | undefined> {
    const filter = `displayName eq ${odataString(displayName)}`;
    const lists: Array<z.output<typeof listsPage>['value'][number]> = [];
    const first = `/sites/${encodeURIComponent(siteId)}/lists?$filter=${encodeURIComponent(filter)}`;
    for await (const page of this.pages(first, listsPage)) lists.push(...page);
    // A server might ignore the filter: check the name ourselves.
    const match =
      lists.find((l) => l.displayName === displayName) ??
      lists.find((l) => l.displayName?.toLowerCase() === displayName.toLowerCase());
    return match?.id;
  }

  /** The list's columns with their types (Graph's columnDefinition); entries without a name are skipped. */
  async columns(siteId: string, listId: string): Promise<ColumnInfo[]> {
    const out: ColumnInfo[] = [];
    for await (const page of this.pages(`${listPath(siteId, listId)}/columns`, columnsPage)) {
      for (const column of page) {
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

  /**
   * Follows `@odata.nextLink` verbatim, re-sending the headers on every page; each page must match
   * `page` (graph-answers.ts). Pages may be empty.
   */
  async *pages<E>(
    firstUrl: string,
    page: z.ZodType<{ value: E[]; '@odata.nextLink'?: string | undefined }>,
    headers?: Record<string, string>,
  ): AsyncGenerator<E[]> {
    let next: string | undefined = firstUrl;
    let emptyInARow = 0;
    for (let count = 0; next; count++) {
      // A page may be empty, even with the same link as before; a feed that never moves on is broken.
      if (count > 100_000 || emptyInARow > 1000) {
        throw new SharePointError('protocol', 'SharePoint kept sending pages without end.');
      }
      const { body }: { body: { value: E[]; '@odata.nextLink'?: string | undefined } } = await this.request(
        'GET',
        next,
        { headers, answer: page },
      );
      emptyInARow = body.value.length === 0 ? emptyInARow + 1 : 0;
      yield body.value;
      next = body['@odata.nextLink'];
    }
  }

  /**
   * Every item of a list (with fields), optionally filtered. A filter always travels with the
   * Prefer header, so a column that is not indexed still works.
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
    for await (const page of this.pages(url, itemsPage, headers)) items.push(...page.map(asItem));
    return items;
  }

  async getItem(siteId: string, listId: string, itemId: string): Promise<GraphItem | undefined> {
    const response = await this.request(
      'GET',
      `${listPath(siteId, listId)}/items/${encodeURIComponent(itemId)}?$expand=fields`,
      { accept: [404], answer: graphItem },
    );
    return response.status === 404 ? undefined : asItem(response.body);
  }

  /** DELETE an item; true when it was there, false when it had already gone. */
  async deleteItem(siteId: string, listId: string, itemId: string): Promise<boolean> {
    const response = await this.request(
      'DELETE',
      `${listPath(siteId, listId)}/items/${encodeURIComponent(itemId)}`,
      { accept: [404] },
    );
    return response.status !== 404;
  }

  /** POST a new item. Not retried on a lost answer: look the item up by its key before trying again. */
  async createItem(siteId: string, listId: string, fields: Record<string, unknown>): Promise<GraphItem> {
    const response = await this.request('POST', `${listPath(siteId, listId)}/items`, {
      body: { fields },
      notIdempotent: true,
      answer: graphItem,
    });
    return asItem(response.body);
  }

  /**
   * PATCH some columns. With `ifMatch`, a 412 (someone changed the item since it was read) is a
   * conflict, not a failure to repeat: the item is read again and the change re-applied with the new
   * eTag, at most CONFLICT_REREADS times. Missing item → undefined.
   */
  async updateItemFields(
    siteId: string,
    listId: string,
    itemId: string,
    fields: Record<string, unknown>,
    ifMatch?: string,
  ): Promise<Record<string, unknown> | undefined> {
    let eTag = ifMatch;
    for (let rereads = 0; ; rereads++) {
      const response = await this.request(
        'PATCH',
        `${listPath(siteId, listId)}/items/${encodeURIComponent(itemId)}/fields`,
        {
          body: fields,
          headers: eTag ? { 'If-Match': eTag } : {},
          accept: [404, 412],
          answer: updatedFields,
        },
      );
      if (response.status === 404) return undefined;
      if (response.status !== 412) return response.body ?? {};
      if (rereads >= CONFLICT_REREADS) {
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
    const response = await this.request(
      'PATCH',
      `${listPath(siteId, listId)}/items/${encodeURIComponent(itemId)}/fields`,
      { body: fields, headers: { 'If-Match': eTag }, accept: [404, 412], answer: updatedFields },
    );
    if (response.status === 404) return 'missing';
    return response.status === 412 ? 'changed' : 'updated';
  }

  /**
   * All changes since `deltaLink`, or every item when there is none. Throws a 410 SharePointError
   * when the link has expired (the caller starts over without it). The same item may appear
   * several times: the last occurrence wins. A page that does not match deltaPage fails the whole
   * read with a 'protocol' error: nothing is applied from a feed that broke halfway.
   */
  async delta(siteId: string, listId: string, deltaLink?: string, top?: number): Promise<DeltaResult> {
    let next: string | undefined =
      deltaLink ?? `${listPath(siteId, listId)}/items/delta?$expand=fields${top ? `&$top=${top}` : ''}`;
    const byId = new Map<string, DeltaEntry>();
    for (let pages = 1; next; pages++) {
      if (pages > 100_000) throw new SharePointError('protocol', 'The change feed never ended.');
      const body = await this.deltaPageAt(next);
      for (const entry of body.value) {
        byId.delete(entry.id); // keep insertion order = last occurrence
        if (entry.deleted !== undefined || entry['@removed'] !== undefined) {
          byId.set(entry.id, { id: entry.id, deleted: true });
        } else {
          byId.set(entry.id, { id: entry.id, deleted: false, item: asItem(entry) });
        }
      }
      const finalLink = body['@odata.deltaLink'];
      next = body['@odata.nextLink'];
      if (!next && finalLink) return { entries: [...byId.values()], deltaLink: finalLink };
    }
    throw new SharePointError('protocol', 'The change feed ended without a delta link.');
  }

  /**
   * One delta page. Graph has sent a page with an error object in place of an entry, which the same
   * link read again does not repeat: such a page is read once more, and a second bad one fails.
   */
  private async deltaPageAt(url: string): Promise<z.output<typeof deltaPage>> {
    try {
      return (await this.request('GET', url, { answer: deltaPage })).body;
    } catch (error) {
      if (!(error instanceof SharePointError) || error.kind !== 'protocol') throw error;
      return (await this.request('GET', url, { answer: deltaPage })).body;
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

function asItem(item: z.output<typeof graphItem>): GraphItem {
  return {
    id: item.id,
    eTag: item.eTag,
    lastModifiedDateTime: item.lastModifiedDateTime,
    fields: item.fields,
  };
}

function graphError(
  method: string,
  url: string,
  response: { status: number; text: string; headers: Headers },
  timings: RetryTimings,
): SharePointError {
  let parsed: z.output<typeof graphErrorBody>['error'] | undefined;
  try {
    parsed = graphErrorBody.safeParse(JSON.parse(response.text)).data?.error;
  } catch {
    // not JSON: the status says enough
  }
  const code = parsed?.code;
  const message = parsed?.message;
  const retryAfterMs = parseRetryAfter(
    response.headers.get('retry-after'),
    timings.now(),
    timings.maxRetryAfterMs,
  );
  const summary = `HTTP ${response.status}${code ? ` ${code}` : ''}`;
  return new SharePointError(
    'http',
    `SharePoint refused ${method} ${describeUrl(url)} (${summary})${message ? `: ${truncate(message, 300)}` : ''}`,
    { status: response.status, code, retryable: LATER_STATUSES.has(response.status), retryAfterMs },
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
