import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A CLIENT_DIR holding a built client's index.html, so the ready probe finds the client built. */
export function builtClientDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'afp-client-'));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><html lang="en"><title>Portal</title></html>\n');
  return dir;
}

/** A token /metrics accepts in the route-wide suites. */
export const TEST_METRICS_TOKEN = 'metrics-token-metrics-token-0123456789';
