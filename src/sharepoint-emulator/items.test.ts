import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readAllPages, setup, type TestContext } from './test-support';

let ctx: TestContext;

beforeEach(async () => {
  ctx = await setup({}, { seed: 'items', bookingCount: 60, cancelledRatio: 0.2 });
});

afterEach(async () => {
  await ctx.emu.close();
});

type Json = Record<string, unknown>;
type Item = { id: string; eTag: string; fields: Json };
const PREFER = { Prefer: 'HonorNonIndexedQueriesWarningMayFailRandomly' };
const q = (filter: string) => `$filter=${encodeURIComponent(filter)}`;

describe('reading items', () => {
  it('returns items with string ids, eTags and expanded fields, omitting empty columns', async () => {
    const list = ctx.portal.lists.bookings!;
    const withoutName = ctx.emu.control.items(list).find((i) => i.fields.SchoolName === undefined);
    expect(withoutName).toBeDefined();
    const res = await ctx.graph(`${ctx.listPath('bookings')}/items/${withoutName!.id}?$expand=fields`);
    expect(res.status).toBe(200);
    const item = (await res.json()) as Item & Json;
    expect(item.id).toBe(withoutName!.id);
    expect(item.eTag).toMatch(/^"[0-9a-f-]{36},1"$/);
    expect(item.fields.id).toBe(item.id);
    expect(item.fields).not.toHaveProperty('SchoolName');
    expect(item.fields).not.toHaveProperty('SchoolAddress');
    expect(item.fields.SchoolID).toMatch(/^SCH\d{3}$/);
    expect(item.createdDateTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it('has no fields without $expand=fields, and honours fields($select=...)', async () => {
    const plain = (await (await ctx.graph(`${ctx.listPath('bookings')}/items?$top=1`)).json()) as {
      value: Json[];
    };
    expect(plain.value[0]).not.toHaveProperty('fields');
    const sel = (await (
      await ctx.graph(`${ctx.listPath('bookings')}/items?$top=1&$expand=fields($select=Title,FreelancerID)`)
    ).json()) as { value: Item[] };
    expect(Object.keys(sel.value[0]!.fields).sort()).toEqual(['@odata.etag', 'FreelancerID', 'Title', 'id']);
  });

  it('returns date-only columns as site-local midnight in UTC', async () => {
    const list = ctx.portal.lists.bookings!;
    const winter = ctx.emu.control.addItem(list, { Title: 'w', SessionDate: '2026-03-09' });
    const summer = ctx.emu.control.addItem(list, { Title: 's', SessionDate: '2026-06-09' });
    expect(winter.fields.SessionDate).toBe('2026-03-09T00:00:00Z');
    expect(summer.fields.SessionDate).toBe('2026-06-08T23:00:00Z');
    const res = await ctx.graph(`${ctx.listPath('bookings')}/items/${summer.id}?$expand=fields`);
    expect(((await res.json()) as Item).fields.SessionDate).toBe('2026-06-08T23:00:00Z');
  });

  it('pages by @odata.nextLink followed verbatim and returns every item once', async () => {
    const { pages, items, last } = await readAllPages(
      ctx,
      `${ctx.listPath('bookings')}/items?$expand=fields&$top=7`,
    );
    expect(pages.map((p) => p.length)).toEqual([7, 7, 7, 7, 7, 7, 7, 7, 4]);
    expect(items.map((i) => Number(i.id))).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(last).not.toHaveProperty('@odata.nextLink');
  });

  it('caps page size with maxPageSize and uses defaultPageSize without $top', async () => {
    ctx.emu.control.setPaging({ maxPageSize: 25, defaultPageSize: 10 });
    const capped = await readAllPages(ctx, `${ctx.listPath('bookings')}/items?$top=100`);
    expect(capped.pages.map((p) => p.length)).toEqual([25, 25, 10]);
    const dflt = await readAllPages(ctx, `${ctx.listPath('bookings')}/items`);
    expect(dflt.pages).toHaveLength(6);
  });

  it('can return short and empty pages that still carry nextLink, and shuffled order', async () => {
    ctx.emu.control.setPaging({ randomPageSizes: true, emptyPageProbability: 0.3, shuffle: true, seed: 42 });
    const { pages, items } = await readAllPages(ctx, `${ctx.listPath('bookings')}/items?$top=10`);
    expect(pages.some((p) => p.length === 0)).toBe(true);
    expect(pages.some((p) => p.length > 0 && p.length < 10)).toBe(true);
    const ids = items.map((i) => Number(i.id));
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(ids).not.toEqual([...ids].sort((a, b) => a - b));
  });

  it('rejects a skiptoken that was rebuilt instead of followed verbatim', async () => {
    const first = (await (await ctx.graph(`${ctx.listPath('bookings')}/items?$top=5`)).json()) as Json;
    const next = new URL(first['@odata.nextLink'] as string);
    const token = next.searchParams.get('$skiptoken')!;
    const decoded = Buffer.from(token, 'base64url').toString('utf8');
    const rebuilt = await ctx.graph(
      `${ctx.listPath('bookings')}/items?$top=5&$skiptoken=${encodeURIComponent(decoded)}`,
    );
    expect(rebuilt.status).toBe(400);
    const otherQuery = await ctx.graph(`${ctx.listPath('bookings')}/items?$top=6&$skiptoken=${token}`);
    expect(otherQuery.status).toBe(400);
  });
});

describe('$filter', () => {
  it('filters indexed columns with eq, ranges, and/or and quoted strings', async () => {
    const all = ctx.emu.control.items(ctx.portal.lists.bookings!);
    const fid = all[0]!.fields.FreelancerID as string;
    const mine = await readAllPages(
      ctx,
      `${ctx.listPath('bookings')}/items?$expand=fields&${q(`fields/FreelancerID eq '${fid}'`)}`,
    );
    expect(mine.items.length).toBe(all.filter((i) => i.fields.FreelancerID === fid).length);
    expect(mine.items.every((i) => (i as Item).fields.FreelancerID === fid)).toBe(true);

    const range = `fields/SessionDate ge '2026-05-01T00:00:00Z' and fields/SessionDate lt '2026-06-01T00:00:00Z'`;
    const may = await readAllPages(ctx, `${ctx.listPath('bookings')}/items?$expand=fields&${q(range)}`);
    const expected = all.filter((i) => {
      const t = Date.parse(i.fields.SessionDate as string);
      return t >= Date.parse('2026-05-01T00:00:00Z') && t < Date.parse('2026-06-01T00:00:00Z');
    });
    expect(may.items.map((i) => i.id)).toEqual(expected.map((i) => i.id));

    const either = await readAllPages(
      ctx,
      `${ctx.listPath('bookings')}/items?${q(`fields/FreelancerID eq '1001' or fields/FreelancerID eq '1002'`)}`,
    );
    expect(either.items.length).toBe(
      all.filter((i) => ['1001', '1002'].includes(i.fields.FreelancerID as string)).length,
    );
  });

  it('requires the Prefer header for non-indexed columns, on every page', async () => {
    const url = `${ctx.listPath('bookings')}/items?$expand=fields&$top=3&${q("fields/Status eq 'Cancelled'")}`;
    const refused = await ctx.graph(url);
    expect(refused.status).toBe(400);
    const err = ((await refused.json()) as { error: { code: string; message: string } }).error;
    expect(err.code).toBe('invalidRequest');
    expect(err.message).toMatch(/not indexed/);

    const first = (await (await ctx.graph(url, { headers: PREFER })).json()) as Json;
    const next = first['@odata.nextLink'] as string;
    expect(next).toBeDefined();
    expect((await ctx.graph(next)).status).toBe(400);
    const { items } = await readAllPages(ctx, url, { headers: PREFER });
    const cancelled = ctx.emu.control
      .items(ctx.portal.lists.bookings!)
      .filter((i) => i.fields.Status === 'Cancelled');
    expect(cancelled.length).toBeGreaterThan(0);
    expect(items.map((i) => i.id)).toEqual(cancelled.map((i) => i.id));
  });

  it('handles quotes escaped as doubled, numbers, ne/gt/le and id', async () => {
    const av = ctx.portal.lists.availability!;
    ctx.emu.control.addItem(av, {
      Title: '1001|2026-05-04',
      FreelancerID: '1001',
      FacilitatorName: "Amy O'Neill",
      Day: '2026-05-04',
    });
    ctx.emu.control.addItem(av, {
      Title: '1002|2026-05-04',
      FreelancerID: '1002',
      FacilitatorName: 'Bo',
      Day: '2026-05-04',
    });
    const byName = await readAllPages(
      ctx,
      `${ctx.listPath('availability')}/items?$expand=fields&${q("fields/FacilitatorName eq 'Amy O''Neill'")}`,
      {
        headers: PREFER,
      },
    );
    expect(byName.items.map((i) => (i as Item).fields.Title)).toEqual(['1001|2026-05-04']);
    const ne = await readAllPages(
      ctx,
      `${ctx.listPath('availability')}/items?${q("fields/Title ne '1001|2026-05-04'")}`,
    );
    expect(ne.items.map((i) => i.id)).toEqual(['2']);
    const ids = await readAllPages(ctx, `${ctx.listPath('bookings')}/items?${q('id gt 10 and id le 12')}`);
    expect(ids.items.map((i) => i.id)).toEqual(['11', '12']);
  });

  it('filters number columns by numeric value', async () => {
    const numeric = await setup(
      {},
      { seed: 'numbers', bookingCount: 10, freelancerIdType: 'number', hostname: 'n.sharepoint.com' },
    );
    try {
      const res = await numeric.graph(
        `${numeric.listPath('facilitators')}/items?$expand=fields&${q('fields/FreelancerID lt 1004')}`,
      );
      const value = ((await res.json()) as { value: Item[] }).value;
      expect(value.map((i) => i.fields.FreelancerID)).toEqual([1001, 1002, 1003]);
    } finally {
      await numeric.emu.close();
    }
  });

  it('answers 400 invalidRequest for bad syntax, unknown fields and unprefixed names', async () => {
    for (const filter of [
      "fields/Title eq 'x",
      "Title eq 'x'",
      "fields/Nope eq 'x'",
      'fields/SessionDate ge 5',
      "fields/Title eq 'a' and",
    ]) {
      const res = await ctx.graph(`${ctx.listPath('bookings')}/items?${q(filter)}`, { headers: PREFER });
      expect(res.status, filter).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalidRequest');
    }
  });
});

describe('writing items', () => {
  it('creates an item (201, whole item) and rejects unknown fields and bad choices', async () => {
    const res = await ctx.graph(`${ctx.listPath('availability')}/items`, {
      method: 'POST',
      body: JSON.stringify({
        fields: {
          Title: '1003|2026-05-05',
          FreelancerID: '1003',
          Day: '2026-05-05',
          Status: 'Limited',
          StartTime: '09:00',
          Notes: '',
        },
      }),
    });
    expect(res.status).toBe(201);
    const item = (await res.json()) as Item & Json;
    expect(item.id).toBe('1');
    expect(item.fields).toMatchObject({
      id: '1',
      Title: '1003|2026-05-05',
      Status: 'Limited',
      StartTime: '09:00',
    });
    expect(item.fields).not.toHaveProperty('Notes');
    expect(ctx.emu.control.item(ctx.portal.lists.availability!, '1')?.fields.Day).toBe('2026-05-05');

    const unknown = await ctx.graph(`${ctx.listPath('availability')}/items`, {
      method: 'POST',
      body: JSON.stringify({ fields: { Title: 'x', Colour: 'red' } }),
    });
    expect(unknown.status).toBe(400);
    const badChoice = await ctx.graph(`${ctx.listPath('availability')}/items`, {
      method: 'POST',
      body: JSON.stringify({ fields: { Title: 'y', Status: 'Busy' } }),
    });
    expect(badChoice.status).toBe(400);
  });

  it('answers 409 nameAlreadyExists for a duplicate unique Title', async () => {
    const body = JSON.stringify({ fields: { Title: '1001|2026-05-06' } });
    expect((await ctx.graph(`${ctx.listPath('availability')}/items`, { method: 'POST', body })).status).toBe(
      201,
    );
    const dup = await ctx.graph(`${ctx.listPath('availability')}/items`, { method: 'POST', body });
    expect(dup.status).toBe(409);
    expect(((await dup.json()) as { error: { code: string } }).error.code).toBe('nameAlreadyExists');
  });

  it('updates fields, changes the eTag, and answers 412 for a stale If-Match', async () => {
    const created = ctx.emu.control.addItem(ctx.portal.lists.availability!, {
      Title: '1001|2026-05-07',
      Status: 'Available',
      Notes: 'hi',
    });
    const url = `${ctx.listPath('availability')}/items/${created.id}/fields`;
    const ok = await ctx.graph(url, {
      method: 'PATCH',
      headers: { 'If-Match': created.eTag },
      body: JSON.stringify({ Status: 'Unavailable', Notes: null }),
    });
    expect(ok.status).toBe(200);
    const fields = (await ok.json()) as Json;
    expect(fields).toMatchObject({ id: created.id, Status: 'Unavailable', Title: '1001|2026-05-07' });
    expect(fields).not.toHaveProperty('Notes');
    expect(fields['@odata.etag']).not.toBe(created.eTag);

    const stale = await ctx.graph(url, {
      method: 'PATCH',
      headers: { 'If-Match': created.eTag },
      body: JSON.stringify({ Status: 'Limited' }),
    });
    expect(stale.status).toBe(412);
    expect(((await stale.json()) as { error: { code: string } }).error.code).toBe('resourceModified');
    expect(ctx.emu.control.item(ctx.portal.lists.availability!, created.id)?.fields.Status).toBe(
      'Unavailable',
    );

    const noIfMatch = await ctx.graph(url, { method: 'PATCH', body: JSON.stringify({ Status: 'Limited' }) });
    expect(noIfMatch.status).toBe(200);
    const after = ctx.emu.control.item(ctx.portal.lists.availability!, created.id)!;
    expect(after.version).toBe(3);
  });

  it('deletes an item (204), honours If-Match, and 404s afterwards', async () => {
    const created = ctx.emu.control.addItem(ctx.portal.lists.availability!, { Title: '1001|2026-05-08' });
    const url = `${ctx.listPath('availability')}/items/${created.id}`;
    const stale = await ctx.graph(url, {
      method: 'DELETE',
      headers: { 'If-Match': '"00000000-0000-0000-0000-000000000000,1"' },
    });
    expect(stale.status).toBe(412);
    const del = await ctx.graph(url, { method: 'DELETE' });
    expect(del.status).toBe(204);
    expect(await del.text()).toBe('');
    expect(ctx.emu.control.item(ctx.portal.lists.availability!, created.id)).toBeUndefined();
    expect((await ctx.graph(url, { method: 'DELETE' })).status).toBe(404);
    expect((await ctx.graph(`${url}?$expand=fields`)).status).toBe(404);
  });

  it('never reuses ids after a delete', async () => {
    const av = ctx.portal.lists.availability!;
    const a = ctx.emu.control.addItem(av, { Title: 'a' });
    ctx.emu.control.deleteItem(av, a.id);
    const res = await ctx.graph(`${ctx.listPath('availability')}/items`, {
      method: 'POST',
      body: JSON.stringify({ fields: { Title: 'b' } }),
    });
    expect(((await res.json()) as Item).id).toBe('2');
  });
});
