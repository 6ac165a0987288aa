import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client';
import { migrateDatabase } from './migrate';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Every file and directory under `root` whose mode lets anyone but the owner in. */
function openToOthers(root: string): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    const stat = statSync(path);
    if ((stat.mode & 0o077) !== 0) found.push(`${path} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(root);
  return found;
}

describe('DATA_DIR permissions', () => {
  it('keeps the embedded database private: 0700 directories, 0600 files, also those written later', {
    timeout: 180_000,
  }, async () => {
    // the usual default umask, under which PGlite's files came out world-readable
    process.umask(0o022);
    const scratch = mkdtempSync(join(tmpdir(), 'afp-perm-'));
    dirs.push(scratch);
    const dataDir = join(scratch, 'data');
    // a file left by an earlier version, readable by everyone
    mkdirSync(join(dataDir, 'pglite'), { recursive: true, mode: 0o755 });
    writeFileSync(join(dataDir, 'pglite', 'left-over'), 'x', { mode: 0o666 });

    const database = await openDatabase({ dataDir });
    try {
      await migrateDatabase(database);
      // writes after opening: new relation files and WAL
      await database.db.execute(sql`create table later (id serial primary key, secret text)`);
      await database.db.execute(
        sql`insert into later (secret) select md5(g::text) from generate_series(1, 5000) g`,
      );
      await database.db.execute(sql`checkpoint`);
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(openToOthers(dataDir)).toEqual([]);
    } finally {
      await database.close();
    }
    expect(openToOthers(dataDir)).toEqual([]);
    expect(readdirSync(join(dataDir, 'pglite')).length).toBeGreaterThan(3);
  });
});
