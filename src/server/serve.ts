import { type BuildOptions, buildApp } from './app';
import { type Config, ConfigError, loadConfig } from './config';

/**
 * The portal as a process: configuration from the environment (a bad value exits 1 naming it),
 * listen, and on SIGTERM or SIGINT finish the requests in flight before exiting 0.
 */
export async function serve(options: Pick<BuildOptions, 'clientBuilding'> = {}): Promise<void> {
  try {
    await start(options);
  } catch (error) {
    process.stderr.write(
      `The portal could not start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  }
}

async function start(options: Pick<BuildOptions, 'clientBuilding'>) {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const built = await buildApp(config, options);
  const { app } = built;
  if (built.createdStaffUsername && built.generatedStaffPassword) {
    process.stdout.write(generatedPasswordMessage(built.createdStaffUsername, built.generatedStaffPassword));
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    // close() stops accepting connections and waits for requests in flight; a request that never
    // ends must not keep the process alive for ever.
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    await built.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  process.stdout.write(startupMessage(config.HOST, port, built.createdStaffUsername));
}

/** The first staff account's generated password, shown once to whoever started the portal. */
function generatedPasswordMessage(username: string, password: string): string {
  return `\nFirst staff account created. Sign in at /staff-login with\n  username: ${username}\n  password: ${password}\nThis password is shown only once; change it after signing in.\n\n`;
}

/** What a person starting the portal needs: where to open it and whether a staff account was made. */
export function startupMessage(host: string, port: number, createdStaffUsername: string | null): string {
  // A wildcard host listens everywhere; the local name is the address that works from this machine.
  const shownHost = ['0.0.0.0', '::', ''].includes(host)
    ? 'localhost'
    : host.includes(':')
      ? `[${host}]`
      : host;
  const staff = createdStaffUsername
    ? `First staff account created: ${createdStaffUsername} (sign in at /staff-login).`
    : 'A staff account already exists; none was created.';
  return `Arts Facilitator Portal running at http://${shownHost}:${port}\n${staff}\n`;
}
