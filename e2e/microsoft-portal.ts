/**
 * A portal of its own next to an identity provider of its own (oidc-provider answering like Entra ID),
 * for the Sign in with Microsoft specs: the shared e2e server has no Microsoft configuration. The real
 * app and the built client, on an in-memory database, listening on a free loopback port.
 */
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type BuiltApp, buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { startTestEntra, type TestEntra, type TestEntraOptions } from '../src/server/test/entra-provider';

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
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: 'memory://',
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
  await portal.app.listen({ port, host: '127.0.0.1' });
  return {
    url,
    portal,
    entra,
    async close() {
      await portal.close();
      await entra.close();
    },
  };
}
