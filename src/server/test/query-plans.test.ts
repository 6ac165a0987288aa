/**
 * on the statements the routes really send (captured through the database's query hook):
 *  - every range read is served by an index: EXPLAIN of each statement that reads a big table shows
 *    no sequential scan of it, with a year of rows for 300 facilitators, analysed;
 *  - no route sends more statements as the organisation grows (no N+1): the count for each route is
 *    the same with 3 facilitators as with 300.
 * Runs on PGlite and, in CI's second pass, on PostgreSQL.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, addMonths, startOfMonth } from '../../shared/calendar';
import { encodeKeyset } from '../modules/keyset';
import { encodeCursor } from '../modules/staff/service';
import { createTestApp, type TestApp } from './harness';

/** Tables that grow with facilitators × days: reading them by range must never scan them whole. */
const BIG_TABLES = ['availability', 'bookings', 'staff_notes', 'change_history'];

interface Statement {
  query: string;
  params: unknown[];
}

let t: TestApp;
let capturing: Statement[] | null = null;
let staff: string;
let facilitator: { id: number; cookie: string };
const MONTH = '2027-05-01';

/** Availability on ~85% of days, a booking on ~20% and a note on ~2% of facilitator-days. */
async function seedDays(from: string, to: string) {
  const h = (salt: string) => sql.raw(`abs(hashtext(u.id || ':' || d || ':${salt}')) % 100`);
  const scope = sql`from (select id from users where role = 'facilitator') u
                    cross join generate_series(${from}::date, ${to}::date, '1 day') d`;
  await t.ctx.db.execute(sql`
    insert into availability (user_id, date, status, notes)
    select u.id, d::date, (array['available', 'limited', 'unavailable'])[1 + ${h('s')} % 3], '' ${scope}
    where ${h('set')} < 85 on conflict do nothing`);
  await t.ctx.db.execute(sql`
    insert into bookings (user_id, date, title, sharepoint_id)
    select u.id, d::date, 'Workshop', 'plan-' || u.id || '-' || d::date ${scope}
    where ${h('b')} < 20 on conflict do nothing`);
  // one history row per day set, as saving each of them would have written
  await t.ctx.db.execute(sql`
    insert into change_history (entity, action, subject_user_id, date, actor_id, via, after)
    select 'availability', 'create', u.id, d::date, u.id, 'facilitator', '{}'::jsonb ${scope}
    where ${h('set')} < 85`);
  await t.ctx.db.execute(sql`
    insert into staff_notes (facilitator_id, date, note)
    select u.id, d::date, 'Call first' ${scope} where ${h('n')} < 2`);
  await t.ctx.db.execute(sql`analyze`);
}

async function addFacilitators(count: number) {
  await t.ctx.db.execute(sql`
    insert into users (username, username_canonical, display_name, role, area)
    select name, name, 'Plan ' || n, 'facilitator', 'North'
    from generate_series(1, ${count}) n, lateral (select 'plan' || n || '-' || ${Date.now()} || '@example.org' as name) made`);
}

/** The statements one request sends, and its status. */
async function statementsOf(url: string, cookie: string) {
  capturing = [];
  const response = await t.app.inject({ url, headers: { cookie } });
  const statements = capturing;
  capturing = null;
  return { status: response.statusCode, body: response.body, statements };
}

