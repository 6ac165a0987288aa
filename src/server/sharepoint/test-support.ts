/** Shared by the connector's tests: the in-process emulator, a test app pointed at it, saved settings. */
import {
  type EmulatorOptions,
  type PortalSite,
  type PortalSiteOptions,
  startEmulator,
} from '../../sharepoint-emulator';
import { portalSettingsFor, type RunningEmulator } from '../../sharepoint-emulator/index';
import { createTestApp, type TestApp } from '../test/harness';
import type { RetryTimings } from './retry';
import { storeSettings } from './settings';

/** Real behaviour, millisecond waits. */
export const FAST_TIMINGS: Partial<RetryTimings> = {
  baseDelayMs: 5,
  maxDelayMs: 40,
  maxAttempts: 6,
  requestTimeoutMs: 600,
};

/** Numbers as a `name=number` setting such as SHAREPOINT_RETRY. */
export function asSetting(values: Record<string, unknown>): string {
  return Object.entries(values)
    .filter(([, value]) => typeof value === 'number')
    .map(([name, value]) => `${name}=${value}`)
    .join(',');
}

export interface ConnectorSetup {
  emu: RunningEmulator;
  portal: PortalSite;
  t: TestApp;
  close(): Promise<void>;
  /** saves the emulator's settings (client credentials by default) */
  configure(overrides?: Record<string, unknown>): Promise<void>;
}

export async function setupConnector(
  options: {
    seed?: PortalSiteOptions;
    emulator?: EmulatorOptions;
    env?: Record<string, string>;
    build?: Parameters<typeof createTestApp>[1];
    configure?: boolean;
  } = {},
): Promise<ConnectorSetup> {
  const emu = await startEmulator(options.emulator);
  const portal = emu.control.seedPortalSite(options.seed ?? { seed: 'test', bookingCount: 40 });
  const t = await createTestApp(
    {
      GRAPH_BASE_URL: emu.graphBaseUrl,
      AUTHORITY_HOST: emu.authorityHost,
      SHAREPOINT_RETRY: asSetting(FAST_TIMINGS),
      SHAREPOINT_OUTBOX: 'retryBaseMs=1000,retryMaxMs=60000,concurrency=4',
      ...options.env,
    },
    options.build,
  );
  const configure = async (overrides: Record<string, unknown> = {}) => {
    await storeSettings(t.ctx.db, t.ctx.appSecret, {
      ...portalSettingsFor(portal, emu.control.credentials),
      ...overrides,
    });
  };
  if (options.configure !== false) await configure();
  return {
    emu,
    portal,
    t,
    configure,
    async close() {
      await t.close();
      await emu.close();
    },
  };
}
