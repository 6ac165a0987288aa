/**
 * The Graph client against the emulator over real HTTP: paging, the Prefer rule, throttling,
 * outages, token expiry, 412. Retry delays are shortened; Retry-After values are honoured as sent.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SharePointError } from './errors';
import { listPath, PREFER_NON_INDEXED } from './graph-client';
import { backoffDelay, PauseGate, parseRetryAfter } from './retry';
import { SharePointSession } from './session';
import { loadSharePointSettings } from './settings';
import { type ConnectorSetup, FAST_TIMINGS, setupConnector } from './test-support';

let s: ConnectorSetup;
let session: SharePointSession;
let siteId: string;
let bookingsId: string;
let availabilityId: string;

async function newSession(overrides: Partial<Parameters<typeof loadSharePointSettings>[0]> = {}) {
  void overrides;
  const settings = (await loadSharePointSettings(s.t.ctx.db, s.t.ctx.appSecret))!;
  return new SharePointSession(settings, s.t.config, { timings: FAST_TIMINGS, gate: new PauseGate() });
}

beforeAll(async () => {
  // Availability's key column is not indexed here: filters on it need the Prefer header.
  s = await setupConnector({ seed: { seed: 'client', bookingCount: 57, indexed: { availability: [] } } });
  session = await newSession();
  siteId = await session.siteId();
  bookingsId = await session.listId('Bookings');
  availabilityId = await session.listId('Availability');
});
afterAll(() => s.close());
beforeEach(() => {
  s.emu.control.clearFaults();
  s.emu.control.setPaging({
    randomPageSizes: false,
    shuffle: false,
    maxPageSize: 5000,
    defaultPageSize: 200,
  });
  s.emu.control.clearRequests();
});

describe('retry rules', () => {
  it('reads Retry-After as decimal seconds or an HTTP date', () => {
    const now = Date.parse('2026-05-04T10:00:00Z');
    expect(parseRetryAfter('2.128', now, 300_000)).toBe(2128);
    expect(parseRetryAfter('3', now, 300_000)).toBe(3000);
    expect(parseRetryAfter('Mon, 04 May 2026 10:00:05 GMT', now, 300_000)).toBe(5000);
    expect(parseRetryAfter('Mon, 04 May 2026 09:00:00 GMT', now, 300_000)).toBe(0);
    expect(parseRetryAfter('9999', now, 300_000)).toBe(300_000);
    expect(parseRetryAfter('soon', now, 300_000)).toBeUndefined();
    expect(parseRetryAfter(null, now, 300_000)).toBeUndefined();
  });

  it('backs off exponentially from 1 s with jitter, capped at 60 s', () => {
    const t = { baseDelayMs: 1000, maxDelayMs: 60_000 };
    expect(backoffDelay(1, { ...t, random: () => 0 })).toBe(500);
    expect(backoffDelay(1, { ...t, random: () => 0.999 })).toBeLessThanOrEqual(1000);
    expect(backoffDelay(3, { ...t, random: () => 0 })).toBe(2000);
    expect(backoffDelay(10, { ...t, random: () => 0.999 })).toBeLessThanOrEqual(60_000);
    expect(backoffDelay(10, { ...t, random: () => 0 })).toBe(30_000);
  });
});

describe('site, lists and headers', () => {
  it('resolves the site by path and lists by display name, with the portal User-Agent', async () => {
    expect(siteId).toBe(s.portal.site.id);
    expect(bookingsId).toBe(s.portal.lists.bookings!.id);
    expect(await session.client.findList(siteId, 'No such list')).toBeUndefined();
    const fresh = await newSession();
    await fresh.siteId();
    const [request] = s.emu.control.requests({ method: 'GET' });
    expect(request?.headers.userAgent).toMatch(/^NONISV\|contoso\|ArtsFacilitatorPortal\/\d+\.\d+\.\d+$/);
    expect(request?.headers.hasAuthorization).toBe(true);
  });
});

describe('paged reads', () => {
  it('reads every item once across short, empty and shuffled pages', async () => {
    s.emu.control.setPaging({
      randomPageSizes: true,
      emptyPageProbability: 0.3,
      maxPageSize: 6,
      shuffle: true,
      seed: 7,
    });
    const items = await session.client.listItems(siteId, bookingsId, { top: 6 });
    const ids = items.map((i) => i.id);
    expect(new Set(ids).size).toBe(57);
    expect(ids.length).toBe(57);
    const pages = s.emu.control.requests({ method: 'GET', path: /\/items$/ });
    expect(pages.length).toBeGreaterThan(10);
    // every page after the first came from the nextLink, verbatim (opaque $skiptoken)
    expect(
      pages.slice(1).every((p) => p.query.includes('%24skiptoken=') || p.query.includes('$skiptoken=')),
    ).toBe(true);
  });

  it('sends the Prefer header on every page when filtering on a column that is not indexed', async () => {
    for (let i = 0; i < 5; i++) {
      s.emu.control.addItem(s.portal.lists.availability!, {
        Title: `9${i}|2026-05-0${i + 1}`,
        Status: 'Available',
      });
    }
    s.emu.control.setPaging({ maxPageSize: 2 });
    const items = await session.client.listItems(siteId, availabilityId, {
      filter:
        "fields/Title eq '90|2026-05-01' or fields/Title eq '91|2026-05-02' or fields/Title eq '94|2026-05-05'",
      top: 2,
    });
    expect(items.map((i) => i.fields?.Title).sort()).toEqual([
      '90|2026-05-01',
      '91|2026-05-02',
      '94|2026-05-05',
    ]);
    const reads = s.emu.control.requests({ method: 'GET', path: /\/items$/ });
    expect(reads.length).toBeGreaterThanOrEqual(2);
    expect(reads.every((r) => r.headers.prefer?.includes(PREFER_NON_INDEXED))).toBe(true);

    // the rule itself: the same filter without the header is refused
    const token = await session.tokens.getToken();
    const bare = await fetch(
      `${s.emu.graphBaseUrl}${listPath(siteId, availabilityId)}/items?$expand=fields&$filter=${encodeURIComponent("fields/Title eq 'x'")}`,
      { headers: { Authorization: `Bearer ${token}` } },
    );
    expect(bare.status).toBe(400);
  });
});

describe('throttling and outages', () => {
  it('waits a decimal Retry-After and pauses other calls with it', async () => {
    s.emu.control.failNext(1, 429, { retryAfter: 0.35, path: '*/items' });
    const started = Date.now();
    const [a, b] = await Promise.all([
      session.client.listItems(siteId, bookingsId),
      // starts a little later: by then the pause is in force and it waits too
      new Promise((r) => setTimeout(r, 60)).then(() => session.client.columns(siteId, bookingsId)),
    ]);
    const elapsed = Date.now() - started;
    expect(a.length).toBe(57);
    expect(b.length).toBeGreaterThan(0);
    expect(elapsed).toBeGreaterThanOrEqual(330);
    const columnsCall = s.emu.control.requests({ path: /\/columns$/ })[0]!;
    const throttled = s.emu.control.requests({ path: /\/items$/ })[0]!;
    expect(columnsCall.at - throttled.at).toBeGreaterThanOrEqual(300);
  });

  it('waits until the HTTP date of a Retry-After', async () => {
    const until = new Date(Date.now() + 2000);
    s.emu.control.failNext(1, 503, { retryAfter: until, path: '*/columns' });
    const started = Date.now();
    await session.client.columns(siteId, bookingsId);
    // HTTP dates have whole seconds: at least until the second `until` falls in
    expect(Date.now()).toBeGreaterThanOrEqual(Math.floor(until.getTime() / 1000) * 1000 - 5);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('retries 503s without Retry-After with backoff, and gives up after 6 attempts', async () => {
    s.emu.control.failNext(3, 503, { path: '*/columns' });
    await expect(session.client.columns(siteId, bookingsId)).resolves.toBeTruthy();
    expect(s.emu.control.requestCount({ path: /\/columns$/ })).toBe(4);

    s.emu.control.clearRequests();
    s.emu.control.failNext(50, 503, { path: '*/columns' });
    const error = await session.client.columns(siteId, bookingsId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SharePointError);
    expect((error as SharePointError).retryable).toBe(true);
    expect((error as SharePointError).status).toBe(503);
    expect(s.emu.control.requestCount({ path: /\/columns$/ })).toBe(6);
  });

  it('treats dropped connections and timeouts like failures worth retrying', async () => {
    s.emu.control.addFault({ path: '*/columns', times: 1, action: { type: 'destroy' } });
    s.emu.control.addFault({ path: '*/columns', times: 1, action: { type: 'hang' } });
    await expect(session.client.columns(siteId, bookingsId)).resolves.toBeTruthy();
    expect(s.emu.control.requestCount({ path: /\/columns$/ })).toBe(3);
  });

  it('never retries other 4xx answers', async () => {
    s.emu.control.failNext(1, 400, { path: '*/columns', code: 'invalidRequest' });
    const error = (await session.client
      .columns(siteId, bookingsId)
      .catch((e: unknown) => e)) as SharePointError;
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalidRequest');
    expect(s.emu.control.requestCount({ path: /\/columns$/ })).toBe(1);
  });
});

