import { OFFLINE_READS_CACHE } from '@/sw/offline-reads';
import { apiJson } from './api';
import { forgetSavedCopies } from './offline-state';

/**
 * What the portal keeps on a device for one person, and how it goes: the reads the service worker
 * kept for use offline, the changes waiting to be sent, and whose they are. The app shell the service
 * worker precached is the same for everyone and stays.
 */

const OWNER_KEY = 'afp-device-owner';

/** Where the changes waiting to be sent are kept (`offline-queue.ts`): an IndexedDB database and store. */
export const OUTBOX_DATABASE = 'afp-device';
export const OUTBOX_STORE = 'outbox';

/**
 * Empties the waiting changes with IndexedDB itself: the sign-in code carries this module, and the
 * queue's own code stays with the pages that make changes.
 */
function clearOutbox(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof indexedDB === 'undefined') return resolve();
    const open = indexedDB.open(OUTBOX_DATABASE);
    open.onupgradeneeded = () => open.result.createObjectStore(OUTBOX_STORE);
    open.onerror = () => resolve();
    open.onsuccess = () => {
      const db = open.result;
      const done = () => {
        db.close();
        resolve();
      };
      const tx = db.transaction(OUTBOX_STORE, 'readwrite');
      tx.objectStore(OUTBOX_STORE).clear();
      tx.oncomplete = done;
      tx.onerror = done;
      tx.onabort = done;
    };
  });
}

/** This device's push subscription, if the service worker has one. */
async function pushSubscription(): Promise<PushSubscription | null> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return null;
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager?.getSubscription()) ?? null;
}

/**
 * Ends this device's push subscription: the server forgets it (so nothing is queued for it) and the
 * browser drops it. Sign-out calls this while the session still stands, before it signs out.
 */
export async function endPushOnThisDevice(): Promise<void> {
  const subscription = await pushSubscription().catch(() => null);
  if (!subscription) return;
  await apiJson('DELETE', '/api/push/subscription', { endpoint: subscription.endpoint }).catch(
    () => undefined,
  );
  await subscription.unsubscribe().catch(() => false);
}

/**
 * Clears everything the device keeps for the signed-in person. Sign-out calls it; so does a sign-in
 * by someone else. Each step runs even when another fails.
 */
export async function clearDeviceData(): Promise<void> {
  forgetSavedCopies();
  const steps: Array<Promise<unknown>> = [
    typeof caches === 'undefined' ? Promise.resolve() : caches.delete(OFFLINE_READS_CACHE),
    clearOutbox(),
    // the browser's push subscription (when someone else signs in, the server refuses their pushes
    // to it: it names the previous person, whose session has ended)
    pushSubscription().then((subscription) => subscription?.unsubscribe()),
  ];
  await Promise.allSettled(steps);
  try {
    localStorage.removeItem(OWNER_KEY);
  } catch {
    // storage refused (a private window): nothing was kept
  }
}

/**
 * The device's kept data belongs to `userId` from now on: when it was someone else's (they never
 * signed out, their session ended), it is cleared first, so nobody sees another person's days offline.
 */
export async function claimDeviceData(userId: number): Promise<void> {
  let owner: string | null = null;
  try {
    owner = localStorage.getItem(OWNER_KEY);
  } catch {
    return;
  }
  if (owner === String(userId)) return;
  if (owner !== null) await clearDeviceData();
  try {
    localStorage.setItem(OWNER_KEY, String(userId));
  } catch {
    // storage refused: the next sign-in clears again, which is safe
  }
}
