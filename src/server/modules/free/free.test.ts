import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FreeFacilitator, FreeResult } from '../../../shared/schemas/free';
import type { Queryable } from '../../db/client';
import { type bookings, users } from '../../db/schema';
import {
  insertBooking,
  insertDay,
  insertDbsCheck,
  insertNote,
  insertNotes,
  insertOpenSession,
} from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { findFree, fitOf } from './service';

// 23:30 UTC on 23 November is already the 24th in Auckland (UTC+13): "today" is the organisation's.
const NOW = new Date('2026-11-23T23:30:00Z');
const ORG_TODAY = '2026-11-24';
const DAY = '2026-12-02';

let t: TestApp;
let staffCookie: string;
let facilitatorCookie: string;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp({ ORG_TIMEZONE: 'Pacific/Auckland' }, { now: () => NOW });
  await t.createUser({ username: 'fran@example.org', displayName: 'Fran', password: 'fran-pass-1' });
  staffCookie = await t.loginStaff();
  facilitatorCookie = await t.login('fran@example.org', 'fran-pass-1');
});
afterAll(() => t.close());

const get = (url: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

/** Every test works in its own area, so the facilitators of other tests never show up. */
function newArea(): string {
  seq += 1;
  return `Area ${seq}`;
}

/** Everyone here has a DBS check that counts on DAY, unless a test says otherwise. */
async function person(
  displayName: string | null,
  area: string | null,
  username?: string,
  dbsIssued: string | null = '2026-01-05',
) {
  seq += 1;
  const created = await t.createUser({
    username: username ?? `free-${seq}@example.org`,
    displayName,
    area,
  });
  if (dbsIssued) {
    await insertDbsCheck(t.ctx.db, { userId: created.id, dbsIssueDate: dbsIssued });
  }
  return created;
}

async function setDay(
  userId: number,
  status: 'available' | 'limited' | 'unavailable',
  times: [string, string] = ['', ''],
  notes = '',
  date = DAY,
) {
  await insertDay(t.ctx.db, { userId, date, status, startTime: times[0], endTime: times[1], notes });
}

async function book(userId: number, extra: Partial<typeof bookings.$inferInsert> = {}, date = DAY) {
  await insertBooking(t.ctx.db, { userId, date, ...extra });
}

async function search(query: Record<string, string>): Promise<FreeResult> {
  const response = await get(`/api/staff/free?${new URLSearchParams({ date: DAY, ...query })}`, staffCookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const names = (rows: FreeFacilitator[]) => rows.map((row) => row.name);

describe('authorisation', () => {
  it('anonymous 401, facilitator 403, staff 200', async () => {
    const url = `/api/staff/free?date=${DAY}`;
    const anonymous = await get(url);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().message).toBe('Please sign in to continue');

    const facilitator = await get(url, facilitatorCookie);
    expect(facilitator.statusCode).toBe(403);
    expect(facilitator.json().message).toBe('This is for staff only');
    expect(facilitator.body).not.toContain('Fran');

    const staff = await get(url, staffCookie);
    expect(staff.statusCode).toBe(200);
    expect(staff.json().date).toBe(DAY);
  });

  it('refuses a facilitator before reading the query (no 400 leaks the rules)', async () => {
    const response = await get('/api/staff/free?date=nonsense', facilitatorCookie);
    expect(response.statusCode).toBe(403);
  });
});

describe('bad input: 400 with a clear message', () => {
  it.each([
    ['date=tomorrow', 'Date must be in yyyy-MM-dd format'],
    ['date=2026-02-30', 'Date is not a real calendar day'],
    ['from=09:00', 'Give both "from" and "to" for a time window, or neither'],
    ['to=12:00', 'Give both "from" and "to" for a time window, or neither'],
    ['from=12:00&to=09:00', '"to" must be later than "from"'],
    ['from=12:00&to=12:00', '"to" must be later than "from"'],
    ['from=9:00&to=12:00', '"from" must be a time in HH:mm format, e.g. 09:30'],
    ['from=09:00&to=24:00', '"to" must be a time in HH:mm format, e.g. 09:30'],
    ['from=09:00&to=noon', '"to" must be a time in HH:mm format, e.g. 09:30'],
    ['areas=(an area of 101 characters)', 'Each area must be at most 100 characters'],
    ['areas=(51 different areas)', 'Choose at most 50 areas'],
    ['areas=(60,000 commas)', 'Choose at most 50 areas'],
    ['include=everyone', 'Include must be free or all'],
    ['limit=0', 'Limit must be at least 1'],
    ['limit=201', 'Limit must be at most 200'],
  ])('%s', async (label, message) => {
    const query = label
      .replace('(an area of 101 characters)', 'x'.repeat(101))
      .replace('(51 different areas)', Array.from({ length: 51 }, (_, i) => `a${i}`).join(','))
      .replace('(60,000 commas)', 'x,'.repeat(60_000));
    const response = await get(`/api/staff/free?${query}`, staffCookie);
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.message).toContain(message);
    expect(Object.values(body.fieldErrors ?? {}).flat()).toContain(message);
  });

  it('takes blank fields as not given, and 50 areas (after removing duplicates) as the most', async () => {
    const blank = await get('/api/staff/free?date=&from=&to=&areas=&include=', staffCookie);
    expect(blank.statusCode, blank.body).toBe(200);
    expect(blank.json()).toMatchObject({ date: ORG_TODAY, from: null, to: null, areas: [], include: 'free' });

    const fifty = Array.from({ length: 50 }, (_, i) => `a${i}`);
    const response = await get(`/api/staff/free?areas=${[...fifty, ...fifty, 'A1'].join(',')}`, staffCookie);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().areas).toEqual(fifty);
  });
});

