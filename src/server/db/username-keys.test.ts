import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPglite } from '../test/harness';
import type { Database } from './client';
import { migrateDatabase } from './migrate';
import { users } from './schema';
import { reconcileUsernameKeys } from './username-keys';

let database: Database;
beforeAll(async () => {
  database = await freshPglite();
  await migrateDatabase(database);
});
afterAll(() => database.close());

describe('reconcileUsernameKeys', () => {
  it("corrects the migration's SQL fill to the application's canonical form and skeleton", async () => {
    const { db } = database;
    // as migration 0007 leaves rows: lower() in SQL, no skeleton; one collision marked with "#id"
    await db.execute(sql`
      insert into users (id, username, username_canonical) values
        (101, 'STRAßE@example.org', 'straße@example.org'),
        (102, 'plain@example.org', 'plain@example.org'),
        (103, 'strasse@example.org', 'strasse@example.org#103')`);
    const result = await reconcileUsernameKeys(db);
    const row = async (id: number) => (await db.select().from(users).where(eq(users.id, id)))[0]!;
    expect(await row(101)).toMatchObject({
      usernameCanonical: 'strasse@example.org',
      usernameSkeleton: 'strasse@example.org',
    });
    expect(await row(102)).toMatchObject({ usernameSkeleton: 'plain@example.org' });
    // its correct key belongs to 101: left as it was, counted
    expect(await row(103)).toMatchObject({
      usernameCanonical: 'strasse@example.org#103',
      usernameSkeleton: null,
    });
    expect(result).toEqual({ updated: 2, conflicting: 1 });
  });
});
