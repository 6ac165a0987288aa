/**
 * Request budgets: limits kept in the database, so two app instances on one database spend from the
 * same budget; a 429 says how long to wait; the expensive routes and every write are limited per user,
 * sign-in and registration per address; counters whose window has passed are deleted.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltApp, buildApp } from '../app';
import { loadConfig } from '../config';
import { createTestApp, type TestApp } from '../test/harness';
import { DEFAULT_BUDGETS } from './request-limits';

const MINUTE = 60_000;
let clock = Date.parse('2026-05-04T09:00:00Z');
const now = () => new Date(clock);

/** low maxima, reached quickly; each budget keeps its window (staffExport, write and login: a minute) */
const LIMITS = 'staffExport=3,safeguardingExport=2,write=4,dayWrites=1000,register=2,login=6';

let t: TestApp;
/** a second instance on the same database, as a second portal process behind a load balancer */
let second: BuiltApp;
let staffCookie: string;

beforeAll(async () => {
  t = await createTestApp({ ALLOW_REGISTRATION: 'true', REQUEST_BUDGETS: LIMITS }, { now });
  second = await buildApp(t.config, { database: t.ctx.database, now });
  staffCookie = await t.loginStaff();
});
afterAll(async () => {
  await second?.close();
  await t?.close();
});

const exportUrl = '/api/staff/export?from=2026-05-01&to=2026-05-31&format=csv';

