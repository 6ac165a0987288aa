import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock';
import { restrictDataDir, secureDataDir } from './data-dir-permissions';
import * as schema from './schema';

export type Schema = typeof schema;
/** The one database type services see, whichever engine is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything a query can run on: the database or an open transaction. */
export type Queryable = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** true when several instances may share this database */
  shared: boolean;
  close(): Promise<void>;
  /** Present for PostgreSQL: the pool, for advisory locks and LISTEN. */
  pool?: pg.Pool;
  /**
   * Job locks held in this process (db/job-locks.ts). On PGlite they are the only locks; they live on
   * the database because two apps opened on one database (tests) must see each other's.
   */
  heldJobLocks: Set<string>;
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  /** Directory for PGlite; `memory://` for a throwaway in-memory database. */
  dataDir: string;
  /** With `memory://`: start from this dump of a data directory (tests start from a migrated one). */
  loadDataDir?: Blob | undefined;
  /** Sees every statement the app sends (tests count them and EXPLAIN them). */
  onQuery?: (query: string, params: unknown[]) => void;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      // While PostgreSQL is away a request waits at most this long for a connection, then fails
      // with 503 (http/errors.ts) instead of hanging.
      connectionTimeoutMillis: 5_000,
      keepAlive: true,
    });
    // A dropped connection must not crash the process; the pool replaces it on the next checkout.
    pool.on('error', () => {});
    // The pool's own listener covers idle connections only. A connection that is checked out but
    // between queries (a transaction's JS work, a job lock held while SharePoint is called) that
    // PostgreSQL terminates (restart, failover, admin) emits 'error' on the client, and with no
    // listener Node ends the process (found by system/faults.test.ts: a PostgreSQL restart killed
    // the portal). The client is marked unusable either way; its next query fails and release()
    // discards it.
    pool.on('connect', (client) => {
      client.on('error', () => {});
    });
    const db = drizzleNodePg(pool, { schema, logger: queryLogger(options) }) as unknown as Db;
    return { db, kind: 'postgres', shared: true, pool, heldJobLocks: new Set(), close: () => pool.end() };
  }
  let client: PGlite;
  let lock: DataDirLock | undefined;
  if (options.dataDir === 'memory://') {
    client = new PGlite(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {});
  } else {
    secureDataDir(options.dataDir);
    const path = join(options.dataDir, 'pglite');
    mkdirSync(path, { recursive: true });
    // One process at a time: a second portal, or a backup, on the same files would corrupt them.
    lock = acquireDataDirLock(options.dataDir, 'a running portal');
    client = new PGlite(path);
  }
  try {
    await client.waitReady;
    if (options.dataDir !== 'memory://') restrictDataDir(options.dataDir);
  } catch (error) {
    lock?.release();
    throw error;
  }
  const db = drizzlePglite(client, { schema, logger: queryLogger(options) }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    shared: false,
    heldJobLocks: new Set(),
    close: async () => {
      try {
        await client.close();
      } finally {
        lock?.release();
      }
    },
  };
}

function queryLogger(options: DatabaseOptions) {
  const onQuery = options.onQuery;
  return onQuery ? { logQuery: (query: string, params: unknown[]) => onQuery(query, params) } : false;
}
