/// <reference lib="webworker" />
/**
 * The portal's service worker (docs/decisions/0101-installable-app-and-facilitators-days-offline.md).
 *
 * - The app shell (the HTML, the scripts and stylesheets a facilitator's pages use, the icons) is
 *   precached from the build's file list, so the portal opens with no connection.
 * - Pages are asked of the network first; only when it cannot answer does the precached HTML stand in.
 * - A facilitator's own reads that the calendar and the offers use (the session, availability,
 *   bookings, offers) are asked of the network first and kept as the last answer that succeeded; the
 *   kept copy answers only when the network cannot, marked with when it was saved. Nothing else under
 *   /api is kept, never a refused answer, never a write. The page clears the kept copies at sign-out
 *   and when another person signs in on the device (`src/client/lib/device-data.ts`).
 * - A new version takes over at once; the page then asks for a reload (`src/client/lib/service-worker.ts`).
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';
import { isOfflineRead, OFFLINE_READS_CACHE, SAVED_AT_HEADER } from './offline-reads';
import { addPushHandlers } from './push';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<{ url: string; revision: string | null }>;
};

self.addEventListener('install', () => {
  void self.skipWaiting();
});
clientsClaim();
cleanupOutdatedCaches();

// Pages: the network's answer (the server's own HTML, or its "starting" page), the precached HTML
// only when there is no answer. Registered before the precache's route, which would answer `/` first.
registerRoute(
  new NavigationRoute(async ({ request }) => {
    try {
      return await fetch(request);
    } catch (error) {
      const shell = await matchPrecache('/index.html');
      if (shell) return shell;
      throw error;
    }
  }),
);

registerRoute(
  ({ request, url }) => request.method === 'GET' && url.origin === self.location.origin && isOfflineRead(url),
  new NetworkFirst({
    cacheName: OFFLINE_READS_CACHE,
    plugins: [
      {
        // keep only a full, successful answer, stamped with when it was saved
        cacheWillUpdate: async ({ response }) => {
          if (response.status !== 200 || response.type !== 'basic') return null;
          const headers = new Headers(response.headers);
          headers.set(SAVED_AT_HEADER, new Date().toISOString());
          return new Response(await response.blob(), {
            status: response.status,
            statusText: response.statusText,
            headers,
          });
        },
      },
    ],
  }),
);

precacheAndRoute(self.__WB_MANIFEST);

// ---------------------------------------------------------------------------------------------------
// Web push: its handlers live in ./push.ts, so they are added there without editing this file.
addPushHandlers(self);
