/**
 * Cached range lists (http/list-answers.ts): an answer is reused only while nothing in its list has
 * changed, whichever way the change was made. Each write below goes through a different path (the
 * API, the outbox worker's kind of UPDATE, a cascade, a TRUNCATE, plain SQL on bookings) and the next
 * answer must equal a list built straight from the database.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { listAvailabilityJson } from '../modules/availability/service';
import { listBookingsJson } from '../modules/bookings/service';
import { createTestApp, type TestApp } from '../test/harness';
import { listApp, type SignedIn } from '../test/list-app';
import { chooseEncoding } from './list-answers';

const RANGE = { from: '2027-03-01', to: '2027-03-31' };
const STAFF_GRID = `/api/staff/availabilities?from=${RANGE.from}&to=${RANGE.to}`;
const STAFF_BOOKINGS = `/api/staff/bookings?from=${RANGE.from}&to=${RANGE.to}`;

describe('chooseEncoding', () => {
  it.each([
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['BR;Q=0.5', 'br'],
    ['*', 'br'],
    ['*;q=0', 'identity'],
    ['identity', 'identity'],
    ['', 'identity'],
    ['gzip;q=0, br;q=0', 'identity'],
    ['deflate', 'identity'],
  ])('%j → %s', (header, expected) => {
    expect(chooseEncoding(header) ?? 'identity').toBe(expected);
  });

  it('reads a header sent twice', () => {
    expect(chooseEncoding(['deflate', 'gzip'])).toBe('gzip');
    expect(chooseEncoding(undefined)).toBeNull();
  });
});

describe('cached range lists', () => {
  const world = listApp();
  let t: TestApp;
  let staff: string;
  let alice: SignedIn;
  let ben: SignedIn;
  beforeAll(() => {
    ({ t, staff, alice, ben } = world);
  });

  const get = async (url: string, cookie: string, encoding = 'identity') => {
    const response = await t.app.inject({ url, headers: { cookie, 'accept-encoding': encoding } });
    expect(response.statusCode).toBe(200);
    const body =
      response.headers['content-encoding'] === 'br'
        ? brotliDecompressSync(response.rawPayload).toString('utf8')
        : response.headers['content-encoding'] === 'gzip'
          ? gunzipSync(response.rawPayload).toString('utf8')
          : response.body;
    return { response, body };
  };
  const freshGrid = () => listAvailabilityJson(t.ctx.db, RANGE);
  const freshOwn = (userId: number) => listAvailabilityJson(t.ctx.db, RANGE, userId);
  const hitsAndMisses = () => {
    const { hits, misses } = t.ctx.lists.stats();
    return { hits, misses };
  };
  const saveAs = world.save;

  it('answers a repeated request from memory and a changed list afresh', async () => {
    expect((await saveAs(alice.cookie, '2027-03-02', 'available')).statusCode).toBe(200);
    const first = await get(STAFF_GRID, staff);
    expect(first.body).toBe(await freshGrid());
    const before = hitsAndMisses();
    const again = await get(STAFF_GRID, staff);
    expect(again.body).toBe(first.body);
    expect(hitsAndMisses()).toEqual({ hits: before.hits + 1, misses: before.misses });

    expect((await saveAs(alice.cookie, '2027-03-02', 'unavailable')).statusCode).toBe(200);
    const after = await get(STAFF_GRID, staff);
    expect(after.body).not.toBe(first.body);
    expect(after.body).toBe(await freshGrid());
    expect(JSON.parse(after.body)).toMatchObject([{ date: '2027-03-02', status: 'unavailable' }]);
  });

  it('sees every kind of write: bulk, staff, an outbox-style UPDATE, a cascade and a TRUNCATE', async () => {
    let carlId = 0;
    const writes: Array<[string, () => Promise<unknown>]> = [
      [
        'bulk update',
        async () => {
          const response = await t.app.inject({
            method: 'POST',
            url: '/api/availability/bulk',
            headers: { cookie: ben.cookie },
            payload: {
              startDate: '2027-03-08',
              endDate: '2027-03-12',
              daysOfWeek: [1, 2, 3, 4, 5],
              status: 'limited',
              startTime: '09:00',
              endTime: '12:00',
              notes: 'mornings',
            },
          });
          expect(response.statusCode).toBe(200);
        },
      ],
      [
        'staff edit',
        async () => {
          const response = await t.app.inject({
            method: 'POST',
            url: '/api/staff/availability',
            headers: { cookie: staff },
            payload: {
              userId: ben.id,
              date: '2027-03-09',
              status: 'available',
              startTime: '',
              endTime: '',
              notes: '',
            },
          });
          expect(response.statusCode).toBe(200);
        },
      ],
      ['UPDATE in SQL', () => t.ctx.db.execute(sql`update availability set synced_to_sharepoint = true`)],
      [
        'INSERT in SQL for a new facilitator',
        async () => {
          carlId = (await t.createUser({ username: 'carl@example.org' })).id;
          await t.ctx.db.execute(
            sql`insert into availability (user_id, date, status) values (${carlId}, '2027-03-15', 'available')`,
          );
        },
      ],
      ['cascade from deleting a user', () => t.ctx.db.execute(sql`delete from users where id = ${carlId}`)],
      ['TRUNCATE', () => t.ctx.db.execute(sql`truncate availability`)],
    ];
    for (const [name, write] of writes) {
      const before = (await get(STAFF_GRID, staff)).body;
      await write();
      const after = (await get(STAFF_GRID, staff)).body;
      expect(after, name).toBe(await freshGrid());
      expect(after, name).not.toBe(before);
    }
  });

  it("keeps each facilitator's own list apart, and a change to one leaves the other cached", async () => {
    const url = `/api/availability?from=${RANGE.from}&to=${RANGE.to}`;
    expect((await saveAs(alice.cookie, '2027-03-03', 'available')).statusCode).toBe(200);
    expect((await saveAs(ben.cookie, '2027-03-04', 'limited')).statusCode).toBe(200);
    expect((await get(url, alice.cookie)).body).toBe(await freshOwn(alice.id));
    expect((await get(url, ben.cookie)).body).toBe(await freshOwn(ben.id));

    expect((await saveAs(alice.cookie, '2027-03-05', 'unavailable')).statusCode).toBe(200);
    const before = hitsAndMisses();
    expect((await get(url, ben.cookie)).body).toBe(await freshOwn(ben.id));
    expect(hitsAndMisses().hits).toBe(before.hits + 1);
    const aliceNow = (await get(url, alice.cookie)).body;
    expect(aliceNow).toBe(await freshOwn(alice.id));
    expect(aliceNow).toContain('2027-03-05');
    expect(aliceNow).not.toContain(`"userId":${ben.id}`);
  });

  it('sees bookings written in any way', async () => {
    const before = (await get(STAFF_BOOKINGS, staff)).body;
    await t.ctx.db.execute(
      sql`insert into bookings (user_id, date, title, sharepoint_id) values (${alice.id}, '2027-03-10', 'Clay', 'sp-cache-1')`,
    );
    const after = (await get(STAFF_BOOKINGS, staff)).body;
    expect(after).not.toBe(before);
    expect(after).toBe(await listBookingsJson(t.ctx.db, RANGE));
    await t.ctx.db.execute(sql`update bookings set title = 'Paint' where sharepoint_id = 'sp-cache-1'`);
    expect((await get(STAFF_BOOKINGS, staff)).body).toContain('"title":"Paint"');
  });

  it('answers the same text in Brotli, gzip and uncompressed', async () => {
    await t.ctx.db.execute(
      sql`insert into availability (user_id, date, status, notes)
          select ${alice.id}, d::date, 'available', 'a note long enough to pass the threshold'
          from generate_series('2027-03-16'::date, '2027-03-31'::date, '1 day') d
          on conflict do nothing`,
    );
    const expected = await freshGrid();
    expect(expected.length).toBeGreaterThan(1024);
    for (const encoding of ['br', 'gzip', 'identity']) {
      const { response, body } = await get(STAFF_GRID, staff, encoding);
      expect(body).toBe(expected);
      expect(response.headers['content-encoding'] ?? 'identity').toBe(encoding);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.headers['cache-control']).toBe('private, no-cache'); // revalidated by ETag (ADR 26)
    }
  });

  it('sends a big list quickly compressed first, then compressed harder for later requests', async () => {
    // a year of days with ~800-character notes of words picked by hash: about 330 KB, past the size
    // that is compressed twice
    await t.ctx.db.execute(
      sql`insert into availability (user_id, date, status, notes)
          select ${ben.id}, d::date, 'limited',
                 (select string_agg((array['mornings', 'afternoons', 'school', 'travel', 'north', 'hall',
                                          'only', 'after', 'half', 'term', 'not', 'Fridays'])
                                    [1 + abs(hashtext(d::text || i)) % 12], ' ')
                  from generate_series(1, 110) i)
          from generate_series('2028-01-01'::date, '2028-12-31'::date, '1 day') d`,
    );
    const url = '/api/staff/availabilities?from=2028-01-01&to=2028-12-31';
    const expected = await listAvailabilityJson(t.ctx.db, { from: '2028-01-01', to: '2028-12-31' });
    expect(expected.length).toBeGreaterThan(256 * 1024);
    for (const encoding of ['br', 'gzip']) {
      const first = await get(url, staff, encoding);
      await t.ctx.lists.settled();
      const later = await get(url, staff, encoding);
      expect(first.body).toBe(expected);
      expect(later.body).toBe(expected);
      expect(later.response.headers.etag).toBe(first.response.headers.etag);
      expect(later.response.rawPayload.length).toBeLessThan(first.response.rawPayload.length);
    }
  });

  it('builds a list once for requests that arrive together', async () => {
    await saveAs(ben.cookie, '2027-03-22', 'available');
    const before = hitsAndMisses();
    const bodies = await Promise.all(
      Array.from({ length: 5 }, () => get(STAFF_GRID, staff).then((r) => r.body)),
    );
    expect(new Set(bodies).size).toBe(1);
    expect(hitsAndMisses().misses).toBe(before.misses + 1);
  });

  it('keeps within its memory bound, least recently used first out', async () => {
    const small = await createTestApp({ LIST_CACHE_BYTES: '9000' });
    try {
      const cookie = await small.loginStaff();
      const user = await small.createUser({ username: 'dora@example.org' });
      await small.ctx.db.execute(
        sql`insert into availability (user_id, date, status, notes)
            select ${user.id}, d::date, 'available', 'note'
            from generate_series('2027-01-01'::date, '2027-03-31'::date, '1 day') d`,
      );
      const month = (m: string) => `/api/staff/availabilities?from=2027-${m}-01&to=2027-${m}-28`;
      for (const m of ['01', '02', '03']) {
        const response = await small.app.inject({ url: month(m), headers: { cookie } });
        expect(response.statusCode).toBe(200);
        // about 3.5 KB each: two fit in 9,000 bytes, three do not
        expect(response.body.length).toBeGreaterThan(3000);
        expect(response.body.length).toBeLessThan(4500);
      }
      expect(small.ctx.lists.stats().bytes).toBeLessThanOrEqual(9000);
      expect(small.ctx.lists.stats().entries).toBe(2);
      // March and February stayed; January went first
      const before = small.ctx.lists.stats();
      await small.app.inject({ url: month('03'), headers: { cookie } });
      await small.app.inject({ url: month('01'), headers: { cookie } });
      expect(small.ctx.lists.stats().hits).toBe(before.hits + 1);
      expect(small.ctx.lists.stats().misses).toBe(before.misses + 1);
    } finally {
      await small.close();
    }
  });
});