describe('the day and the window', () => {
  it('defaults the date to today in the organisation time zone', async () => {
    const response = await get('/api/staff/free', staffCookie);
    expect(response.statusCode).toBe(200);
    expect(response.json().date).toBe(ORG_TODAY);
  });

  it('echoes the window and the search', async () => {
    const area = newArea();
    const result = await search({ from: '09:00', to: '12:30', areas: ` ${area.toLowerCase()} ` });
    expect(result).toMatchObject({ date: DAY, from: '09:00', to: '12:30', include: 'free' });
  });

  it.each([
    // [times, window, fit]
    [['09:00', '12:00'], ['09:00', '12:00'], 'covers'],
    [['08:00', '17:00'], ['09:00', '12:00'], 'covers'],
    [['09:00', '12:00'], ['08:59', '12:00'], 'outside'],
    [['09:00', '12:00'], ['09:00', '12:01'], 'outside'],
    [['09:00', '12:00'], ['11:00', '12:30'], 'outside'],
    [['09:00', '12:00'], ['12:00', '13:00'], 'outside'],
    [['13:00', ''], ['14:00', '16:00'], 'covers'],
    [['13:00', ''], ['10:00', '16:00'], 'outside'],
    [['', '12:00'], ['07:00', '12:00'], 'covers'],
    [['', '12:00'], ['11:00', '13:00'], 'outside'],
    [['', ''], ['09:00', '12:00'], 'open'],
  ] as const)('times %j against window %j: %s', (times, window, fit) => {
    expect(fitOf(times[0], times[1], { from: window[0], to: window[1] })).toBe(fit);
  });

  it('leaves out those whose times miss the window and says which times', async () => {
    const area = newArea();
    const morning = await person('Morning', area);
    const late = await person('Late starter', area);
    const early = await person('Early finisher', area);
    const whole = await person('Whole window', area);
    await setDay(morning.id, 'available', ['09:00', '12:00']);
    await setDay(late.id, 'available', ['13:00', '']);
    await setDay(early.id, 'limited', ['', '11:00']);
    await setDay(whole.id, 'limited', ['10:00', '12:00']);

    const free = await search({ areas: area, from: '10:00', to: '12:00' });
    expect(names(free.facilitators)).toEqual(['Morning', 'Whole window']);
    expect(free.facilitators.map((row) => row.fit)).toEqual(['covers', 'covers']);
    expect(free.leftOutCount).toBe(2);

    const all = await search({ areas: area, from: '10:00', to: '12:00', include: 'all' });
    const reasons = Object.fromEntries(all.facilitators.map((row) => [row.name, row.reasons]));
    expect(reasons).toEqual({
      Morning: [],
      'Whole window': [],
      'Late starter': ["Times from 1:00 PM don't cover the window"],
      'Early finisher': ["Times until 11:00 AM don't cover the window"],
    });

    const narrower = await search({ areas: area, from: '11:00', to: '12:30', include: 'all' });
    expect(narrower.facilitators.find((row) => row.name === 'Morning')?.reasons).toEqual([
      "Times 9:00 AM – 12:00 PM don't cover the window",
    ]);
  });

  it('never lists a deactivated person (a leaver), in the search or as a session’s candidate', async () => {
    const area = newArea();
    const stays = await person('Stays', area);
    const leaves = await person('Leaves', area);
    await setDay(stays.id, 'available');
    await setDay(leaves.id, 'available');
    const off = await t.app.inject({
      method: 'POST',
      url: `/api/staff/users/${leaves.id}/deactivate`,
      headers: { cookie: staffCookie },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(names((await search({ areas: area, include: 'all' })).facilitators)).toEqual(['Stays']);
    const session = await insertOpenSession(t.ctx.db, { date: DAY });
    const candidates = await get(`/api/staff/sessions/${session.id}/candidates`, staffCookie);
    expect(candidates.statusCode, candidates.body).toBe(200);
    const listed = names((candidates.json() as FreeResult).facilitators);
    expect(listed).toContain('Stays');
    expect(listed).not.toContain('Leaves');
  });

  it('without a window every time given is fine and nobody has a fit', async () => {
    const area = newArea();
    const a = await person('Anna', area);
    const b = await person('Bo', area);
    await setDay(a.id, 'available', ['13:00', '15:00']);
    await setDay(b.id, 'available');
    const result = await search({ areas: area });
    expect(names(result.facilitators)).toEqual(['Anna', 'Bo']);
    expect(result.facilitators.map((row) => row.fit)).toEqual([null, null]);
  });
});

describe('ranking, one rule at a time', () => {
  it('available before limited', async () => {
    const area = newArea();
    const aaron = await person('Aaron', area);
    const zed = await person('Zed', area);
    await setDay(aaron.id, 'limited');
    await setDay(zed.id, 'available');
    expect(names((await search({ areas: area })).facilitators)).toEqual(['Zed', 'Aaron']);
  });

  it('times that cover the window before open times', async () => {
    const area = newArea();
    const aaron = await person('Aaron', area);
    const zed = await person('Zed', area);
    await setDay(aaron.id, 'available');
    await setDay(zed.id, 'available', ['09:00', '13:00']);
    const result = await search({ areas: area, from: '10:00', to: '12:00' });
    expect(names(result.facilitators)).toEqual(['Zed', 'Aaron']);
    expect(result.facilitators.map((row) => row.fit)).toEqual(['covers', 'open']);
  });

  it('status comes before times: available and open before limited and covering', async () => {
    const area = newArea();
    const aaron = await person('Aaron', area);
    const zed = await person('Zed', area);
    await setDay(aaron.id, 'limited', ['09:00', '13:00']);
    await setDay(zed.id, 'available');
    const result = await search({ areas: area, from: '10:00', to: '12:00' });
    expect(names(result.facilitators)).toEqual(['Zed', 'Aaron']);
  });

  it('fewer bookings that day first (shown with everyone, as the booked are left out)', async () => {
    const area = newArea();
    const aaron = await person('Aaron', area);
    const zed = await person('Zed', area);
    await setDay(aaron.id, 'available');
    await setDay(zed.id, 'available');
    await book(aaron.id);
    await book(aaron.id);
    await book(zed.id);
    await book(zed.id, {}, '2026-12-03'); // another day does not count
    const result = await search({ areas: area, include: 'all' });
    expect(names(result.facilitators)).toEqual(['Zed', 'Aaron']);
    expect(result.facilitators.map((row) => row.bookingsCount)).toEqual([1, 2]);
  });

  it('then by name, ignoring case', async () => {
    const area = newArea();
    for (const name of ['carl', 'Bella', 'anna']) {
      const p = await person(name, area);
      await setDay(p.id, 'available');
    }
    // no display name: the username is the name
    const nameless = await person(null, area, 'Ben@example.org');
    await setDay(nameless.id, 'available');
    expect(names((await search({ areas: area })).facilitators)).toEqual([
      'anna',
      'Bella',
      'Ben@example.org',
      'carl',
    ]);
  });

  it('with everyone shown, the free come first, then the rest by the same rules', async () => {
    const area = newArea();
    const rows: [string, 'available' | 'limited' | 'unavailable' | null, boolean][] = [
      ['Booked available', 'available', true],
      ['Unavailable', 'unavailable', false],
      ['Nothing set', null, false],
      ['Free limited', 'limited', false],
      ['Booked limited', 'limited', true],
      ['Free available', 'available', false],
    ];
    for (const [name, status, booked] of rows) {
      const p = await person(name, area);
      if (status) await setDay(p.id, status);
      if (booked) await book(p.id);
    }
    const result = await search({ areas: area, include: 'all' });
    expect(names(result.facilitators)).toEqual([
      'Free available',
      'Free limited',
      'Booked available',
      'Booked limited',
      'Unavailable',
      'Nothing set',
    ]);
    expect(result.facilitators.map((row) => row.free)).toEqual([true, true, false, false, false, false]);
    expect(result.leftOutCount).toBe(4);
  });
});

describe('pages', () => {
  /** Every page of a search, by the cursors the pages give. */
  async function allPages(query: Record<string, string>) {
    const pages: FreeResult[] = [];
    let cursor: string | null = null;
    do {
      pages.push(await search({ ...query, ...(cursor ? { cursor } : {}) }));
      cursor = pages.at(-1)!.nextCursor;
    } while (cursor);
    return pages;
  }

  it('pages everyone shown in the ranking, each once, people of the same name by id', async () => {
    const area = newArea();
    // two of the same name in each group, and groups of free and not free
    for (const [name, status] of [
      ['Sam Same', 'available'],
      ['sam same', 'available'],
      ['Sam Same', 'limited'],
      ['Sam Same', 'limited'],
      ['Sam Same', 'unavailable'],
      ['sam same', 'unavailable'],
      ['Sam Same', null],
    ] as const) {
      const p = await person(name, area);
      if (status) await setDay(p.id, status);
    }
    const whole = await search({ areas: area, include: 'all' });
    expect(whole.nextCursor).toBeNull();
    const pages = await allPages({ areas: area, include: 'all', limit: '2' });
    expect(pages.map((page) => page.facilitators.length)).toEqual([2, 2, 2, 1]);
    const paged = pages.flatMap((page) => page.facilitators.map((row) => row.userId));
    expect(paged).toEqual(whole.facilitators.map((row) => row.userId));
    expect(new Set(paged).size).toBe(7);
    // the counts are the whole list's, on every page
    for (const page of pages) expect(page).toMatchObject({ freeCount: 4, leftOutCount: 3 });
    // only the free, paged the same way
    const free = await allPages({ areas: area, limit: '3' });
    expect(free.flatMap((page) => page.facilitators.map((row) => row.userId))).toEqual(
      whole.facilitators.filter((row) => row.free).map((row) => row.userId),
    );
  });

  it('a page after a cursor still starts after that row when someone before it has gone', async () => {
    const area = newArea();
    const people = [];
    for (const name of ['Ann', 'Bob', 'Cat', 'Dan']) {
      const p = await person(name, area);
      await setDay(p.id, 'available');
      people.push(p);
    }
    const first = await search({ areas: area, limit: '2' });
    expect(names(first.facilitators)).toEqual(['Ann', 'Bob']);
    await t.ctx.db.update(users).set({ deactivatedAt: new Date() }).where(eq(users.id, people[0]!.id));
    const next = await search({ areas: area, limit: '2', cursor: first.nextCursor! });
    expect(names(next.facilitators)).toEqual(['Cat', 'Dan']);
    expect(next.nextCursor).toBeNull();
  });

  it('refuses a cursor it did not give with 400', async () => {
    const response = await get(`/api/staff/free?date=${DAY}&cursor=not-a-cursor`, staffCookie);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      message: 'The cursor is not one this list gave',
      fieldErrors: { cursor: ['Not a cursor from this list'] },
    });
  });
});

