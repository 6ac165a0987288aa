import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthWeekdays } from '../../../shared/calendar';
import type { CompletenessResponse } from '../../../shared/schemas/completeness';
import { reminderSends } from '../../db/schema';
import { insertBookings, insertDays } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';

// December 2026: the 1st is a Tuesday; 23 weekdays
const MONTH = '2026-12';
const WEEKDAYS = monthWeekdays('2026-12-01');

let t: TestApp;
let staffCookie: string;
let facilitatorCookie: string;
const ids: Record<string, number> = {};

async function setDays(userId: number, dates: string[], status = 'available') {
  if (dates.length === 0) return;
  await insertDays(
    t.ctx.db,
    dates.map((date) => ({ userId, date, status })),
  );
}

beforeAll(async () => {
  t = await createTestApp({}, { now: () => new Date('2026-11-23T10:00:00Z') });
  const make = async (username: string, displayName: string, area: string | null, email: string | null) => {
    const row = await t.createUser({ username, displayName, area, email, password: 'pass-word-1' });
    ids[displayName] = row.id;
  };
  await make('cara@example.org', 'Cara', 'North', 'cara@example.org');
  await make('ann@example.org', 'ann', 'South', null);
  await make('bob', 'Bob', 'North', 'bob@example.org');
  await make('dee', 'Dee', null, null);
  staffCookie = await t.loginStaff();
  facilitatorCookie = await t.login('cara@example.org', 'pass-word-1');

  // Cara: every weekday (plus weekend days, which do not count)
  await setDays(ids.Cara!, [...WEEKDAYS, '2026-12-05', '2026-12-06']);
  // ann: 14 weekdays, one of them only a booking, another both a booking and availability
  await setDays(ids.ann!, WEEKDAYS.slice(0, 13), 'unavailable');
  await insertBookings(t.ctx.db, [
    { userId: ids.ann!, date: WEEKDAYS[13]!, sharePointId: 'c-1', title: 'Workshop' },
    { userId: ids.ann!, date: WEEKDAYS[0]!, sharePointId: 'c-2', title: 'Workshop' },
    // a booking of nobody's and one on a Saturday change nothing
    { userId: null, date: WEEKDAYS[20]!, sharePointId: 'c-3', title: 'Unassigned' },
    { userId: ids.Bob!, date: '2026-12-12', sharePointId: 'c-4', title: 'Saturday' },
  ]);
  // Bob: only days outside the month
  await setDays(ids.Bob!, ['2026-11-30', '2027-01-01']);
  // Dee: reminded about December earlier today and about November yesterday
  await t.ctx.db.insert(reminderSends).values([
    {
      userId: ids.Dee!,
      month: MONTH,
      sentOn: '2026-11-23',
      sentAt: new Date('2026-11-23T09:00:00Z'),
      email: 'x@example.org',
      trigger: 'staff',
    },
    {
      userId: ids.Dee!,
      month: '2026-11',
      sentOn: '2026-11-22',
      email: 'x@example.org',
      trigger: 'automatic',
    },
  ]);
});
afterAll(() => t.close());

const get = (query: string, cookie?: string) =>
  t.app.inject({ url: `/api/staff/completeness${query}`, headers: cookie ? { cookie } : {} });

