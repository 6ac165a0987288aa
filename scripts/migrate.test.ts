import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { adminQuery, databaseUrl } from '../src/server/test/database-template';

const root = fileURLToPath(new URL('..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'afp-migrate-'));
const serverUrl = process.env.TEST_DATABASE_URL;
const databaseName = `afp_migrate_${process.pid}`;

afterAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  if (serverUrl) await adminQuery(serverUrl, `drop database if exists ${databaseName} with (force)`);
});

/** `npm run migrate` as an operator runs it, on PGlite or, with TEST_DATABASE_URL, on PostgreSQL. */
function migrate(env: Record<string, string>) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts/migrate.ts')], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
  });
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('npm run migrate', () => {
  it('applies the migrations once, then finds nothing to do', async () => {
    const env: Record<string, string> = {};
    if (serverUrl) {
      await adminQuery(serverUrl, `create database ${databaseName}`);
      env.DATABASE_URL = databaseUrl(serverUrl, databaseName);
    }
    const first = migrate(env);
    expect(first.output).toMatch(/Applied \d+ migrations; the database is up to date\./);
    expect(first.code).toBe(0);
    const again = migrate(env);
    expect(again.output).toContain('The database is up to date; no migration to apply.');
    expect(again.code).toBe(0);
  }, 120_000);

  it('exits non-zero when it cannot migrate, so the upgrade stops there', () => {
    const failed = migrate({ DATABASE_URL: 'postgres://portal:secret@127.0.0.1:9/portal' });
    expect(failed.code).toBe(1);
    expect(failed.output).toContain('The migration failed; the database is as it was before it');
  }, 60_000);
});
