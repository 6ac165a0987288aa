import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { randomToken } from '../crypto';
import type { Database } from './client';
import { appMeta } from './schema';

/**
 * The secret that keys sessions and stored SharePoint credentials. Given APP_SECRET it is used as is;
 * otherwise one is generated once and kept beside the embedded database (or, on PostgreSQL, in the
 * database itself, so a single instance still restarts with the same secret).
 */
export async function resolveAppSecret(
  configured: string | undefined,
  database: Database,
  dataDir: string,
): Promise<string> {
  if (configured) return configured;
  if (database.kind === 'pglite' && dataDir !== 'memory://') {
    const file = join(dataDir, 'app-secret');
    if (existsSync(file)) return readFileSync(file, 'utf8').trim();
    mkdirSync(dataDir, { recursive: true });
    const secret = randomToken(48);
    writeFileSync(file, `${secret}\n`, { mode: 0o600 });
    return secret;
  }
  const generated = randomToken(48);
  await database.db.insert(appMeta).values({ key: 'app_secret', value: generated }).onConflictDoNothing();
  const [row] = await database.db.select().from(appMeta).where(eq(appMeta.key, 'app_secret'));
  return row!.value;
}
