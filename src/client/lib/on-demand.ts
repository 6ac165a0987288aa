import { useEffect, useEffectEvent, useState } from 'react';

/**
 * Code a page loads when it is first wanted rather than with the page (ADR 66). Loaded once and
 * remembered; after a failure the next `load` asks again, where `React.lazy` would keep the failure.
 * A page reads `loaded()` while rendering, so code that is already in is drawn at once: a lazy
 * component suspends on its first render even then, and React keeps a fallback on screen for at
 * least 300 ms once it has shown one.
 */
export interface OnDemand<T> {
  load: () => Promise<T>;
  /** Starts loading ahead of need; a failure is left for the `load` that needs the code. */
  prefetch: () => void;
  loaded: () => T | null;
}

/** What a page says when a form's code could not be loaded (the next opening asks again). */
const FORM_LOAD_FAILED = {
  title: 'The form could not be loaded',
  description: 'Check your connection and try again.',
} as const;

/** What a page says when the code it asked for is gone because the portal was updated since it opened. */
const PORTAL_UPDATED = {
  title: 'The portal has been updated',
  description: 'Reload the page to continue.',
} as const;

/** The main script a page of the portal names, read from that page's HTML. */
function mainScript(page: Document): string | null {
  return page.querySelector('script[type="module"][src]')?.getAttribute('src') ?? null;
}

/** How long the portal's HTML may take to answer before the check counts it as the connection. */
const CHECK_TIMEOUT_MS = 4_000;
/** How long a "not updated" answer stands: a form re-checked at each keystroke asks once. */
const NOT_UPDATED_STANDS_MS = 3_000;

async function askPortalForItsMainScript(running: string): Promise<boolean> {
  if (!navigator.onLine) return false;
  try {
    const answer = await fetch('/', {
      cache: 'no-store',
      credentials: 'same-origin',
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    });
    if (!answer.ok) return false;
    const current = mainScript(new DOMParser().parseFromString(await answer.text(), 'text/html'));
    return current !== null && current !== running;
  } catch {
    return false;
  }
}

let lastCheck: { at: number; updated: Promise<boolean> } | null = null;

/**
 * Whether code that could not be loaded is gone for good: each build names its files after their
 * contents and a deploy removes the old ones, so a page opened before a deploy asks for files that
 * no longer exist, and asking again cannot help; reloading can. Told apart from a dropped
 * connection by the portal's current HTML naming another main script than this page runs. Anything
 * else (no answer in time, the portal starting up) counts as the connection. Checks asked for
 * together share one request; an update, once seen, stands for the life of the page.
 */
export function portalUpdatedSinceOpened(): Promise<boolean> {
  const running = mainScript(document);
  if (!running) return Promise.resolve(false);
  const now = Date.now();
  if (lastCheck && now - lastCheck.at < NOT_UPDATED_STANDS_MS) return lastCheck.updated;
  const check = { at: now, updated: askPortalForItsMainScript(running) };
  lastCheck = check;
  void check.updated.then((updated) => {
    if (updated) check.at = Number.POSITIVE_INFINITY;
  });
  return check.updated;
}

/** The toast for a form whose code could not be loaded: why, and what to do. */
export async function formLoadFailure() {
  return (await portalUpdatedSinceOpened()) ? PORTAL_UPDATED : FORM_LOAD_FAILED;
}

export function onDemand<T>(importModule: () => Promise<T>): OnDemand<T> {
  let module: T | null = null;
  let loading: Promise<T> | null = null;
  const load = () => {
    loading ??= importModule().then(
      (imported) => {
        module = imported;
        return imported;
      },
      (error: unknown) => {
        loading = null;
        throw error;
      },
    );
    return loading;
  };
  return {
    load,
    prefetch: () => void load().catch(() => undefined),
    loaded: () => module,
  };
}

/**
 * The module once it is in, else null; asks for it while `wanted`, and draws again when it arrives.
 * `onFailure` runs when it could not be loaded (the caller says so and closes what waited for it).
 * `wanted` may be a key instead of `true`, such as the id of what wants the module: a new key asks
 * again even though the last one failed and the caller never stopped wanting it.
 */
export function useOnDemand<T>(code: OnDemand<T>, wanted: boolean | string, onFailure: () => void): T | null {
  const [, setArrived] = useState(false);
  const failed = useEffectEvent(onFailure);
  useEffect(() => {
    if (!wanted || code.loaded()) return;
    let current = true;
    code.load().then(
      () => current && setArrived(true),
      () => current && failed(),
    );
    return () => {
      current = false;
    };
  }, [code, wanted]);
  return code.loaded();
}

/** Asks for the code once `ready` and the browser has nothing else to do (a timer where it has no idle callback). */
export function useLoadWhenIdle<T>(code: OnDemand<T>, ready: boolean) {
  useEffect(() => {
    if (!ready) return;
    if ('requestIdleCallback' in window) {
      const handle = window.requestIdleCallback(code.prefetch, { timeout: 2_000 });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = setTimeout(code.prefetch, 200);
    return () => clearTimeout(timer);
  }, [code, ready]);
}
