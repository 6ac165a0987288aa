/**
 * A throwaway PostgreSQL cluster for system tests: initdb in a temporary directory, a free loopback
 * port, and start/stop/restart so fault tests can take the database away under a running portal.
 * Needs the PostgreSQL server binaries (initdb, pg_ctl) on PATH; runs them as `postgres` when root,
 * because PostgreSQL refuses to run as root.
 */
import { execFile } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './net';

const run = promisify(execFile);
const asRoot = process.getuid?.() === 0;

async function asPostgres(command: string, args: string[]): Promise<string> {
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  const { stdout } = await run(file, argv, { maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

export interface PostgresCluster {
  /** URL of the `postgres` database (superuser, trust auth) */
  url: string;
  port: number;
  dataDir: string;
  /** A new empty database on this cluster, as a connection URL. */
  createDatabase(name?: string): Promise<string>;
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  restart(): Promise<void>;
  destroy(): Promise<void>;
}

export async function startPostgres(): Promise<PostgresCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'afp-sys-pg-'));
  if (asRoot) chownSync(dir, Number((await run('id', ['-u', 'postgres'])).stdout.trim()), 0);
  const dataDir = join(dir, 'data');
  const port = await freePort();
  await asPostgres('initdb', [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '--encoding=UTF8',
    '--no-sync',
  ]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const start = () =>
    asPostgres('pg_ctl', ['-D', dataDir, '-l', join(dir, 'server.log'), '-w', '-o', options, 'start']);
  await start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let counter = 0;
  return {
    url,
    port,
    dataDir,
    async createDatabase(name = `afp_sys_${process.pid}_${++counter}`) {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query(`create database ${name}`);
      } finally {
        await admin.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async stop(mode = 'fast') {
      await asPostgres('pg_ctl', ['-D', dataDir, '-m', mode, '-w', 'stop']);
    },
    async start() {
      await start();
    },
    async restart() {
      // With -l, as for start: without it the new postmaster keeps pg_ctl's stdout open and the
      // call never returns.
      await asPostgres('pg_ctl', [
        '-D',
        dataDir,
        '-l',
        join(dir, 'server.log'),
        '-m',
        'fast',
        '-w',
        '-o',
        options,
        'restart',
      ]);
    },
    async destroy() {
      await asPostgres('pg_ctl', ['-D', dataDir, '-m', 'immediate', 'stop']).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
