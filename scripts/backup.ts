/**
 * `npm run backup -- [file or directory] [--force]`: back up the portal's database.
 * Embedded database (DATA_DIR): stop the portal first. PostgreSQL (DATABASE_URL): pg_dump, online.
 * See the README's "Backups" section and docs/decisions/0005-backups.md.
 */

import { runCommand } from './backup-cli';
import { interruptSignal, operatorPath, runBackup } from './backup-lib';

const USAGE = `Usage: npm run backup -- [file or directory] [--force]

Backs up the database the portal is configured for, read from the same environment:
  DATA_DIR      the embedded database (default ./data). Stop the portal first; the backup
                refuses while it runs. Writes one .tar.gz with the database and the app secret.
  DATABASE_URL  PostgreSQL, with pg_dump (custom format, .dump); the portal may keep running.

  file or directory  where to write (default: backups/portal-backup-<UTC time>)
  --force            overwrite an existing file`;

process.exitCode = await runCommand({
  name: 'Backup',
  usage: USAGE,
  checkPositionals: (positionals) =>
    positionals.length > 1 ? 'Give at most one file or directory.' : undefined,
  run: ({ config, positionals, force }) =>
    runBackup({
      config,
      output: positionals[0] === undefined ? undefined : operatorPath(positionals[0]),
      force,
      signal: interruptSignal('backup'),
    }),
});
