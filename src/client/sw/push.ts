/// <reference lib="webworker" />
/**
 * The service worker's push handlers (`push`, `notificationclick`, `pushsubscriptionchange`), from
 * `push-handlers.ts`: the service worker (`sw.ts`) calls this once as it starts.
 */
import { type PushWorkerScope, registerPushHandlers } from './push-handlers';

export function addPushHandlers(worker: ServiceWorkerGlobalScope): void {
  registerPushHandlers(worker as unknown as PushWorkerScope);
}
