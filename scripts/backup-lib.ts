/**
 * Backup and restore of the portal's database (docs/decisions/0005-backups.md). The CLIs are
 * scripts/backup.ts and scripts/restore.ts; the logic is here so the tests drive it directly.
 *
 * Embedded (PGlite): one gzipped tar holding manifest.json, pgdata.tar (PGlite's dumpDataDir) and
 * DATA_DIR's app-secret. Taken and restored with the portal stopped: DATA_DIR/portal.lock refuses
 * otherwise. PostgreSQL: pg_dump's custom format, restored with pg_restore in one transaction.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import type { Config } from '../src/server/config';
import type { Db } from '../src/server/db/client';
import { acquireDataDirLock, type DataDirLock, DataDirLockedError } from '../src/server/db/data-dir-lock';
import { restrictDataDir, secureDataDir } from '../src/server/db/data-dir-permissions';
import * as schema from '../src/server/db/schema';
import { loadSharePointSettings, StoredSecretError } from '../src/server/sharepoint/settings';

/** A refusal or failure the operator can act on; the CLIs print its message and exit 1. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

export type Log = (line: string) => void;

function checkInterrupted(signal: AbortSignal | undefined) {
  if (signal?.aborted) throw new BackupError('Interrupted: nothing was changed.');
}

export interface Counts {
  users: number;
  availability: number;
  bookings: number;
  staffNotes: number;
}

/** What a database holds, as the backup and restore summaries report it. */
interface Facts {
  counts: Counts;
  migrations: number;
  postgresVersion: string;
  /** Whether the stored SharePoint secrets decrypt with the app secret the portal will use. */
  secrets: 'none' | 'readable' | 'unreadable' | 'no app secret';
}

const FORMAT = 'arts-facilitator-portal-backup';

interface Manifest {
  format: typeof FORMAT;
  version: 1;
  engine: 'pglite';
  createdAt: string;
  postgresVersion: string;
  migrations: number;
  counts: Counts;
  /** file: DATA_DIR/app-secret is in the backup; environment: APP_SECRET was set when it was taken. */
  appSecret: { file: boolean; environment: boolean };
  pgdata: { bytes: number; sha256: string };
}

const PGDATA_ENTRY = 'pgdata.tar';
const SECRET_ENTRY = 'app-secret';
const MANIFEST_ENTRY = 'manifest.json';

// ------------------------------------------------------------------------------------------------
// Small helpers

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function formatCounts(counts: Counts): string {
  const n = (value: number, one: string, many: string) => `${value} ${value === 1 ? one : many}`;
  return [
    n(counts.users, 'user', 'users'),
    n(counts.availability, 'availability day', 'availability days'),
    n(counts.bookings, 'booking', 'bookings'),
    n(counts.staffNotes, 'staff note', 'staff notes'),
  ].join(', ');
}

const sameCounts = (a: Counts, b: Counts) =>
  a.users === b.users &&
  a.availability === b.availability &&
  a.bookings === b.bookings &&
  a.staffNotes === b.staffNotes;

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

