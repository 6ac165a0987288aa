/**
 * List answers (http/list-answers.ts) are revalidated by the versions the triggers keep: any write to
 * a list, whichever way it is made (the API, the outbox worker's kind of UPDATE, a cascade, a
 * TRUNCATE, plain SQL on bookings), gives a new ETag, and the answer equals the list read straight
 * from the database.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { listAvailability } from '../modules/availability/service';
import { listBookings } from '../modules/bookings/service';
import type { TestApp } from '../test/harness';
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

describe('list answers revalidated by version', () => {
  const world = listApp();
  let t: TestApp;
  let staff: string;
  let alice: SignedIn;
  let ben: SignedIn;
  beforeAll(() => {
    ({ t, staff, alice, ben } = world);
  });

  const get = async (url: string, cookie: string, etag?: string) => {
    const headers: Record<string, string> = { cookie };
    if (etag) headers['if-none-match'] = etag;
    const response = await t.app.inject({ url, headers });
    return { status: response.statusCode, etag: String(response.headers.etag), body: response.body };
  };
  const saveAs = world.save;

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
      const before = await get(STAFF_GRID, staff);
      await write();
      const after = await get(STAFF_GRID, staff, before.etag);
      expect(after.status, name).toBe(200);
      expect(after.etag, name).not.toBe(before.etag);
      expect(JSON.parse(after.body), name).toEqual(await listAvailability(t.ctx.db, RANGE));
    }
  });

  it("keeps each facilitator's own list apart: a change to one leaves the other's ETag", async () => {
    const url = `/api/availability?from=${RANGE.from}&to=${RANGE.to}`;
    expect((await saveAs(alice.cookie, '2027-03-03', 'available')).statusCode).toBe(200);
    expect((await saveAs(ben.cookie, '2027-03-04', 'limited')).statusCode).toBe(200);
    const bens = await get(url, ben.cookie);
    expect(JSON.parse(bens.body)).toEqual(await listAvailability(t.ctx.db, RANGE, ben.id));
    expect((await saveAs(alice.cookie, '2027-03-05', 'unavailable')).statusCode).toBe(200);
    expect((await get(url, ben.cookie, bens.etag)).status).toBe(304);
    const alices = await get(url, alice.cookie);
    expect(JSON.parse(alices.body)).toEqual(await listAvailability(t.ctx.db, RANGE, alice.id));
    expect(alices.body).toContain('2027-03-05');
    expect(alices.body).not.toContain(`"userId":${ben.id}`);
  });

  it('sees bookings written in any way', async () => {
    const before = await get(STAFF_BOOKINGS, staff);
    await t.ctx.db.execute(
      sql`insert into bookings (user_id, date, title, sharepoint_id) values (${alice.id}, '2027-03-10', 'Clay', 'sp-cache-1')`,
    );
    const after = await get(STAFF_BOOKINGS, staff, before.etag);
    expect(after.status).toBe(200);
    expect(JSON.parse(after.body)).toEqual(await listBookings(t.ctx.db, RANGE));
    await t.ctx.db.execute(sql`update bookings set title = 'Paint' where sharepoint_id = 'sp-cache-1'`);
    expect((await get(STAFF_BOOKINGS, staff, after.etag)).body).toContain('"title":"Paint"');
  });
});
