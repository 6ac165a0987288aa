import { useDeferredValue } from 'react';

/**
 * Whether a guarded page is drawn yet, given whether its visitor is signed in.
 *
 * The answer is a deferred copy: the render in which the session's answer arrives keeps the
 * spinner, and the page's first render follows in React's interruptible pass, in slices rather
 * than one long task (ADR 53). Moving between pages, the guard mounts with the session known and a
 * deferred value starts at the value given, so the page shows at once.
 */
export function usePageShown(signedIn: boolean): boolean {
  return useDeferredValue(signedIn);
}
