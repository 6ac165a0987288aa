/**
 * One migrated database per test run, copied for every test file that asks for a database.
 *
 * Starting PGlite from nothing (initdb inside WebAssembly) and applying every migration cost most of
 * a test file's time. Vitest's global setup (test/global-setup.ts) now builds the migrated database
 * once: on PGlite it dumps the data directory to a tar file, which each file loads into a new
 * in-memory PGlite; on PostgreSQL (TEST_DATABASE_URL) it creates a template database, and each file
 * gets `create database … template …`. Every file still owns a database of its own, as before.
 * The app still runs its migrations at start (buildApp); on a copy of the template they find nothing
 * to apply, so a test that runs without the global setup (a single file outside Vitest's config, the
 * SharePoint bench) gets a fresh database migrated in place, exactly as before.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase } from '../db/client';
import { migrateDatabase } from '../db/migrate';

/** Set by the global setup for the test workers it starts. */
export const PGLITE_TEMPLATE_ENV = 'AFP_TEST_PGLITE_TEMPLATE';
export const POSTGRES_TEMPLATE_ENV = 'AFP_TEST_POSTGRES_TEMPLATE';

/** Builds the template; returns what removes it again. */
export async function createDatabaseTemplate(): Promise<() => Promise<void>> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const name = `afp_template_${randomBytes(6).toString('hex')}`;
    await adminQuery(serverUrl, `create database ${name}`);
    const database = await openDatabase({ databaseUrl: databaseUrl(serverUrl, name), dataDir: 'unused' });
    try {
      await migrateDatabase(database);
    } finally {
      // A template must have no open connections when another database is created from it.
      await database.close();
    }
    process.env[POSTGRES_TEMPLATE_ENV] = name;
    return async () => {
      delete process.env[POSTGRES_TEMPLATE_ENV];
      await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
    };
  }
  const database = await openDatabase({ dataDir: 'memory://' });
  const dir = mkdtempSync(join(tmpdir(), 'afp-test-template-'));
  try {
    await migrateDatabase(database);
    const client = (database.db as unknown as { $client: PGlite }).$client;
    // Uncompressed: loading a gzipped dump took longer than reading the larger file.
    const dump = await client.dumpDataDir('none');
    writeFileSync(join(dir, 'pglite.tar'), new Uint8Array(await dump.arrayBuffer()));
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  } finally {
    await database.close();
  }
  process.env[PGLITE_TEMPLATE_ENV] = join(dir, 'pglite.tar');
  return async () => {
    delete process.env[PGLITE_TEMPLATE_ENV];
    rmSync(dir, { recursive: true, force: true });
  };
}

let pgliteTemplate: Blob | undefined;

/** The migrated PGlite data directory as a tar, or undefined when no global setup made one. */
export function pgliteTemplateDump(): Blob | undefined {
  const path = process.env[PGLITE_TEMPLATE_ENV];
  if (!path) return undefined;
  pgliteTemplate ??= new Blob([readFileSync(path)]);
  return pgliteTemplate;
}

/** The template database's name on TEST_DATABASE_URL's server, when the global setup made one. */
export function postgresTemplateName(): string | undefined {
  return process.env[POSTGRES_TEMPLATE_ENV];
}

export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function adminQuery(serverUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}
