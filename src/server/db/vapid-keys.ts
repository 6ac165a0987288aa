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
 * used as they are; otherwise a pair is generated once and kept in the database itself, so every
 * instance signs with the same key, browsers' subscriptions survive restarts, and a backup holds it.
 */
export async function resolveVapidKeys(
  configured: Partial<VapidKeys>,
  database: Database,
): Promise<VapidKeys> {
  if (configured.publicKey && configured.privateKey)
    return { publicKey: configured.publicKey, privateKey: configured.privateKey };
  const generated = webpush.generateVAPIDKeys();
  await database.db
    .insert(appMeta)
    .values({ key: 'vapid_keys', value: JSON.stringify(generated) })
    .onConflictDoNothing();
  const [row] = await database.db.select().from(appMeta).where(eq(appMeta.key, 'vapid_keys'));
  return JSON.parse(row!.value) as VapidKeys;
}
