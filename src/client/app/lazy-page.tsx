import { type ComponentType, lazy } from 'react';
import { onDemand } from '@/lib/on-demand';

/**
 * A lazy page that can be loaded ahead of rendering and then renders at once. React.lazy suspends on
 * its first render even when the code is already in, and React keeps a fallback it has shown on
 * screen for at least 300 ms: that cost the calendar 300 ms after its code and data had arrived.
 * So the page draws the module `onDemand` remembers once it is in, and suspends only before.
 * `preload` starts loading without rendering.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>) {
  const code = onDemand(load);
  const Lazy = lazy(code.load);
  // biome-ignore lint/correctness/noComponentHookFactories: made once per page at module level, never during a render
  const Page = () => {
    const Loaded = code.loaded()?.default;
    return Loaded ? <Loaded /> : <Lazy />;
  };
  return Object.assign(Page, { preload: code.load });
}
