/**
 * `npm run restore -- <backup file> [--force]`: restore a backup made by `npm run backup`.
 * Embedded database (DATA_DIR): stop the portal first. PostgreSQL (DATABASE_URL): pg_restore.
 * See the README's "Backups" section and docs/decisions/0005-backups.md.
 */

import { runCommand } from './backup-cli';
import { interruptSignal, operatorPath, runRestore } from './backup-lib';

const USAGE = `Usage: npm run restore -- <backup file> [--force]

Restores into the database the portal is configured for, read from the same environment:
  DATA_DIR      the embedded database (default ./data), from a .tar.gz backup. Stop the portal
                first. The new database is built and checked beside the old one, then swapped in;
                the old one is kept as DATA_DIR/pglite.previous.
  DATABASE_URL  PostgreSQL, from a .dump (pg_restore --clean --if-exists, in one transaction).

The backup is checked completely before anything is changed.
  --force  replace a database that already holds data`;

process.exitCode = await runCommand({
  name: 'Restore',
  usage: USAGE,
  checkPositionals: (positionals) =>
    positionals.length !== 1 ? 'Give the backup file to restore.' : undefined,
  run: ({ config, positionals, force }) =>
    runRestore({ config, file: operatorPath(positionals[0]!), force, signal: interruptSignal('restore') }),
});
