import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setup, type TestContext } from './test-support';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await setup({}, { seed: 'sites', bookingCount: 5, path: '/sites/Arts Team' });
});

afterAll(async () => {
  await ctx.emu.close();
});

type Json = Record<string, unknown>;

describe('site resolution', () => {
  it('resolves a site by host and server-relative path', async () => {
    const res = await ctx.graph('/sites/contoso.sharepoint.com:/sites/Arts%20Team');
    expect(res.status).toBe(200);
    const site = (await res.json()) as Json;
    expect(site.id).toBe(ctx.portal.site.id);
    expect(site.id).toMatch(/^contoso\.sharepoint\.com,[0-9a-f-]{36},[0-9a-f-]{36}$/);
    expect(site.webUrl).toBe('https://contoso.sharepoint.com/sites/Arts Team');
  });

  it('accepts a trailing colon, other casing and the id form', async () => {
    for (const path of [
      '/sites/Contoso.SharePoint.com:/sites/arts%20team:',
      `/sites/${ctx.portal.site.id}`,
      `/sites/${encodeURIComponent(ctx.portal.site.id)}`,
    ]) {
      const res = await ctx.graph(path);
      expect(res.status, path).toBe(200);
      expect(((await res.json()) as Json).id).toBe(ctx.portal.site.id);
    }
  });

  it('continues a path-addressed site into its lists', async () => {
    const res = await ctx.graph(
      '/sites/contoso.sharepoint.com:/sites/Arts%20Team:/lists/Bookings/items?$top=2',
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as { value: unknown[] }).value).toHaveLength(2);
  });

  it('answers 404 itemNotFound for an unknown site', async () => {
    const res = await ctx.graph('/sites/contoso.sharepoint.com:/sites/Nope');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('itemNotFound');
  });
});

describe('lists and columns', () => {
  it('finds a list by displayName filter, and returns an empty value when absent', async () => {
    const siteId = ctx.portal.site.id;
    const found = await ctx.graph(
      `/sites/${siteId}/lists?$filter=${encodeURIComponent("displayName eq 'Bookings'")}`,
    );
    expect(found.status).toBe(200);
    const value = ((await found.json()) as { value: Json[] }).value;
    expect(value).toHaveLength(1);
    expect(value[0]).toMatchObject({
      id: ctx.portal.lists.bookings!.id,
      displayName: 'Bookings',
      name: 'Bookings',
    });

    const missing = await ctx.graph(
      `/sites/${siteId}/lists?$filter=${encodeURIComponent("displayName eq 'Missing'")}`,
    );
    expect(((await missing.json()) as { value: Json[] }).value).toEqual([]);
  });

  it('lists every list without a filter, and rejects filters on other properties', async () => {
    const all = await ctx.graph(`/sites/${ctx.portal.site.id}/lists`);
    const names = ((await all.json()) as { value: Json[] }).value.map((l) => l.displayName).sort();
    expect(names).toEqual(['Availability', 'Bookings', 'Facilitators', 'Schools']);
    const bad = await ctx.graph(
      `/sites/${ctx.portal.site.id}/lists?$filter=${encodeURIComponent("name eq 'Bookings'")}`,
    );
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('invalidRequest');
  });

  it('gets a list by id or title', async () => {
    for (const key of [ctx.portal.lists.availability!.id, 'Availability', 'availability']) {
      const res = await ctx.graph(`/sites/${ctx.portal.site.id}/lists/${key}`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as Json).id).toBe(ctx.portal.lists.availability!.id);
    }
    expect((await ctx.graph(`/sites/${ctx.portal.site.id}/lists/Nothing`)).status).toBe(404);
  });

  it('reports columns with internal names and which are indexed', async () => {
    const res = await ctx.graph(`${ctx.listPath('bookings')}/columns`);
    expect(res.status).toBe(200);
    const cols = ((await res.json()) as { value: Json[] }).value;
    const byName = new Map(cols.map((c) => [c.name as string, c]));
    for (const name of [
      'Title',
      'FreelancerID',
      'SessionDate',
      'StartTime',
      'EndTime',
      'SchoolID',
      'Status',
    ]) {
      expect(byName.has(name), name).toBe(true);
    }
    expect(byName.get('SessionDate')).toMatchObject({ indexed: true, dateTime: { format: 'dateOnly' } });
    expect(byName.get('FreelancerID')).toMatchObject({ indexed: true, text: {} });
    expect(byName.get('Programme')).toMatchObject({ indexed: false });
    expect(byName.get('Status')).toMatchObject({
      choice: { choices: ['Confirmed', 'Provisional', 'Cancelled'] },
    });

    const avail = (
      (await (await ctx.graph(`${ctx.listPath('availability')}/columns`)).json()) as { value: Json[] }
    ).value;
    expect(avail.find((c) => c.name === 'Title')).toMatchObject({ indexed: true, enforceUniqueValues: true });
    expect(avail.find((c) => c.name === 'Day')).toMatchObject({ indexed: false });
  });
});
