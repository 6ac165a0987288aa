import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Database, Queryable } from './client';
import { reconcileUsernameKeys } from './username-keys';

/** The committed SQL migrations this code knows (drizzle's journal names them and their times). */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../../drizzle', import.meta.url));

// Any constant works; it only has to be the same for every instance of the portal.
const MIGRATION_LOCK_ID = 72_410_001;

/**
 * Apply the committed SQL migrations. Instances starting together on PostgreSQL take turns. Drizzle
 * applies the missing migrations in one transaction: a failure leaves the database as it was.
 */
export async function migrateDatabase(
  database: Database,
  migrationsFolder: string = MIGRATIONS_FOLDER,
): Promise<void> {
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

/**
 * How the database's migrations compare with this code's: `behind` counts the code's migrations
 * the database lacks (an upgrade not yet migrated, or a restored older backup); `ahead` counts the
 * database's migrations the code does not know (a newer portal migrated it: a rollback of the code
 * without the database). Drizzle records each applied migration by its journal time.
 */
export interface MigrationState {
  behind: number;
  ahead: number;
}

export async function readMigrationState(
  db: Queryable,
  migrationsFolder: string = MIGRATIONS_FOLDER,
): Promise<MigrationState> {
  const known = readMigrationFiles({ migrationsFolder }).map((migration) => migration.folderMillis);
  const table = rows<{ present: boolean }>(
    await db.execute(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`),
  );
  if (!table[0]?.present) return { behind: known.length, ahead: 0 };
  const applied = rows<{ created_at: string }>(
    await db.execute(sql`select created_at from drizzle.__drizzle_migrations`),
  ).map((row) => Number(row.created_at));
  const appliedSet = new Set(applied);
  const knownSet = new Set(known);
  return {
    behind: known.filter((when) => !appliedSet.has(when)).length,
    ahead: applied.filter((when) => !knownSet.has(when)).length,
  };
}

/** What an operator is told when the database and the code disagree; null when they agree. */
export function describeMigrationState(state: MigrationState): string | null {
  if (state.ahead > 0)
    return `The database is ahead of this code: it holds ${plural(state.ahead)} this version of the portal does not know (a newer version migrated it). Run the newer version, or restore the backup taken before its upgrade.`;
  if (state.behind > 0)
    return `The database is behind this code: ${plural(state.behind)} not applied yet. Run \`npm run migrate\` (or start with MIGRATE_AT_START=true).`;
  return null;
}

function plural(count: number): string {
  return count === 1 ? '1 migration' : `${count} migrations`;
}

/** node-postgres answers { rows }, PGlite answers { rows } too; drizzle's types differ by driver. */
function rows<Row>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}
