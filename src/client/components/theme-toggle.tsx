import { Moon, Sun } from 'lucide-react';
import { type KeyboardEvent, lazy, type PointerEvent, Suspense, useState } from 'react';
import { Button } from '@/components/ui/button';
import { useTheme } from '@/lib/theme';

let menuLoaded = false;
const loadMenu = () =>
  import('./theme-menu').then((module) => {
    menuLoaded = true;
    return { default: module.ThemeMenu };
  });
const ThemeMenu = lazy(loadMenu);

/** The keys that open a Radix dropdown from its trigger. */
const OPEN_KEYS = new Set(['Enter', ' ', 'ArrowDown']);

/**
 * The "Change theme" button. Until the menu code is needed it is a plain button that looks the same;
 * pointing at it or focusing it starts loading the menu, and pressing it opens the menu as soon as
 * the code is there.
 */
function ThemeToggle() {
  const { resolvedTheme } = useTheme();
  const [openOnLoad, setOpenOnLoad] = useState(false);

  const stand = (
    <Button
      variant="ghost"
      size="icon"
      aria-label="Change theme"
      data-testid="theme-toggle"
      aria-haspopup="menu"
      aria-expanded={openOnLoad}
      onPointerEnter={() => void loadMenu()}
      onFocus={() => void loadMenu()}
      onPointerDown={(event: PointerEvent<HTMLButtonElement>) => {
        if (event.button === 0 && !event.ctrlKey) setOpenOnLoad(true);
      }}
      onKeyDown={(event: KeyboardEvent<HTMLButtonElement>) => {
        if (OPEN_KEYS.has(event.key)) {
          event.preventDefault();
          setOpenOnLoad(true);
        }
      }}
      // a click without a pointer (assistive technology)
      onClick={() => setOpenOnLoad(true)}
    >
      {resolvedTheme === 'dark' ? <Moon aria-hidden /> : <Sun aria-hidden />}
    </Button>
  );

  if (!openOnLoad && !menuLoaded) return stand;
  return (
    <Suspense fallback={stand}>
      <ThemeMenu defaultOpen={openOnLoad} />
    </Suspense>
  );
}

export { ThemeToggle };