function stamp(now: Date): string {
  return now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/** Where backups go when no place is given: ./backups (relative to the portal's directory under npm). */
export const DEFAULT_DIRECTORY = 'backups';

/** Where the backup goes: the given file, a default name in the given directory, or in the current one. */
function outputPath(output: string | undefined, extension: string, now: Date): string {
  const name = `portal-backup-${stamp(now)}${extension}`;
  if (!output) {
    mkdirSync(DEFAULT_DIRECTORY, { recursive: true, mode: 0o700 });
    return resolve(DEFAULT_DIRECTORY, name);
  }
  if (existsSync(output) && statSync(output).isDirectory()) return resolve(output, name);
  if (/[/\\]$/.test(output)) throw new BackupError(`The directory ${resolve(output)} does not exist.`);
  return resolve(output);
}

function fsyncPath(path: string) {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Write through a temporary name and rename, so a crash never leaves half a file under `path`. */
function writeFileAtomically(path: string, data: Uint8Array) {
  const partial = `${path}.partial-${process.pid}`;
  try {
    writeFileSync(partial, data, { mode: 0o600 });
    fsyncPath(partial);
    renameSync(partial, path);
  } finally {
    rmSync(partial, { force: true });
  }
  fsyncPath(dirname(path));
}

/**
 * fsync every file and directory under `root`, so the restored database is on disk before it goes live
 * (a thousand small files: several at a time, through libuv's thread pool).
 */
async function fsyncTree(root: string) {
  const paths: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      paths.push(join(dir, entry.name));
    }
  };
  walk(root);
  paths.push(root);
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const handle = await open(paths[next++]!, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

function lockDataDir(dataDir: string, holder: string, action: string): DataDirLock {
  // a restore writes a whole new database into DATA_DIR: private, like the portal's own
  secureDataDir(dataDir);
  try {
    return acquireDataDirLock(dataDir, holder);
  } catch (error) {
    if (error instanceof DataDirLockedError) throw new BackupError(`Cannot ${action}. ${error.message}`);
    throw error;
  }
}

// ------------------------------------------------------------------------------------------------
// A minimal ustar reader and writer: the backup opens with any tar (`tar -tzvf backup.tar.gz`).

function tarHeader(name: string, size: number, mtime: Date): Buffer {
  const header = Buffer.alloc(512);
  const field = (offset: number, length: number, value: string) =>
    header.write(value, offset, length, 'ascii');
  const octal = (value: number, length: number) => `${value.toString(8).padStart(length - 1, '0')}\0`;
  field(0, 100, name);
  field(100, 8, octal(0o600, 8));
  field(108, 8, octal(0, 8));
  field(116, 8, octal(0, 8));
  field(124, 12, octal(size, 12));
  field(136, 12, octal(Math.floor(mtime.getTime() / 1000), 12));
  field(148, 8, '        ');
  field(156, 1, '0');
  field(257, 6, 'ustar\0');
  field(263, 2, '00');
  let sum = 0;
  for (const byte of header) sum += byte;
  field(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return header;
}

function packTar(entries: { name: string; data: Uint8Array }[], mtime: Date): Buffer {
  const parts: Buffer[] = [];
  for (const { name, data } of entries) {
    parts.push(tarHeader(name, data.length, mtime), Buffer.from(data));
    const padding = (512 - (data.length % 512)) % 512;
    if (padding) parts.push(Buffer.alloc(padding));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

function unpackTar(tar: Buffer): Map<string, Buffer> {
  const entries = new Map<string, Buffer>();
  let offset = 0;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) return entries;
    const text = (start: number, length: number) =>
      header.toString('ascii', start, start + length).replace(/\0.*$/s, '');
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : header[i]!;
    if (Number.parseInt(text(148, 8).trim(), 8) !== sum) throw new Error('a tar header checksum is wrong');
    const size = Number.parseInt(text(124, 12).trim(), 8);
    const start = offset + 512;
    if (!Number.isFinite(size) || start + size > tar.length) throw new Error('the archive is truncated');
    if (text(156, 1) === '0' || text(156, 1) === '')
      entries.set(text(0, 100), tar.subarray(start, start + size));
    offset = start + Math.ceil(size / 512) * 512;
  }
  throw new Error('the archive is truncated');
}

// ------------------------------------------------------------------------------------------------
// What a database holds

async function inspectDatabase(db: Db, appSecret: string | null): Promise<Facts> {
  let counts: Counts;
  try {
    counts = {
      users: await db.$count(schema.users),
      availability: await db.$count(schema.availability),
      bookings: await db.$count(schema.bookings),
      staffNotes: await db.$count(schema.staffNotes),
    };
  } catch (error) {
    throw new BackupError(
      `The database has no portal tables (${error instanceof Error ? error.message : String(error)}). ` +
        'Has the portal been started on it?',
    );
  }
  const migrations = await db
    .execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)
    .then((result) => Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0))
    .catch(() => 0);
  const version = await db.execute(sql`show server_version`);
  const postgresVersion = String(
    (version as unknown as { rows: { server_version: string }[] }).rows[0]?.server_version ?? '',
  );
  let secrets: Facts['secrets'] = 'none';
  const [settings] = await db.select().from(schema.sharepointSettings);
  if (settings && (settings.passwordEncrypted || settings.clientSecretEncrypted)) {
    if (!appSecret) secrets = 'no app secret';
    else {
      try {
        await loadSharePointSettings(db, appSecret);
        secrets = 'readable';
      } catch (error) {
        if (!(error instanceof StoredSecretError)) throw error;
        secrets = 'unreadable';
      }
    }
  }
  return { counts, migrations, postgresVersion, secrets };
}

function knownMigrations(): number {
  const journal = new URL('../drizzle/meta/_journal.json', import.meta.url);
  return (JSON.parse(readFileSync(journal, 'utf8')) as { entries: unknown[] }).entries.length;
}

function reportSecrets(facts: Facts, log: Log, when: 'backup' | 'restore') {
  if (facts.secrets === 'readable')
    log('  Stored SharePoint secrets: readable with the app secret the portal will use.');
  if (facts.secrets === 'unreadable' || facts.secrets === 'no app secret')
    log(
      `  Warning: the stored SharePoint secrets cannot be read with the app secret ${
        when === 'backup' ? 'in use' : 'the portal will use'
      } (was APP_SECRET changed?). After a restore, enter them again on the settings page.`,
    );
}

function warnNewerSchema(facts: Facts, log: Log) {
  const known = knownMigrations();
  if (facts.migrations > known)
    log(
      `  Warning: the backup comes from a newer portal (${facts.migrations} migrations, this one knows ${known}). ` +
        'Upgrade the portal before starting it.',
    );
}

// ------------------------------------------------------------------------------------------------
// Backup

export interface BackupOptions {
  config: Pick<Config, 'DATA_DIR' | 'DATABASE_URL' | 'APP_SECRET'>;
  /** A file, or a directory to put a dated file in; default: a dated file in ./backups. */
  output?: string | undefined;
  /** Overwrite an existing file. */
  force?: boolean;
  log?: Log;
  now?: Date;
  /** Ctrl-C: stop at the next safe point, leaving nothing half-written. */
  signal?: AbortSignal;
}

export interface BackupResult {
  engine: 'pglite' | 'postgres';
  file: string;
  bytes: number;
  counts: Counts;
}

export async function runBackup(options: BackupOptions): Promise<BackupResult> {
  const log = options.log ?? ((line) => console.log(line));
  const now = options.now ?? new Date();
  const postgres = Boolean(options.config.DATABASE_URL);
  const file = outputPath(options.output, postgres ? '.dump' : '.tar.gz', now);
  if (existsSync(file) && !options.force)
    throw new BackupError(`${file} already exists. Choose another name, or add --force to overwrite it.`);
  if (!existsSync(dirname(file))) throw new BackupError(`The directory ${dirname(file)} does not exist.`);
  return postgres ? backupPostgres(options, file, log) : backupPglite(options, file, log, now);
}

async function backupPglite(
  options: BackupOptions,
  file: string,
  log: Log,
  now: Date,
): Promise<BackupResult> {
  const { DATA_DIR: dataDir, APP_SECRET: configuredSecret } = options.config;
  if (dataDir === 'memory://')
    throw new BackupError('DATA_DIR is memory://: there is nothing on disk to back up.');
  const databaseDir = join(dataDir, 'pglite');
  if (!existsSync(join(databaseDir, 'PG_VERSION')))
    throw new BackupError(
      `There is no embedded database in DATA_DIR (${resolve(dataDir)}). Set DATA_DIR to the portal's, or ` +
        'DATABASE_URL to back up PostgreSQL.',
    );

  const secretFile = join(dataDir, 'app-secret');
  const lock = lockDataDir(dataDir, 'a backup', 'back up while the portal is running');
  let facts: Facts;
  let pgdata: Buffer;
  let fileSecret: Buffer | null;
  try {
    fileSecret = existsSync(secretFile) ? readFileSync(secretFile) : null;
    const client = new PGlite(databaseDir);
    await client.waitReady;
    try {
      const db = drizzlePglite(client, { schema }) as unknown as Db;
      facts = await inspectDatabase(db, configuredSecret ?? fileSecret?.toString('utf8').trim() ?? null);
      // everything in the data files rather than only in the WAL: a smaller, quicker restore
      await client.exec('checkpoint');
      pgdata = Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer());
    } finally {
      await client.close();
    }
  } finally {
    lock.release();
  }

  const manifest: Manifest = {
    format: FORMAT,
    version: 1,
    engine: 'pglite',
    createdAt: now.toISOString(),
    postgresVersion: facts.postgresVersion,
    migrations: facts.migrations,
    counts: facts.counts,
    appSecret: { file: fileSecret !== null, environment: Boolean(configuredSecret) },
    pgdata: { bytes: pgdata.length, sha256: sha256(pgdata) },
  };
  const entries: { name: string; data: Uint8Array }[] = [
    { name: MANIFEST_ENTRY, data: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) },
  ];
  if (fileSecret) entries.push({ name: SECRET_ENTRY, data: fileSecret });
  entries.push({ name: PGDATA_ENTRY, data: pgdata });
  checkInterrupted(options.signal);
  // level 1: the portal is stopped while this runs, so speed counts for more than a few hundred KB
  const archive = gzipSync(packTar(entries, now), { level: 1 });
  writeFileAtomically(file, archive);
  // read it back: what is on disk is what a restore will get
  if (sha256(readFileSync(file)) !== sha256(archive))
    throw new BackupError(`${file} does not read back as written: check the disk.`);

  const bytes = statSync(file).size;
  log(`Backed up the embedded database in ${resolve(dataDir)} to ${file}`);
  log(`  ${formatBytes(bytes)}; ${formatCounts(facts.counts)}.`);
  if (fileSecret)
    log('  The app secret (DATA_DIR/app-secret) is included: stored SharePoint secrets stay readable.');
  if (configuredSecret)
    log(
      '  APP_SECRET is set in the environment: keep it with this backup, the portal needs it after a restore.',
    );
  reportSecrets(facts, log, 'backup');
  log('  Keep the file private: it holds password hashes and the app secret.');
  return { engine: 'pglite', file, bytes, counts: facts.counts };
}

