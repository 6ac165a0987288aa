/**
 * `npm run backup -- [file or directory] [--force]`: back up the portal's database.
 * Embedded database (DATA_DIR): stop the portal first. PostgreSQL (DATABASE_URL): pg_dump, online.
 * See the README's "Backups" section and docs/decisions/0005-backups.md.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../src/server/config';
import { BackupError, interruptSignal, operatorPath, runBackup } from './backup-lib';

const USAGE = `Usage: npm run backup -- [file or directory] [--force]

Backs up the database the portal is configured for, read from the same environment:
  DATA_DIR      the embedded database (default ./data). Stop the portal first; the backup
                refuses while it runs. Writes one .tar.gz with the database and the app secret.
  DATABASE_URL  PostgreSQL, with pg_dump (custom format, .dump); the portal may keep running.

  file or directory  where to write (default: backups/portal-backup-<UTC time>)
  --force            overwrite an existing file`;

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
    const output = args.positionals[0];
    await runBackup({
      config: loadConfig(),
      output: output === undefined ? undefined : operatorPath(output),
      force: args.values.force,
      signal: interruptSignal('backup'),
    });
    return 0;
  } catch (error) {
    if (error instanceof BackupError || error instanceof ConfigError) {
      process.stderr.write(`Backup failed: ${error.message}\n`);
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
  if (parsed.positionals.length > 1) throw new Error('Give at most one file or directory.');
  return parsed;
}

process.exitCode = await main();
