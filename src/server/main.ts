import { buildApp } from './app';
import { type Config, ConfigError, loadConfig } from './config';

async function main() {
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
  const built = await buildApp(config);
  const { app } = built;

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    // close() stops accepting connections and waits for requests in flight.
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    await built.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.PORT, host: config.HOST });
}

main().catch((error) => {
  process.stderr.write(
    `The portal could not start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
