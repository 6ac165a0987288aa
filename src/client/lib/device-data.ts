import { OFFLINE_READS_CACHE } from '@/sw/offline-reads';
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

/**
 * Clears everything the device keeps for the signed-in person. Sign-out calls it; so does a sign-in
 * by someone else. Each step runs even when another fails.
 */
export async function clearDeviceData(): Promise<void> {
  forgetSavedCopies();
  const steps: Array<Promise<unknown>> = [
    typeof caches === 'undefined' ? Promise.resolve() : caches.delete(OFFLINE_READS_CACHE),
    clearOutbox(),
    // The push subscription's unsubscribe belongs here too, as one more step.
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
