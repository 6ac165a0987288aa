/**
 * A portal of its own next to an identity provider of its own (oidc-provider answering like Entra ID),
 * for the Sign in with Microsoft specs: the shared e2e server has no Microsoft configuration. The real
 * app and the built client, on a database of its own, listening on a free loopback port.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuiltApp, buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { startTestEntra, type TestEntra, type TestEntraOptions } from '../src/server/test/entra-provider';
import { seedDataDir } from './pglite-template.mjs';

export interface MicrosoftPortal {
  /** `http://127.0.0.1:{port}`, the portal's PUBLIC_URL */
  url: string;
  portal: BuiltApp;
  entra: TestEntra;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startMicrosoftPortal(options: {
  staff: { username: string; password: string };
  appSecret: string;
  entra?: Omit<TestEntraOptions, 'portalUrl'>;
  /**
   * Sign in with Microsoft configured in the environment (the default), or left to the settings page
   * with only the identity provider's address known.
   */
  configuredBy?: 'environment' | 'settings page';
}): Promise<MicrosoftPortal> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const entra = await startTestEntra({ ...options.entra, portalUrl: url });
  try {
    return await startPortal(url, port, entra, options);
  } catch (error) {
    await entra.close();
    throw error;
  }
}

async function startPortal(
  url: string,
  port: number,
  entra: TestEntra,
  options: Parameters<typeof startMicrosoftPortal>[0],
): Promise<MicrosoftPortal> {
  /*
   * A data directory of its own, started from the e2e server's empty cluster: a new in-memory
   * database would run initdb in WebAssembly first, 3 to 17 s depending on the machine's load, in
   * the first test of every spec that starts a portal, in both projects.
   */
  const dataDir = mkdtempSync(join(tmpdir(), 'afp-e2e-portal-'));
  await seedDataDir(dataDir);
  try {
    const portal = await listening(url, port, dataDir, entra, options);
    return {
      url,
      portal,
      entra,
      async close() {
        try {
          await portal.close();
          await entra.close();
        } finally {
          rmSync(dataDir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

async function listening(
  url: string,
  port: number,
  dataDir: string,
  entra: TestEntra,
  options: Parameters<typeof startMicrosoftPortal>[0],
): Promise<BuiltApp> {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    APP_SECRET: options.appSecret,
    INITIAL_STAFF_USERNAME: options.staff.username,
    INITIAL_STAFF_PASSWORD: options.staff.password,
    PUBLIC_URL: url,
    BACKGROUND_JOBS: 'false',
    CLIENT_DIR: process.env.E2E_BUILD_DIR ?? fileURLToPath(new URL('../dist/client', import.meta.url)),
    AUTHORITY_HOST: entra.authorityHost,
    ...(options.configuredBy === 'settings page'
      ? {}
      : {
          ENTRA_TENANT_ID: entra.tenantId,
          ENTRA_CLIENT_ID: entra.clientId,
          ENTRA_CLIENT_SECRET: entra.clientSecret,
        }),
  });
  const portal = await buildApp(config);
  try {
    await portal.app.listen({ port, host: '127.0.0.1' });
  } catch (error) {
    await portal.close();
    throw error;
  }
  return portal;
}