describe('request budgets', () => {
  it('are shared by two instances on one database: a 429 with Retry-After and a message', async () => {
    const answers = [];
    for (const app of [t.app, second.app, t.app, second.app]) {
      answers.push(await app.inject({ url: exportUrl, headers: { cookie: staffCookie } }));
    }
    expect(answers.slice(0, 3).map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const refused = answers[3]!;
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.json()).toEqual({ message: expect.stringMatching(/^Too many requests\. Please wait/) });
    // per user: another user's budget is untouched
    const other = await t.createUser({ username: 'other-exporter@example.org' });
    const otherCookie = await t.login(other.username, other.password);
    const own = await second.app.inject({
      url: '/api/availability/export?from=2026-05-01&to=2026-05-31&format=csv',
      headers: { cookie: otherCookie },
    });
    expect(own.statusCode).toBe(200);
    // a new window, a new budget
    clock += MINUTE + 1000;
    expect((await t.app.inject({ url: exportUrl, headers: { cookie: staffCookie } })).statusCode).toBe(200);
  });

  it('give the safeguarding record for schools a budget of its own, apart from the grid export', async () => {
    const url = '/api/staff/safeguarding/export?from=2026-05-01&to=2026-05-31';
    const statuses = [];
    for (const app of [t.app, second.app, t.app]) {
      statuses.push((await app.inject({ url, headers: { cookie: staffCookie } })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 429]);
    // the grid export's budget is another one
    expect((await t.app.inject({ url: exportUrl, headers: { cookie: staffCookie } })).statusCode).not.toBe(
      429,
    );
    clock += MINUTE + 1000;
    expect((await t.app.inject({ url, headers: { cookie: staffCookie } })).statusCode).toBe(200);
  });

  it('limit every write of a user, on whichever instance it lands', async () => {
    const user = await t.createUser({ username: 'writer@example.org' });
    const cookie = await t.login(user.username, user.password);
    const save = (app: typeof t.app, day: number) =>
      app.inject({
        method: 'POST',
        url: '/api/availability',
        headers: { cookie },
        payload: { date: `2026-06-${String(day).padStart(2, '0')}`, status: 'available' },
      });
    const statuses = [];
    for (let day = 1; day <= 6; day++)
      statuses.push((await save(day % 2 ? t.app : second.app, day)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const saved = await t.ctx.db.execute(
      sql`select count(*)::int as n from availability where user_id = ${user.id}`,
    );
    expect((saved as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(4);
  });

  it('count the days a bulk update writes: a few 800-day updates spend the budget, small ones do not', async () => {
    const abuser = await t.createUser({ username: 'abuser@example.org' });
    const neighbour = await t.createUser({ username: 'neighbour@example.org' });
    const abuserCookie = await t.login(abuser.username, abuser.password);
    const neighbourCookie = await t.login(neighbour.username, neighbour.password);
    const bulk = (app: typeof t.app, cookie: string, endDate: string) =>
      app.inject({
        method: 'POST',
        url: '/api/availability/bulk',
        headers: { cookie },
        payload: {
          startDate: '2026-07-01',
          endDate,
          daysOfWeek: [0, 1, 2, 3, 4, 5, 6],
          status: 'unavailable',
        },
      });
    // 2026-07-01 + 799 days: 800 days each
    expect((await bulk(t.app, abuserCookie, '2028-09-07')).statusCode).toBe(200);
    const refused = await bulk(second.app, abuserCookie, '2028-09-07');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // refused before anything was written: only the first update's days exist
    const rows = await t.ctx.db.execute(
      sql`select count(*)::int as n from availability where user_id = ${abuser.id}`,
    );
    expect((rows as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(800);
    // someone else's small update goes through
    expect((await bulk(second.app, neighbourCookie, '2026-07-05')).statusCode).toBe(200);
  });

  it('limit sign-in and registration per address', async () => {
    const register = (address: string, n: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/register',
        remoteAddress: address,
        payload: { username: `new-${address}-${n}@example.org`, password: 'new-pass-123' },
      });
    expect((await register('192.0.2.10', 1)).statusCode).toBe(201);
    expect((await register('192.0.2.10', 2)).statusCode).toBe(201);
    const refused = await register('192.0.2.10', 3);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    const made = await t.ctx.db.execute(
      sql`select count(*)::int as n from users where username like 'new-192.0.2.10-%'`,
    );
    expect((made as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(2);
    // another address registers
    expect((await register('192.0.2.11', 1)).statusCode).toBe(201);

    const login = (app: typeof t.app) =>
      app.inject({
        method: 'POST',
        url: '/api/login',
        remoteAddress: '192.0.2.20',
        payload: { username: 'no-such-user@example.org', password: 'whatever-1' },
      });
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await login(i % 2 ? second.app : t.app)).statusCode);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.slice(-1)).toEqual([429]);

    // starting a Microsoft sign-in stores a request row each time: the same budget per address
    const start = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/microsoft/start',
        payload: {},
        remoteAddress: '192.0.2.30',
      });
    const starts = [];
    for (let i = 0; i < 7; i++) starts.push((await start()).statusCode);
    expect(starts.slice(0, 6)).not.toContain(429);
    expect(starts[6]).toBe(429);
  });

  it('delete counters whose window has passed, so the table stays bounded', async () => {
    const count = async () => {
      const result = await t.ctx.db.execute(sql`select count(*)::int as n from request_limits`);
      return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
    };
    expect(await count()).toBeGreaterThan(0);
    clock += 2 * 60 * MINUTE;
    await t.ctx.limits.sweep();
    expect(await count()).toBe(0);
    // a counter still in its window stays
    await t.app.inject({ url: exportUrl, headers: { cookie: staffCookie } });
    await t.ctx.limits.sweep();
    expect(await count()).toBe(1);
  });
});

describe('REQUEST_BUDGETS', () => {
  it('sets the maximum of the budgets it names from the environment, keeping their windows', async () => {
    const { REQUEST_BUDGETS } = loadConfig({ REQUEST_BUDGETS: 'dayWrites=20000, export=7' });
    expect(REQUEST_BUDGETS).toEqual({
      dayWrites: { ...DEFAULT_BUDGETS.dayWrites, max: 20000 },
      export: { ...DEFAULT_BUDGETS.export, max: 7 },
    });
    const app = await buildApp({ ...t.config, REQUEST_BUDGETS }, { database: t.ctx.database, now });
    try {
      expect(app.ctx.limits.budgets.dayWrites.max).toBe(20000);
      expect(app.ctx.limits.budgets.staffExport).toEqual(DEFAULT_BUDGETS.staffExport);
    } finally {
      await app.close();
    }
  });

  it.each([
    ['dayWrites', 'is not name=number'],
    ['dayWrites=-5', 'is not name=number'],
    ['dayWrites=1e6', 'is not name=number'],
    ['everything=5', 'is not a budget'],
    ['__proto__=5', 'is not name=number'],
    ['constructor=5', 'is not a budget'],
  ])('refuses %s at start', (value, message) => {
    expect(() => loadConfig({ REQUEST_BUDGETS: value })).toThrow(message);
  });
});