async function backupPostgres(options: BackupOptions, file: string, log: Log): Promise<BackupResult> {
  const url = options.config.DATABASE_URL!;
  const tool = await findTool('pg_dump');
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  pool.on('error', () => {});
  const partial = `${file}.partial-${process.pid}`;
  let facts: Facts;
  try {
    const client = await pool.connect().catch((error: Error) => {
      throw new BackupError(`Cannot connect to DATABASE_URL: ${error.message}`);
    });
    try {
      // pg_dump reads the snapshot these counts were taken in, so the summary matches the file exactly
      await client.query('begin isolation level repeatable read read only');
      const snapshot = await client
        .query<{ id: string }>('select pg_export_snapshot() as id')
        .then((result) => result.rows[0]?.id)
        .catch(() => undefined);
      const db = drizzleNodePg(client, { schema }) as unknown as Db;
      const [meta] = await db.select().from(schema.appMeta).where(sql`${schema.appMeta.key} = 'app_secret'`);
      facts = await inspectDatabase(db, options.config.APP_SECRET ?? meta?.value ?? null);
      const target = toolConnection(url);
      await runTool(
        tool,
        ['--format=custom', `--file=${partial}`, ...(snapshot ? [`--snapshot=${snapshot}`] : []), target.url],
        target.env,
      );
      await client.query('commit');
    } finally {
      client.release();
    }
    await listArchive(partial);
    chmodSync(partial, 0o600);
    checkInterrupted(options.signal);
    renameSync(partial, file);
  } finally {
    rmSync(partial, { force: true });
    await pool.end();
  }
  const bytes = statSync(file).size;
  log(`Backed up PostgreSQL (${describeUrl(url)}) to ${file} with pg_dump`);
  log(`  ${formatBytes(bytes)}; ${formatCounts(facts.counts)}.`);
  if (options.config.APP_SECRET)
    log(
      '  APP_SECRET is set in the environment: keep it with this backup, the portal needs it after a restore.',
    );
  else log('  The app secret is in the database (app_meta), so it is in the backup.');
  reportSecrets(facts, log, 'backup');
  log('  Keep the file private: it holds password hashes and the app secret.');
  return { engine: 'postgres', file, bytes, counts: facts.counts };
}

