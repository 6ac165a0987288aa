import { createServer, type Server } from 'node:http';
import type { BuildOptions } from './app';
import { type Config, ConfigError, loadConfig } from './config';
import { answerInMaintenance, answerWhileStarting } from './http/starting-page';
import { installOutboundSettings } from './outbound-proxy';

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
  // every outbound HTTP call of this process goes through the configured proxy and trusts its CAs
  installOutboundSettings(config);
  if (config.MAINTENANCE) {
    // held by the operator: answer "down for maintenance" and leave the database alone, so that it
    // can be restored or migrated meanwhile
    const held = await listen(createServer(answerInMaintenance), config.PORT, config.HOST);
    const release = () => held.close(() => process.exit(0));
    process.on('SIGTERM', release);
    process.on('SIGINT', release);
    const address = held.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    process.stdout.write(
      `Arts Facilitator Portal held for maintenance (MAINTENANCE=true) at port ${port}: every page answers 503 and the database is not opened.\n`,
    );
    return;
  }
  /*
   * Answer at once, before the app's modules load and the database opens (on a first start PGlite
   * creates its cluster: most of the start's time). Until the app is ready every request gets a 503
   * "starting" answer; then the app takes this server's requests over (ADR 42). The app's modules are
   * imported only after the server listens, for the same reason.
   */
  const server = await listen(createServer(answerWhileStarting), config.PORT, config.HOST);
  const { buildApp } = await import('./app');
  const built = await buildApp(config, { ...options, server });
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

  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  process.stdout.write(startupMessage(config.HOST, port, built.createdStaffUsername));
}

function listen(server: Server, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
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