/** The read routes whose work grows with the organisation, for a month that starts at `month`. */
function reads(month: string) {
  const monthEnd = addDays(addMonths(month, 1), -1);
  const weekStart = addDays(month, 7);
  return [
    { url: `/api/availability?from=${month}&to=${monthEnd}`, as: 'facilitator' },
    { url: `/api/bookings?from=${month}&to=${monthEnd}`, as: 'facilitator' },
    { url: '/api/staff/users', as: 'staff' },
    { url: '/api/staff/users?limit=50', as: 'staff' },
    { url: `/api/staff/users?limit=50&search=plan&cursor=${encodeKeyset(['m', 0])}`, as: 'staff' },
    { url: `/api/staff/availabilities?from=${month}&to=${monthEnd}`, as: 'staff' },
    { url: `/api/staff/availabilities?from=${weekStart}&to=${addDays(weekStart, 4)}`, as: 'staff' },
    { url: `/api/staff/bookings?from=${month}&to=${monthEnd}`, as: 'staff' },
    // the staff grid: its first page, a page after it, and a page of a few areas and a search
    { url: `/api/staff/grid?from=${month}&to=${monthEnd}`, as: 'staff' },
    { url: `/api/staff/grid?from=${month}&to=${monthEnd}&cursor=${encodeCursor('m', 0)}`, as: 'staff' },
    { url: `/api/staff/grid?from=${month}&to=${monthEnd}&area=North&area=__no_area__&search=a`, as: 'staff' },
    { url: `/api/staff/notes?date=${month}&view=month`, as: 'staff' },
    { url: `/api/staff/notes?date=${weekStart}&view=week`, as: 'staff' },
    // patterns, reminders, feeds and history
    { url: `/api/staff/free?date=${weekStart}`, as: 'staff' },
    { url: `/api/staff/free?date=${weekStart}&include=all&limit=50`, as: 'staff' },
    { url: '/api/staff/users?limit=50&safeguarding=missing', as: 'staff' },
    // completeness: a page by name (from the order's index), one after it, and one by weekdays set
    { url: `/api/staff/completeness?month=${month.slice(0, 7)}`, as: 'staff' },
    {
      url: `/api/staff/completeness?month=${month.slice(0, 7)}&cursor=${encodeKeyset(['m', 0])}`,
      as: 'staff',
    },
    {
      url: `/api/staff/completeness?month=${month.slice(0, 7)}&sort=count&direction=descending`,
      as: 'staff',
    },
    { url: `/api/staff/export?format=csv&from=${month}&to=${monthEnd}`, as: 'staff' },
    { url: `/api/availability/export?from=${month}&to=${monthEnd}`, as: 'facilitator' },
    { url: `/api/history?from=${month}&to=${monthEnd}`, as: 'facilitator' },
    { url: `/api/staff/history?userId=${facilitator.id}&date=${weekStart}`, as: 'staff' },
    { url: `/api/staff/users/${facilitator.id}/history`, as: 'staff' },
  ] as const;
}

const cookieFor = (who: 'facilitator' | 'staff') => (who === 'staff' ? staff : facilitator.cookie);

beforeAll(async () => {
  t = await createTestApp({}, { onQuery: (query, params) => capturing?.push({ query, params }) });
  staff = await t.loginStaff();
  const user = await t.createUser({ username: 'planner@example.org' });
  facilitator = { id: user.id, cookie: await t.login(user.username, user.password) };
}, 120_000);
afterAll(() => t?.close());

describe('statements per request', () => {
  it('stay the same from 3 to 300 facilitators (no N+1)', async () => {
    await addFacilitators(2);
    const small = startOfMonth('2027-01-15');
    await seedDays(small, addDays(addMonths(small, 1), -1));
    // by position in the list: two reads of one route may have URLs of the same length
    const before: number[] = [];
    for (const read of reads(small)) {
      const { status, statements } = await statementsOf(read.url, cookieFor(read.as));
      expect(status, read.url).toBe(200);
      before.push(statements.length);
    }

    await addFacilitators(297);
    const large = startOfMonth('2027-02-15');
    await seedDays(large, addDays(addMonths(large, 1), -1));
    for (const [i, read] of reads(large).entries()) {
      const { status, body, statements } = await statementsOf(read.url, cookieFor(read.as));
      expect(status, read.url).toBe(200);
      expect(body.length, `${read.url} has the larger organisation's rows`).toBeGreaterThan(2);
      expect(statements.length, `${read.url}: ${statements.map((s) => s.query).join('\n')}`).toBe(before[i]);
    }
  }, 120_000);
});

describe('query plans', () => {
  it('read every big table by index for each range route', async () => {
    // a year around MONTH for everyone above: a month is a twelfth of each table
    await seedDays(addMonths(MONTH, -6), addMonths(MONTH, 6));
    const client = (
      t.ctx.db as unknown as { $client: { query(q: string, p: unknown[]): Promise<{ rows: unknown[] }> } }
    ).$client;
    // Each index's table and leading column: an index scan whose condition leaves the leading column
    // out walks the whole index (PostgreSQL 17 has no skip scan), which is a full scan by another name.
    const indexes = new Map(
      (
        (
          await client.query(
            `select c.relname as index, t.relname as "table", a.attname as leading
           from pg_index i join pg_class c on c.oid = i.indexrelid join pg_class t on t.oid = i.indrelid
           join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[0]`,
            [],
          )
        ).rows as Array<{ index: string; table: string; leading: string }>
      ).map((r) => [r.index, r]),
    );
    let explained = 0;
    for (const read of reads(MONTH)) {
      const { status, statements } = await statementsOf(read.url, cookieFor(read.as));
      expect(status, read.url).toBe(200);
      for (const statement of statements) {
        if (!/^\s*select/i.test(statement.query)) continue;
        if (!BIG_TABLES.some((table) => new RegExp(`"${table}"|\\b${table}\\b`).test(statement.query)))
          continue;
        const result = await client.query(`explain (format json) ${statement.query}`, statement.params);
        const plan = JSON.stringify(result.rows[0]);
        expect(fullScans(JSON.parse(plan), indexes), `${read.url}\n${statement.query}\n${plan}`).toEqual([]);
        explained++;
      }
    }
    // every route above reads at least one big table
    expect(explained).toBeGreaterThanOrEqual(reads(MONTH).length - 1);
  }, 180_000);
});

