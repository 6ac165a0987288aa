import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { MIGRATIONS_FOLDER, migrateDatabase, readMigrationState } from '../../db/migrate';
import { builtClientDir } from '../../test/built-client';
import { createTestApp, freshDatabase, type TestApp, testConfig } from '../../test/harness';
import { notReadyReason } from './service';

/** A migration time later than any the code knows: a newer portal's. */
const NEWER = 4_102_444_800_000;

const clientDir = builtClientDir();
afterAll(() => rmSync(clientDir, { recursive: true, force: true }));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ CLIENT_DIR: clientDir });
});
afterAll(() => t.close());

const ready = () => t.app.inject({ url: '/api/health/ready' });

describe('the probes', () => {
  it('live: the process answers', async () => {
    const response = await t.app.inject({ url: '/api/health/live' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'live' });
  });

  it('ready: database answering, migrations current, client built', async () => {
    const response = await ready();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready' });
    // /api/health is as it was
    expect((await t.app.inject({ url: '/api/health' })).json()).toEqual({ status: 'ok' });
  });

  it('not ready while the database lacks a migration of this code, saying so', async () => {
    const [last] = (
      (await t.ctx.db.execute(
        sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations) returning hash, created_at`,
      )) as unknown as { rows: { hash: string; created_at: string }[] }
    ).rows;
    try {
      const response = await ready();
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ status: 'not-ready', reason: 'migrations-behind' });
      expect(response.json().message).toMatch(/behind this code: 1 migration not applied.*npm run migrate/);
    } finally {
      await t.ctx.db.execute(
        sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${last!.hash}, ${last!.created_at})`,
      );
    }
    expect((await ready()).statusCode).toBe(200);
  });

  it('not ready while a newer portal has migrated the database past this code', async () => {
    await t.ctx.db.execute(
      sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('newer', ${NEWER})`,
    );
    try {
      const response = await ready();
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ status: 'not-ready', reason: 'migrations-ahead' });
      expect(response.json().message).toMatch(/ahead of this code: it holds 1 migration/);
    } finally {
      await t.ctx.db.execute(sql`delete from drizzle.__drizzle_migrations where created_at = ${NEWER}`);
    }
  });

  it('not ready without a built client', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'afp-no-client-'));
    const other = await createTestApp({ CLIENT_DIR: empty });
    try {
      const response = await other.app.inject({ url: '/api/health/ready' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        status: 'not-ready',
        reason: 'client-not-built',
        message: 'The client is not built yet',
      });
    } finally {
      await other.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('not ready when the database does not answer; still live', async () => {
    const broken = await createTestApp({ CLIENT_DIR: clientDir });
    await broken.ctx.database.close();
    try {
      const response = await broken.app.inject({ url: '/api/health/ready' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ reason: 'database-unreachable' });
      expect((await broken.app.inject({ url: '/api/health/live' })).statusCode).toBe(200);
    } finally {
      await broken.app.close();
    }
  });

  it('not ready once the app has begun to stop', async () => {
    expect(t.app.shuttingDown()).toBe(false);
    const answer = await notReadyReason({ db: t.ctx.db, shuttingDown: () => true, clientBuilt: () => true });
    expect(answer).toEqual({
      status: 'not-ready',
      reason: 'shutting-down',
      message: 'The portal is stopping',
    });
    // an app's close begins by turning it on
    const stopping = await createTestApp({ CLIENT_DIR: clientDir });
    await stopping.close();
    expect(stopping.app.shuttingDown()).toBe(true);
  });
});

describe('starting on a database that disagrees with the code', () => {
  const config = testConfig;

  it('refuses a database behind the code when the start may not migrate, and migrates it otherwise', async () => {
    const { database, drop } = await freshDatabase();
    try {
      await database.db.execute(
        sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`,
      );
      await expect(buildApp(config({ MIGRATE_AT_START: 'false' }), { database })).rejects.toThrow(
        /The database is behind this code: 1 migration not applied yet. Run `npm run migrate`/,
      );
    } finally {
      await drop();
    }
  });

  it('refuses a database a newer portal migrated, even when it may migrate', async () => {
    const { database, drop } = await freshDatabase();
    try {
      await database.db.execute(
        sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('newer', ${NEWER})`,
      );
      await expect(buildApp(config(), { database })).rejects.toThrow(
        /The database is ahead of this code: it holds 1 migration this version of the portal does not know/,
      );
    } finally {
      await drop();
    }
  });

  it('a migration that fails leaves the database as it was, and the upgrade stops', async () => {
    const { database, drop } = await freshDatabase();
    const folder = mkdtempSync(join(tmpdir(), 'afp-migrations-'));
    try {
      await migrateDatabase(database);
      // the code's migrations and one more that creates a table, then fails
      cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
      const journalFile = join(folder, 'meta', '_journal.json');
      const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as {
        entries: { idx: number; when: number; tag: string; version: string; breakpoints: boolean }[];
      };
      const last = journal.entries.at(-1)!;
      journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag: '9999_broken' });
      writeFileSync(journalFile, JSON.stringify(journal));
      writeFileSync(
        join(folder, '9999_broken.sql'),
        'create table half_done (id integer);\n--> statement-breakpoint\nselect * from no_such_table;\n',
      );
      expect(await readMigrationState(database.db, folder)).toEqual({ behind: 1, ahead: 0 });
      await expect(migrateDatabase(database, folder)).rejects.toThrow();
      // nothing of the failed migration stayed: no table, not recorded
      const found = (await database.db.execute(
        sql`select to_regclass('public.half_done') is not null as present`,
      )) as unknown as { rows: { present: boolean }[] };
      expect(found.rows[0]?.present).toBe(false);
      expect(await readMigrationState(database.db, folder)).toEqual({ behind: 1, ahead: 0 });
    } finally {
      rmSync(folder, { recursive: true, force: true });
      await drop();
    }
  });
});
