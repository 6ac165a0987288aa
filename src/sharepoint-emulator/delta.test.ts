import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readAllPages, setup, type TestContext } from './test-support';

let ctx: TestContext;

beforeEach(async () => {
  ctx = await setup({}, { seed: 'delta', bookingCount: 25 });
});

afterEach(async () => {
  await ctx.emu.close();
});

type Json = Record<string, unknown>;

async function fullRound(url: string) {
  const { pages, items, last } = await readAllPages(ctx, url);
  const deltaLink = last['@odata.deltaLink'] as string;
  expect(deltaLink).toBeDefined();
  return { pages, items, deltaLink };
}

describe('items/delta', () => {
  it('enumerates every item first, paged, ending with a deltaLink', async () => {
    const { pages, items } = await fullRound(
      `${ctx.listPath('bookings')}/items/delta?$expand=fields&$top=10`,
    );
    expect(pages.map((p) => p.length)).toEqual([10, 10, 5]);
    expect(items.map((i) => i.id).sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: 25 }, (_, i) => String(i + 1)),
    );
    expect((items[0] as { fields: Json }).fields.Title).toBeDefined();
  });

  it('returns only changes afterwards, with deletions as deleted facets', async () => {
    const list = ctx.portal.lists.bookings!;
    const first = await fullRound(`${ctx.listPath('bookings')}/items/delta?$expand=fields`);

    const nothing = await fullRound(first.deltaLink);
    expect(nothing.items).toEqual([]);

    ctx.emu.control.updateItem(list, '3', { Status: 'Cancelled' });
    ctx.emu.control.deleteItem(list, '5');
    const added = ctx.emu.control.addItem(list, {
      Title: 'New booking',
      FreelancerID: '1001',
      SessionDate: '2026-05-11',
    });
    const changes = await fullRound(nothing.deltaLink);
    expect(changes.items).toEqual([
      expect.objectContaining({ id: '3', fields: expect.objectContaining({ Status: 'Cancelled' }) }),
      { id: '5', parentReference: { siteId: ctx.portal.site.id }, deleted: { state: 'deleted' } },
      expect.objectContaining({ id: added.id, fields: expect.objectContaining({ Title: 'New booking' }) }),
    ]);

    // Changes seen once are not repeated.
    expect((await fullRound(changes.deltaLink)).items).toEqual([]);
  });

  it('leaves unrecorded changes (made in-process or over the control plane) out of the feed', async () => {
    const list = ctx.portal.lists.bookings!;
    const first = await fullRound(`${ctx.listPath('bookings')}/items/delta?$expand=fields`);
    ctx.emu.control.updateItemUnrecorded(list, '2', { Title: 'Unseen by delta' });
    const itemUrl = (id: string) =>
      `${ctx.emu.authorityHost}/__emulator/sites/${encodeURIComponent(ctx.portal.site.id)}/lists/Bookings/items/${id}/unrecorded`;
    const patched = await fetch(itemUrl('3'), { method: 'PATCH', body: JSON.stringify({ Year: 'Year 2' }) });
    expect(patched.status).toBe(200);
    expect((await fetch(itemUrl('4'), { method: 'DELETE' })).status).toBe(204);
    expect((await fullRound(first.deltaLink)).items).toEqual([]);
    // the list itself holds them
    expect(ctx.emu.control.item(list, '2')?.fields.Title).toBe('Unseen by delta');
    expect(ctx.emu.control.item(list, '3')?.fields.Year).toBe('Year 2');
    expect(ctx.emu.control.item(list, '4')).toBeUndefined();
  });

  it('keeps changes made while a round is being paged for the next round', async () => {
    const list = ctx.portal.lists.bookings!;
    const firstPage = (await (
      await ctx.graph(`${ctx.listPath('bookings')}/items/delta?$top=5`)
    ).json()) as Json;
    ctx.emu.control.updateItem(list, '1', { Location: 'Hall' });
    const rest = await fullRound(firstPage['@odata.nextLink'] as string);
    const seenInRound = [...(firstPage.value as Json[]), ...rest.items].map((i) => i.id);
    expect(new Set(seenInRound).size).toBe(seenInRound.length);
    const next = await fullRound(rest.deltaLink);
    expect(next.items.map((i) => i.id)).toEqual(['1']);
  });

  it('token=latest gives an empty page and a deltaLink from now', async () => {
    const res = await ctx.graph(`${ctx.listPath('bookings')}/items/delta?token=latest`);
    const body = (await res.json()) as Json;
    expect(body.value).toEqual([]);
    ctx.emu.control.updateItem(ctx.portal.lists.bookings!, '2', { Year: 'Year 6' });
    const changes = await fullRound(body['@odata.deltaLink'] as string);
    expect(changes.items.map((i) => i.id)).toEqual(['2']);
  });

  it('answers 410 with a Location to restart when tokens are invalidated', async () => {
    const first = await fullRound(`${ctx.listPath('bookings')}/items/delta?$expand=fields`);
    ctx.emu.control.invalidateDeltaTokens(ctx.portal.lists.bookings!);
    const gone = await ctx.graph(first.deltaLink);
    expect(gone.status).toBe(410);
    expect(((await gone.json()) as { error: { code: string } }).error.code).toBe('resyncRequired');
    const location = gone.headers.get('location')!;
    expect(location).toContain('/items/delta');
    const restarted = await fullRound(location);
    expect(restarted.items).toHaveLength(25);
    // Tokens issued after the invalidation work.
    expect((await ctx.graph(restarted.deltaLink)).status).toBe(200);
  });

  it('invalidation also kills nextLinks of a round in progress, and only for that list', async () => {
    const page = (await (await ctx.graph(`${ctx.listPath('bookings')}/items/delta?$top=5`)).json()) as Json;
    const other = await fullRound(`${ctx.listPath('facilitators')}/items/delta`);
    ctx.emu.control.invalidateDeltaTokens(ctx.portal.lists.bookings!);
    expect((await ctx.graph(page['@odata.nextLink'] as string)).status).toBe(410);
    expect((await ctx.graph(other.deltaLink)).status).toBe(200);
  });

  it('answers 410 when a token is older than the retention', async () => {
    ctx.emu.control.setDeltaTokenRetention(60_000);
    const first = await fullRound(`${ctx.listPath('bookings')}/items/delta`);
    ctx.emu.control.advanceClock(61_000);
    expect((await ctx.graph(first.deltaLink)).status).toBe(410);
  });

  it('rejects a malformed token with 400', async () => {
    const res = await ctx.graph(`${ctx.listPath('bookings')}/items/delta?token=garbage!`);
    expect(res.status).toBe(400);
  });

  it('can write deletions as @removed, repeat items and inject an entry without an id', async () => {
    const list = ctx.portal.lists.bookings!;
    const first = await fullRound(`${ctx.listPath('bookings')}/items/delta`);
    ctx.emu.control.setDeltaQuirks({ deletedAs: 'removed', repeatItems: true, errorEntryNextPage: true });
    ctx.emu.control.deleteItem(list, '4');
    ctx.emu.control.updateItem(list, '6', { Location: 'Library' });
    const res = await ctx.graph(first.deltaLink);
    const body = (await res.json()) as { value: Json[]; '@odata.deltaLink'?: string };
    expect(body.value).toEqual([
      { id: '4', parentReference: { siteId: ctx.portal.site.id }, '@removed': { reason: 'deleted' } },
      expect.objectContaining({ id: '6' }),
      { id: '4', parentReference: { siteId: ctx.portal.site.id }, '@removed': { reason: 'deleted' } },
      { error: expect.objectContaining({ code: 'InternalServerError' }) },
    ]);
    // The error entry is one-shot: retrying the same link gives a clean page.
    const retry = (await (await ctx.graph(first.deltaLink)).json()) as { value: Json[] };
    expect(retry.value.every((v) => typeof v.id === 'string')).toBe(true);
  });
});