describe('the left out, with reasons', () => {
  it('leaves out the unavailable, the booked and those with nothing set unless everyone is asked for', async () => {
    const area = newArea();
    const free = await person('Free', area);
    const away = await person('Away', area);
    const booked = await person('Booked', area);
    await person('Silent', area);
    const both = await person('Both', area);
    await setDay(free.id, 'available');
    await setDay(away.id, 'unavailable', ['', ''], 'Holiday');
    await setDay(booked.id, 'available');
    await book(booked.id, {
      schoolName: 'Hillside Primary',
      program: 'Creative Movement',
      startTime: '10:00',
    });
    await book(booked.id, { schoolName: null, program: 'Drama', startTime: '09:00' });
    await setDay(both.id, 'unavailable');
    await book(both.id, { schoolName: null, program: null, title: 'Clay workshop' });

    const result = await search({ areas: area });
    expect(names(result.facilitators)).toEqual(['Free']);
    expect(result.facilitators[0]).toMatchObject({ free: true, reasons: [], status: 'available' });
    expect(result.leftOutCount).toBe(4);

    const all = await search({ areas: area, include: 'all' });
    const byName = Object.fromEntries(all.facilitators.map((row) => [row.name, row]));
    expect(byName.Away!.reasons).toEqual(['Unavailable']);
    expect(byName.Away!.availabilityNotes).toBe('Holiday');
    expect(byName.Silent!).toMatchObject({
      status: null,
      reasons: ['No availability set'],
      bookingsCount: 0,
    });
    // bookings in start-time order; school and programme named
    expect(byName.Booked!.reasons).toEqual(['Booked: Drama; Hillside Primary (Creative Movement)']);
    expect(byName.Booked!.bookings.map((b) => b.startTime)).toEqual(['09:00', '10:00']);
    expect(byName.Both!.reasons).toEqual(['Booked: Clay workshop', 'Unavailable']);
    expect(all.leftOutCount).toBe(4);
  });

  it('names at most three bookings and counts the rest', async () => {
    const area = newArea();
    const busy = await person('Busy', area);
    await setDay(busy.id, 'available');
    for (let i = 1; i <= 5; i++)
      await book(busy.id, { schoolName: `School ${i}`, startTime: `0${i + 4}:00` });
    const [row] = (await search({ areas: area, include: 'all' })).facilitators;
    expect(row!.reasons).toEqual(['Booked: School 1; School 2; School 3 and 2 more']);
    expect(row!.bookingsCount).toBe(5);
  });

  it("shows the day's availability notes and staff notes (most urgent first), never another day's", async () => {
    const area = newArea();
    const p = await person('Noted', area);
    await setDay(p.id, 'limited', ['09:00', '15:00'], 'School run until 9');
    await setDay(p.id, 'available', ['', ''], 'Other day', '2026-12-03');
    await insertNotes(t.ctx.db, [
      { facilitatorId: p.id, date: DAY, note: 'Prefers KS2', priority: 'normal' },
      { facilitatorId: p.id, date: DAY, note: 'DBS expires soon', priority: 'urgent' },
      { facilitatorId: p.id, date: DAY, note: 'Ask about Friday', priority: 'high' },
      { facilitatorId: p.id, date: '2026-12-03', note: 'Not today', priority: 'urgent' },
    ]);
    const [row] = (await search({ areas: area })).facilitators;
    expect(row).toMatchObject({
      status: 'limited',
      startTime: '09:00',
      endTime: '15:00',
      availabilityNotes: 'School run until 9',
    });
    expect(row!.notes.map((n) => [n.note, n.priority])).toEqual([
      ['DBS expires soon', 'urgent'],
      ['Ask about Friday', 'high'],
      ['Prefers KS2', 'normal'],
    ]);
  });
});

