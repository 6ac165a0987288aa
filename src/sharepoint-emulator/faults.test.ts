import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientCredentialsToken, requestToken, setup, type TestContext } from './test-support';

let ctx: TestContext;

beforeEach(async () => {
  ctx = await setup({}, { seed: 'faults', bookingCount: 10 });
});

afterEach(async () => {
  await ctx.emu.close();
});

type Json = Record<string, unknown>;

const newAvailability = (title: string) => ({
  method: 'POST',
  body: JSON.stringify({ fields: { Title: title } }),
});

describe('injected failures', () => {
  it('answers 429 with integer, decimal and HTTP-date Retry-After for the next N matching calls', async () => {
    const date = new Date(Date.UTC(2030, 0, 2, 3, 4, 5));
    ctx.emu.control.failNext(1, 429, { path: '*/items', retryAfter: 2 });
    ctx.emu.control.failNext(1, 429, { path: '*/items', retryAfter: 0.2 });
    ctx.emu.control.failNext(1, 429, { path: '*/items', retryAfter: date });
    const url = `${ctx.listPath('bookings')}/items`;
    const seen: Array<string | null> = [];
    for (let i = 0; i < 3; i++) {
      const res = await ctx.graph(url);
      expect(res.status).toBe(429);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('TooManyRequests');
      seen.push(res.headers.get('retry-after'));
    }
    expect(seen).toEqual(['2', '0.2', 'Wed, 02 Jan 2030 03:04:05 GMT']);
    expect(Date.parse(seen[2]!)).toBe(date.getTime());
    expect((await ctx.graph(url)).status).toBe(200);
  });

  it('answers 503 and 504, matching only the given method and path', async () => {
    ctx.emu.control.failNext(2, 503, { method: 'POST', path: '*/items', retryAfter: 1 });
    ctx.emu.control.failNext(1, 504, { path: '*/columns' });
    expect((await ctx.graph(`${ctx.listPath('bookings')}/items`)).status).toBe(200);
    const a = await ctx.graph(`${ctx.listPath('availability')}/items`, newAvailability('a'));
    expect(a.status).toBe(503);
    expect(((await a.json()) as { error: { code: string } }).error.code).toBe('serviceNotAvailable');
    expect((await ctx.graph(`${ctx.listPath('availability')}/items`, newAvailability('a'))).status).toBe(503);
    expect((await ctx.graph(`${ctx.listPath('availability')}/items`, newAvailability('a'))).status).toBe(201);
    expect((await ctx.graph(`${ctx.listPath('bookings')}/columns`)).status).toBe(504);
    expect(ctx.emu.control.items(ctx.portal.lists.availability!)).toHaveLength(1);
    expect(ctx.emu.control.faults()).toHaveLength(0);
  });

  it('can let some calls through first and keep failing until removed', async () => {
    const id = ctx.emu.control.addFault({
      path: /\/items$/,
      skip: 1,
      times: 'always',
      action: { type: 'status', status: 503 },
    });
    const url = `${ctx.listPath('bookings')}/items`;
    expect((await ctx.graph(url)).status).toBe(200);
    expect((await ctx.graph(url)).status).toBe(503);
    expect((await ctx.graph(url)).status).toBe(503);
    ctx.emu.control.removeFault(id);
    expect((await ctx.graph(url)).status).toBe(200);
  });

  it('can throttle the token endpoint', async () => {
    ctx.emu.control.failNext(1, 429, { path: '*/oauth2/v2.0/token', retryAfter: 1 });
    const { clientId, clientSecret } = ctx.emu.control.credentials;
    const form = {
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
      scope: 'https://graph.microsoft.com/.default',
    };
    expect((await requestToken(ctx.emu, form)).status).toBe(429);
    expect((await requestToken(ctx.emu, form)).status).toBe(200);
  });

  it('drops the connection (network error) without storing anything', async () => {
    ctx.emu.control.addFault({ method: 'POST', action: { type: 'destroy' } });
    await expect(
      ctx.graph(`${ctx.listPath('availability')}/items`, newAvailability('lost')),
    ).rejects.toThrow();
    expect(ctx.emu.control.items(ctx.portal.lists.availability!)).toHaveLength(0);
  });

  it('can hang a call so the client times out', async () => {
    ctx.emu.control.addFault({ action: { type: 'hang' } });
    await expect(
      ctx.graph(`${ctx.listPath('bookings')}/items`, { signal: AbortSignal.timeout(200) }),
    ).rejects.toThrow();
    expect((await ctx.graph(`${ctx.listPath('bookings')}/items`)).status).toBe(200);
  });

  it.each(['destroy', 'hang'] as const)(
    'timeoutAfterStoring/%s stores the create but loses the answer',
    async (mode) => {
      ctx.emu.control.addFault({
        method: 'POST',
        path: '*/items',
        action: { type: 'timeoutAfterStoring', mode },
      });
      await expect(
        ctx.graph(`${ctx.listPath('availability')}/items`, {
          ...newAvailability('1001|2026-05-04'),
          signal: AbortSignal.timeout(300),
        }),
      ).rejects.toThrow();
      const stored = ctx.emu.control.items(ctx.portal.lists.availability!);
      expect(stored.map((i) => i.fields.Title)).toEqual(['1001|2026-05-04']);
      // A blind retry now collides with the stored item.
      expect(
        (await ctx.graph(`${ctx.listPath('availability')}/items`, newAvailability('1001|2026-05-04'))).status,
      ).toBe(409);
    },
  );

  it('timeoutAfterStoring/delay answers late', async () => {
    ctx.emu.control.addFault({
      method: 'POST',
      action: { type: 'timeoutAfterStoring', mode: 'delay', delayMs: 300 },
    });
    const started = Date.now();
    const res = await ctx.graph(`${ctx.listPath('availability')}/items`, newAvailability('late'));
    expect(res.status).toBe(201);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
  });
});