// ------------------------------------------------------------------------------------------------
// Restore

export interface RestoreOptions {
  config: Pick<Config, 'DATA_DIR' | 'DATABASE_URL' | 'APP_SECRET'>;
  file: string;
  /** Replace a database that already holds data. */
  force?: boolean;
  log?: Log;
  /** Ctrl-C: stop at the next safe point before the swap; once swapping, finish it. */
  signal?: AbortSignal;
}

export interface RestoreResult {
  engine: 'pglite' | 'postgres';
  counts: Counts;
  /** PGlite: where the replaced database was kept, if there was one. */
  previous?: string;
}

export async function runRestore(options: RestoreOptions): Promise<RestoreResult> {
  const log = options.log ?? ((line) => console.log(line));
  const file = resolve(options.file);
  if (!existsSync(file) || !statSync(file).isFile()) throw new BackupError(`${file} does not exist.`);
  const head = Buffer.alloc(5);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  const isPgDump = head.toString('latin1') === 'PGDMP';
  if (options.config.DATABASE_URL) {
    if (!isPgDump)
      throw new BackupError(
        `${file} is not a pg_dump archive. An embedded-database backup restores into DATA_DIR: unset DATABASE_URL.`,
      );
    return restorePostgres(options, file, log);
  }
  if (isPgDump)
    throw new BackupError(
      `${file} is a PostgreSQL backup (pg_dump): set DATABASE_URL to the database to restore into.`,
    );
  return restorePglite(options, file, log);
}

