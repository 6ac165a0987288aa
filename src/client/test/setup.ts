import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { dismiss as dismissToasts } from '@/components/ui/use-toast';
import { server } from './server';

/*
 * Runs before every component test file (vitest.config.ts, the `client` project). jsdom lacks a few
 * browser APIs the components and Radix use; they are given the smallest stand-ins that behave as a
 * browser with nothing to report would.
 */
if (typeof window.matchMedia !== 'function') {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
if (typeof globalThis.ResizeObserver !== 'function') {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
Element.prototype.scrollIntoView ??= () => {};
// jsdom does not lay out, so it has nothing to scroll
Element.prototype.scrollTo ??= () => {};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => {};

// a request no handler answers fails in the component (a network error) and fails the test here
const unanswered: string[] = [];
const onUnhandled = ({ request }: { request: Request }) => {
  unanswered.push(`${request.method} ${request.url}`);
};

// findBy… and waitFor wait for what they look for, up to this long: a page loaded on demand is
// transformed by Vite on its first import, which takes seconds on a busy machine
configure({ asyncUtilTimeout: 10_000 });

// A worker runs file after file with its modules kept (vitest.config.ts), so the server is the same
// object each time: this file's listener comes off again with it.
beforeAll(() => {
  server.events.on('request:unhandled', onUnhandled);
  server.listen({ onUnhandledRequest: 'error' });
});
afterEach(() => {
  // the toast queue lives in its module, which the next test (and file) shares: a toast left open
  // would show again in the next test's Toaster
  dismissToasts();
  cleanup();
  server.resetHandlers();
  window.localStorage.clear();
  expect(unanswered.splice(0), 'requests no handler answered').toEqual([]);
});
afterAll(() => {
  server.close();
  server.events.removeListener('request:unhandled', onUnhandled);
});
