import { type ComponentType, lazy } from 'react';

/**
 * A lazy page that can be loaded ahead of rendering and then renders at once. React.lazy suspends on
 * its first render even when the code is already in, and React keeps a fallback it has shown on
 * screen for at least 300 ms: that cost the calendar 300 ms after its code and data had arrived.
 * So the page draws the module it remembers once it is in, and suspends only before. `preload`
 * starts loading without rendering; after a failure the next call asks again.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>) {
  let Loaded: ComponentType | null = null;
  let loading: Promise<{ default: ComponentType }> | null = null;
  const preload = () => {
    loading ??= load().then(
      (module) => {
        Loaded = module.default;
        return module;
      },
      (error: unknown) => {
        loading = null;
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(preload);
  // biome-ignore lint/correctness/noComponentHookFactories: made once per page at module level, never during a render
  const Page = () => (Loaded ? <Loaded /> : <Lazy />);
  return Object.assign(Page, { preload });
}
