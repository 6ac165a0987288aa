/**
 * `npm run migrate`: apply the committed migrations to the database the portal would use
 * (DATABASE_URL, otherwise the embedded one in DATA_DIR) and exit; non-zero when anything fails, so
 * an upgrade stops there. Safe beside running instances on PostgreSQL (they take turns); the embedded
 * database must not be open in a running portal.
 */
import { ConfigError, loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import { describeMigrationState, migrateDatabase, readMigrationState } from '../src/server/db/migrate';

async function main(): Promise<number> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    const before = await readMigrationState(database.db);
    await migrateDatabase(database);
    const after = await readMigrationState(database.db);
    const disagreement = describeMigrationState(after);
    if (disagreement) {
      process.stderr.write(`${disagreement}\n`);
      return 1;
    }
    process.stdout.write(
      before.behind === 0
        ? 'The database is up to date; no migration to apply.\n'
        : `Applied ${before.behind === 1 ? '1 migration' : `${before.behind} migrations`}; the database is up to date.\n`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `The migration failed; the database is as it was before it: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  },
);
