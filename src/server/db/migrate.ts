import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Database } from './client';
import { reconcileUsernameKeys } from './username-keys';

const migrationsFolder = fileURLToPath(new URL('../../../drizzle', import.meta.url));

// Any constant works; it only has to be the same for every instance of the portal.
const MIGRATION_LOCK_ID = 72_410_001;

/** Apply the committed SQL migrations. Instances starting together on PostgreSQL take turns. */
export async function migrateDatabase(database: Database): Promise<void> {
  if (database.kind === 'pglite') {
    await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder });
    await reconcileUsernameKeys(database.db);
    return;
  }
  const pool = database.pool!;
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const lockedDb = drizzle(client);
    await migrateNodePg(lockedDb as unknown as NodePgDatabase, { migrationsFolder });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
    client.release();
  }
  await database.db.execute(sql`select 1`);
  await reconcileUsernameKeys(database.db);
}
