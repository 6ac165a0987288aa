/**
 * Backup and restore round trips through the real app: seed over the API, back up, change and delete,
 * restore, start the portal again and compare every answer byte for byte, including that the stored
 * SharePoint secrets still decrypt (the connection test receives them) and that old sessions still work.
 * PGlite always; PostgreSQL too when TEST_DATABASE_URL is set (scripts/with-postgres.sh).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltApp, buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { LOCK_FILE } from '../src/server/db/data-dir-lock';
import { bookings } from '../src/server/db/schema';
import type { ResolvedSharePointSettings } from '../src/server/sharepoint/connection';
import { addDays, todayIn } from '../src/shared/calendar';
import { BackupError, readPgliteBackup, runBackup, runRestore } from './backup-lib';

const root = fileURLToPath(new URL('..', import.meta.url));
const STAFF = { username: 'staff@example.org', password: 'staff-password-1' };
const SHAREPOINT = {
  siteUrl: 'https://contoso.sharepoint.com/sites/arts',
  availabilityListName: 'Availability',
  bookingsListName: 'Bookings',
  facilitatorListName: 'Facilitators',
  schoolsListName: 'Schools',
  tenantId: '11111111-2222-3333-4444-555555555555',
  clientId: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
  clientSecret: 'Client~Secret~77ab31',
  username: 'sync@contoso.org',
  password: 'Sp-Pässword-9f1c2e',
};
const today = todayIn('Europe/London');
const day = (offset: number) => addDays(today, offset);
const quiet = () => {};
// Each PGlite start or restore is a few seconds of CPU; on a busy machine (CI runs files side by side)
// the wall time can be several times that. Generous limits: a stuck step still fails, a slow one not.
const SLOW = 180_000;

type Env = Record<string, string>;

/** A portal on the given configuration; the connection tester records the secrets it is handed. */
async function startPortal(env: Env): Promise<{ built: BuiltApp; testerSaw: ResolvedSharePointSettings[] }> {
  const testerSaw: ResolvedSharePointSettings[] = [];
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    INITIAL_STAFF_USERNAME: STAFF.username,
    INITIAL_STAFF_PASSWORD: STAFF.password,
    BACKGROUND_JOBS: 'false',
    ...env,
  });
  const built = await buildApp(config, {
    connectionTester: async (settings) => {
      testerSaw.push(settings);
      return { success: true, message: 'Connection to SharePoint successful!' };
    },
  });
  return { built, testerSaw };
}