describe('tokens', () => {
  it('caches the token, renews it once on a 401 and carries on', async () => {
    const fresh = await newSession();
    await fresh.client.columns(siteId, bookingsId);
    await fresh.client.columns(siteId, bookingsId);
    expect(fresh.tokens.fetchedCount).toBe(1);
    s.emu.control.expireTokens();
    await fresh.client.columns(siteId, bookingsId);
    expect(fresh.tokens.fetchedCount).toBe(2);
  });

  it('renews short-lived tokens before they expire', async () => {
    s.emu.control.setTokenLifetime(1);
    const fresh = await newSession();
    await fresh.client.columns(siteId, bookingsId);
    await new Promise((r) => setTimeout(r, 600));
    s.emu.control.clearRequests();
    await fresh.client.columns(siteId, bookingsId);
    expect(fresh.tokens.fetchedCount).toBe(2);
    // renewed ahead of time: Graph never saw the expired token
    expect(s.emu.control.requests({ path: /\/columns$/ }).map((r) => r.status)).toEqual([200]);
    s.emu.control.setTokenLifetime(3599);
  });

  it('gives up after one renewal when Graph keeps refusing the token', async () => {
    const fresh = await newSession();
    s.emu.control.failNext(5, 401, { path: '*/columns', code: 'InvalidAuthenticationToken' });
    const error = (await fresh.client
      .columns(siteId, bookingsId)
      .catch((e: unknown) => e)) as SharePointError;
    expect(error.status).toBe(401);
    expect(fresh.tokens.fetchedCount).toBe(2);
    s.emu.control.clearFaults();
  });

  it('signs in with the password grant too', async () => {
    const settings = (await loadSharePointSettings(s.t.ctx.db, s.t.ctx.appSecret))!;
    const c = s.emu.control.credentials;
    const ropc = new SharePointSession(
      { ...settings, clientSecret: '', username: c.username, password: c.password },
      s.t.config,
      { timings: FAST_TIMINGS },
    );
    expect(await ropc.siteId()).toBe(siteId);
    const token = s.emu.control.requests({ path: /oauth2/ }).at(-1);
    expect(token?.status).toBe(200);
  });
});