describe('outage', () => {
  it('answers 503 to every Graph call until switched off', async () => {
    await ctx.emu.control.setOutage({ mode: 'status', retryAfter: 5, includeToken: false });
    const res = await ctx.graph(`/sites/${ctx.portal.site.id}`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await clientCredentialsToken(ctx.emu)).toMatch(/^emu\./);
    await ctx.emu.control.setOutage(false);
    expect((await ctx.graph(`/sites/${ctx.portal.site.id}`)).status).toBe(200);
  });

  it('drops connections in destroy mode, including token requests', async () => {
    await ctx.emu.control.setOutage({ mode: 'destroy' });
    await expect(ctx.graph(`/sites/${ctx.portal.site.id}`)).rejects.toThrow();
    await expect(clientCredentialsToken(ctx.emu)).rejects.toThrow();
    await ctx.emu.control.setOutage(false);
    expect((await ctx.graph(`/sites/${ctx.portal.site.id}`)).status).toBe(200);
  });

  it('refuses connections in refuse mode and comes back on the same port', async () => {
    const port = ctx.emu.port;
    await ctx.emu.control.setOutage({ mode: 'refuse' });
    await expect(ctx.graph(`/sites/${ctx.portal.site.id}`)).rejects.toThrow();
    await ctx.emu.control.setOutage(false);
    const res = await ctx.graph(`/sites/${ctx.portal.site.id}`);
    expect(res.status).toBe(200);
    expect(new URL(res.url).port).toBe(String(port));
  });
});