describe('GET /api/staff/completeness', () => {
  it('anonymous 401, facilitator 403, staff 200', async () => {
    expect((await get(`?month=${MONTH}`)).statusCode).toBe(401);
    const facilitator = await get(`?month=${MONTH}`, facilitatorCookie);
    expect(facilitator.statusCode).toBe(403);
    expect(facilitator.body).not.toContain('Cara');
    expect((await get(`?month=${MONTH}`, staffCookie)).statusCode).toBe(200);
  });

  it('judges each facilitator on the weekdays of the month; booked days count; staff are left out', async () => {
    const response = await get(`?month=${MONTH}`, staffCookie);
    const body = response.json() as CompletenessResponse;
    expect(body).toMatchObject({ month: MONTH, label: 'December 2026', weekdays: 23 });
    expect(body.areas).toEqual(['North', 'South']);
    const byName = Object.fromEntries(body.facilitators.map((f) => [f.name, f]));
    // sorted by name, case-insensitively; the staff account is not a facilitator
    expect(body.facilitators.map((f) => f.name)).toEqual(['ann', 'Bob', 'Cara', 'Dee']);
    expect(byName.Cara).toMatchObject({ status: 'complete', setDays: 23, weekdays: 23, area: 'North' });
    expect(byName.ann).toMatchObject({ status: 'partial', setDays: 14, weekdays: 23 });
    expect(byName.Bob).toMatchObject({ status: 'missing', setDays: 0, email: 'bob@example.org' });
    expect(byName.Dee).toMatchObject({
      status: 'missing',
      setDays: 0,
      email: null,
      remindedToday: true,
      lastRemindedAt: '2026-11-23T09:00:00.000Z',
    });
    // the username is the reminder address when it is an email address and no email is set
    expect(byName.ann!.email).toBe('ann@example.org');
    expect(byName.Cara!.remindedToday).toBe(false);
    expect(body.counts).toEqual({ complete: 1, partial: 1, missing: 2 });
  });

  it('filters by area (the list of areas stays whole)', async () => {
    const body = (await get(`?month=${MONTH}&area=North`, staffCookie)).json() as CompletenessResponse;
    expect(body.facilitators.map((f) => f.name)).toEqual(['Bob', 'Cara']);
    expect(body.counts).toEqual({ complete: 1, partial: 0, missing: 1 });
    expect(body.areas).toEqual(['North', 'South']);
    const none = (await get(`?month=${MONTH}&area=Nowhere`, staffCookie)).json() as CompletenessResponse;
    expect(none.facilitators).toEqual([]);
    const blank = (await get(`?month=${MONTH}&area=`, staffCookie)).json() as CompletenessResponse;
    expect(blank.facilitators).toHaveLength(4);
  });

  it('another month has its own count of weekdays and its own reminders', async () => {
    const body = (await get('?month=2026-02', staffCookie)).json() as CompletenessResponse;
    expect(body).toMatchObject({ label: 'February 2026', weekdays: 20 });
    expect(body.facilitators.every((f) => f.status === 'missing' && !f.remindedToday)).toBe(true);
    const november = (await get('?month=2026-11', staffCookie)).json() as CompletenessResponse;
    const dee = november.facilitators.find((f) => f.name === 'Dee')!;
    // reminded yesterday: not today
    expect(dee.remindedToday).toBe(false);
    expect(dee.lastRemindedAt).not.toBeNull();
    expect(november.facilitators.find((f) => f.name === 'Bob')).toMatchObject({
      setDays: 1,
      status: 'partial',
    });
  });

  it('defaults to the current month in ORG_TIMEZONE', async () => {
    const body = (await get('', staffCookie)).json() as CompletenessResponse;
    expect(body.month).toBe('2026-11');
  });

  it('pages in each order, the counts and those to remind from every page together', async () => {
    /** every page of one order, two at a time, by following nextCursor */
    const walk = async (query: string) => {
      const names: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const url = `?month=${MONTH}&limit=2${query}${cursor ? `&cursor=${cursor}` : ''}`;
        const response = await get(url, staffCookie);
        expect(response.statusCode, url).toBe(200);
        const body = response.json() as CompletenessResponse;
        expect(body.facilitators.length).toBeLessThanOrEqual(2);
        // the summary is of everyone, on every page
        expect(body.counts).toEqual({ complete: 1, partial: 1, missing: 2 });
        expect(body.matching).toBe(4);
        expect(body.remindableIds).toEqual([ids.ann!, ids.Bob!, ids.Dee!].sort((a, b) => a - b));
        names.push(...body.facilitators.map((f) => f.name));
        cursor = body.nextCursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(2);
      return names;
    };
    expect(await walk('')).toEqual(['ann', 'Bob', 'Cara', 'Dee']);
    expect(await walk('&direction=descending')).toEqual(['Dee', 'Cara', 'Bob', 'ann']);
    // missing first, ties by name
    expect(await walk('&sort=status')).toEqual(['Bob', 'Dee', 'ann', 'Cara']);
    expect(await walk('&sort=status&direction=descending')).toEqual(['Cara', 'ann', 'Bob', 'Dee']);
    expect(await walk('&sort=count&direction=descending')).toEqual(['Cara', 'ann', 'Bob', 'Dee']);
    // no area last; the other way, first
    expect(await walk('&sort=area')).toEqual(['Bob', 'Cara', 'ann', 'Dee']);
    expect(await walk('&sort=area&direction=descending')).toEqual(['Dee', 'ann', 'Bob', 'Cara']);
  });

  it('a page of one area counts only that area', async () => {
    const body = (
      await get(`?month=${MONTH}&area=North&limit=1`, staffCookie)
    ).json() as CompletenessResponse;
    expect(body.facilitators.map((f) => f.name)).toEqual(['Bob']);
    expect(body).toMatchObject({ matching: 2, remindableIds: [ids.Bob], nextCursor: expect.any(String) });
    expect(body.counts).toEqual({ complete: 1, partial: 0, missing: 1 });
  });

  it.each([
    `?month=${MONTH}&cursor=not-a-cursor`,
    // a cursor of another order: by name it holds two values, by status three
    `?month=${MONTH}&sort=status&cursor=${Buffer.from('["bob",1]').toString('base64url')}`,
    `?month=${MONTH}&limit=0`,
    `?month=${MONTH}&limit=201`,
    `?month=${MONTH}&sort=email`,
    `?month=${MONTH}&direction=up`,
    '?month=2026-13',
    '?month=2026-1',
    '?month=26-12',
    '?month=abc',
    '?month=2026-12-01',
    '?month=1800-01',
    `?month=${MONTH}&area=${'x'.repeat(101)}`,
  ])('bad input %s: 400 with a message', async (query) => {
    // rows only: node-postgres results also carry per-query fields that differ between two calls
    const sends = async () =>
      (
        (await t.ctx.db.execute(sql`select count(*)::int as n from reminder_sends`)) as unknown as {
          rows: unknown[];
        }
      ).rows;
    const before = await sends();
    const response = await get(query, staffCookie);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBeTruthy();
    expect(await sends()).toEqual(before);
  });
});