describe('writes', () => {
  it('re-reads and re-applies an update whose eTag is stale (412)', async () => {
    const created = await session.client.createItem(siteId, availabilityId, {
      Title: '77|2026-05-04',
      Status: 'Available',
    });
    s.emu.control.updateItem(s.portal.lists.availability!, created.id, { Notes: 'changed by someone else' });
    const fields = await session.client.updateItemFields(
      siteId,
      availabilityId,
      created.id,
      { Status: 'Limited' },
      created.eTag,
    );
    expect(fields?.Status).toBe('Limited');
    const patches = s.emu.control.requests({ method: 'PATCH' }).map((r) => r.status);
    expect(patches).toEqual([412, 200]);
    expect(s.emu.control.item(s.portal.lists.availability!, created.id)?.fields).toMatchObject({
      Status: 'Limited',
      Notes: 'changed by someone else',
    });
  });

  it('does not repeat a create whose answer was lost', async () => {
    s.emu.control.addFault({
      method: 'POST',
      path: '*/items',
      action: { type: 'timeoutAfterStoring', mode: 'destroy' },
    });
    const error = (await session.client
      .createItem(siteId, availabilityId, { Title: '78|2026-05-04' })
      .catch((e: unknown) => e)) as SharePointError;
    expect(error.kind).toBe('network');
    expect(error.retryable).toBe(true);
    expect(s.emu.control.requestCount({ method: 'POST' })).toBe(1);
  });
});