describe('areas', () => {
  it('filters by area ignoring case and outer spaces, lists every area, and never shows staff', async () => {
    const north = `North ${newArea()}`;
    const south = `South ${newArea()}`;
    const n = await person('Nell', north);
    const s = await person('Sol', south);
    const nobody = await person('Nobody', null);
    for (const id of [n.id, s.id, nobody.id]) await setDay(id, 'available');
    await t.createUser({
      username: `staff-${seq}@example.org`,
      displayName: 'Staffer',
      role: 'staff',
      area: north,
    });

    const one = await search({ areas: ` ${north.toUpperCase()} ` });
    expect(names(one.facilitators)).toEqual(['Nell']);
    expect(one.areas).toEqual([north]);
    expect(one.availableAreas).toEqual(expect.arrayContaining([north, south]));
    expect(one.availableAreas).toEqual([...one.availableAreas].sort((a, b) => a.localeCompare(b)));

    const two = await search({ areas: `${north},${south},${north.toLowerCase()}` });
    expect(names(two.facilitators)).toEqual(['Nell', 'Sol']);
    expect(two.areas).toEqual([north, south]);

    const repeated = await get(
      `/api/staff/free?date=${DAY}&areas=${encodeURIComponent(north)}&areas=${encodeURIComponent(south)}`,
      staffCookie,
    );
    expect(names(repeated.json().facilitators)).toEqual(['Nell', 'Sol']);

    const unknown = await search({ areas: 'Atlantis' });
    expect(unknown.facilitators).toEqual([]);
    expect(unknown.areas).toEqual(['Atlantis']);

    // no area chosen: everyone, those without an area included, staff never
    const everyone = await search({});
    expect(names(everyone.facilitators)).toEqual(expect.arrayContaining(['Nell', 'Sol', 'Nobody']));
    expect(names(everyone.facilitators)).not.toContain('Staffer');
  });
});

