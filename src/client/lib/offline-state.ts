import { useSyncExternalStore } from 'react';
import { SAVED_AT_HEADER } from '@/sw/offline-reads';

/**
 * Whether the page is showing copies the service worker kept, and since when: `apiJson` reports each
 * read's answer here. A kept copy carries the time it was saved; the oldest one shown since the
 * network last answered is what the offline banner names. A fresh answer ends it.
 */

let savedAt: Date | null = null;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

/** A read was answered: `header` is its saved-at mark, null for a fresh answer from the server. */
export function noteReadAnswer(headers: Headers): void {
  const mark = headers.get(SAVED_AT_HEADER);
  if (mark === null) {
    if (savedAt === null) return;
    savedAt = null;
    emit();
    return;
  }
  const time = new Date(mark);
  if (Number.isNaN(time.getTime())) return;
  if (savedAt !== null && savedAt.getTime() <= time.getTime()) return;
  savedAt = time;
  emit();
}

/** Forget what was shown (at sign-out). */
export function forgetSavedCopies(): void {
  if (savedAt === null) return;
  savedAt = null;
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** When the oldest kept copy on screen was saved, or null while the page shows the server's answers. */
export function useSavedCopyTime(): Date | null {
  return useSyncExternalStore(
    subscribe,
    () => savedAt,
    () => null,
  );
}
