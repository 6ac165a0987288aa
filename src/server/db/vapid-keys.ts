import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import webpush from 'web-push';
import type { Database } from './client';
import { appMeta } from './schema';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * The key pair web push is signed with (VAPID). Given VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY they are
 * used as they are; otherwise a pair is generated once and kept as the app secret is: beside the
 * embedded database, or in the database itself on PostgreSQL, so every instance signs with the same
 * key and browsers' subscriptions survive restarts.
 */
export async function resolveVapidKeys(
  configured: Partial<VapidKeys>,
  database: Database,
  dataDir: string,
): Promise<VapidKeys> {
  if (configured.publicKey && configured.privateKey)
    return { publicKey: configured.publicKey, privateKey: configured.privateKey };
  if (database.kind === 'pglite' && dataDir !== 'memory://') {
    const file = join(dataDir, 'vapid-keys.json');
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as VapidKeys;
    mkdirSync(dataDir, { recursive: true });
    const keys = webpush.generateVAPIDKeys();
    writeFileSync(file, `${JSON.stringify(keys)}\n`, { mode: 0o600 });
    return keys;
  }
  const generated = webpush.generateVAPIDKeys();
  await database.db
    .insert(appMeta)
    .values({ key: 'vapid_keys', value: JSON.stringify(generated) })
    .onConflictDoNothing();
  const [row] = await database.db.select().from(appMeta).where(eq(appMeta.key, 'vapid_keys'));
  return JSON.parse(row!.value) as VapidKeys;
}