describe('efficiency', () => {
  /** The real database, counting the queries it is asked to build. */
  function counting(db: Queryable) {
    let queries = 0;
    const proxy = new Proxy(db, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        if (['select', 'selectDistinct', 'execute', 'query'].includes(String(property))) {
          return (...args: unknown[]) => {
            queries += 1;
            return value.apply(target, args);
          };
        }
        return value.bind(target);
      },
    });
    return { db: proxy as Queryable, count: () => queries };
  }

  it('asks the database the same fixed number of times for 2 or 40 facilitators', async () => {
    const area = newArea();
    const run = async () => {
      const probe = counting(t.ctx.db);
      const result = await findFree(probe.db, { date: DAY, areas: [area], include: 'all' });
      return { count: probe.count(), rows: result.facilitators.length };
    };
    for (let i = 0; i < 2; i++) {
      const p = await person(`Few ${i}`, area);
      await setDay(p.id, 'available');
      await book(p.id);
    }
    const few = await run();
    for (let i = 0; i < 38; i++) {
      const p = await person(`Many ${i}`, area);
      await setDay(p.id, i % 2 ? 'available' : 'limited');
      await insertNote(t.ctx.db, { facilitatorId: p.id, date: DAY, note: 'n' });
    }
    const many = await run();
    expect(few.rows).toBe(2);
    expect(many.rows).toBe(40);
    // four for the day, two for the safeguarding policy and records
    expect(few.count).toBe(6);
    expect(many.count).toBe(few.count);
  });
});

