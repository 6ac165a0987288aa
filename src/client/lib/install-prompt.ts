import { useSyncExternalStore } from 'react';

/** Chromium's install prompt event (not in TypeScript's DOM types). */
export interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

/**
 * The browser's offer to install the portal, kept from the page's start. Chromium offers it once per
 * page load, often while the login page shows, and a page change draws the hint anew: so the offer is
 * caught here, by main.tsx before anything is drawn, not by the hint.
 */
let offer: InstallPromptEvent | null = null;
let catching = false;
const listeners = new Set<() => void>();

function set(next: InstallPromptEvent | null) {
  offer = next;
  for (const listener of listeners) listener();
}

/** Starts keeping the browser's install offer (once; later calls do nothing). */
export function catchInstallPrompt(): void {
  if (catching || typeof window === 'undefined') return;
  catching = true;
  window.addEventListener('beforeinstallprompt', (event) => {
    // the portal shows its own hint instead of the browser's bar
    event.preventDefault();
    set(event as InstallPromptEvent);
  });
  window.addEventListener('appinstalled', () => set(null));
}

/** The install offer the browser made on this page load, until it is used or the portal installed. */
export function useInstallPrompt(): InstallPromptEvent | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => offer,
    () => null,
  );
}

/** Shows the browser's install dialog; an offer can be used once, so it is forgotten after. */
export function promptInstall(prompt: InstallPromptEvent): void {
  void prompt.prompt();
  void prompt.userChoice.finally(() => {
    if (offer === prompt) set(null);
  });
}
