/**
 * Big list answers kept compressed in the database (list_answers_kept, ADR 56). After a start (the
 * list answers' memory emptied) a browser asking for Brotli gets the kept answer of the list's
 * current version as it is, without the list being built; once anything in the list changed, or
 * the code writes it in another format, the kept answer is never sent again. Every answer below is
 * compared with the list built straight from the rows. Runs on PGlite, or on PostgreSQL when
 * TEST_DATABASE_URL is set.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAvailabilityJson } from '../modules/availability/service';
import { listUsersJson } from '../modules/users/service';
import { createTestApp, type TestApp } from '../test/harness';

// More than 256 KiB of answer each: 1,600 facilitators, and every weekday of a month for each.
const FACILITATORS = 1600;
const MONTH = { from: '2027-05-03', to: '2027-05-31' };
const STAFF_MONTH = `/api/staff/availabilities?from=${MONTH.from}&to=${MONTH.to}`;
const NEXT_MONTH = { from: '2027-06-01', to: '2027-06-30' };
const STAFF_NEXT_MONTH = `/api/staff/availabilities?from=${NEXT_MONTH.from}&to=${NEXT_MONTH.to}`;
const NEXT_MONTH_KEY = `availability:all:${NEXT_MONTH.from}:${NEXT_MONTH.to}`;
const MONTH_KEY = `availability:all:${MONTH.from}:${MONTH.to}`;
const STAFF_BOOKINGS = `/api/staff/bookings?from=${MONTH.from}&to=${MONTH.to}`;

let t: TestApp;
let staff: string;
let firstId: number;

beforeAll(async () => {
  t = await createTestApp();
  staff = await t.loginStaff();
  const inserted = (await t.ctx.db.execute(sql`
    insert into users (username, username_canonical, password_hash, display_name, email, role, area)
    select 'kept' || n || '@example.org', 'kept' || n || '@example.org', 'not-a-hash',
           'Kept Facilitator ' || lpad(n::text, 4, '0'), 'kept' || n || '@example.org', 'facilitator', 'North'
    from generate_series(1, ${FACILITATORS}) n
    returning id`)) as unknown as { rows: Array<{ id: number }> };
  firstId = Math.min(...inserted.rows.map((row) => row.id));
  await t.ctx.db.execute(sql`
    insert into availability (user_id, date, status, notes)
    select u.id, d.day, (array['available', 'limited', 'unavailable'])[1 + (u.id + extract(day from d.day)::int) % 3],
           case when u.id % 7 = 0 then 'Mornings only, "please"' else '' end
    from users u
    cross join generate_series(${MONTH.from}::date, ${NEXT_MONTH.to}::date, '1 day') d(day)
    where u.role = 'facilitator' and extract(isodow from d.day) < 6`);
  // a booking a facilitator on one weekday each, and some nobody is linked to yet
  await t.ctx.db.execute(sql`
    insert into bookings (user_id, title, date, start_time, end_time, location, sharepoint_id, school_name)
    select case when n % 10 = 0 then null else ${firstId} + n % ${FACILITATORS} end, 'Clay workshop ' || n,
           ${MONTH.from}::date + (n % 4) * 7, '09:30', '12:00', 'School hall', 'kept-' || n, 'School ' || n
    from generate_series(1, ${FACILITATORS}) n`);
}, 120_000);
afterAll(() => t?.close());

interface Answer {
  text: string;
  encoding: string | undefined;
  raw: Buffer;
}

async function get(url: string, encoding: string): Promise<Answer> {
  const response = await t.app.inject({ url, headers: { cookie: staff, 'accept-encoding': encoding } });
  expect(response.statusCode, response.body).toBe(200);
  const coding = response.headers['content-encoding'] as string | undefined;
  const text =
    coding === 'br'
      ? brotliDecompressSync(response.rawPayload).toString('utf8')
      : coding === 'gzip'
        ? gunzipSync(response.rawPayload).toString('utf8')
        : response.body;
  return { text, encoding: coding, raw: response.rawPayload };
}

/** An answer as after a start: nothing in memory, the kept-level compression of the last one done. */
async function afterStart(url: string, encoding = 'br, gzip') {
  await t.ctx.lists.settled();
  t.ctx.lists.clear();
  return get(url, encoding);
}