interface PgliteBackup {
  manifest: Manifest;
  pgdata: Buffer;
  appSecret: Buffer | null;
}

/** Open and check an embedded-database backup completely, before anything is touched. */
export function readPgliteBackup(file: string): PgliteBackup {
  const invalid = (why: string) => new BackupError(`${file} is not a usable portal backup: ${why}.`);
  let entries: Map<string, Buffer>;
  try {
    entries = unpackTar(gunzipSync(readFileSync(file)));
  } catch (error) {
    throw invalid(error instanceof Error ? error.message.replace(/\.$/, '') : String(error));
  }
  const manifestData = entries.get(MANIFEST_ENTRY);
  if (!manifestData) throw invalid('it has no manifest.json');
  let manifest: Manifest;
  try {
    manifest = JSON.parse(manifestData.toString('utf8')) as Manifest;
  } catch {
    throw invalid('manifest.json is not JSON');
  }
  if (manifest?.format !== FORMAT || manifest.engine !== 'pglite')
    throw invalid('it was not written by npm run backup');
  if (manifest.version !== 1)
    throw invalid(`format version ${manifest.version} is newer than this portal reads`);
  const counts = manifest.counts as Partial<Counts> | undefined;
  const wellFormed =
    typeof manifest.pgdata?.bytes === 'number' &&
    typeof manifest.pgdata.sha256 === 'string' &&
    typeof manifest.appSecret?.file === 'boolean' &&
    (['users', 'availability', 'bookings', 'staffNotes'] as const).every((key) =>
      Number.isInteger(counts?.[key]),
    );
  if (!wellFormed) throw invalid('manifest.json is incomplete');
  const pgdata = entries.get(PGDATA_ENTRY);
  if (!pgdata) throw invalid(`it has no ${PGDATA_ENTRY}`);
  if (pgdata.length !== manifest.pgdata.bytes || sha256(pgdata) !== manifest.pgdata.sha256)
    throw invalid('the database in it does not match its checksum (damaged file)');
  const appSecret = entries.get(SECRET_ENTRY) ?? null;
  if (manifest.appSecret.file && !appSecret) throw invalid('the app secret is missing from it');
  return { manifest, pgdata, appSecret };
}

