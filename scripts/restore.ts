/**
 * `npm run restore -- <backup file> [--force]`: restore a backup made by `npm run backup`.
 * Embedded database (DATA_DIR): stop the portal first. PostgreSQL (DATABASE_URL): pg_restore.
 * See the README's "Backups" section and docs/decisions/0005-backups.md.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../src/server/config';
import { BackupError, interruptSignal, operatorPath, runRestore } from './backup-lib';

const USAGE = `Usage: npm run restore -- <backup file> [--force]

Restores into the database the portal is configured for, read from the same environment:
  DATA_DIR      the embedded database (default ./data), from a .tar.gz backup. Stop the portal
                first. The new database is built and checked beside the old one, then swapped in;
                the old one is kept as DATA_DIR/pglite.previous.
  DATABASE_URL  PostgreSQL, from a .dump (pg_restore --clean --if-exists, in one transaction).

The backup is checked completely before anything is changed.
  --force  replace a database that already holds data`;

async function main(): Promise<number> {
  let args: ReturnType<typeof parse>;
  try {
    args = parse();
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (args.values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  try {
    await runRestore({
      config: loadConfig(),
      file: operatorPath(args.positionals[0]!),
      force: args.values.force,
      signal: interruptSignal('restore'),
    });
    return 0;
  } catch (error) {
    if (error instanceof BackupError || error instanceof ConfigError) {
      process.stderr.write(`Restore failed: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

function parse() {
  const parsed = parseArgs({
    allowPositionals: true,
    options: { force: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
  });
  if (!parsed.values.help && parsed.positionals.length !== 1)
    throw new Error('Give the backup file to restore.');
  return parsed;
}

process.exitCode = await main();
