/**
 * What `npm run backup` and `npm run restore` share as commands: arguments, usage, exit codes
 * (0 done, 1 the operation failed with a message, 2 the command line was wrong).
 */
import { parseArgs } from 'node:util';
import { type Config, ConfigError, loadConfig } from '../src/server/config';
import { BackupError } from './backup-lib';

export interface CommandSpec {
  /** "Backup" or "Restore", for "… failed: reason" */
  name: string;
  usage: string;
  /** a message when the positional arguments do not fit */
  checkPositionals(positionals: string[]): string | undefined;
  run(args: { config: Config; positionals: string[]; force: boolean }): Promise<unknown>;
}

export async function runCommand(spec: CommandSpec): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
    const problem = parsed.values.help ? undefined : spec.checkPositionals(parsed.positionals);
    if (problem) throw new Error(problem);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${spec.usage}\n`);
    return 2;
  }
  if (parsed.values.help) {
    process.stdout.write(`${spec.usage}\n`);
    return 0;
  }
  try {
    await spec.run({ config: loadConfig(), positionals: parsed.positionals, force: parsed.values.force });
    return 0;
  } catch (error) {
    if (error instanceof BackupError || error instanceof ConfigError) {
      process.stderr.write(`${spec.name} failed: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

function parse() {
  return parseArgs({
    allowPositionals: true,
    options: { force: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
  });
}
