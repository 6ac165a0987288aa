/// <reference lib="webworker" />
/**
 * The service worker's push handlers (`push`, `notificationclick`, `pushsubscriptionchange`): the
 * service worker (`sw.ts`) calls this once as it starts. It adds none yet.
 */
export function addPushHandlers(_worker: ServiceWorkerGlobalScope): void {}
