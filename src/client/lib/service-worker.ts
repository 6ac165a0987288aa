import { useSyncExternalStore } from 'react';

/**
 * Registers the service worker (`src/client/sw/sw.ts`) in the built app, and says when a new version of
 * the portal has taken over this page: its code is then another build's, so the page asks for a
 * reload, as it does when a page's own file is gone after a deploy. A browser without service workers,
 * or one that refuses the registration, uses the portal as a plain site.
 */

let updated = false;
const listeners = new Set<() => void>();

/**
 * `onFirstControl` runs when a service worker takes over a page that had none (the first visit on a
 * device): the page's reads went past it, so they are read again for it to keep.
 */
export function startServiceWorker(onFirstControl: () => void): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const workers = navigator.serviceWorker;
  // the first worker to take over a page is no update; only a change of an existing one is
  let controlled = workers.controller !== null;
  workers.addEventListener('controllerchange', () => {
    if (!controlled) {
      controlled = true;
      onFirstControl();
      return;
    }
    if (updated) return;
    updated = true;
    for (const listener of listeners) listener();
  });
  workers.register('/sw.js', { scope: '/' }).then(
    (registration) => {
      // a tab left open learns of a new version when it is shown again
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'visible') registration.update().catch(() => undefined);
      });
    },
    (error: unknown) => console.warn('The offline copy of the portal could not be set up', error),
  );
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True once a new version of the portal has taken over this page. */
export function usePortalUpdated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => updated,
    () => false,
  );
}
