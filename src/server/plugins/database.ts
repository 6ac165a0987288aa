import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { resolveAppSecret } from '../db/app-secret';
import { type Database, openDatabase } from '../db/client';
import { describeMigrationState, migrateDatabase, readMigrationState } from '../db/migrate';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    /** signs sessions and seals stored secrets */
    appSecret: string;
    /** the app's clock; tests pin it */
    now: () => Date;
  }
}

export interface DatabasePluginOptions {
  config: Config;
  /** an open database to use (tests); otherwise one is opened from the configuration */
  database?: Database | undefined;
  now: () => Date;
}

/** The database and the code disagree on the migrations: the start stops with what to do. */
export class MigrationStateError extends Error {}

/**
 * The database, migrated (unless MIGRATE_AT_START is off), checked to hold exactly the migrations
 * this code knows, and the app secret kept in it. The app closes the database itself (in
 * BuiltApp.close), after the scheduler's last round: an onClose hook here could run before it.
 */
const databasePlugin: FastifyPluginAsync<DatabasePluginOptions> = async (app, options) => {
  const { config } = options;
  const database =
    options.database ?? (await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR }));
  try {
    if (config.MIGRATE_AT_START) await migrateDatabase(database);
    const disagreement = describeMigrationState(await readMigrationState(database.db));
    if (disagreement) throw new MigrationStateError(disagreement);
  } catch (error) {
    // a database this plugin opened is closed again (the data directory's lock with it)
    if (!options.database) await database.close();
    throw error;
  }
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('appSecret', await resolveAppSecret(config.APP_SECRET, database, config.DATA_DIR));
  app.decorate('now', options.now);
};

export default fp(databasePlugin, { name: 'database', fastify: '5.x' });
