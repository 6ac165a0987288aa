import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDays } from '../test/factories';
import { createTestApp, type TestApp } from '../test/harness';
import { readListVersions } from './list-versions';
import { availability, safeguardingPolicyVersions, safeguardingRecords, users } from './schema';

let t: TestApp;
let ann: Awaited<ReturnType<TestApp['createUser']>>;
let ben: Awaited<ReturnType<TestApp['createUser']>>;

beforeAll(async () => {
  t = await createTestApp();
  ann = await t.createUser({ username: 'ann@example.org' });
  ben = await t.createUser({ username: 'ben@example.org' });
});
afterAll(() => t.close());

/** A list's counter for user 0 (the whole list) or one facilitator, as the triggers keep it. */
async function counter(list: string, userId: number): Promise<number> {
  const result = (await t.ctx.db.execute(
    sql`select coalesce(max(version), 0)::int as v from list_versions where list = ${list} and user_id = ${userId}`,
  )) as unknown as { rows: Array<{ v: number }> };
  return result.rows[0]!.v;
}

describe('the whole list kept beside each facilitator', () => {
  it("moves availability's total and the facilitators' own counters with every statement that changes days", async () => {
    const before = { total: await counter('availability', 0), ann: await counter('availability', ann.id) };
    const benBefore = await counter('availability', ben.id);
    await insertDays(t.ctx.db, [
      { userId: ann.id, date: '2026-03-02', status: 'available' },
      { userId: ann.id, date: '2026-03-03', status: 'limited' },
    ]);
    // one statement: one step for the list, one for Ann, none for Ben
    expect(await counter('availability', 0)).toBe(before.total + 1);
    expect(await counter('availability', ann.id)).toBe(before.ann + 1);
    expect(await counter('availability', ben.id)).toBe(benBefore);

    await t.ctx.db.update(availability).set({ status: 'unavailable' }).where(eq(availability.userId, ann.id));
    await t.ctx.db.delete(availability).where(eq(availability.userId, ann.id));
    expect(await counter('availability', 0)).toBe(before.total + 3);
    expect(await counter('availability', ann.id)).toBe(before.ann + 3);
  });

  it("leaves availability's and the accounts' totals where they were when a statement changes nothing", async () => {
    const at = await readListVersions(t.ctx.db, ['availability', 'users']);
    await t.ctx.db.update(availability).set({ status: 'available' }).where(eq(availability.userId, -1));
    await t.ctx.db.delete(users).where(eq(users.id, -1));
    expect(await readListVersions(t.ctx.db, ['availability', 'users'])).toBe(at);
  });

  it("moves the accounts' total with a change to any account", async () => {
    const total = await counter('users', 0);
    await t.ctx.db.update(users).set({ displayName: 'Ben B' }).where(eq(users.id, ben.id));
    expect(await counter('users', 0)).toBe(total + 1);
  });

  it('moves the safeguarding counter with a record or a policy saved', async () => {
    const first = await readListVersions(t.ctx.db, ['safeguarding']);
    await t.ctx.db.insert(safeguardingRecords).values({ userId: ann.id });
    const second = await readListVersions(t.ctx.db, ['safeguarding']);
    expect(second).not.toBe(first);
    await t.ctx.db
      .insert(safeguardingPolicyVersions)
      .values({ effectiveFrom: '2026-01-01', dbsMonths: 36, updateServiceMonths: 12, warningDays: 30 });
    expect(await readListVersions(t.ctx.db, ['safeguarding'])).not.toBe(second);
  });

  it("reads one facilitator's availability by their own counter", async () => {
    const annAt = await readListVersions(t.ctx.db, ['availability'], ann.id);
    const benAt = await readListVersions(t.ctx.db, ['availability'], ben.id);
    await insertDays(t.ctx.db, [{ userId: ben.id, date: '2026-03-04', status: 'available' }]);
    expect(await readListVersions(t.ctx.db, ['availability'], ann.id)).toBe(annAt);
    expect(await readListVersions(t.ctx.db, ['availability'], ben.id)).not.toBe(benAt);
  });
});