describe('latency and the request log', () => {
  it('adds latency to each call', async () => {
    ctx.emu.control.setLatency(150);
    const started = Date.now();
    await ctx.graph(`/sites/${ctx.portal.site.id}`);
    await ctx.graph(`/sites/${ctx.portal.site.id}`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    ctx.emu.control.setLatency(null);
    const quick = Date.now();
    await ctx.graph(`/sites/${ctx.portal.site.id}`);
    expect(Date.now() - quick).toBeLessThan(150);
  });

  it('delays matching calls with a delay rule', async () => {
    ctx.emu.control.addFault({ path: '*/columns', action: { type: 'delay', ms: 200 } });
    const started = Date.now();
    expect((await ctx.graph(`${ctx.listPath('bookings')}/columns`)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('holds a matching call until its rule is removed, then answers it normally', async () => {
    const id = ctx.emu.control.addFault({ path: '*/columns', times: 1, action: { type: 'hold' } });
    let settled = false;
    const held = ctx.graph(`${ctx.listPath('bookings')}/columns`).then((res) => {
      settled = true;
      return res;
    });
    // the call has arrived and waits: the log has it, without an answer
    await expect
      .poll(() => ctx.emu.control.requests().filter((r) => r.path.endsWith('/columns')))
      .toMatchObject([{ fault: 'hold' }]);
    // a rule used up still holds; other calls pass
    expect(ctx.emu.control.faults()).toEqual([]);
    expect((await ctx.graph(`${ctx.listPath('bookings')}/columns`)).status).toBe(200);
    expect(settled).toBe(false);
    ctx.emu.control.removeFault(id);
    expect((await held).status).toBe(200);
  });

  it('logs method, path, status and headers of every call', async () => {
    ctx.emu.control.clearRequests();
    ctx.emu.control.failNext(1, 429, { path: '*/items' });
    await ctx.graph(`${ctx.listPath('bookings')}/items?$top=2`, {
      headers: { 'User-Agent': 'NONISV|Org|ArtsFacilitatorPortal/1.0' },
    });
    await ctx.graph(`${ctx.listPath('bookings')}/items?$top=2`);
    await fetch(`${ctx.emu.graphBaseUrl}/sites/${ctx.portal.site.id}`);
    const log = ctx.emu.control.requests();
    expect(log.map((r) => [r.method, r.status])).toEqual([
      ['GET', 429],
      ['GET', 200],
      ['GET', 401],
    ]);
    expect(log[0]).toMatchObject({
      fault: 'status 429',
      query: '?$top=2',
      headers: { userAgent: 'NONISV|Org|ArtsFacilitatorPortal/1.0' },
    });
    expect(log[0]!.path).toBe(`/v1.0${ctx.listPath('bookings')}/items`);
    expect(ctx.emu.control.requestCount({ method: 'GET', path: '*/items' })).toBe(2);
    expect(ctx.emu.control.requestCount({ status: 401 })).toBe(1);
  });
});

describe('HTTP control plane', () => {
  it('exposes info, faults, requests and reset under /__emulator', async () => {
    const base = `${ctx.emu.authorityHost}/__emulator`;
    const info = (await (await fetch(`${base}/info`)).json()) as Json;
    expect(info).toMatchObject({
      graphBaseUrl: ctx.emu.graphBaseUrl,
      tenantId: ctx.emu.control.credentials.tenantId,
    });

    const added = await fetch(`${base}/faults`, {
      method: 'POST',
      body: JSON.stringify({
        path: '*/items',
        times: 1,
        action: { type: 'status', status: 429, retryAfter: '0.5' },
      }),
    });
    expect(added.status).toBe(201);
    const res = await ctx.graph(`${ctx.listPath('bookings')}/items`);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('0.5');

    const log = (await (
      await fetch(`${base}/requests?path=${encodeURIComponent('*/items')}`)
    ).json()) as Json[];
    expect(log.map((r) => r.status)).toEqual([429]);

    const items = (await (
      await fetch(`${base}/sites/${encodeURIComponent(ctx.portal.site.id)}/lists/Bookings/items`)
    ).json()) as Json[];
    expect(items).toHaveLength(10);

    expect((await fetch(`${base}/reset`, { method: 'POST' })).status).toBe(204);
    expect(ctx.emu.control.sites()).toEqual([]);
    const seeded = await fetch(`${base}/seed`, {
      method: 'POST',
      body: JSON.stringify({ seed: 'x', bookingCount: 3 }),
    });
    expect(seeded.status).toBe(201);
    expect(((await seeded.json()) as { bookings: unknown[] }).bookings).toHaveLength(3);
  });

  it('adds an item to a list and removes one fault rule by id', async () => {
    const base = `${ctx.emu.authorityHost}/__emulator`;
    const itemsUrl = `${base}/sites/${encodeURIComponent(ctx.portal.site.id)}/lists/Bookings/items`;
    const added = await fetch(itemsUrl, {
      method: 'POST',
      body: JSON.stringify({ Title: 'Added over HTTP', FreelancerID: 'F-1', SessionDate: '2026-05-04' }),
    });
    expect(added.status).toBe(201);
    const item = (await added.json()) as { id: string; fields: Json };
    expect(item.fields).toMatchObject({ Title: 'Added over HTTP', FreelancerID: 'F-1' });
    const listed = (await (await fetch(itemsUrl)).json()) as Array<{ id: string }>;
    expect(listed).toHaveLength(11);
    expect(listed.map((i) => i.id)).toContain(item.id);
    // an unknown column is refused as Graph would, and nothing is stored
    const refused = await fetch(itemsUrl, { method: 'POST', body: JSON.stringify({ Nope: 'x' }) });
    expect(refused.status).toBe(400);
    expect((await (await fetch(itemsUrl)).json()) as unknown[]).toHaveLength(11);

    const keep = ctx.emu.control.failNext(1, 503, { path: '*/keep' });
    const drop = ctx.emu.control.failNext(1, 503, { path: '*/drop' });
    expect((await fetch(`${base}/faults/${drop}`, { method: 'DELETE' })).status).toBe(204);
    expect(ctx.emu.control.faults().map((f) => f.id)).toEqual([keep]);
  });
});