async function restorePglite(options: RestoreOptions, file: string, log: Log): Promise<RestoreResult> {
  const backup = readPgliteBackup(file);
  const { DATA_DIR: dataDir, APP_SECRET: configuredSecret } = options.config;
  if (dataDir === 'memory://')
    throw new BackupError('DATA_DIR is memory://: there is nowhere to restore to.');
  const databaseDir = join(dataDir, 'pglite');
  const lock = lockDataDir(dataDir, 'a restore', 'restore while the portal is running');
  let facts: Facts;
  let previous: string | undefined;
  try {
    const occupied = existsSync(databaseDir) && readdirSync(databaseDir).length > 0;
    if (occupied && !options.force)
      throw new BackupError(
        `DATA_DIR (${resolve(dataDir)}) already holds a database. Restoring replaces it (the current one is ` +
          'kept as pglite.previous); run again with --force to go ahead.',
      );
    // leftovers of a restore that was interrupted (we hold the lock: none is running)
    for (const entry of readdirSync(dataDir))
      if (entry.startsWith('.restore-')) rmSync(join(dataDir, entry), { recursive: true, force: true });

    // Build the new database beside the old one, check it, and only then swap it in.
    const staging = mkdtempSync(join(dataDir, '.restore-'));
    try {
      const stagedDatabase = join(staging, 'pglite');
      const loadDataDir = new Blob([new Uint8Array(backup.pgdata)], { type: 'application/x-tar' });
      const client = new PGlite(stagedDatabase, { loadDataDir });
      try {
        await client.waitReady;
      } catch (error) {
        throw new BackupError(
          `This portal cannot open the database in ${basename(file)}: ${error instanceof Error ? error.message : error}`,
        );
      }
      try {
        const secret = configuredSecret ?? backup.appSecret?.toString('utf8').trim() ?? null;
        facts = await inspectDatabase(drizzlePglite(client, { schema }) as unknown as Db, secret);
        await client.exec('checkpoint');
      } finally {
        await client.close();
      }
      if (!sameCounts(facts.counts, backup.manifest.counts))
        throw new BackupError(
          `The database in ${basename(file)} does not hold what its manifest says ` +
            `(${formatCounts(facts.counts)} instead of ${formatCounts(backup.manifest.counts)}). Nothing was changed.`,
        );
      if (backup.appSecret) writeFileSync(join(staging, SECRET_ENTRY), backup.appSecret, { mode: 0o600 });
      // PGlite wrote the restored files world-readable
      restrictDataDir(staging);
      await fsyncTree(staging);
      checkInterrupted(options.signal);

      // The swap: two renames on one file system. The replaced database stays as pglite.previous.
      if (existsSync(databaseDir)) {
        previous = join(dataDir, 'pglite.previous');
        rmSync(previous, { recursive: true, force: true });
        renameSync(databaseDir, previous);
      }
      renameSync(stagedDatabase, databaseDir);
      if (backup.appSecret) {
        const secretFile = join(dataDir, SECRET_ENTRY);
        if (existsSync(secretFile)) copyFileSync(secretFile, join(dataDir, 'app-secret.previous'));
        renameSync(join(staging, SECRET_ENTRY), secretFile);
      }
      fsyncPath(dataDir);
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  } finally {
    lock.release();
  }

  log(`Restored ${file} into ${resolve(dataDir)}`);
  log(`  ${formatCounts(facts.counts)} (backup taken ${backup.manifest.createdAt}).`);
  if (backup.appSecret) log('  The app secret in the backup was restored to DATA_DIR/app-secret.');
  if (backup.manifest.appSecret.environment && !configuredSecret)
    log('  Warning: the backup was taken with APP_SECRET set. Start the portal with the same APP_SECRET.');
  reportSecrets(facts, log, 'restore');
  warnNewerSchema(facts, log);
  if (previous) log(`  The database it replaced is in ${previous}; delete it once you are satisfied.`);
  log('  Start the portal to use it.');
  return { engine: 'pglite', counts: facts.counts, ...(previous ? { previous } : {}) };
}

async function restorePostgres(options: RestoreOptions, file: string, log: Log): Promise<RestoreResult> {
  const url = options.config.DATABASE_URL!;
  const tool = await findTool('pg_restore');
  // pg_restore reads the whole table of contents: a damaged or foreign archive stops here
  const archiveTables = await listArchive(file, tool);
  if (!archiveTables.has('public.users'))
    throw new BackupError(
      `${file} is a pg_dump archive but not of the portal's database (it has no users table).`,
    );

  const pool = new pg.Pool({ connectionString: url, max: 1 });
  pool.on('error', () => {});
  try {
    const existing = await pool
      .query<{ name: string }>(
        `select table_schema || '.' || table_name as name from information_schema.tables
         where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE'`,
      )
      .catch((error: Error) => {
        throw new BackupError(`Cannot connect to DATABASE_URL: ${error.message}`);
      });
    const tables = existing.rows.map((row) => row.name);
    if (tables.length > 0 && !options.force) {
      const users = tables.includes('public.users')
        ? (await pool.query<{ n: number }>('select count(*)::int as n from users')).rows[0]?.n
        : undefined;
      throw new BackupError(
        `The database at ${describeUrl(url)} is not empty (${tables.length} tables` +
          `${users === undefined ? '' : `, ${users} users`}). Restoring replaces its contents; run again with ` +
          '--force to go ahead, or restore into a new empty database.',
      );
    }
    const extra = tables.filter((name) => !archiveTables.has(name));
    if (extra.length > 0)
      throw new BackupError(
        `The database at ${describeUrl(url)} has tables the backup does not (${extra.join(', ')}): it belongs to a ` +
          'newer portal or holds other data, and a restore over it would leave them behind. Restore into a new ' +
          'empty database instead (createdb), then point DATABASE_URL at it.',
      );
    const others = await pool.query<{ n: number }>(
      'select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    if ((others.rows[0]?.n ?? 0) > 0)
      log(
        `  Note: ${others.rows[0]!.n} other connections are open to this database (portal instances?). ` +
          'They will see the restored data once it commits; stop them first for a clean cut.',
      );

    checkInterrupted(options.signal);
    // --single-transaction: all of it or, on any error, none of it
    const target = toolConnection(url);
    const args = ['--clean', '--if-exists', '--single-transaction', '--no-owner', '--no-acl'];
    await runTool(tool, [...args, `--dbname=${target.url}`, file], target.env).catch((error: unknown) => {
      if (error instanceof BackupError)
        throw new BackupError(
          `${error.message}\nThe restore ran in one transaction: the database is as it was.`,
        );
      throw error;
    });

    const db = drizzleNodePg(pool, { schema }) as unknown as Db;
    const [meta] = await db.select().from(schema.appMeta).where(sql`${schema.appMeta.key} = 'app_secret'`);
    const facts = await inspectDatabase(db, options.config.APP_SECRET ?? meta?.value ?? null);
    log(`Restored ${file} into PostgreSQL (${describeUrl(url)}) with pg_restore`);
    log(`  ${formatCounts(facts.counts)}.`);
    reportSecrets(facts, log, 'restore');
    warnNewerSchema(facts, log);
    log('  Start (or restart) the portal to use it.');
    return { engine: 'postgres', counts: facts.counts };
  } finally {
    await pool.end();
  }
}

// ------------------------------------------------------------------------------------------------
// PostgreSQL client tools

/** `pg_dump` / `pg_restore` from PG_BINDIR when set, else from PATH; a clear error when missing. */
async function findTool(name: 'pg_dump' | 'pg_restore'): Promise<string> {
  const binDir = process.env.PG_BINDIR;
  const tool = binDir ? join(binDir, name) : name;
  try {
    await runTool(tool, ['--version'], {});
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new BackupError(
        `${name} was not found ${binDir ? `in PG_BINDIR (${binDir})` : 'on PATH'}. Install the PostgreSQL client ` +
          'tools (Debian/Ubuntu: apt-get install postgresql-client; the same major version as the server or ' +
          'newer), or set PG_BINDIR to the directory that holds them.',
      );
    throw error;
  }
  return tool;
}

function runTool(tool: string, args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(tool, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) return resolvePromise(Buffer.concat(out).toString('utf8'));
      const message = Buffer.concat(err).toString('utf8').trim();
      const hint = /version mismatch/.test(message)
        ? ' (set PG_BINDIR to the client tools of the server version or newer)'
        : '';
      reject(new BackupError(`${basename(tool)} failed (exit ${code}): ${message}${hint}`));
    });
  });
}