describe('keyset pages', () => {
  /** The address of the page after the first one `url` answers, by the cursor it gives. */
  const secondPage = async (url: string) => {
    const first = await t.app.inject({ url, headers: { cookie: staff } });
    const { nextCursor } = first.json() as { nextCursor: string | null };
    expect(nextCursor).toBeTruthy();
    return `${url}&cursor=${nextCursor}`;
  };
  const completeness = `/api/staff/completeness?month=${MONTH.slice(0, 7)}`;
  it.each([
    ['completeness by name', async () => completeness],
    ['completeness, the next page', () => secondPage(completeness)],
    ['accounts', async () => '/api/staff/users?limit=50'],
    ['accounts, the next page', () => secondPage('/api/staff/users?limit=50')],
  ])(
    '%s: the page can be read from the order index, from where the cursor points',
    async (_name, address) => {
      const { status, statements } = await statementsOf(await address(), staff);
      expect(status).toBe(200);
      const page = statements.find((s) => /\blimit\b/i.test(s.query) && /order by/i.test(s.query));
      expect(page, statements.map((s) => s.query).join('\n')).toBeDefined();
      // At a few hundred accounts reading the whole table and sorting it can cost the planner less
      // than the index; with both turned off, a plan that still cannot use the index (an order or a
      // cursor condition the index does not hold) falls back to them all the same, and fails here.
      const plan = JSON.stringify(
        await withSession(
          ['set enable_seqscan = off', 'set enable_sort = off'],
          `explain (format json) ${page!.query}`,
          page!.params,
        ),
      );
      expect(plan, plan).toContain('users_grid_order_idx');
    },
  );
});

type Queryer = { query(q: string, p?: unknown[]): Promise<{ rows: unknown[] }> };

/**
 * `statement` after `settings`, on one connection (PGlite has one; PostgreSQL's pool lends one),
 * the settings undone afterwards.
 */
async function withSession(settings: string[], statement: string, params: unknown[]): Promise<unknown> {
  const pool = (
    t.ctx.db as unknown as { $client: Queryer & { connect?: () => Promise<Queryer & { release(): void }> } }
  ).$client;
  const connection = pool.connect ? await pool.connect() : pool;
  try {
    for (const setting of settings) await connection.query(setting);
    return (await connection.query(statement, params)).rows[0];
  } finally {
    await connection.query('reset enable_seqscan');
    await connection.query('reset enable_sort');
    if ('release' in connection && typeof connection.release === 'function') connection.release();
  }
}

/**
 * Every whole-table read of a big table in an EXPLAIN (FORMAT JSON) answer: a Seq Scan, or an index
 * scan whose condition does not use the index's leading column.
 */
function fullScans(node: unknown, indexes: Map<string, { table: string; leading: string }>): string[] {
  if (Array.isArray(node)) return node.flatMap((n) => fullScans(n, indexes));
  if (!node || typeof node !== 'object') return [];
  const record = node as Record<string, unknown>;
  const problems: string[] = [];
  const type = record['Node Type'];
  const relation = record['Relation Name'];
  if (type === 'Seq Scan' && typeof relation === 'string' && BIG_TABLES.includes(relation)) {
    problems.push(`Seq Scan on ${relation}`);
  }
  if (type === 'Index Scan' || type === 'Index Only Scan' || type === 'Bitmap Index Scan') {
    const index = indexes.get(String(record['Index Name']));
    const condition = String(record['Index Cond'] ?? '');
    if (index && BIG_TABLES.includes(index.table) && !new RegExp(`\\b${index.leading}\\b`).test(condition)) {
      problems.push(
        `${type} on ${record['Index Name']} without its leading column ${index.leading}: ${condition}`,
      );
    }
  }
  return [...problems, ...Object.values(record).flatMap((v) => fullScans(v, indexes))];
}