async function keptRow(key: string) {
  const result = (await t.ctx.db.execute(
    sql`select version::text as version, format, brotli from list_answers_kept where key = ${key}`,
  )) as unknown as { rows: Array<{ version: string; format: string; brotli: Uint8Array }> };
  const row = result.rows[0];
  return row && { version: row.version, format: row.format, brotli: Buffer.from(row.brotli) };
}

async function currentVersion(list: 'availability' | 'users') {
  const result = (await t.ctx.db.execute(
    sql`select coalesce(sum(version), 0)::text as version from list_versions where list = ${list}`,
  )) as unknown as { rows: Array<{ version: string }> };
  return result.rows[0]!.version;
}

describe('big list answers kept in the database', () => {
  it('the staff month is kept after it is sent, and after a start sent from the database as it is', async () => {
    const first = await get(STAFF_MONTH, 'br');
    expect(first.text).toBe(await listAvailabilityJson(t.ctx.db, MONTH));
    expect(first.text.length).toBeGreaterThan(256 * 1024);
    await t.ctx.lists.settled();
    const kept = await keptRow(MONTH_KEY);
    expect(kept?.version).toBe(await currentVersion('availability'));
    expect(brotliDecompressSync(kept!.brotli).toString('utf8')).toBe(first.text);

    const before = t.ctx.lists.stats().kept;
    const again = await afterStart(STAFF_MONTH);
    expect(t.ctx.lists.stats().kept).toBe(before + 1);
    expect(again.encoding).toBe('br');
    expect(again.raw.equals(kept!.brotli)).toBe(true);
    // and it is held in memory from then on
    const hits = t.ctx.lists.stats().hits;
    expect((await get(STAFF_MONTH, 'br')).raw.equals(kept!.brotli)).toBe(true);
    expect(t.ctx.lists.stats().hits).toBe(hits + 1);
  });

  it('after any change to the list the kept answer is not sent: the list is built and kept again', async () => {
    await afterStart(STAFF_MONTH);
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/staff/availability',
      headers: { cookie: staff },
      payload: { userId: firstId, date: MONTH.to, status: 'unavailable', notes: 'Changed after it was kept' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // a change by plain SQL moves the version too
    await t.ctx.db.execute(
      sql`update availability set notes = 'Changed by hand' where user_id = ${firstId + 1} and date = ${MONTH.from}`,
    );
    const before = t.ctx.lists.stats().kept;
    const answer = await afterStart(STAFF_MONTH);
    expect(t.ctx.lists.stats().kept).toBe(before);
    expect(answer.text).toBe(await listAvailabilityJson(t.ctx.db, MONTH));
    expect(answer.text).toContain('Changed after it was kept');
    expect(answer.text).toContain('Changed by hand');
    await t.ctx.lists.settled();
    const kept = await keptRow(MONTH_KEY);
    expect(kept?.version).toBe(await currentVersion('availability'));
    expect(brotliDecompressSync(kept!.brotli).toString('utf8')).toBe(answer.text);
    // and that one is sent after the next start
    expect((await afterStart(STAFF_MONTH)).raw.equals(kept!.brotli)).toBe(true);
    expect(t.ctx.lists.stats().kept).toBe(before + 1);
  });

  it('an answer kept in another format (code that writes the list differently) is not sent', async () => {
    await afterStart(STAFF_MONTH);
    await t.ctx.db.execute(
      sql`update list_answers_kept set format = 'an-older-format', brotli = ${Buffer.from('not brotli')}
          where key = ${MONTH_KEY}`,
    );
    const before = t.ctx.lists.stats().kept;
    const answer = await afterStart(STAFF_MONTH);
    expect(t.ctx.lists.stats().kept).toBe(before);
    expect(answer.text).toBe(await listAvailabilityJson(t.ctx.db, MONTH));
    await t.ctx.lists.settled();
    const kept = await keptRow(MONTH_KEY);
    expect(kept?.format).not.toBe('an-older-format');
    expect(brotliDecompressSync(kept!.brotli).toString('utf8')).toBe(answer.text);
  });

  it('a browser without Brotli gets the list built, whatever is kept or held in memory', async () => {
    await afterStart(STAFF_MONTH);
    const expected = await listAvailabilityJson(t.ctx.db, MONTH);
    // memory holds only the Brotli form read back from the database
    expect((await get(STAFF_MONTH, 'br')).encoding).toBe('br');
    const gzip = await get(STAFF_MONTH, 'gzip');
    expect(gzip.encoding).toBe('gzip');
    expect(gzip.text).toBe(expected);
    // the Brotli form read back stays beside the text built for gzip: not made again
    const kept = await keptRow(MONTH_KEY);
    expect((await get(STAFF_MONTH, 'br')).raw.equals(kept!.brotli)).toBe(true);
    const plain = await afterStart(STAFF_MONTH, 'identity');
    expect(plain.encoding).toBeUndefined();
    expect(plain.text).toBe(expected);
    expect((await get(STAFF_MONTH, 'br')).text).toBe(expected);
  });

  it('the accounts list is kept too, and an account changed since is never sent from the old answer', async () => {
    const first = await get('/api/staff/users', 'br');
    expect(first.text).toBe(await listUsersJson(t.ctx.db));
    expect(first.text.length).toBeGreaterThan(256 * 1024);
    await t.ctx.lists.settled();
    expect((await keptRow('users'))?.version).toBe(await currentVersion('users'));
    const before = t.ctx.lists.stats().kept;
    expect((await afterStart('/api/staff/users')).text).toBe(first.text);
    expect(t.ctx.lists.stats().kept).toBe(before + 1);

    await t.ctx.db.execute(sql`update users set display_name = 'Renamed Facilitator' where id = ${firstId}`);
    const renamed = await afterStart('/api/staff/users');
    expect(t.ctx.lists.stats().kept).toBe(before + 1);
    expect(renamed.text).toBe(await listUsersJson(t.ctx.db));
    expect(renamed.text).toContain('Renamed Facilitator');
  });

  it("everyone's bookings over the month are kept the same way", async () => {
    const first = await get(STAFF_BOOKINGS, 'br');
    expect(first.text.length).toBeGreaterThan(256 * 1024);
    await t.ctx.lists.settled();
    const before = t.ctx.lists.stats().kept;
    const again = await afterStart(STAFF_BOOKINGS);
    expect(t.ctx.lists.stats().kept).toBe(before + 1);
    expect(again.text).toBe(first.text);
  });

  it('a month under 256 KiB, and a week however big, are not kept', async () => {
    const emptyMonth = { from: '2027-07-01', to: '2027-07-30' };
    expect(
      (await get(`/api/staff/availabilities?from=${emptyMonth.from}&to=${emptyMonth.to}`, 'br')).text,
    ).toBe('[]');
    const week = { from: '2027-05-10', to: '2027-05-14' };
    const weekAnswer = await get(`/api/staff/availabilities?from=${week.from}&to=${week.to}`, 'br');
    expect(weekAnswer.text.length).toBeGreaterThan(256 * 1024);
    await t.ctx.lists.settled();
    expect(await keptRow(`availability:all:${emptyMonth.from}:${emptyMonth.to}`)).toBeUndefined();
    expect(await keptRow(`availability:all:${week.from}:${week.to}`)).toBeUndefined();
  });

  it('an answer of an older version never replaces a newer one kept by another instance', async () => {
    await afterStart(STAFF_MONTH);
    const newer = Buffer.from('a newer answer, kept by another instance');
    await t.ctx.db.execute(
      sql`update list_answers_kept set version = 999999999999, brotli = ${newer} where key = ${MONTH_KEY}`,
    );
    const answer = await afterStart(STAFF_MONTH);
    expect(answer.text).toBe(await listAvailabilityJson(t.ctx.db, MONTH));
    await t.ctx.lists.settled();
    const kept = await keptRow(MONTH_KEY);
    expect(kept?.version).toBe('999999999999');
    expect(kept?.brotli.equals(newer)).toBe(true);
    await t.ctx.db.execute(sql`delete from list_answers_kept where key = ${MONTH_KEY}`);
  });

  it('requests at once share one read of the kept answer, and a revalidation after it is a 304', async () => {
    // a new version, whose answer is built and kept
    await t.ctx.db.execute(
      sql`update availability set notes = notes where user_id = ${firstId} and date = ${MONTH.from}`,
    );
    await get(STAFF_MONTH, 'br');
    await t.ctx.lists.settled();
    t.ctx.lists.clear();
    const before = t.ctx.lists.stats();
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        t.app.inject({ url: STAFF_MONTH, headers: { cookie: staff, 'accept-encoding': 'br' } }),
      ),
    );
    const after = t.ctx.lists.stats();
    expect(after.kept - before.kept).toBe(1);
    expect(after.misses - before.misses).toBe(1);
    expect(new Set(answers.map((answer) => answer.headers.etag)).size).toBe(1);
    expect(answers.every((answer) => answer.rawPayload.equals(answers[0]!.rawPayload))).toBe(true);
    const revalidated = await t.app.inject({
      url: STAFF_MONTH,
      headers: {
        cookie: staff,
        'accept-encoding': 'br',
        'if-none-match': answers[0]!.headers.etag as string,
      },
    });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.rawPayload.length).toBe(0);
  });

  it("deleting an account deletes every kept answer at once, with that account's rows in them", async () => {
    await afterStart(STAFF_MONTH);
    await get('/api/staff/users', 'br');
    await t.ctx.lists.settled();
    expect(await keptRow(MONTH_KEY)).toBeDefined();
    const leaving = firstId + FACILITATORS - 1;
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/staff/users/${leaving}`,
      headers: { cookie: staff },
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    const left = (await t.ctx.db.execute(
      sql`select count(*)::int as n from list_answers_kept`,
    )) as unknown as {
      rows: Array<{ n: number }>;
    };
    expect(left.rows[0]!.n).toBe(0);
    expect((await afterStart(STAFF_MONTH)).text).toBe(await listAvailabilityJson(t.ctx.db, MONTH));
  });

  it("a newer answer of one month takes the list's other months kept at older versions with it", async () => {
    await afterStart(STAFF_MONTH);
    await t.ctx.lists.settled();
    const may = await keptRow(MONTH_KEY);
    expect(may?.version).toBe(await currentVersion('availability'));
    await t.ctx.db.execute(
      sql`update availability set notes = 'June changed' where user_id = ${firstId} and date = '2027-06-01'`,
    );
    await get(STAFF_NEXT_MONTH, 'br');
    await t.ctx.lists.settled();
    expect((await keptRow(NEXT_MONTH_KEY))?.version).toBe(await currentVersion('availability'));
    expect(await keptRow(MONTH_KEY)).toBeUndefined();
    // the accounts list is another list: its answer stays
    await afterStart('/api/staff/users');
    await t.ctx.lists.settled();
    await t.ctx.db.execute(
      sql`update availability set notes = 'June changed again' where user_id = ${firstId} and date = '2027-06-01'`,
    );
    await afterStart(STAFF_NEXT_MONTH);
    await t.ctx.lists.settled();
    expect(await keptRow('users')).toBeDefined();
  });

  it('an answer whose list changed while it was being sent is not kept', async () => {
    await t.ctx.db.execute(sql`delete from list_answers_kept where key = ${NEXT_MONTH_KEY}`);
    t.ctx.lists.clear();
    await get(STAFF_NEXT_MONTH, 'br');
    // the change commits before the answer's kept-level Brotli (tens of milliseconds) is made
    await t.ctx.db.execute(
      sql`update availability set notes = 'Changed meanwhile' where user_id = ${firstId} and date = '2027-06-02'`,
    );
    await t.ctx.lists.settled();
    expect(await keptRow(NEXT_MONTH_KEY)).toBeUndefined();
    const answer = await afterStart(STAFF_NEXT_MONTH);
    expect(answer.text).toContain('Changed meanwhile');
  });

  it('when the kept answers cannot be read or saved, the list is built and sent all the same', async () => {
    await afterStart(STAFF_MONTH);
    await t.ctx.lists.settled();
    const keptBefore = await keptRow(MONTH_KEY);
    expect(keptBefore).toBeDefined();
    await t.ctx.db.execute(
      sql`update availability set notes = 'Changed while away' where user_id = ${firstId} and date = ${MONTH.from}`,
    );
    await t.ctx.db.execute(sql`alter table list_answers_kept rename to list_answers_kept_away`);
    try {
      const before = t.ctx.lists.stats().kept;
      const answer = await afterStart(STAFF_MONTH);
      expect(t.ctx.lists.stats().kept).toBe(before);
      expect(answer.text).toBe(await listAvailabilityJson(t.ctx.db, MONTH));
      expect(answer.text).toContain('Changed while away');
      // the save after it fails too
      await t.ctx.lists.settled();
    } finally {
      await t.ctx.db.execute(sql`alter table list_answers_kept_away rename to list_answers_kept`);
    }
    // and changed nothing: the row kept before is as it was
    const keptAfter = await keptRow(MONTH_KEY);
    expect(keptAfter?.version).toBe(keptBefore!.version);
    expect(keptAfter?.brotli.equals(keptBefore!.brotli)).toBe(true);
    expect((await afterStart(STAFF_MONTH)).text).toBe(await listAvailabilityJson(t.ctx.db, MONTH));
  });
});