/** The tables in a pg_dump archive, as `schema.table`. */
async function listArchive(file: string, tool?: string): Promise<Set<string>> {
  const listing = await runTool(tool ?? (await findTool('pg_restore')), ['--list', file], {}).catch(
    (error) => {
      if (error instanceof BackupError)
        throw new BackupError(`${file} is not a readable pg_dump archive: ${error.message}`);
      throw error;
    },
  );
  const tables = new Set<string>();
  for (const line of listing.split('\n')) {
    const match = /^\d+; \d+ \d+ TABLE (\S+) (\S+) /.exec(line);
    if (match) tables.add(`${match[1]}.${match[2]}`);
  }
  return tables;
}

/** The URL for libpq without its password, which goes in PGPASSWORD (never on a command line). */
function toolConnection(databaseUrl: string): { url: string; env: Record<string, string> } {
  const url = new URL(databaseUrl);
  const env: Record<string, string> = {};
  if (url.password) {
    env.PGPASSWORD = decodeURIComponent(url.password);
    url.password = '';
  }
  return { url: url.toString(), env };
}

/** host/database for messages, never the password. */
function describeUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  return `${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
}

// ------------------------------------------------------------------------------------------------
// For the CLIs

/**
 * A path the operator typed, resolved where they typed it: `npm run` moves to the portal's directory
 * (where DATA_DIR=./data also resolves, as for `npm start`), and says in INIT_CWD where it was run from.
 */
export function operatorPath(path: string): string {
  const base = process.env.npm_lifecycle_event && process.env.INIT_CWD ? process.env.INIT_CWD : process.cwd();
  // keep a trailing slash: "backups/" names a directory, which must exist
  return resolve(base, path) + (/[/\\]$/.test(path) ? sep : '');
}

/** The first Ctrl-C (or SIGTERM) stops at the next safe point; a second one exits at once. */
export function interruptSignal(what: string): AbortSignal {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) process.exit(130);
    process.stderr.write(`\nStopping the ${what} at the next safe point (again to quit at once)...\n`);
    controller.abort();
  };
  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(name, onSignal);
  return controller.signal;
}