async function call(app: BuiltApp, method: string, url: string, cookie?: string, payload?: unknown) {
  const response = await app.app.inject({
    method: method as 'GET',
    url,
    headers: cookie ? { cookie } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  if (response.statusCode >= 300)
    throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response;
}

async function login(app: BuiltApp, username: string, password: string, staff = false) {
  const response = await call(app, 'POST', staff ? '/api/auth/staff-login' : '/api/login', undefined, {
    username,
    password,
  });
  return `afp_session=${response.cookies.find((c) => c.name === 'afp_session')!.value}`;
}

interface Seeded {
  staffCookie: string;
  facilitatorCookie: string;
  ids: number[];
}

/** Users, availability (own, staff, bulk), notes, SharePoint settings with secrets, bookings. */
async function seed(app: BuiltApp): Promise<Seeded> {
  const staffCookie = await login(app, STAFF.username, STAFF.password, true);
  const ids: number[] = [];
  const people = [
    { username: 'amira@example.org', displayName: 'Amira Ø’Brien <b>', area: 'North', freelancerId: 'F-101' },
    { username: 'ben@example.org', displayName: 'Ben', area: 'South', freelancerId: 202 },
    { username: 'chloe@example.org', email: 'chloe@example.org' },
  ];
  for (const person of people) {
    const response = await call(app, 'POST', '/api/staff/users', staffCookie, {
      ...person,
      password: 'facilitator-pass-1',
    });
    ids.push(response.json<{ id: number }>().id);
  }
  const facilitatorCookie = await login(app, 'amira@example.org', 'facilitator-pass-1');
  await call(app, 'POST', '/api/availability', facilitatorCookie, {
    date: day(3),
    status: 'limited',
    startTime: '09:30',
    endTime: '15:00',
    notes: 'School run — back by 3 🎨',
  });
  await call(app, 'POST', '/api/availability/bulk', facilitatorCookie, {
    startDate: day(7),
    endDate: day(20),
    daysOfWeek: [1, 2, 3, 4, 5],
    status: 'available',
  });
  await call(app, 'POST', '/api/staff/availability', staffCookie, {
    userId: ids[1],
    date: day(4),
    status: 'unavailable',
    notes: "'; drop table users; --",
  });
  for (const [index, id] of ids.slice(0, 2).entries())
    await call(app, 'POST', '/api/staff/notes', staffCookie, {
      facilitatorId: id,
      date: day(5 + index),
      note: `Priority note ${index} — call first`,
      priority: index ? 'urgent' : 'high',
    });
  await call(app, 'POST', '/api/sharepoint/settings', staffCookie, SHAREPOINT);
  // Bookings only ever arrive from SharePoint; put two in as the refresh would.
  await app.ctx.db.insert(bookings).values([
    { userId: ids[0], freelancerId: 'F-101', title: 'Clay workshop', date: day(30), sharePointId: 'sp-1' },
    {
      freelancerId: 'F-999',
      title: 'Unlinked session',
      date: day(31),
      sharePointId: 'sp-2',
      location: 'Hall',
    },
  ]);
  return { staffCookie, facilitatorCookie, ids };
}

/** Everything the API says about the data, as raw bodies, plus the secrets a connection test receives. */
async function snapshot(
  portal: { built: BuiltApp; testerSaw: ResolvedSharePointSettings[] },
  seeded: Seeded,
) {
  const { built } = portal;
  const range = `from=${day(-5)}&to=${day(60)}`;
  const get = async (url: string, cookie = seeded.staffCookie) =>
    (await call(built, 'GET', url, cookie)).body;
  const bodies = {
    users: await get('/api/staff/users'),
    availability: await get(`/api/staff/availabilities?${range}`),
    bookings: await get(`/api/staff/bookings?${range}`),
    notesThisMonth: await get(`/api/staff/notes?date=${day(5)}&view=month`),
    notesNextMonth: await get(`/api/staff/notes?date=${addDays(day(5), 31)}&view=month`),
    settings: await get('/api/sharepoint/settings'),
    ownAvailability: await get(`/api/availability?${range}`, seeded.facilitatorCookie),
    ownBookings: await get(`/api/bookings?${range}`, seeded.facilitatorCookie),
  };
  // blank secrets: the test uses the stored ones, decrypted with the portal's app secret
  portal.testerSaw.length = 0;
  const test = await call(
    built,
    'POST',
    '/api/sharepoint/test-connection-with-credentials',
    seeded.staffCookie,
    {
      ...SHAREPOINT,
      password: '',
      clientSecret: '',
    },
  );
  const seen = portal.testerSaw[0];
  return {
    ...bodies,
    test: test.body,
    secrets: seen && { password: seen.password, clientSecret: seen.clientSecret },
  };
}

/** Delete one facilitator (cascading to days and notes), change another's day and the stored secret. */
async function changeEverything(app: BuiltApp, seeded: Seeded) {
  await call(app, 'DELETE', `/api/staff/users/${seeded.ids[0]}`, seeded.staffCookie);
  await call(app, 'POST', '/api/staff/availability', seeded.staffCookie, {
    userId: seeded.ids[1],
    date: day(4),
    status: 'available',
  });
  await call(app, 'POST', '/api/staff/users', seeded.staffCookie, {
    username: 'dan@example.org',
    password: 'facilitator-pass-2',
  });
  await call(app, 'POST', '/api/sharepoint/settings', seeded.staffCookie, {
    ...SHAREPOINT,
    password: 'a-new-password',
    clientSecret: '',
  });
}

const EXPECTED_COUNTS = { users: 4, availability: 12, bookings: 2, staffNotes: 2 };

const tempDirs: string[] = [];
function tempDir(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

/** A CLI as the operator runs it (another process, so it also runs beside the in-process work). */
function runCli(script: string, args: string[], env: Env) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'scripts', script), ...args], {
      cwd: root,
      env: { ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: '', APP_SECRET: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const serverUrl = process.env.TEST_DATABASE_URL;

it('says clearly when pg_dump is missing', async () => {
  const saved = process.env.PG_BINDIR;
  process.env.PG_BINDIR = '/nonexistent/postgresql/bin';
  try {
    const error = await runBackup({
      config: { DATA_DIR: 'unused', DATABASE_URL: 'postgres://portal@127.0.0.1:1/portal' },
      output: tmpdir(),
      log: quiet,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackupError);
    expect((error as Error).message).toMatch(/^pg_dump was not found in PG_BINDIR .*postgresql-client/);
  } finally {
    if (saved === undefined) delete process.env.PG_BINDIR;
    else process.env.PG_BINDIR = saved;
  }
});

// Like the API tests: PGlite by default, PostgreSQL instead when TEST_DATABASE_URL names a server
// (.ci/run runs this file both ways). Only the target's suite is registered, so neither run reports
// the other's as skipped.
if (!serverUrl)
  describe('embedded database (PGlite)', () => {
    const dataDir = join(tempDir('afp-backup-'), 'data');
    const backups = tempDir('afp-backups-');
    let seeded: Seeded;
    let original: Awaited<ReturnType<typeof snapshot>>;
    let originalSecret: string;
    let backupFile: string;
    const freshDir = join(tempDir('afp-restore-'), 'fresh');
    let cliRestore: ReturnType<typeof runCli>;

    beforeAll(async () => {
      // no APP_SECRET: the portal generates DATA_DIR/app-secret, which the backup must carry
      const portal = await startPortal({ DATA_DIR: dataDir });
      try {
        // While it runs, the backup CLI (started now, it runs beside the seeding), a backup and a second
        // portal on the same DATA_DIR are all refused.
        const cli = runCli('backup.ts', [backups], { DATA_DIR: dataDir });
        seeded = await seed(portal.built);
        original = await snapshot(portal, seeded);
        await expect(startPortal({ DATA_DIR: dataDir })).rejects.toThrow(/in use by a running portal/);
        await expect(
          runBackup({ config: { DATA_DIR: dataDir }, output: backups, log: quiet }),
        ).rejects.toThrow(/Cannot back up while the portal is running/);
        const refused = await cli;
        expect(refused.code).toBe(1);
        expect(refused.stderr).toMatch(
          /^Backup failed: Cannot back up while the portal is running\. .*portal\.lock/s,
        );
        expect(readdirSync(backups)).toEqual([]);
      } finally {
        await portal.built.close();
      }
      originalSecret = readFileSync(join(dataDir, 'app-secret'), 'utf8');
    }, SLOW);

    it('seeded what it meant to, and the secrets decrypt', () => {
      expect(JSON.parse(original.users)).toHaveLength(EXPECTED_COUNTS.users);
      expect(original.secrets).toEqual({
        password: SHAREPOINT.password,
        clientSecret: SHAREPOINT.clientSecret,
      });
      expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
    });

    it(
      'backs up into one file holding the database and the app secret',
      async () => {
        const lines: string[] = [];
        const result = await runBackup({
          config: { DATA_DIR: dataDir },
          output: backups,
          log: (line) => lines.push(line),
        });
        backupFile = result.file;
        expect(result.counts).toEqual(EXPECTED_COUNTS);
        expect(readdirSync(backups)).toEqual([result.file.split('/').pop()]);
        expect(statSync(result.file).mode & 0o777).toBe(0o600);
        const text = lines.join('\n');
        expect(text).toContain(`to ${backupFile}`);
        expect(text).toContain('4 users, 12 availability days, 2 bookings, 2 staff notes');
        expect(text).toMatch(/\d+(\.\d)? (KB|MB);/);
        expect(text).toContain('Stored SharePoint secrets: readable');
        const backup = readPgliteBackup(backupFile);
        expect(backup.appSecret?.toString('utf8')).toBe(originalSecret);
        expect(backup.manifest.counts).toEqual(EXPECTED_COUNTS);
        expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
        // The restore CLI into an empty DATA_DIR starts now and runs beside the next tests (checked below).
        cliRestore = runCli('restore.ts', [backupFile], { DATA_DIR: freshDir });
        // an existing file is not overwritten without --force
        await expect(
          runBackup({ config: { DATA_DIR: dataDir }, output: backupFile, log: quiet }),
        ).rejects.toThrow(/already exists/);
      },
      SLOW,
    );

    it('refuses a damaged backup before touching anything', async () => {
      const target = join(tempDir('afp-restore-'), 'data');
      const bytes = readFileSync(backupFile);
      const flipped = Buffer.from(bytes);
      flipped[Math.floor(bytes.length / 2)]! ^= 0xff;
      const damaged = [
        ['flipped.tar.gz', flipped],
        ['truncated.tar.gz', bytes.subarray(0, Math.floor(bytes.length * 0.7))],
        ['not-a-backup.tar.gz', Buffer.from('hello')],
      ] as const;
      for (const [name, data] of damaged) {
        const file = join(backups, name);
        writeFileSync(file, data);
        await expect(runRestore({ config: { DATA_DIR: target }, file, log: quiet })).rejects.toThrow(
          /is not a usable portal backup/,
        );
        rmSync(file);
      }
      expect(existsSync(target)).toBe(false);
    });

    it(
      'restores after changes and deletions: the API answers exactly as before',
      async () => {
        const changed = await startPortal({ DATA_DIR: dataDir });
        try {
          await changeEverything(changed.built, seeded);
          // (the deleted facilitator's session is gone with her: only the staff view is compared)
          const users = await call(changed.built, 'GET', '/api/staff/users', seeded.staffCookie);
          expect(users.json()).toHaveLength(EXPECTED_COUNTS.users);
          expect(users.body).not.toBe(original.users);
          await call(
            changed.built,
            'POST',
            '/api/sharepoint/test-connection-with-credentials',
            seeded.staffCookie,
            {
              ...SHAREPOINT,
              password: '',
              clientSecret: '',
            },
          );
          expect(changed.testerSaw[0]?.password).toBe('a-new-password');
          // the portal is running: restore refuses
          await expect(
            runRestore({ config: { DATA_DIR: dataDir }, file: backupFile, force: true, log: quiet }),
          ).rejects.toThrow(/Cannot restore while the portal is running/);
        } finally {
          await changed.built.close();
        }

        // stopped, but the data directory is not empty: --force is required, and nothing changes without it
        await expect(
          runRestore({ config: { DATA_DIR: dataDir }, file: backupFile, log: quiet }),
        ).rejects.toThrow(/already holds a database.*--force/);
        expect(existsSync(join(dataDir, 'pglite.previous'))).toBe(false);

        // A backup whose database does not hold what its manifest says (same length, one digit changed):
        // it is loaded and checked beside the live database, found wanting, and nothing is swapped.
        const tar = gunzipSync(readFileSync(backupFile));
        const at = tar.indexOf('"users": 4');
        expect(at).toBeGreaterThan(0);
        tar.write('"users": 9', at);
        const lying = join(backups, 'lying.tar.gz');
        writeFileSync(lying, gzipSync(tar));
        const secretBefore = readFileSync(join(dataDir, 'app-secret'), 'utf8');
        await expect(
          runRestore({ config: { DATA_DIR: dataDir }, file: lying, force: true, log: quiet }),
        ).rejects.toThrow(/does not hold what its manifest says .*Nothing was changed/);
        expect(readdirSync(dataDir).sort()).toEqual(['app-secret', 'pglite']);
        expect(readFileSync(join(dataDir, 'app-secret'), 'utf8')).toBe(secretBefore);
        rmSync(lying);

        const lines: string[] = [];
        const result = await runRestore({
          config: { DATA_DIR: dataDir },
          file: backupFile,
          force: true,
          log: (line) => lines.push(line),
        });
        expect(result.counts).toEqual(EXPECTED_COUNTS);
        expect(result.previous).toBe(join(dataDir, 'pglite.previous'));
        expect(lines.join('\n')).toContain('4 users, 12 availability days, 2 bookings, 2 staff notes');
        expect(readdirSync(dataDir).sort()).toEqual([
          'app-secret',
          'app-secret.previous',
          'pglite',
          'pglite.previous',
        ]);

        const restored = await startPortal({ DATA_DIR: dataDir });
        try {
          // the session cookies from before the backup still work: sessions and app secret came back together
          expect(await snapshot(restored, seeded)).toEqual(original);
        } finally {
          await restored.built.close();
        }
      },
      SLOW,
    );

    it('restores into an empty DATA_DIR without --force (the CLI, as an operator runs it)', async () => {
      const { code, stdout, stderr } = await cliRestore;
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout).toContain(`Restored ${backupFile} into ${freshDir}`);
      expect(stdout).toContain('4 users, 12 availability days, 2 bookings, 2 staff notes');
      expect(stdout).toContain('Stored SharePoint secrets: readable');
      expect(readFileSync(join(freshDir, 'app-secret'), 'utf8')).toBe(originalSecret);
      expect(readdirSync(freshDir).sort()).toEqual(['app-secret', 'pglite']);
    });
  });

if (serverUrl)
  describe('PostgreSQL (pg_dump / pg_restore)', () => {
    const names = ['a', 'b'].map((n) => `afp_backup_${n}_${randomBytes(4).toString('hex')}`);
    // (the body runs even when the suite is skipped: no URL parsing unless there is a server)
    const urlOf = (name: string) => {
      if (!serverUrl) return '';
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      return url.toString();
    };
    const [source, fresh] = names.map(urlOf) as [string, string];
    const backups = tempDir('afp-pg-backups-');

    async function admin(statements: string[]) {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        for (const statement of statements) await client.query(statement);
      } finally {
        await client.end();
      }
    }
    beforeAll(() => admin(names.map((name) => `create database ${name}`)));
    afterAll(() => admin(names.map((name) => `drop database if exists ${name} with (force)`)));

    it(
      'round trip: back up while running, restore into a new database and over the changed one',
      async () => {
        // no APP_SECRET: the generated one lives in app_meta, so pg_dump carries it
        const portal = await startPortal({ DATABASE_URL: source });
        let seeded: Seeded;
        let original: Awaited<ReturnType<typeof snapshot>>;
        let backupFile: string;
        try {
          seeded = await seed(portal.built);
          original = await snapshot(portal, seeded);
          expect(original.secrets).toEqual({
            password: SHAREPOINT.password,
            clientSecret: SHAREPOINT.clientSecret,
          });
          // PostgreSQL backups are online: the portal keeps running
          const lines: string[] = [];
          const result = await runBackup({
            config: { DATABASE_URL: source, DATA_DIR: 'unused' },
            output: backups,
            log: (line) => lines.push(line),
          });
          backupFile = result.file;
          expect(backupFile).toMatch(/\.dump$/);
          expect(statSync(backupFile).mode & 0o777).toBe(0o600);
          expect(result.counts).toEqual(EXPECTED_COUNTS);
          expect(lines.join('\n')).toContain('4 users, 12 availability days, 2 bookings, 2 staff notes');
          expect(readFileSync(backupFile).subarray(0, 5).toString()).toBe('PGDMP');
          await changeEverything(portal.built, seeded);
        } finally {
          await portal.built.close();
        }

        // a file that is not a pg_dump archive is refused before anything is touched
        const bogus = join(backups, 'bogus.dump');
        writeFileSync(bogus, 'PGDMP but not really');
        await expect(
          runRestore({ config: { DATABASE_URL: fresh, DATA_DIR: 'unused' }, file: bogus, log: quiet }),
        ).rejects.toThrow(/is not a readable pg_dump archive/);

        // into a new, empty database: no --force needed
        const intoFresh = await runRestore({
          config: { DATABASE_URL: fresh, DATA_DIR: 'unused' },
          file: backupFile,
          log: quiet,
        });
        expect(intoFresh.counts).toEqual(EXPECTED_COUNTS);
        const onFresh = await startPortal({ DATABASE_URL: fresh });
        try {
          expect(await snapshot(onFresh, seeded)).toEqual(original);
        } finally {
          await onFresh.built.close();
        }

        // over the changed database: refused without --force
        await expect(
          runRestore({ config: { DATABASE_URL: source, DATA_DIR: 'unused' }, file: backupFile, log: quiet }),
        ).rejects.toThrow(/is not empty.*--force/s);

        // damaged in its table data (the table of contents at the front still reads): pg_restore fails
        // part-way, and its single transaction leaves the database exactly as it was
        const bytes = readFileSync(backupFile);
        const damaged = join(backups, 'damaged.dump');
        const copy = Buffer.from(bytes);
        for (let i = copy.length - 40; i < copy.length - 8; i++) copy[i]! ^= 0x5a;
        writeFileSync(damaged, copy);
        await expect(
          runRestore({
            config: { DATABASE_URL: source, DATA_DIR: 'unused' },
            file: damaged,
            force: true,
            log: quiet,
          }),
        ).rejects.toThrow(/pg_restore failed .*one transaction: the database is as it was/s);
        const check = new pg.Client({ connectionString: source });
        await check.connect();
        try {
          const { rows } = await check.query<{ username: string }>(
            'select username from users order by username',
          );
          expect(rows.map((row) => row.username)).toEqual([
            'ben@example.org',
            'chloe@example.org',
            'dan@example.org',
            STAFF.username,
          ]);
        } finally {
          await check.end();
        }

        // with --force: complete
        const over = await runRestore({
          config: { DATABASE_URL: source, DATA_DIR: 'unused' },
          file: backupFile,
          force: true,
          log: quiet,
        });
        expect(over.counts).toEqual(EXPECTED_COUNTS);
        const onSource = await startPortal({ DATABASE_URL: source });
        try {
          expect(await snapshot(onSource, seeded)).toEqual(original);
        } finally {
          await onSource.built.close();
        }
      },
      SLOW,
    );
  });