describe('safeguarding', () => {
  it('leaves out people whose checks are missing or expired on the day searched, and says why when everyone is shown', async () => {
    const area = newArea();
    const valid = await person('Val Valid', area);
    // 36 months from 3 Dec 2023 counts until 2 Dec 2026: the day searched is its last, so it warns
    const due = await person('Dot Due', area, undefined, '2023-12-03');
    const expired = await person('Ezra Expired', area, undefined, '2023-12-02');
    const missing = await person('Mo Missing', area, undefined, null);
    for (const who of [valid, due, expired, missing]) await setDay(who.id, 'available');

    const free = await search({ areas: area });
    expect(names(free.facilitators)).toEqual(['Dot Due', 'Val Valid']);
    expect(free.leftOutCount).toBe(2);
    expect(free.facilitators.map((row) => row.safeguarding.state)).toEqual(['expiring', 'valid']);

    const all = await search({ areas: area, include: 'all' });
    const byName = new Map(all.facilitators.map((row) => [row.name, row]));
    expect(byName.get('Ezra Expired')).toMatchObject({
      free: false,
      reasons: ['Safeguarding: DBS check expired: it counted until 1 December 2026'],
      safeguarding: { state: 'expired' },
    });
    expect(byName.get('Mo Missing')).toMatchObject({
      free: false,
      reasons: ['Safeguarding: No DBS check recorded'],
      safeguarding: { state: 'missing' },
    });
    expect(byName.get('Dot Due')!.free).toBe(true);
    expect(byName.get('Dot Due')!.safeguarding.reasons).toEqual([
      'DBS check due soon: valid until 2 December 2026',
    ]);
  });
});
